"""Watching: a member's board shown, read-only, to whoever asks in the channel where it is played.

A deal everyone plays stays hidden from those who have yet to play it: a daily is shown only to a
watcher whose own attempt at that day's daily has ended, and a round of a match still open only
to a watcher whose own game of that round has ended (anyone may still join an open match and be
dealt its rounds). Watching oneself is always fine. Such a board, of a deal others may still be
dealt (today's daily, a round of an open match), is shown to its watcher alone (`Watching.private`),
never to the channel.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.play.daily import today
from bot.play.solo import GameStatus, Player, PlayError, Reply, SoloPlay
from bot.store import Store

OPEN_MATCH = ("lobby", "running")


@dataclass(frozen=True, slots=True)
class Watching:
    """A Reply's event: the board is shown to a watcher, read-only; `name` is its player's.
    `private`: its deal may still be dealt to others (today's daily, a round of an open match),
    so it is shown to the watcher alone."""

    name: str
    private: bool = False


# What a watched board tells (among bot.play.solo.Event).
WatchEvent = Watching


class NothingToWatch(PlayError):
    """Member `member_id` has no game in play in this channel."""

    def __init__(self, member_id: int) -> None:
        super().__init__(member_id)
        self.member_id = member_id


class DailyNotPlayedYet(PlayError):
    """The watched game is the daily of `game` of `day`, and the watcher's own attempt at it has not
    ended (or begun): its deal stays hidden from them."""

    def __init__(self, game: str, day: str) -> None:
        super().__init__(game, day)
        self.game = game
        self.day = day


class RoundNotFinished(PlayError):
    """The watched game is round `round` of match `match_id`, still open, and the watcher has not
    finished their own game of that round."""

    def __init__(self, match_id: int, round: int) -> None:
        super().__init__(match_id, round)
        self.match_id = match_id
        self.round = round


class WatchPlay:
    """Who may see whose board: `watch` finds a member's game, `refresh` shows it again."""

    def __init__(self, store: Store, solo: SoloPlay, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.solo = solo
        self.clock = clock

    async def watch(self, watcher: Player, member_id: int, channel_id: int | None) -> Reply:
        """Member `member_id`'s game in play in this channel, for `watcher` to see. NothingToWatch,
        DailyNotPlayedYet or RoundNotFinished when it cannot be shown to them."""
        stored = await self.store.games.running_game(member_id, channel_id)
        if stored is None:
            raise NothingToWatch(member_id)
        return await self.refresh(watcher, stored.id)

    async def refresh(self, watcher: Player, game_id: int) -> Reply:
        """Game `game_id` as it stands now (in play or ended), for `watcher` to see; refused as
        `watch` refuses."""
        reply = await self.solo.look(game_id)
        if reply.user_id != watcher.id:
            await self._check_hidden(watcher, reply)
        names = await self.store.games.player_names([reply.user_id])
        private = await self._still_dealt(reply)
        return dataclasses.replace(reply, events=(Watching(names.get(reply.user_id, ""), private),))

    async def _still_dealt(self, reply: Reply) -> bool:
        """Whether the game's deal may still be dealt to others: today's daily, or a round of a
        match still open."""
        if reply.kind == "daily":
            daily = await self.store.stats.daily_of_game(reply.game_id)
            if daily is not None and daily.day >= today(self.clock):
                return True
        if reply.match_id is not None:
            match = await self.store.matches.get_match(reply.match_id)
            if match is not None and match.status in OPEN_MATCH:
                return True
        return False

    async def _check_hidden(self, watcher: Player, reply: Reply) -> None:
        """DailyNotPlayedYet or RoundNotFinished when the watched deal is still to be played by the watcher."""
        if reply.kind == "daily":
            daily = await self.store.stats.daily_of_game(reply.game_id)
            if daily is not None:
                own = await self.store.stats.daily_attempt(daily.day, daily.game, watcher.id)
                if own is None or own.status == GameStatus.PLAYING:
                    raise DailyNotPlayedYet(daily.game, daily.day)
        if reply.match_id is not None and reply.round is not None:
            match = await self.store.matches.get_match(reply.match_id)
            if match is not None and match.status in OPEN_MATCH:
                own_round = await self.store.games.round_game(reply.match_id, reply.round, watcher.id)
                if own_round is None or own_round.status == GameStatus.PLAYING:
                    raise RoundNotFinished(reply.match_id, reply.round)
