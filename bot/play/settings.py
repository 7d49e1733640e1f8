"""A server's settings: match defaults and where play is allowed."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

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
    settings = _read_settings(await store.stats.get_settings(guild_id))
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


def _read_settings(raw: dict[str, str]) -> ServerSettings:
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
        )
    except ValueError:  # a damaged value: the defaults hold until an admin sets it again
        return ServerSettings()


async def check_play_channel(store: Store, guild_id: int | None, channel_id: int | None) -> None:
    """NotAPlayChannel when the server's settings do not allow play in this channel."""
    settings = await load_settings(store, guild_id)
    if not settings.allows(channel_id):
        raise NotAPlayChannel(tuple(sorted(settings.play_channels)))


async def change_settings(store: Store, guild_id: int, *, target: int | None = None, team_target: int | None = None,
                          die: str | None = None, match_undo: bool | None = None, channel: int | None = None,
                          allow: bool | None = None, prefix: str | None = None,
                          language: str | None = None) -> ServerSettings:
    """Change some settings; BadSetting for a value out of range."""
    forget_settings(store, guild_id)
    current = await load_settings(store, guild_id)
    if target is not None:
        if not 1 <= target <= MAX_TARGET:
            raise BadSetting("target", target)
        await store.stats.set_setting(guild_id, "target", str(target))
    if team_target is not None:
        if not 1 <= team_target <= MAX_TARGET:
            raise BadSetting("team_target", team_target)
        await store.stats.set_setting(guild_id, "team_target", str(team_target))
    if die is not None:
        if die not in {d.value for d in Die}:
            raise BadSetting("die", die)
        await store.stats.set_setting(guild_id, "die", die)
    if prefix is not None:
        prefix = prefix.strip()
        if not 1 <= len(prefix) <= PREFIX_LENGTH or any(c.isspace() for c in prefix):
            raise BadSetting("prefix", prefix)
        await store.stats.set_setting(guild_id, "prefix", prefix)
    if language is not None:
        if language not in LANGUAGE_CHOICES:
            raise BadSetting("language", language)
        await store.stats.set_setting(guild_id, "language", language)
    if match_undo is not None:
        await store.stats.set_setting(guild_id, "match_undo", "1" if match_undo else "0")
    if channel is not None:
        channels = set(current.play_channels)
        if allow is False:
            channels.discard(channel)
        else:
            channels.add(channel)
        await store.stats.set_setting(guild_id, "play_channels", ",".join(str(c) for c in sorted(channels)))
    forget_settings(store, guild_id)
    return await load_settings(store, guild_id)
