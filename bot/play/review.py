"""Looking back on a finished game: which games a player may look back on (the one rule that
/analyse, /solution and /replay share)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.play.daily import seconds_to_next_day, today, utc_day
from bot.play.solo import GameStatus, NoGameHere, NotYourGame, Player, PlayError
from bot.store import Store, StoredGame

MATCH_OVER = ("finished", "cancelled", "expired")


class NoFinishedGame(PlayError):
    """The player has no finished game to look back on."""


class StillPlaying(PlayError):
    """Game `game_id` is still in play: it can be looked back on once it has ended."""

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class DailyNotOver(PlayError):
    """A daily game can be looked back on once its day is over: in `seconds_left`."""

    def __init__(self, seconds_left: float) -> None:
        super().__init__(seconds_left)
        self.seconds_left = seconds_left


class MatchNotOver(PlayError):
    """A match's round can be looked back on once match `match_id` is over."""

    def __init__(self, match_id: int) -> None:
        super().__init__(match_id)
        self.match_id = match_id


async def finished_game_for_review(store: Store, game_id: int | None, player: Player,
                                   clock: Callable[[], float] = time.time) -> StoredGame:
    """The finished game of the player's that they may look back on: game `game_id`, or the one
    that ended last. A daily once its day is over; a match's round once the match is over.
    NoGameHere, NotYourGame, StillPlaying, DailyNotOver, MatchNotOver or NoFinishedGame else."""
    if game_id is None:
        last = await store.games.finished_games(player.id, limit=1)
        if not last:
            raise NoFinishedGame()
        stored = last[0]
    else:
        found = await store.games.get_game(game_id)
        if found is None:
            raise NoGameHere(game_id)
        stored = found
    if stored.user_id != player.id:
        raise NotYourGame()
    if stored.status == GameStatus.PLAYING:
        raise StillPlaying(stored.id)
    if stored.kind == "daily" and utc_day(stored.created_at) >= today(clock):
        raise DailyNotOver(seconds_to_next_day(clock()))
    if stored.kind == "match" and stored.match_id is not None:
        match = await store.matches.get_match(stored.match_id)
        if match is not None and match.status not in MATCH_OVER:
            raise MatchNotOver(stored.match_id)
    return stored
