"""A server's settings: match defaults, where play is allowed, the server's time zone and seasons,
and its daily post (bot/play/ritual.py)."""

from __future__ import annotations

import functools
import time
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from bot.game import GAMES
from bot.game.rules import Die
from bot.languages import LANGUAGE_CHOICES
from bot.play.errors import BadSetting, NotAPlayChannel
from bot.store import Store

DEFAULT_TARGET = 200
MAX_TARGET = 100_000  # the largest target of a match, or of a team
PREFIX_LENGTH = 5  # the most characters of a prefix for typed moves
# A server's settings are read on most interactions (the language of a member whose Discord
# language the bot does not speak, the play channels): they are kept in memory this long. A change
# made here (`change_settings`) is seen at once; one made by another process (a server's
# interactions all reach the process running its shard, so only around a resharding) within this.
SETTINGS_KEPT = 60.0
SERVERS_KEPT = 10_000  # the most servers whose settings are kept
SEASONS = ("month", "week", "quarter")  # how long a season lasts (bot/play/seasons.py)
DEFAULT_DAILY_HOUR = 9  # the hour of the daily post, in the server's time zone, until one is set
TIMEZONE_LENGTH = 64  # the longest IANA time zone name taken (the longest real one has 30 characters)


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Match defaults and the channels that allow play (none listed: all do)."""

    target: int = DEFAULT_TARGET
    team_target: int | None = None  # None: twice the target (a team pools its points)
    die: str = "off"
    match_undo: bool = False
    play_channels: frozenset[int] = field(default_factory=frozenset)
    prefix: str | None = None  # for typed moves; None: the bot's COMMAND_PREFIX
    language: str | None = None  # the server's default language (bot.languages); None: English
    timezone: str = "UTC"  # an IANA name: the hour of the daily post and reminders, the edges of seasons
    season: str = "month"  # one of SEASONS
    daily_channel: int | None = None  # where the daily is posted every day; None: nowhere
    daily_hour: int = DEFAULT_DAILY_HOUR  # 0-23, in the server's time zone
    daily_game: str = "canfield"  # the game whose daily is posted
    daily_role: int | None = None  # a role the post mentions; None: nobody is pinged
    daily_on: bool = True  # False: the post is turned off (the channel is kept for when it is on again)

    @property
    def posts_daily(self) -> bool:
        """Whether the daily is posted every day."""
        return self.daily_channel is not None and self.daily_on

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The server's time zone."""
        return time_zone(self.timezone)

    @property
    def team_target_or_default(self) -> int:
        """The team target in force."""
        return self.team_target if self.team_target is not None else 2 * self.target

    def allows(self, channel_id: int | None) -> bool:
        """Whether games may be played in this channel."""
        return not self.play_channels or channel_id in self.play_channels


class _Kept:
    """The settings kept of a store's servers: when each was read, and what; and how many changes
    this process has made, so that a read a change overtook is not kept."""

    def __init__(self) -> None:
        self.servers: dict[int, tuple[float, ServerSettings]] = {}
        self.changes = 0


_kept: WeakKeyDictionary[Store, _Kept] = WeakKeyDictionary()


def _kept_of(store: Store) -> _Kept:
    """The settings kept of a store's servers (a lookup: setdefault would make a weak reference
    and a _Kept at every call)."""
    kept = _kept.get(store)
    if kept is None:
        kept = _kept[store] = _Kept()
    return kept


async def load_settings(store: Store, guild_id: int | None) -> ServerSettings:
    """A server's settings (defaults outside a server, or for a value that does not read): as read
    from the store within the last SETTINGS_KEPT seconds, or since this process last changed them."""
    if guild_id is None:
        return ServerSettings()
    kept = _kept_of(store)
    now, changes = time.monotonic(), kept.changes
    read_at, settings = kept.servers.get(guild_id, (-SETTINGS_KEPT, None))
    if settings is not None and now - read_at < SETTINGS_KEPT:
        return settings
    settings = read_settings(await store.stats.get_settings(guild_id))
    if kept.changes == changes:
        kept.servers.pop(guild_id, None)
        kept.servers[guild_id] = (now, settings)
        if len(kept.servers) > SERVERS_KEPT:
            del kept.servers[next(iter(kept.servers))]  # the one read longest ago
    return settings


def forget_settings(store: Store, guild_id: int) -> None:
    """Drop the settings kept of a server (they change): the next `load_settings` reads them from
    the store, and a read in progress is not kept."""
    kept = _kept_of(store)
    kept.servers.pop(guild_id, None)
    kept.changes += 1


def read_settings(raw: dict[str, str]) -> ServerSettings:
    """Settings from the store's values; the defaults when one does not read."""
    try:
        return ServerSettings(
            target=int(raw.get("target", DEFAULT_TARGET)),
            team_target=int(raw["team_target"]) if raw.get("team_target") else None,
            die=raw.get("die", "off") if raw.get("die", "off") in {d.value for d in Die} else "off",
            match_undo=raw.get("match_undo", "0") == "1",
            play_channels=frozenset(int(c) for c in raw.get("play_channels", "").split(",") if c.strip()),
            prefix=raw.get("prefix") or None,
            language=raw.get("language") if raw.get("language") in LANGUAGE_CHOICES else None,
            timezone=raw["timezone"] if is_time_zone(raw.get("timezone", "")) else "UTC",
            season=raw["season"] if raw.get("season") in SEASONS else "month",
            daily_channel=int(raw["daily_channel"]) if raw.get("daily_channel") else None,
            daily_hour=int(raw["daily_hour"]) if raw.get("daily_hour", "") in _HOURS else DEFAULT_DAILY_HOUR,
            daily_game=raw["daily_game"] if raw.get("daily_game") in GAMES else "canfield",
            daily_role=int(raw["daily_role"]) if raw.get("daily_role") else None,
            daily_on=raw.get("daily_on", "1") == "1",
        )
    except ValueError:  # a damaged value: the defaults hold until an admin sets it again
        return ServerSettings()


_HOURS = {str(hour) for hour in range(24)}


@functools.lru_cache(maxsize=64)
def time_zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone of an IANA name (the system's zone data, else the tzdata package's);
    UTC for a name that is not one (a damaged setting)."""
    return zoneinfo.ZoneInfo(name) if is_time_zone(name) else zoneinfo.ZoneInfo("UTC")


@functools.lru_cache(maxsize=256)
def is_time_zone(name: str) -> bool:
    """Whether `name` is an IANA time zone name, such as Europe/Paris or UTC."""
    if not name or len(name) > TIMEZONE_LENGTH or name != name.strip():
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):  # a malformed name, or none such
        return False
    return True


async def check_play_channel(store: Store, guild_id: int | None, channel_id: int | None) -> None:
    """NotAPlayChannel when the server's settings do not allow play in this channel."""
    settings = await load_settings(store, guild_id)
    if not settings.allows(channel_id):
        raise NotAPlayChannel(tuple(sorted(settings.play_channels)))


async def change_settings(store: Store, guild_id: int, *, target: int | None = None, team_target: int | None = None,
                          die: str | None = None, match_undo: bool | None = None, channel: int | None = None,
                          allow: bool | None = None, prefix: str | None = None,
                          language: str | None = None, timezone: str | None = None, season: str | None = None,
                          daily_channel: int | None = None, daily_hour: int | None = None,
                          daily_game: str | None = None, daily_role: int | None = None,
                          daily_post: str | None = None) -> ServerSettings:
    """Change some settings; BadSetting for a value out of range (and nothing is changed).
    `daily_post`: "on", "off" (the channel is kept) or "quiet" (no role mentioned); setting a
    `daily_channel` turns the post on. A `daily_role` must not be the server's @everyone role,
    whose id is the server's."""
    if prefix is not None:
        prefix = prefix.strip()
    checks: tuple[tuple[object, str, Callable[[Any], bool]], ...] = (
        (target, "target", range(1, MAX_TARGET + 1).__contains__),
        (team_target, "team_target", range(1, MAX_TARGET + 1).__contains__),
        (die, "die", {d.value for d in Die}.__contains__),
        (prefix, "prefix", lambda p: 1 <= len(p) <= PREFIX_LENGTH and not any(c.isspace() for c in p)),
        (language, "language", LANGUAGE_CHOICES.__contains__),
        (timezone, "timezone", is_time_zone), (season, "season", SEASONS.__contains__),
        (daily_hour, "daily_hour", range(24).__contains__), (daily_game, "daily_game", GAMES.__contains__),
        (daily_post, "daily_post", ("on", "off", "quiet").__contains__),
        (daily_role, "daily_role", lambda role: role != guild_id))
    for value, name, good in checks:  # every value first: a bad one changes nothing
        if value is not None and not good(value):
            raise BadSetting(name, value)
    forget_settings(store, guild_id)
    current = await load_settings(store, guild_id)
    changes = {"target": target, "team_target": team_target, "die": die, "prefix": prefix, "language": language,
               "match_undo": None if match_undo is None else int(match_undo),
               "timezone": timezone, "season": season, "daily_game": daily_game, "daily_hour": daily_hour,
               "daily_channel": daily_channel, "daily_role": "" if daily_post == "quiet" else daily_role,
               "daily_on": 0 if daily_post == "off" else 1 if daily_post or daily_channel else None}
    for key, value in changes.items():
        if value is not None:
            await store.stats.set_setting(guild_id, key, str(value))
    if channel is not None:
        channels = set(current.play_channels)
        if allow is False:
            channels.discard(channel)
        else:
            channels.add(channel)
        await store.stats.set_setting(guild_id, "play_channels", ",".join(str(c) for c in sorted(channels)))
    forget_settings(store, guild_id)
    return await load_settings(store, guild_id)
