"""Looking back at finished games: who may see which (`finished_game_for_review`, the one rule
that /analyse, /solution and /replay share), and replays.

A finished game of your own can be looked back at; a match round only once its match is over (the
other rounds still count); a daily only once its day is over, since what the solver finds helps
whoever has not played it yet. A replay shows no more than the player's own moves: their daily
can be replayed once it has ended, and anyone's finished daily by whoever has finished theirs of
the same day and game (or once that day is over).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.play.daily import seconds_to_next_day, utc_day
from bot.play.solo import GameStatus, NoGameHere, NotYourGame, Player, PlayError, check_limit, record_of
from bot.play.watch import OPEN_MATCH
from bot.play.work import RateLimiter
from bot.store import Store, StoredGame


class NoFinishedGame(PlayError):
    """The player has no finished game to look back on."""


class StillPlaying(PlayError):
    """Game `game_id` is still in play: it can be looked back on once it has ended."""

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class DayNotOver(PlayError):
    """A daily game can be looked back on once its day is over: in `seconds_left`."""

    def __init__(self, seconds_left: float) -> None:
        super().__init__(seconds_left)
        self.seconds_left = seconds_left


class MatchNotOver(PlayError):
    """A match's round can be looked back on once match `match_id` is over."""

    def __init__(self, match_id: int) -> None:
        super().__init__(match_id)
        self.match_id = match_id


class PlayYourDailyFirst(PlayError):
    """Another player's daily of `game`, still to be played by the viewer today: it can be replayed
    once the viewer's own has ended, or once the day is over (in `seconds_left`)."""

    def __init__(self, game: str, seconds_left: float) -> None:
        super().__init__(game, seconds_left)
        self.game = game
        self.seconds_left = seconds_left


class NoFinishedDaily(PlayError):
    """Player `player_id` has no finished daily to replay."""

    def __init__(self, player_id: int) -> None:
        super().__init__(player_id)
        self.player_id = player_id


async def finished_game_for_review(store: Store, game_id: int | None, player: Player,
                                   clock: Callable[[], float] = time.time, *, replay: bool = False) -> StoredGame:
    """The finished game that `player` may look back on: game `game_id`, or their own that ended
    last (see the module's docstring; `replay`: to see its moves, not what the solver finds). A
    PlayError says why not: NoGameHere, NoFinishedGame, NotYourGame, StillPlaying, DayNotOver,
    PlayYourDailyFirst or MatchNotOver."""
    if game_id is None:
        stored = await store.games.last_finished_game(player.id)
        if stored is None:
            raise NoFinishedGame()
    else:
        found = await store.games.get_game(game_id)
        if found is None:
            raise NoGameHere(game_id)
        stored = found
    own = stored.user_id == player.id
    attempt = await store.stats.daily_of_game(stored.id) if stored.kind == "daily" else None
    if not own and not (replay and attempt is not None):
        raise NotYourGame()
    if stored.status == GameStatus.PLAYING:
        raise StillPlaying(stored.id)
    now = clock()
    if attempt is not None and attempt.day >= utc_day(now):  # the day is not over
        if not replay:
            raise DayNotOver(seconds_to_next_day(now))
        if not own:
            mine = await store.stats.daily_attempt(attempt.day, attempt.game, player.id)
            if mine is None or mine.status == GameStatus.PLAYING:
                raise PlayYourDailyFirst(attempt.game, seconds_to_next_day(now))
    if stored.kind == "match" and stored.match_id is not None:
        match = await store.matches.get_match(stored.match_id)
        if match is not None and match.status in OPEN_MATCH:
            raise MatchNotOver(stored.match_id)
    return stored


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished game to replay: whose (`player`), what it was, and `record`, its deal and moves
    (`bot.game.to_record`'s fields) for the drawing (render.replay.replay_gif)."""

    game_id: int
    player: Player
    name: str
    deal: int | None
    status: str
    score: int
    record: dict[str, Any]

    @property
    def moves(self) -> int:
        """How many moves the game had."""
        return len(self.record["moves"])


class Reviews:
    """What a member may ask about finished games: replays."""

    def __init__(self, store: Store, limits: RateLimiter, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock

    async def replay(self, viewer: Player, *, game_id: int | None = None, player_id: int | None = None) -> Replay:
        """The game to replay for `viewer`: game `game_id`; else player `player_id`'s daily that
        ended last; else the viewer's own game that ended last. The rule of
        `finished_game_for_review` decides; RateLimited when the viewer has had their share of
        replays lately (refusals do not count)."""
        if game_id is None and player_id is not None and player_id != viewer.id:
            attempt = await self.store.stats.last_finished_daily(player_id)
            if attempt is None:
                raise NoFinishedDaily(player_id)
            game_id = attempt.game_id
        stored = await finished_game_for_review(self.store, game_id, viewer, self.clock, replay=True)
        check_limit(self.limits, viewer.id, "replay")
        name = (await self.store.games.player_names([stored.user_id])).get(stored.user_id, str(stored.user_id))
        return Replay(game_id=stored.id, player=Player(stored.user_id, name), name=stored.name, deal=stored.deal,
                      status=stored.status, score=stored.score, record=record_of(stored))
