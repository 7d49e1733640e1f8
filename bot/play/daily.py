"""Daily challenges: one shared deal per game per UTC day, one attempt each, no undo, streaks.

The day's deal is derived with the deployment's secret (`daily_deal`: the first of a sequence of
candidates, HMAC-SHA256 of the day and game under the secret, that the solver proves winnable;
for the two-deck games, which it does not cover, the first candidate). The secret is made at first
start and kept in the database, so every process and shard deals the same, and no player can work
the deal out; its number is never shown (bot/play/secrecy.py keeps it from every other route).

An attempt belongs to the UTC day it began, and a player has at most one daily in play in a
channel. An attempt may be finished until 01:00 UTC the next day (DAILY_GRACE); one still in play
then is ended, resigned with its score standing (`DailyPlay.end_overdue`), and until it is, its
day's deal stays live. There is no way to play a past day.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date

from bot.game import GAMES, new_game
from bot.game.patience import FOUNDATION_LENGTH
from bot.game.solver import covers, solve
from bot.play.days import attempt_deadline, seconds_to_next_day, today, utc_day
from bot.play.errors import (
    AlreadyShared,
    DailyElsewhere,
    DailyNotOver,
    DailyPlayed,
    NoGameHere,
    NoSuchDaily,
    NotADay,
    NotYourGame,
    PlayError,
)
from bot.play.events import DailyDealt, DailyResumed
from bot.play.replies import GameStatus, Reply
from bot.play.solo import Player, SoloPlay
from bot.store import Store
from bot.store.base import DailyAttempt

log = logging.getLogger(__name__)

DEAL_RANGE = 999_999_999  # daily deals are PySolFC game numbers 1..999,999,999
DAILY_SOLVE_LIMIT = 100_000  # positions the solver may look at to prove a candidate winnable
MAX_CANDIDATES = 40
SECRET = "daily"  # the name of the deployment's secret the deals are derived from (the `secrets` table)

_DAY_FORMAT = re.compile(r"\d{4}-\d{2}-\d{2}")


def new_secret() -> str:
    """A new deployment secret: 256 random bits, in hex."""
    return secrets.token_hex(32)


def candidate_deal(day: str, game: str, secret: str, attempt: int = 0) -> int:
    """The `attempt`-th candidate for `game`'s daily on `day` (the UTC date, YYYY-MM-DD) under the
    deployment's `secret`: the PySolFC game number `HMAC-SHA256(secret, text) % 999_999_999 + 1`
    where text is `daily:<day>:<game>:<attempt>`. Without the secret it cannot be worked out.
    NotADay for a day not written YYYY-MM-DD."""
    check_day(day)
    digest = hmac.new(secret.encode(), f"daily:{day}:{game}:{attempt}".encode(), hashlib.sha256).hexdigest()
    return int(digest, 16) % DEAL_RANGE + 1


@functools.lru_cache(maxsize=256)
def daily_deal(day: str, game: str, secret: str) -> int:
    """The deal of `game`'s daily on `day` under `secret`: the first candidate (`candidate_deal`,
    attempt 0, 1, 2, ...) that the solver proves winnable within DAILY_SOLVE_LIMIT positions, so
    every daily can be won. The solver is deterministic: every process picks the same deal. Slow
    the first time for a day and game (seconds): call it off the event loop. For a game the solver
    does not cover (the two-deck games), the first candidate."""
    first = candidate_deal(day, game, secret)
    if not covers(new_game(game, deal=first)):
        return first
    for attempt in range(MAX_CANDIDATES):
        deal = candidate_deal(day, game, secret, attempt)
        if solve(new_game(game, deal=deal), limit=DAILY_SOLVE_LIMIT).status == "winnable":
            return deal
    return first  # not seen in practice: some 70% of deals are winnable


def check_day(day: str) -> str:
    """Return `day` if it is a real date written YYYY-MM-DD; NotADay otherwise."""
    try:
        if _DAY_FORMAT.fullmatch(day):
            date.fromisoformat(day)
            return day
    except ValueError:
        pass
    raise NotADay(day)


@dataclass(frozen=True, slots=True)
class Streaks:
    """A player's daily streaks, in consecutive UTC days: with an attempt (played) and with at
    least one daily won (won); the current ones and the best ever."""

    played: int = 0
    best_played: int = 0
    won: int = 0
    best_won: int = 0


def streak(days: Iterable[str], as_of: str) -> tuple[int, int]:
    """The current and best runs of consecutive days among `days` (YYYY-MM-DD). The current
    run ends on `as_of` (today), or the day before when `as_of` is not among them yet: a run only
    breaks once a whole day is missed. Days after `as_of` are ignored."""
    last_day = date.fromisoformat(as_of).toordinal()
    numbers = sorted({n for n in (date.fromisoformat(day).toordinal() for day in days) if n <= last_day})
    best = run = 0
    previous: int | None = None
    for number in numbers:
        run = run + 1 if previous == number - 1 else 1
        best = max(best, run)
        previous = number
    current = run if previous is not None and previous >= last_day - 1 else 0
    return current, best


def streaks(days: Iterable[tuple[str, bool]], as_of: str) -> Streaks:
    """A player's streaks on `as_of` (today) from their daily days as (day, won a daily that day)."""
    days = list(days)
    played, best_played = streak((day for day, _ in days), as_of)
    won, best_won = streak((day for day, won in days if won), as_of)
    return Streaks(played=played, best_played=best_played, won=won, best_won=best_won)


@dataclass(frozen=True, slots=True)
class DailyShare:
    """A finished daily's result without its deal: what the share card shows. `foundations`: the
    cards on each foundation, of `foundation_size` each when complete; `moves`: moves played."""

    player_id: int
    day: str
    game: str
    status: str
    score: int
    moves: int
    hints: int
    foundations: tuple[int, ...]
    foundation_size: int = FOUNDATION_LENGTH


class DailyPlay:
    """Start (or resume) a player's daily game; the games themselves are played through SoloPlay."""

    def __init__(self, store: Store, solo: SoloPlay, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.solo = solo
        self.clock = clock
        self._secret: str | None = None

    async def secret(self) -> str:
        """The deployment's secret the deals are derived from (made and stored at first use)."""
        if self._secret is None:
            self._secret = await self.store.stats.secret(SECRET, new_secret)
        return self._secret

    async def deal(self, day: str, game: str) -> int:
        """The deal of `game`'s daily on `day`: the one its attempts were dealt when there are any
        (so a day keeps its deal across an upgrade that changed the rule), else `daily_deal`'s
        (worked out in a thread the first time)."""
        dealt = await self.store.stats.daily_dealt(day, game)
        if dealt is not None:
            return dealt
        return await asyncio.to_thread(daily_deal, day, game, await self.secret())

    async def start(self, player: Player, *, guild_id: int | None, channel_id: int | None,
                    game: str = "canfield") -> Reply:
        """Today's daily of `game` for the player: a new game (undo off), or their daily still in
        play in this channel, whatever its game or day (one at a time a channel). NoSuchDaily for
        an unknown game, DailyPlayed when today's attempt is over, DailyElsewhere when it is in play
        in another channel."""
        if game not in GAMES:
            raise NoSuchDaily(game)
        here = await self.store.stats.daily_in_play_here(player.id, channel_id)
        if here is not None:
            return await self._resume(here, player)
        now = self.clock()
        day = utc_day(now)
        attempt = await self.store.stats.daily_attempt(day, game, player.id)
        if attempt is None:
            deal = await self.deal(day, game)
            reply = await self.solo.create(  # created at `now`: its day, as its board names it, is the attempt's
                player, guild_id=guild_id, channel_id=channel_id, name=game, deal=deal, options={}, kind="daily",
                undo_allowed=False, events=(DailyDealt(day),), created_at=now,
            )
            game_id = await self.store.stats.claim_daily(day, game, player.id, guild_id, reply.game_id)
            if game_id == reply.game_id:
                return reply
            # Another start of the same attempt came first: ours was thrown away, theirs stands.
            attempt = await self.store.stats.daily_attempt(day, game, player.id)
            assert attempt is not None
        if attempt.status != GameStatus.PLAYING:
            raise DailyPlayed(attempt.game, attempt.status, attempt.score, seconds_to_next_day(self.clock()))
        stored = await self.store.games.get_game(attempt.game_id)
        if stored is not None and stored.channel_id != channel_id:
            raise DailyElsewhere(attempt.game, attempt.day, stored.channel_id)
        return await self._resume(attempt, player)

    async def share(self, game_id: int, player: Player) -> DailyShare:
        """The result of the player's daily played in game `game_id`, to post once: the first call
        marks it shared in the store (one statement decides, between processes too), and any later
        one is AlreadyShared. NoGameHere when that game is no daily, NotYourGame when it is another
        player's, DailyNotOver while it is in play."""
        daily = await self.store.stats.daily_of_game(game_id)
        if daily is None:
            raise NoGameHere(game_id)
        if daily.user_id != player.id:
            raise NotYourGame()
        if daily.status == GameStatus.PLAYING:
            raise DailyNotOver()
        if daily.shared or not await self.store.stats.mark_shared(game_id):
            raise AlreadyShared()
        game = (await self.solo.look(game_id)).game
        return DailyShare(player_id=player.id, day=daily.day, game=daily.game, status=daily.status,
                          score=daily.score, moves=len(game.moves), hints=daily.hints,
                          foundations=tuple(len(pile) for pile in game.foundations))

    async def streaks(self, user_id: int) -> Streaks:
        """The player's current and best daily streaks (played and won), as of today."""
        days = await self.store.stats.daily_days(user_id=user_id)
        return streaks(((d.day, d.won) for d in days), today(self.clock))

    async def end_overdue(self) -> int:
        """End the attempts still in play whose time is up (01:00 UTC the day after their day),
        resigned with their scores standing, as their players would; how many were ended. An
        attempt that changes meanwhile, or cannot be ended, is left for the next round."""
        now = self.clock()
        ended = 0
        for attempt in await self.store.stats.dailies_in_play_before(today(self.clock)):
            if attempt_deadline(attempt.day) > now:
                continue
            try:
                await self.solo.resign(attempt.game_id, Player(attempt.user_id, ""))
                ended += 1
            except PlayError as error:  # moved or ended meanwhile, or damaged in storage
                log.info("daily attempt %s was not ended: %r", attempt.game_id, error)
        return ended

    async def _resume(self, attempt: DailyAttempt, player: Player) -> Reply:
        """The player's attempt in play, saying whether its day is over."""
        reply = await self.solo.board(attempt.game_id, player)
        return dataclasses.replace(reply, events=(DailyResumed(attempt.day, attempt.day < today(self.clock)),))
