"""Short winning lines: a line a person can read, from the solver's depth-first one.

The depth-first search of `solver.solve` finds a win quickly, but its line wanders: on some deals
it shuffles cards between the columns and the waste for thousands of moves before the next card
reaches a foundation. A win is a chain of progress (a card to a foundation, a reserve card
turned up) with moves between that make none. `short_line`, measured on Jan Wolter's 70 won
deals (benchmarks/solver.py):

- takes the line of the search with the reference solver's automatic foundation moves when it
  finds one (base-rank cards go up at once: fewer detours), else the exact search's;
- keeps its chain of progress and makes each stretch between two steps of progress as short as
  a breadth-first search among the moves that make no progress finds (`shorten`: the stretch's
  positions all have the same foundations and reserve, so that search is small), or, when the
  stretch is too long for that, jumps again and again to the furthest of its positions found;
- then, from each position of the line, takes the shortcut to a later position that saves the
  most moves among a few hundred positions searched with every move (`cut_corners`).

Every position is compared by the solver's key, and each move is found again from the position
actually reached, so the line stays legal move by move.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from bot.game.moves import Move
from bot.game.solver import Search, SearchStep, Solution, State, card_indexes, covers, expand, solve

if TYPE_CHECKING:
    from bot.game.patience import Game

# Positions one stretch's breadth-first search may look at before keeping the solver's stretch.
STRETCH_LIMIT = 20_000
# Positions searched from each position of a line for a shortcut to a later one.
SHORTCUT_LIMIT = 300
# Positions the search with the reference solver's foundation moves may look at (about 2 s) before
# the exact search is asked instead: on some deals it is slow where the exact one is fast.
REFERENCE_LIMIT = 1_500_000
# An edge of a line: the steps it makes (a move, then the safe foundation moves after it) and
# the settled position it reaches.
Edge = tuple[list[SearchStep], State]


def steps_of(moves: list[Move]) -> list[SearchStep]:
    """The searched steps of a line of canonical moves (the inverse of solver.expand)."""
    steps: list[SearchStep] = []
    draws = 0
    for move in moves:
        if move.is_draw:
            draws += 1
        else:
            steps.append((draws, move.src, move.dst, move.count))
            draws = 0
    return steps


def non_draw_count(moves: list[Move]) -> int:
    """How many moves of a line are not draws: its length as a person counts it."""
    return sum(1 for move in moves if not move.is_draw)


def _edges(search: Search, state: State) -> Iterator[tuple[list[SearchStep], State, bool]]:
    """Every move from a settled position, with the safe foundation moves it lets the search
    make: (the steps, the settled position after, whether the foundations or the reserve changed)."""
    for step, after, progress in search.moves(state):
        settled, automatic = search.auto(after)
        yield [step, *automatic], settled, bool(progress or automatic)


def _level(state: State) -> tuple:
    """What only progress changes: the foundations and the reserve."""
    return state[0], state[1]


def _replay(search: Search, state: State, steps: list[SearchStep]) -> tuple[list[State], list[int]]:
    """The settled positions along a line of steps that starts at the settled `state`, and
    how many steps the line has made at each."""
    positions, costs = [state], [0]
    index = 0
    while index < len(steps):
        found = next(((made, settled) for made, settled, _ in _edges(search, state)
                      if made == steps[index:index + len(made)]), None)
        if found is None:
            raise ValueError(f"step {index} of the line is not a move from its position: {steps[index]}")
        made, state = found
        index += len(made)
        positions.append(state)
        costs.append(index)
    return positions, costs


def _edge_to(search: Search, state: State, target: tuple) -> Edge:
    """The move from `state` to a position whose key is `target`, with its steps."""
    for made, settled, _ in _edges(search, state):
        if search.key(settled) == target:
            return made, settled
    raise ValueError("no move reaches the line's next position")


def _path(parents: dict[tuple, tuple[tuple | None, Edge]], key: tuple) -> list[Edge]:
    """The way a breadth-first search came to the position whose key is `key`: `parents` gives
    each position's parent (None for the start) and the edge from it."""
    path: list[Edge] = []
    back, edge = parents[key]
    while back is not None:
        path.append(edge)
        back, edge = parents[back]
    return path[::-1]


def _towards(search: Search, state: State, targets: dict[tuple, int], floor: int, goal: int,
             limit: int) -> tuple[list[Edge], int]:
    """The fewest moves without progress from `state` to the position
    of index `goal` (`targets` gives the index of each position of the line by its key); when
    the search looks at `limit` positions before it finds that one, the way to the position of
    the highest index above `floor` that it found. `([], floor)` when it found none."""
    parents: dict[tuple, tuple[tuple | None, Edge]] = {search.key(state): (None, ([], state))}
    best, best_key = floor, search.key(state)
    frontier = [state]
    while frontier and best < goal and len(parents) <= limit:
        next_frontier: list[State] = []
        for position in frontier:
            here = search.key(position)
            for made, settled, progress in _edges(search, position):
                key = search.key(settled)
                if progress or key in parents:
                    continue
                parents[key] = (here, (made, settled))
                next_frontier.append(settled)
                index = targets.get(key, -1)
                if goal >= index > best:
                    best, best_key = index, key
                    if best == goal:
                        break
            if best == goal or len(parents) > limit:
                break
        frontier = next_frontier
    return _path(parents, best_key), best


def _follow(line: list[SearchStep], path: list[Edge], state: State) -> State:
    """Add the steps of `path` to `line`; the position at its end (`state` for no path)."""
    for made, _ in path:
        line.extend(made)
    return path[-1][1] if path else state


def shorten(search: Search, root: State, steps: list[SearchStep], limit: int = STRETCH_LIMIT) -> list[SearchStep]:
    """A line of steps from the (unsettled) `root` to the same win as `steps` that makes the same
    progress in the same order, each stretch between two steps of progress shortened: the
    shortest way to the stretch's end when a search of `limit` positions finds it, else the
    shortest way to the furthest of its positions that the search finds, again and again."""
    state, opening = search.auto(root)
    if steps[:len(opening)] != opening:
        raise ValueError("the line does not start with the position's safe foundation moves")
    positions, _ = _replay(search, state, steps[len(opening):])
    keys = [search.key(position) for position in positions]
    targets = {key: index for index, key in enumerate(keys)}
    line = list(opening)
    start = 0
    while True:
        end = start
        while end + 1 < len(positions) and _level(positions[end + 1]) == _level(positions[start]):
            end += 1
        at = start
        while at < end:
            path, reached = _towards(search, state, targets, at, end, limit)
            if reached == at:
                raise ValueError(f"no way found from position {at} of the line to the next")
            state, at = _follow(line, path, state), reached
        if end + 1 == len(positions):
            return line
        made, state = _edge_to(search, state, keys[end + 1])
        line.extend(made)
        start = end + 1


def _shortcut(search: Search, state: State, targets: dict[tuple, int], costs: list[int], at: int,
              limit: int) -> tuple[list[Edge], int]:
    """From `state`, the line's position of index `at`, the way to a later position of the line
    (`targets` gives their indexes by key, `costs` the steps of the line up to each) that saves
    the most steps, among `limit` positions searched breadth-first with every move; `([], at)`
    when none saves any."""
    start = search.key(state)
    parents: dict[tuple, tuple[tuple | None, Edge]] = {start: (None, ([], state))}
    spent = {start: 0}  # steps from the start
    best, best_key, saved = at, start, 0
    frontier = [state]
    while frontier and len(parents) <= limit:
        next_frontier: list[State] = []
        for position in frontier:
            here = search.key(position)
            for made, settled, _ in _edges(search, position):
                key = search.key(settled)
                if key in parents:
                    continue
                parents[key], spent[key] = (here, (made, settled)), spent[here] + len(made)
                next_frontier.append(settled)
                index = targets.get(key, -1)
                if index > at and costs[index] - costs[at] - spent[key] > saved:
                    best, best_key, saved = index, key, costs[index] - costs[at] - spent[key]
            if len(parents) > limit:
                break
        frontier = next_frontier
    return _path(parents, best_key), best


def cut_corners(search: Search, root: State, steps: list[SearchStep], limit: int = SHORTCUT_LIMIT) -> list[SearchStep]:
    """The line of steps from the (unsettled) `root` with shortcuts taken: from each position,
    the way to a later one that saves the most steps, found among `limit` positions."""
    state, opening = search.auto(root)
    positions, costs = _replay(search, state, steps[len(opening):])
    keys = [search.key(position) for position in positions]
    targets = {key: index for index, key in enumerate(keys)}
    line = list(opening)
    at = 0
    while at + 1 < len(positions):
        path, reached = _shortcut(search, state, targets, costs, at, limit)
        if not path:
            path, reached = [_edge_to(search, state, keys[at + 1])], at + 1
        state = _follow(line, path, state)
        at = reached
    return line


def short_line(game: Game, *, limit: int = 3_000_000, seconds: float | None = None,
               shortcut_limit: int = SHORTCUT_LIMIT) -> Solution:
    """A short winning line from the game's position with every card known: the solver's line
    (see `solver.solve`, whose `limit` and `seconds` apply to each search), with each stretch
    between two steps of progress made as short as can be found (`shorten`), then shortcuts
    taken (`cut_corners`, searching `shortcut_limit` positions from each position; 0: none).
    Unless the exact search proves the deal unwinnable, the line shortened is the one the
    search with the reference solver's automatic foundation moves finds (up to REFERENCE_LIMIT
    positions), far shorter on some deals, else the exact search's. The same statuses as `solve`. ValueError for a
    game the solver does not cover."""
    if not covers(game):
        raise ValueError(f"the solver does not cover {game.name}: it knows the one-deck Canfield family")
    start = time.perf_counter()
    solution = solve(game, limit=limit, seconds=seconds)
    if solution.status == "unwinnable":
        return Solution(solution.status, positions=solution.positions, seconds=time.perf_counter() - start)
    # Its wins are wins: it may find one where the exact search gave up.
    referenced = solve(game, limit=min(limit, REFERENCE_LIMIT), seconds=seconds, reference=True)
    reference = referenced.status == "winnable"
    if reference:
        solution = referenced
    elif solution.status != "winnable":
        return Solution(solution.status, positions=solution.positions, seconds=time.perf_counter() - start)
    search = Search(game, card_indexes(game.reserve), reference=reference)
    root = Search.state_of(game)
    steps = shorten(search, root, steps_of(solution.moves))
    if shortcut_limit:
        steps = cut_corners(search, root, steps, shortcut_limit)
    return Solution("winnable", moves=expand(steps), positions=solution.positions,
                    seconds=time.perf_counter() - start)
