"""A short winning line for a finished game's deal, from its start (/solution, `solution`).

The line is worked out (bot.game.lines.short_line) in a search process, counted against the
member's limits, and kept for the last SOLUTIONS_KEPT games, so that turning its pages costs
nothing. The games one may ask about follow the rule of bot.play.review, and the secrecy rule
is asked again at every page (bot/play/secrecy.py: nothing of a live deal).
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.game import Game, Move
from bot.game.lines import short_line
from bot.game.solver import NATIVE, covers
from bot.play.errors import NoPages, NoSolver
from bot.play.review import finished_game_for_review
from bot.play.secrecy import Secrecy
from bot.play.solo import Player, check_limit, rebuild

if TYPE_CHECKING:
    from bot.play.solo import SoloPlay
    from bot.store import Store

# Positions each search of a line may look at: some 2 s in C (see bot.play.solo.VERDICT_LIMIT).
SOLUTION_LIMIT = 1_500_000 if NATIVE else 60_000
SOLUTIONS_KEPT = 256  # lines kept by game, for their pages


@dataclass(frozen=True, slots=True)
class LineMove:
    """One move of a winning line besides draws, with the draws that come before it and the
    card it moves (the deepest, for a group), such as `9H`."""

    draws: int
    move: Move
    card: str


@dataclass(frozen=True, slots=True)
class WinningLine:
    """A short winning line for game `game_id`'s deal (game `name`), from the deal's start."""

    game_id: int
    name: str
    moves: tuple[LineMove, ...]

    @property
    def draws(self) -> int:
        """How many draws the line makes in all."""
        return sum(step.draws for step in self.moves)


@dataclass(frozen=True, slots=True)
class NoWinningLine:
    """No line for game `game_id`'s deal: it cannot be won (`gave_up` False), or the solver
    gave up before it found out."""

    game_id: int
    name: str
    gave_up: bool


def line_moves(game: Game, moves: list[Move]) -> tuple[LineMove, ...]:
    """A line of canonical moves from the game's position as moves besides draws, each with the
    draws before it and the card it moves (draws after the last such move, which no win
    needs, are left out). The game is left as it was."""
    game = game.copy()
    steps: list[LineMove] = []
    draws = 0
    for move in moves:
        if move.is_draw:
            draws += 1
        else:
            steps.append(LineMove(draws, move, game.piles(reveal=True)[move.src][-move.count]))
            draws = 0
        game.play(move)
    return tuple(steps)


def work_out_line(game: Game, limit: int = SOLUTION_LIMIT) -> tuple[str, tuple[LineMove, ...]]:
    """The short line from the game's position (in a search process): the solver's status and
    the line's moves."""
    solution = short_line(game, limit=limit)
    return solution.status, line_moves(game, solution.moves)


class SolutionPlay:
    """Short winning lines for the deals of finished games, worked out once per game."""

    def __init__(self, store: Store, solo: SoloPlay, *, clock: Callable[[], float] = time.time,
                 limit: int = SOLUTION_LIMIT) -> None:
        self.store = store
        self.work = solo.work
        self.limits = solo.limits
        self.clock = clock
        self.secrecy = Secrecy(store, clock)
        self.limit = limit
        self._kept: OrderedDict[int, WinningLine | NoWinningLine] = OrderedDict()

    async def solution(self, game_id: int | None, player: Player) -> WinningLine | NoWinningLine:
        """A short winning line for the deal of the player's finished game (`game_id`, or the
        one that ended last), under the rule of `finished_game_for_review` (its errors). NoSolver
        for a game the solver does not cover; RateLimited when the player has had their share
        of solutions lately (a line already worked out costs nothing)."""
        stored, _ = await finished_game_for_review(self.store, self.secrecy, game_id, player)
        start = rebuild(dataclasses.replace(stored, moves=[], snapshot=None))
        if not covers(start):
            raise NoSolver(start.name)
        kept = self._kept.get(stored.id)
        if kept is not None:
            self._kept.move_to_end(stored.id)
            return kept
        check_limit(self.limits, player.id, "solution")
        status, moves = await self.work.search(player.id, work_out_line, start, self.limit)
        found: WinningLine | NoWinningLine
        if status == "winnable":
            found = WinningLine(stored.id, start.name, moves)
        else:
            found = NoWinningLine(stored.id, start.name, gave_up=status == "gave-up")
        self._kept[stored.id] = found
        while len(self._kept) > SOLUTIONS_KEPT:
            self._kept.popitem(last=False)
        return found

    async def winning_line(self, game_id: int, player: Player) -> WinningLine:
        """The winning line whose pages a button turns: `solution`, and NoPages when the deal
        has none (a button made up, since only a winning line has pages)."""
        found = await self.solution(game_id, player)
        if isinstance(found, NoWinningLine):
            raise NoPages(game_id)
        return found
