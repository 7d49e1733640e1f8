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
from bot.play.solo import NoGameHere, Player, PlayError, check_limit, record_of
from bot.play.watch import OPEN_MATCH
from bot.play.work import RateLimiter
from bot.store import Store, StoredGame


class NotFinished(PlayError):
    """Game `game_id` is still in play: it can be looked back at once it has ended."""

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class NotYours(PlayError):
    """Game `game_id` is another player's (and not a daily they may see)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class MatchNotOver(PlayError):
    """Game `game_id` is a round of match `match_id`, which is still on."""

    def __init__(self, game_id: int, match_id: int) -> None:
        super().__init__(game_id, match_id)
        self.game_id = game_id
        self.match_id = match_id


class DayNotOver(PlayError):
    """Game `game_id` is the daily of `game` of `day`, which ends in `seconds_left` (00:00 UTC).
    `yours_first`: it is another player's, which can be replayed once the viewer has finished their
    own daily of that day and game."""

    def __init__(self, game_id: int, game: str, day: str, seconds_left: float, *, yours_first: bool = False) -> None:
        super().__init__(game_id, game, day, seconds_left, yours_first)
        self.game_id = game_id
        self.game = game
        self.day = day
        self.seconds_left = seconds_left
        self.yours_first = yours_first


class NothingFinished(PlayError):
    """No finished game to look back at: of the viewer's own (`player_id` None), or no finished
    daily of player `player_id`."""

    def __init__(self, player_id: int | None = None) -> None:
        super().__init__(player_id)
        self.player_id = player_id


async def finished_game_for_review(store: Store, game_id: int, viewer_id: int, *, replay: bool = False,
                                   clock: Callable[[], float] = time.time) -> StoredGame:
    """Stored game `game_id` if member `viewer_id` may look back at it (see the module's docstring;
    `replay`: to see its moves, not what the solver finds), else the PlayError that says why:
    NoGameHere, NotFinished, NotYours, MatchNotOver or DayNotOver."""
    stored = await store.games.get_game(game_id)
    if stored is None:
        raise NoGameHere(game_id)
    if stored.status == "playing":
        raise NotFinished(game_id)
    own = stored.user_id == viewer_id
    attempt = await store.stats.daily_of_game(game_id) if stored.kind == "daily" else None
    if not own and not (replay and attempt is not None):
        raise NotYours(game_id)
    now = clock()
    if attempt is not None and attempt.day >= utc_day(now):  # the day is not over
        if not replay:
            raise DayNotOver(game_id, attempt.game, attempt.day, seconds_to_next_day(now))
        if not own:
            mine = await store.stats.daily_attempt(attempt.day, attempt.game, viewer_id)
            if mine is None or mine.status == "playing":
                raise DayNotOver(game_id, attempt.game, attempt.day, seconds_to_next_day(now), yours_first=True)
    if stored.kind == "match" and stored.match_id is not None:
        match = await store.matches.get_match(stored.match_id)
        if match is not None and match.status in OPEN_MATCH:
            raise MatchNotOver(game_id, stored.match_id)
    return stored
    if not own:
        raise NotYours(game_id)
    if stored.kind == "match" and stored.match_id is not None:
        match = await store.matches.get_match(stored.match_id)
        if match is not None and match.status in OPEN_MATCH:
            raise MatchNotOver(game_id, stored.match_id)
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
                raise NothingFinished(player_id)
            game_id = attempt.game_id
        elif game_id is None:
            last = await self.store.games.last_finished_game(viewer.id)
            if last is None:
                raise NothingFinished()
            game_id = last.id
        stored = await finished_game_for_review(self.store, game_id, viewer.id, replay=True, clock=self.clock)
        check_limit(self.limits, viewer.id, "replay")
        name = (await self.store.games.player_names([stored.user_id])).get(stored.user_id, str(stored.user_id))
        return Replay(game_id=stored.id, player=Player(stored.user_id, name), name=stored.name, deal=stored.deal,
                      status=stored.status, score=stored.score, record=record_of(stored))
