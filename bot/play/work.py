"""Where costly work runs, so that one member cannot slow the others.

- Engine work (a move carried out on a copy of the game) runs in a few threads of its own, never
  on the event loop, and apart from the threads that draw boards.
- The searches run in worker processes, at a lower CPU priority than the bot (nice NICENESS), so
  that the event loop and the boards go first on a busy machine: the pure-Python ones (a move's
  outcome that a short search in the engine thread does not settle, a hint: up to DEAD_LIMIT
  positions, half a second; a short winning line for /solution, a third of a second typically and
  some 5 s at worst) in SEARCH_PROCESSES; the end-of-game verdicts (up to VERDICT_LIMIT
  positions in C, some 1.5 s) in one more, with a short waiting line: when it is full, a
  verdict is not worked out at all (`Busy`). In threads, a pure-Python search holds the GIL and
  every other member's answer waits for it: benchmarks/abuse.py (then with its bystanders in a
  closed loop) measured their p95 going from 179 ms to 271 ms under one member's moves, 310 ms
  under their hints. A game goes to a process pickled (some 13 KB after 70 moves, 0.2 ms) and
  comes back so.
- Each member's costly work runs one piece at a time, in the order asked: a member's own spam
  waits behind their own work, not everyone's.
- Per-member rate limits for the costly actions, and for public posts in each channel (`RateLimiter`).

The processes are spawned (their parent is the bot, whose end they watch), so the main module
must be safe to import, as `python -m bot`'s is.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from bot.processes import exit_with_the_bot
from bot.threads import Threads

T = TypeVar("T")
log = logging.getLogger(__name__)

ENGINE_THREADS = 4  # moves of four members at once; each member has one at a time
# Searches of two members at once, one a core (each member has one at a time): one member's
# searches leave the other process to everyone else.
SEARCH_PROCESSES = 2
VERDICT_PROCESSES = 1  # one core at most for verdicts
VERDICT_WAITING = 2  # verdicts waiting for the verdict process, beyond which none is worked out
NICENESS = 10  # how much lower the processes' CPU priority is than the bot's


class Busy(Exception):
    """The verdict process has as many verdicts waiting as it may: this one is not worked out."""


@dataclass(frozen=True, slots=True)
class Limit:
    """At most `count` actions in any `seconds`."""

    count: int
    seconds: float


# The costly actions a member may ask for, and how often.
LIMITS = {
    "new-game": Limit(8, 60.0),  # solo games, match rounds, dailies
    "hint": Limit(20, 60.0),
    "verdict": Limit(6, 60.0),
    "analysis": Limit(6, 300.0),  # where a game was lost: some searches each (bot.play.review)
    "lobby": Limit(4, 300.0),  # match and race lobbies opened
    "solution": Limit(6, 60.0),  # short winning lines worked out (bot.play.solution)
    "replay": Limit(5, 300.0),  # animated replays: some 3 s of drawing each for a 300-move game
    # Public posts in one channel (bot.play.posts), counted channel by channel: one every 6 s on
    # average, near Discord's shortest slowmode (5 s), more than anyone reads, far below a flood.
    "post": Limit(10, 60.0),
    # What a member's web table sends (bot/play/table.py): more than hands can drag, far below a
    # flood of store writes that would slow everyone's moves.
    "web": Limit(10, 1.0),
}
SWEEP_ABOVE = 10_000  # counts kept (a member's action in a place) beyond which the old ones are swept


class RateLimiter:
    """Per-member sliding-window limits: `check` counts an action, or says how long to wait. An
    action counted in a `place` (a channel, say) is limited in each place apart."""

    def __init__(self, limits: dict[str, Limit] | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = LIMITS if limits is None else limits
        self.clock = clock
        self._times: dict[tuple[int, str, int | None], deque[float]] = {}
        self._sweep_above = SWEEP_ABOVE

    def check(self, member_id: int, action: str, place: int | None = None, *, now: float | None = None) -> float:
        """Count one `action` of the member (in `place`) at `now` (the clock's time by default) and
        return 0; or, when they have had their `LIMITS[action]` already, count nothing and return
        the seconds until they may (1 or more)."""
        limit = self.limits[action]
        now = self.clock() if now is None else now
        times = self._times.setdefault((member_id, action, place), deque())
        while times and times[0] <= now - limit.seconds:
            times.popleft()
        if len(times) >= limit.count:
            return max(1.0, times[0] + limit.seconds - now)
        times.append(now)
        if len(self._times) > self._sweep_above:
            self._sweep(now)
        return 0.0

    def kept(self) -> int:
        """How many counts it keeps (a member's action in a place), the old ones until a sweep."""
        return len(self._times)

    def take_back(self, member_id: int, action: str, at: float, place: int | None = None) -> None:
        """Forget the `action` counted at `at` (in `place`): it was not carried out after all."""
        times = self._times.get((member_id, action, place))
        if times is not None and at in times:
            times.remove(at)

    def _sweep(self, now: float) -> None:
        """Forget the counts whose every action has left its window; sweep again only once as many
        more are kept, so that many members at once do not make every check a sweep."""
        for key in [key for key, times in self._times.items()
                    if not times or times[-1] <= now - self.limits[key[1]].seconds]:
            del self._times[key]
        self._sweep_above = max(SWEEP_ABOVE, 2 * len(self._times))


class Work:
    """The engine threads, the search and verdict processes (shared by every Work of the
    process), and each member's turn."""

    def __init__(self, *, engine_threads: int = ENGINE_THREADS, verdict_waiting: int = VERDICT_WAITING) -> None:
        self._engine = Threads(engine_threads, "engine")
        self._verdict_waiting = verdict_waiting
        self._verdicts_in = 0  # verdicts running or waiting
        # Searches and verdicts handed to their processes and not back yet, by kind (the bot's metrics read it).
        self.in_processes: Counter[str] = Counter()
        self._turns = Turns()

    async def engine(self, member_id: int, function: Callable[..., T], /, *args: object) -> T:
        """`function(*args)` in an engine thread, after the member's earlier work."""
        async with self._turns.turn(member_id):
            return await self._engine.call(partial(function, *args))

    async def search(self, member_id: int, function: Callable[..., T], /, *args: object) -> T:
        """`function(*args)` in a search process, after the member's earlier work: a module-level
        function and arguments that pickle. In a thread instead if the process died meanwhile."""
        async with self._turns.turn(member_id):
            return await self._in_process("search", partial(function, *args))

    async def verdict(self, member_id: int, function: Callable[..., T], /, *args: object, **kwargs: object) -> T:
        """`function(*args, **kwargs)` in the verdict process, after the member's earlier work
        (a module-level function and arguments that pickle); Busy at once when the verdict
        process has VERDICT_WAITING verdicts waiting already."""
        if self._verdicts_in >= VERDICT_PROCESSES + self._verdict_waiting:
            raise Busy
        self._verdicts_in += 1
        try:
            async with self._turns.turn(member_id):
                return await self._in_process("verdict", partial(function, *args, **kwargs))
        finally:
            self._verdicts_in -= 1

    def stop(self) -> None:
        """Let the engine threads go once their work is done."""
        self._engine.stop(wait=False)

    async def _in_process(self, kind: str, call: Callable[[], T]) -> T:
        """`call()` in a process of `kind`; in an engine thread instead if one died meanwhile
        (new ones start for the next call)."""
        loop = asyncio.get_running_loop()
        pool = _processes(kind)
        self.in_processes[kind] += 1
        try:
            return await loop.run_in_executor(pool, call)
        except BrokenProcessPool:
            log.warning("a %s process died: starting new ones", kind)
            if _pools.get(kind) is pool:
                del _pools[kind]
            pool.shutdown(wait=False, cancel_futures=True)
            return await self._engine.call(call)
        finally:
            self.in_processes[kind] -= 1


class Turns:
    """Each member's turn: what is done in it is done one at a time per member, in the order
    asked, while other members' turns go on."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._queued: Counter[int] = Counter()  # by member: holding or waiting for their turn

    @asynccontextmanager
    async def turn(self, member_id: int) -> AsyncIterator[None]:
        """Wait for the member's earlier business to end, then hold their turn."""
        lock = self._locks.setdefault(member_id, asyncio.Lock())
        self._queued[member_id] += 1
        try:
            async with lock:
                yield
        finally:
            self._queued[member_id] -= 1
            if not self._queued[member_id]:  # nobody holds or waits for it: forget it
                del self._queued[member_id], self._locks[member_id]


_pools: dict[str, ProcessPoolExecutor] = {}


def _processes(kind: str) -> ProcessPoolExecutor:
    """The processes of `kind` ("search" or "verdict"), started when first needed."""
    pool = _pools.get(kind)
    if pool is None:
        count = SEARCH_PROCESSES if kind == "search" else VERDICT_PROCESSES
        pool = _pools[kind] = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=_start_worker)
    return pool


def start_processes() -> None:
    """Start the search and verdict processes now rather than at their first use: a process
    imports the bot's modules as it starts (some 0.4 s of CPU), which the first member to need
    one would otherwise wait for."""
    for kind, count in (("search", SEARCH_PROCESSES), ("verdict", VERDICT_PROCESSES)):
        pool = _processes(kind)
        for _ in range(count):
            pool.submit(int)


def _start_worker() -> None:
    """In a new worker process: a lower CPU priority, and an end with the bot's."""
    os.nice(NICENESS)
    exit_with_the_bot()
