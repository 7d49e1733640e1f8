"""The daily ritual: every day at the hour a server chose, in its time zone, one post in its daily
channel (today's daily, a Play button, yesterday's recap), edited through the day as results come
in; when a season ends, its final standings there, once (within SEASON_POST_WINDOW of its end: a
season that ended before the channel was set is not posted late); and members' streak reminders.
As data: a presenter words and sends it (bot/cogs/ritual.py).

The daily itself stays the UTC day's deal everyone shares (bot/play/daily.py): a post shows the
daily of the UTC day it is made on, and its recap is of the UTC day before. A server's post of a
local day is made once, whichever process comes first (the store's claim): at the hour, or late
the same local day when no process was up then. A claim whose post was never sent (its process
died between the two) may be taken again after CLAIM_STALE seconds.

A streak reminder goes to a member who asked for one (`/remind daily on`), once a UTC day,
REMIND_BEFORE the day ends (a new attempt must begin by then), when they have a streak of at least
REMIND_STREAK days and have not played today.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import ClassVar
from zoneinfo import ZoneInfo

from bot.play.daily import streak
from bot.play.days import DAY_SECONDS, attempt_deadline, day_start, utc_day
from bot.play.errors import BadSetting
from bot.play.leaderboards import Leaderboards, SeasonStandings
from bot.play.seasons import previous, season_of
from bot.play.settings import ServerSettings, read_settings
from bot.store import Store
from bot.store.base import DailyDay, DailyResult

CLAIM_STALE = 120.0  # seconds after which a claimed post never sent may be taken on again
EDIT_EVERY = 60.0  # a post is edited at most this often
REMIND_BEFORE = 4 * 3600  # reminders go out this long before the UTC day ends
REMIND_STREAK = 2  # the shortest streak worth a reminder
SEASON_POST_WINDOW = 2 * DAY_SECONDS  # a season's final standings are posted within this long of its end
TOP = 3  # best scores and streaks a recap names
WINNERS = 10  # winners a recap names (the others are counted)


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's result in a recapped daily."""

    user_id: int
    name: str
    score: int
    won: bool


@dataclass(frozen=True, slots=True)
class StreakLine:
    """A player's streak of days with a daily played: kept (still going) or broken."""

    user_id: int
    name: str
    days: int


@dataclass(frozen=True, slots=True)
class Recap:
    """A server's results at a day's daily of `game`: how many played and won, who won (the
    first WINNERS), the best TOP scores, the TOP longest streaks still going, and the streaks of
    at least two days that the day broke (longest first)."""

    day: str
    game: str
    players: int
    wins: int
    winners: tuple[Placing, ...]
    best: tuple[Placing, ...]
    kept: tuple[StreakLine, ...]
    broken: tuple[StreakLine, ...]


@dataclass(frozen=True, slots=True)
class DayCount:
    """A server's players and wins so far at a day's daily."""

    day: str
    players: int
    wins: int


@dataclass(frozen=True, slots=True)
class DailyPost:
    """A server's daily post of its local day `key`: today's daily of `game` (its UTC day and how
    it goes so far), and the recap of the day before; `role_id` the role it mentions (None: nobody)."""

    kind: ClassVar[str] = "daily"
    guild_id: int
    channel_id: int
    key: str
    game: str
    role_id: int | None
    today: DayCount
    recap: Recap

    @property
    def day(self) -> str:
        """The UTC day of the daily it shows."""
        return self.today.day


@dataclass(frozen=True, slots=True)
class SeasonPost:
    """A season's final standings, for a server's daily channel."""

    kind: ClassVar[str] = "season"
    guild_id: int
    channel_id: int
    standings: SeasonStandings

    @property
    def key(self) -> str:
        """The season's name: one post a season."""
        return self.standings.season.name


@dataclass(frozen=True, slots=True)
class PostEdit:
    """A sent post to show anew: its message, and what it shows now."""

    message_id: int
    post: DailyPost


@dataclass(frozen=True, slots=True)
class Reminder:
    """A member's streak reminder: their streak of days, when today's daily can no longer be begun
    (a Unix time), and the time zone to say it in."""

    user_id: int
    streak: int
    ends_at: float
    timezone: str


# --- the schedule, pure ----------------------------------------------------------------------------


def local_day(timestamp: float, zone: ZoneInfo) -> str:
    """The date in this time zone at a Unix time, YYYY-MM-DD."""
    return datetime.fromtimestamp(timestamp, zone).date().isoformat()


def post_time(day: str, hour: int, zone: ZoneInfo) -> float:
    """The Unix time of `hour`:00 on a local date in this time zone (an hour a clock change skips
    is read with the offset before the change)."""
    return datetime.combine(date.fromisoformat(day), datetime.min.time().replace(hour=hour), zone).timestamp()


def post_due(settings: ServerSettings, now: float) -> str | None:
    """The local date whose daily post is due at `now` (its hour has come, that day), or None:
    none yet today, or the server posts none."""
    if not settings.posts_daily:
        return None
    today = local_day(now, settings.zone)
    return today if now >= post_time(today, settings.daily_hour, settings.zone) else None


def previous_day(day: str) -> str:
    """The day before, YYYY-MM-DD."""
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


def recap(day: str, game: str, results: Iterable[DailyResult], days: Iterable[DailyDay]) -> Recap:
    """A server's recap of `day`'s daily of `game`: from its results that day (best first, as the
    store gives them) and every daily day of its players (any game: a streak counts days played)."""
    results = [r for r in results if r.day == day]
    finished = [r for r in results if r.status != "playing"]
    placings = [Placing(r.user_id, r.name, r.score, r.status == "won") for r in finished]
    by_player: dict[int, tuple[str, list[str]]] = {}
    for entry in days:
        by_player.setdefault(entry.user_id, (entry.name, []))[1].append(entry.day)
    kept, broken = [], []
    before = previous_day(day)
    for user_id, (name, played) in by_player.items():
        going, _best = streak(played, day)  # as of the day: a run that reaches it
        if day in played and going >= 2:
            kept.append(StreakLine(user_id, name, going))
        ended, _best = streak(played, before)
        if day not in played and before in played and ended >= 2:
            broken.append(StreakLine(user_id, name, ended))
    winners = [p for p in placings if p.won]
    return Recap(day=day, game=game, players=len({r.user_id for r in results}), wins=len(winners),
                 winners=tuple(winners[:WINNERS]), best=tuple(placings[:TOP]),
                 kept=tuple(sorted(kept, key=_longest)[:TOP]), broken=tuple(sorted(broken, key=_longest)[:TOP]))


def _longest(line: StreakLine) -> tuple[int, str, int]:
    return -line.days, line.name.lower(), line.user_id


def day_count(day: str, results: Iterable[DailyResult]) -> DayCount:
    """A server's players and wins so far at `day`'s daily."""
    today = [r for r in results if r.day == day]
    return DayCount(day, len({r.user_id for r in today}), sum(r.status == "won" for r in today))


def remind_now(now: float) -> bool:
    """Whether reminders go out at `now`: within the last REMIND_BEFORE of the UTC day."""
    return now % DAY_SECONDS >= DAY_SECONDS - REMIND_BEFORE


def reminder_streak(days_played: Iterable[str], today: str) -> int | None:
    """The streak a reminder would save: the member's run of days up to yesterday, when it is at
    least REMIND_STREAK days and they have not played today; None otherwise."""
    days_played = list(days_played)
    if today in days_played:
        return None
    going, _best = streak(days_played, today)
    return going if going >= REMIND_STREAK else None


def _shown(post: DailyPost, at: float) -> str:
    """What a post shows, as the store keeps it to tell a change: its day's daily and counts, and when."""
    return json.dumps({"day": post.today.day, "game": post.game, "players": post.today.players,
                       "wins": post.today.wins, "at": at})


# --- the ritual over the store -----------------------------------------------------------------------


class Ritual:
    """The daily posts, their edits and the reminders due at the clock's time, each claimed in the
    store so that one process carries it out."""

    def __init__(self, store: Store, leaderboards: Leaderboards, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.leaderboards = leaderboards
        self.clock = clock

    async def posts_due(self) -> list[DailyPost]:
        """The daily posts due now that this process has claimed: send each, then `sent` (or
        `not_sent`)."""
        now = self.clock()
        claimed = []
        for guild_id, raw in (await self.store.ritual.posting_servers()).items():
            settings = read_settings(raw)
            key = post_due(settings, now)
            if key is None or settings.daily_channel is None:
                continue
            if await self._taken(guild_id, "daily", key, now):
                continue
            post = await self._post(guild_id, settings, settings.daily_channel, key, now)
            if await self.store.ritual.claim_post(guild_id, "daily", key, settings.daily_channel,
                                                  stale_after=CLAIM_STALE, shown=_shown(post, now)):
                claimed.append(post)
        return claimed

    async def season_posts_due(self) -> list[SeasonPost]:
        """The final standings of the seasons that ended within SEASON_POST_WINDOW, of the servers
        that post their daily, that this process has claimed (the season's edges kept with the
        claim): send each, then `sent` (or `not_sent`)."""
        now = self.clock()
        claimed = []
        for guild_id, raw in (await self.store.ritual.posting_servers()).items():
            settings = read_settings(raw)
            if not settings.posts_daily or settings.daily_channel is None:
                continue
            ended = previous(season_of(now, settings.season, settings.zone), settings.zone)
            if now - ended.ends > SEASON_POST_WINDOW:
                continue
            if await self._taken(guild_id, "season", ended.name, now):
                continue
            if await self.store.ritual.claim_post(guild_id, "season", ended.name, settings.daily_channel,
                                                  stale_after=CLAIM_STALE, starts=ended.starts, ends=ended.ends):
                standings = await self.leaderboards.season_standings(guild_id, ended)
                claimed.append(SeasonPost(guild_id, settings.daily_channel, standings))
        return claimed

    async def _taken(self, guild_id: int, kind: str, key: str, now: float) -> bool:
        """Whether a post is sent, or being sent by a process that claimed it lately: then nothing
        is worked out for it here (`claim_post` decides, between processes, all the same)."""
        existing = await self.store.ritual.post(guild_id, kind, key)
        return existing is not None and (existing.message_id is not None or now - existing.claimed_at < CLAIM_STALE)

    async def sent(self, post: DailyPost | SeasonPost, message_id: int) -> None:
        """The post was sent as this message."""
        await self.store.ritual.set_message(post.guild_id, post.kind, post.key, message_id)

    async def not_sent(self, post: DailyPost | SeasonPost) -> None:
        """The post could not be sent (its channel gone or closed to the bot): it is given up."""
        await self.store.ritual.set_message(post.guild_id, post.kind, post.key, 0)

    async def edits_due(self) -> list[PostEdit]:
        """The sent posts whose counts changed, last shown EDIT_EVERY ago or more, whose day's
        attempts may still be played, each claimed by this process: edit each."""
        now = self.clock()
        edits = []
        recent = [sent for sent in await self.store.ritual.posts_claimed_since(now - 2 * DAY_SECONDS)
                  if sent.kind == "daily" and sent.message_id]
        shown = {}
        for sent in recent:
            try:
                last = json.loads(sent.shown)
                shown[sent] = (str(last["day"]), str(last["game"]), float(last["at"]), (last["players"], last["wins"]))
            except (ValueError, KeyError, TypeError):
                continue
        counts = await self.store.ritual.daily_counts(sorted({day for day, *_rest in shown.values()}))
        for sent, (day, game, at, count) in shown.items():
            if now - at < EDIT_EVERY or now >= attempt_deadline(day):
                continue
            if counts.get((sent.guild_id, day, game), (0, 0)) == tuple(count):
                continue
            settings = read_settings(await self.store.stats.get_settings(sent.guild_id))
            post = await self._post(sent.guild_id, settings, sent.channel_id, sent.key, now, day=day, game=game)
            if await self.store.ritual.claim_edit(sent, _shown(post, now)):
                edits.append(PostEdit(sent.message_id, post))
        return edits

    async def _post(self, guild_id: int, settings: ServerSettings, channel_id: int, key: str, now: float, *,
                    day: str | None = None, game: str | None = None) -> DailyPost:
        """A server's daily post of local day `key`, as of `now`: of the UTC day `day` and `game`
        (default: now's, and the server's daily game)."""
        day = day or utc_day(now)
        game = game or settings.daily_game
        yesterday = previous_day(day)
        results = await self.store.stats.daily_results(game, guild_id, yesterday, day)
        days = await self.store.stats.daily_days(guild_id=guild_id)
        return DailyPost(guild_id=guild_id, channel_id=channel_id, key=key, game=game,
                         role_id=settings.daily_role, today=day_count(day, results),
                         recap=recap(yesterday, game, results, days))

    # --- reminders --------------------------------------------------------------------------------

    async def set_reminder(self, user_id: int, state: str, guild_id: int | None) -> bool:
        """Turn a member's streak reminder "on" or "off" (BadSetting for anything else), where they
        are: that server's time zone is the one it speaks in. Whether it is on now."""
        if state not in ("on", "off"):
            raise BadSetting("remind", state)
        await self.store.ritual.set_reminder(user_id, state == "on", guild_id)
        return state == "on"

    async def reminders_due(self) -> list[Reminder]:
        """The reminders due now that this process has claimed (each member's once a UTC day):
        send each as a private message (where one cannot be sent, nothing else happens)."""
        now = self.clock()
        if not remind_now(now):
            return []
        today = utc_day(now)
        due = []
        for user_id, guild_id in await self.store.ritual.reminders_due(today):
            if not await self.store.ritual.claim_reminder(user_id, today):
                continue
            days = await self.store.stats.daily_days(user_id=user_id)
            going = reminder_streak((d.day for d in days), today)
            if going is None:
                continue
            timezone = "UTC"
            if guild_id is not None:
                timezone = read_settings(await self.store.stats.get_settings(guild_id)).timezone
            due.append(Reminder(user_id, going, day_start(today) + DAY_SECONDS, timezone))
        return due
