"""Where a game was lost: the last position of a player's line from which the deal could still
be won with every card known, the move that lost it, and a move that still won there.

Winnability along a line never comes back once lost (every position after an unwinnable one is
reached from it), so a bisection over the line finds the place with a logarithmic number of
searches: the deal's start, the line's end, then halves. `bisection` is that bisection as a
generator, so that each search can run wherever its caller likes (a search process, one at a
time); `analyse` runs it here.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from enum import StrEnum

from bot.game.games import Game
from bot.game.moves import Move
from bot.game.solver import Solution, solve


class Verdict(StrEnum):
    """What the analysis found; the store keeps the value."""

    LOST = "lost"  # winnable from the start, lost by a move of the line (or by resigning)
    NEVER = "never"  # the deal could not be won at all
    WON = "won"  # the game was won
    UNKNOWN = "unknown"  # the solver gave up on a position it needed


@dataclass(frozen=True, slots=True)
class Analysis:
    """Where a line was lost. With LOST: after `lost_after` moves of the line the deal could no
    longer be won; `losing_move` is the line's move number `lost_after` (None when the player
    resigned while the deal could still be won: then `lost_after` is the whole line), and
    `better_move` the first move of a winning line from the position before it."""

    verdict: Verdict
    lost_after: int | None = None
    losing_move: Move | None = None
    better_move: Move | None = None


def start_of(game: Game) -> Game:
    """A new game with the same deck and rules, before any move (by its deal number, when it has
    one, so that the board says which deal it is)."""
    return game.restarted()


def position_after(game: Game, count: int) -> Game:
    """A game at the position after the first `count` moves of `game`'s line."""
    replay = start_of(game)
    for move in game.moves[:count]:
        replay.play(move)
    return replay


def bisection(game: Game) -> Generator[int, Solution, Analysis]:
    """The analysis of a finished game's line, as a generator: it yields how many moves of the
    line to play before the next search, is sent that position's Solution, and returns the
    Analysis. UNKNOWN as soon as a search it needs gives up."""
    moves = game.moves
    if game.foundation_cards == len(game.cards):
        return Analysis(Verdict.WON)
    start = yield 0
    if start.status == "unwinnable":
        return Analysis(Verdict.NEVER)
    if start.status != "winnable":
        return Analysis(Verdict.UNKNOWN)
    end = (yield len(moves)) if moves else start
    if end.status == "winnable":  # resigned while it could still be won
        return Analysis(Verdict.LOST, len(moves), None, end.moves[0])
    if end.status != "unwinnable":
        return Analysis(Verdict.UNKNOWN)
    # Invariant: the position after `won` moves is winnable (by `line`), after `lost` moves not.
    won, lost, line = 0, len(moves), start.moves
    while lost - won > 1:
        middle = (won + lost) // 2
        found = yield middle
        if found.status == "winnable":
            won, line = middle, found.moves
        elif found.status == "unwinnable":
            lost = middle
        else:
            return Analysis(Verdict.UNKNOWN)
    return Analysis(Verdict.LOST, lost, moves[lost - 1], line[0])


def analyse(game: Game, *, limit: int, search: Callable[..., Solution] = solve) -> Analysis:
    """The Analysis of a finished game's line, each search (`search(game, limit=limit)`, the
    solver by default) run here."""
    steps = bisection(game)
    try:
        count = next(steps)
        while True:
            count = steps.send(search(position_after(game, count), limit=limit))
    except StopIteration as done:
        return done.value


def solve_after(game: Game, count: int, limit: int) -> Solution:
    """The solver's answer for the position after `count` moves of the game's line (a
    module-level function, for a search process)."""
    return solve(position_after(game, count), limit=limit)
