"""Looking back on a finished game: which games a player may look back on (the rule that
/analyse, /solution and /replay share), where a game was lost (bot.game.analysis), and replays.

A finished game of your own can be looked back on, and anyone's finished daily replayed; what
may be shown of its deal is the secrecy rule's (bot/play/secrecy.py): what the solver finds (an
analysis, a winning line) once the deal is no longer live (a daily's day over, a match over); a
replay while it is live only to its player, or to whoever has finished their own attempt at that
daily, and to them alone.

The analysis is a bisection over the player's line, each search (up to ANALYSIS_LIMIT
positions) in a search process one at a time (bot.play.work), counted against the member's
limits; its result is stored (the `analyses` table), so that asking again costs a read. When a
solo game ends without a win, its analysis starts at once in the background: the move's answer
carries `Analysing`, and the front end asks `analyse` for the result when it likes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.game import Game, parse_move
from bot.game.analysis import Analysis, Verdict, bisection, position_after, solve_after
from bot.game.solver import covers
from bot.play.errors import NoFinishedDaily, NoFinishedGame, NoGameHere, NoSolver, NotYourGame, StillPlaying
from bot.play.events import Analysing
from bot.play.replies import DealLabel, GameStatus
from bot.play.secrecy import Live, Secrecy, Sight
from bot.play.solo import VERDICT_LIMIT, Player, SoloPlay, Table, check_limit, label_of, rebuild, record_of
from bot.play.work import RateLimiter, Work
from bot.store import Store, StoredGame
from bot.store.base import StoredAnalysis

log = logging.getLogger(__name__)

ANALYSIS_LIMIT = VERDICT_LIMIT  # positions each search of an analysis may look at (some 2 s)


@dataclass(frozen=True, slots=True)
class Analysed:
    """Where game `game_id` (of `moves` moves) was lost, and the board to show with it: the
    position before the losing move (or at the resignation), None when there is no such place;
    `label` names its deal."""

    game_id: int
    analysis: Analysis
    moves: int
    board: Game | None
    label: DealLabel


async def finished_game_for_review(store: Store, secrecy: Secrecy, game_id: int | None, player: Player, *,
                                   replay: bool = False) -> tuple[StoredGame, Live | None]:
    """The finished game that `player` may look back on: game `game_id`, or their own that ended
    last (see the module's docstring; `replay`: to see its moves, not what the solver finds),
    with why its deal is live when it is (then it is shown to the player alone). A PlayError says
    why not: NoGameHere, NoFinishedGame, NotYourGame, StillPlaying or DealIsLive."""
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
    if stored.user_id != player.id and not (replay and stored.kind == "daily"):
        raise NotYourGame()
    if stored.status == GameStatus.PLAYING:
        raise StillPlaying(stored.id)
    live = await secrecy.may_show(stored, Sight.CARDS if replay else Sight.SOLVER, player.id)
    return stored, live


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
    label: DealLabel
    live: Live | None = None  # why its deal is live: then it is shown to the viewer alone

    @property
    def moves(self) -> int:
        """How many moves the game had."""
        return len(self.record["moves"])


class ReviewPlay:
    """Where a finished game was lost: worked out once, stored, and started by itself when a
    solo game ends without a win; and which game to replay."""

    def __init__(self, store: Store, solo: SoloPlay, *, work: Work | None = None,
                 limits: RateLimiter | None = None, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.work = work or solo.work
        self.limits = limits or solo.limits
        self.clock = clock
        self.secrecy = Secrecy(store, clock)
        self._running: dict[int, asyncio.Task[Analysis]] = {}  # game id -> its analysis in progress
        solo.finish_hooks.append(self._after_finish)

    async def analyse(self, game_id: int | None, player: Player) -> Analysed:
        """Where the player's finished game (`game_id`, or the one that ended last) was lost;
        the rules of `finished_game_for_review`. NoSolver for a game the solver does not
        cover; RateLimited when the player has had their share of analyses lately."""
        stored, _ = await finished_game_for_review(self.store, self.secrecy, game_id, player)
        game = rebuild(stored)
        if not covers(game):
            raise NoSolver(game.name)
        analysis = await self._analysis(stored.id, game, player.id)
        board = None
        if analysis.verdict is Verdict.LOST and analysis.lost_after is not None:
            # Before the losing move; or where the player resigned.
            shown = analysis.lost_after - 1 if analysis.losing_move is not None else analysis.lost_after
            board = await self.work.engine(player.id, position_after, game, shown)
        return Analysed(stored.id, analysis, len(game.moves), board, label_of(stored))

    async def replay(self, viewer: Player, *, game_id: int | None = None, player_id: int | None = None) -> Replay:
        """The game to replay for `viewer`: game `game_id`; else player `player_id`'s daily that
        ended last; else the viewer's own game that ended last. The rules of
        `finished_game_for_review` (with `replay`); RateLimited when the viewer has had their
        share of replays lately (refusals do not count)."""
        if game_id is None and player_id is not None and player_id != viewer.id:
            attempt = await self.store.stats.last_finished_daily(player_id)
            if attempt is None:
                raise NoFinishedDaily(player_id)
            game_id = attempt.game_id
        stored, live = await finished_game_for_review(self.store, self.secrecy, game_id, viewer, replay=True)
        check_limit(self.limits, viewer.id, "replay")
        name = (await self.store.games.player_names([stored.user_id])).get(stored.user_id, str(stored.user_id))
        return Replay(game_id=stored.id, player=Player(stored.user_id, name), name=stored.name, deal=stored.deal,
                      status=stored.status, score=stored.score, record=record_of(stored), label=label_of(stored),
                      live=live)

    async def _analysis(self, game_id: int, game: Game, member_id: int) -> Analysis:
        """The game's analysis: stored, in progress, or worked out now (counted against the
        member's limits: RateLimited when they have had their share)."""
        kept = await self.store.games.get_analysis(game_id)
        if kept is not None:
            return _analysis_of(kept)
        running = self._running.get(game_id)
        if running is None:
            check_limit(self.limits, member_id, "analysis")
            running = self._running[game_id] = asyncio.ensure_future(self._work_out(game_id, game, member_id))
            running.add_done_callback(lambda _: self._running.pop(game_id, None))
        return await asyncio.shield(running)

    async def _work_out(self, game_id: int, game: Game, member_id: int) -> Analysis:
        """The bisection, each search in a search process; the result stored."""
        steps = bisection(game)
        try:
            count = next(steps)
            while True:
                count = steps.send(await self.work.search(member_id, solve_after, game, count, ANALYSIS_LIMIT))
        except StopIteration as done:
            analysis: Analysis = done.value
        await self.store.games.save_analysis(StoredAnalysis(
            game_id, analysis.verdict.value, analysis.lost_after,
            None if analysis.losing_move is None else str(analysis.losing_move),
            None if analysis.better_move is None else str(analysis.better_move)))
        return analysis

    async def _after_finish(self, table: Table) -> tuple[Analysing, ...]:
        """A finish hook: when a solo game the solver covers ends without a win, start its
        analysis in the background (unless the player has had their share, or its deal is live:
        a copy of a daily or of a match's round) and say so."""
        if table.status == GameStatus.WON or table.kind != "solo" or not covers(table.game):
            return ()
        if table.id in self._running or await self.secrecy.live(table) is not None:
            return ()
        if self.limits.check(table.user_id, "analysis"):
            return ()
        task = asyncio.ensure_future(self._work_out(table.id, table.game.copy(), table.user_id))
        self._running[table.id] = task
        task.add_done_callback(lambda done: self._finished_in_background(table.id, done))
        return (Analysing(table.id),)

    def _finished_in_background(self, game_id: int, task: asyncio.Task[Analysis]) -> None:
        self._running.pop(game_id, None)
        if not task.cancelled() and task.exception() is not None:
            log.warning("the analysis of game %s failed: %r", game_id, task.exception())


def _analysis_of(stored: StoredAnalysis) -> Analysis:
    """An Analysis as the store keeps it, read back."""
    return Analysis(Verdict(stored.verdict), stored.lost_after,
                    None if stored.losing_move is None else parse_move(stored.losing_move),
                    None if stored.better_move is None else parse_move(stored.better_move))
