"""Bulk drawing (a replay: hundreds of boards in one GIF) in a place of its own, so that it never
holds up the boards everyone else is waiting for.

- One process of its own, in either render mode: never the pool that draws boards (render.workers),
  nor the bot's own process, where a drawing in a thread would take turns with the event loop for
  the GIL. It runs at a lower CPU priority than the bot (NICENESS, as the searches of
  bot.play.work), so that on a busy machine the event loop and the boards go first.
- A waiting line: one drawing at a time, at most `waiting` (WAITING) more holding a place in line;
  a drawing asked for when the line is full is refused at once (LineFull), never queued.
- Each member one drawing at a time: another, asked for while theirs holds a place, is refused at
  once (AlreadyDrawing). The per-member rate limit ("replay" of bot.play.work.LIMITS) is counted
  by the caller (bot.play.review), once its place is had, so a refusal here costs nothing.
- A drawing that takes more than TIMEOUT seconds is given up and its process killed (TookTooLong).
- Memory: the process holds one drawing's frames at a time (render.replay writes them in parts);
  it gives back what Python and malloc let go of after each drawing, and is replaced when it is
  left holding more than RECYCLE_BYTES anyway, or after a failure; after IDLE_SECONDS without
  work it ends, so that a crowd of replays leaves nothing behind. The result comes back to the
  bot as bytes, which the caller sends and lets go of.

Requests and results go over a pipe, pickled; the blocking reads happen in a thread of this
module's own (bot.threads), so the event loop never waits on a pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable, Iterator
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot.play.errors import AlreadyDrawing, LineFull, TookTooLong
from bot.play.work import NICENESS
from bot.processes import exit_with_the_bot
from bot.threads import Threads

T = TypeVar("T")
log = logging.getLogger(__name__)

WAITING = 8  # drawings holding a place in line behind the one being drawn: a crowd of 8 members fits
TIMEOUT = 180.0  # seconds a drawing may take (the longest replay takes some 15 s on a busy machine)
RECYCLE_BYTES = 300 * 1024 * 1024  # resident memory past which the process is replaced after a drawing
IDLE_SECONDS = 30.0  # the process ends after this long without a drawing


class DrawingProcessDied(Exception):
    """The bulk drawing process ended before it answered (killed, or out of memory)."""


class BulkDrawing:
    """The place of bulk drawing: its process, its line, who holds a place in it."""

    def __init__(self, *, waiting: int = WAITING, timeout: float = TIMEOUT, recycle_bytes: int = RECYCLE_BYTES,
                 idle_seconds: float = IDLE_SECONDS, preload: tuple[str, ...] = ()) -> None:
        self.waiting = waiting
        self.timeout = timeout
        self.recycle_bytes = recycle_bytes
        self.idle_seconds = idle_seconds
        self.preload = preload  # modules the process starts with imported (its forkserver's)
        self.processes_started = 0
        self.last_rss = 0  # the process's resident bytes after its last drawing
        self._holders: set[int] = set()  # members holding a place in line (or being drawn for)
        self._turn = asyncio.Lock()  # the drawing in progress holds it; the line waits for it, in order
        self._reader = Threads(1, "bulk")
        self._worker: _Worker | None = None
        self._idle: asyncio.TimerHandle | None = None

    @property
    def in_line(self) -> int:
        """How many drawings hold a place (the one being drawn among them)."""
        return len(self._holders)

    @property
    def process(self) -> BaseProcess | None:
        """The drawing process, while there is one."""
        return None if self._worker is None else self._worker.process

    @contextlib.contextmanager
    def place(self, member_id: int) -> Iterator[Ticket]:
        """A place in line for the member, had at once or refused at once: AlreadyDrawing when
        they hold one, LineFull when `waiting` drawings wait already. Given back on leaving."""
        if member_id in self._holders:
            raise AlreadyDrawing()
        if len(self._holders) > self.waiting:
            raise LineFull(self.waiting)
        self._holders.add(member_id)
        try:
            yield Ticket(self)
        finally:
            self._holders.discard(member_id)

    async def _draw(self, function: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        """`function(*args, **kwargs)` in the process, once the drawings before it are done."""
        async with self._turn:
            if self._idle is not None:
                self._idle.cancel()
                self._idle = None
            worker = self._worker
            if worker is None or not worker.alive:
                # Started in the reading thread: the first start launches multiprocessing's forkserver,
                # which imports `preload` before it answers (some seconds on a busy machine).
                worker = await self._reader.call(partial(_Worker, self.preload))
                self._worker = worker
                self.processes_started += 1
            try:
                call = partial(worker.call, function, args, kwargs)
                done, value, rss = await asyncio.wait_for(self._reader.call(call), self.timeout)
            except TimeoutError:
                log.warning("a bulk drawing took more than %g s: its process is stopped", self.timeout)
                self._retire(worker)
                raise TookTooLong(self.timeout) from None
            except (EOFError, OSError) as error:
                self._retire(worker)
                raise DrawingProcessDied() from error
            finally:
                self._idle = asyncio.get_running_loop().call_later(self.idle_seconds, self._retire_idle)
            self.last_rss = rss
            if not done or rss > self.recycle_bytes:
                self._retire(worker)
            if not done:
                raise value
            return value

    def _retire_idle(self) -> None:
        """No drawing for IDLE_SECONDS: the process ends (unless one has begun meanwhile)."""
        self._idle = None
        if self._worker is not None and not self._turn.locked():
            self._retire(self._worker)

    def _retire(self, worker: _Worker) -> None:
        """Stop the process (what it holds goes back to the system); the next drawing starts another."""
        if self._worker is worker:
            self._worker = None
        worker.stop()

    def stop(self) -> None:
        """Stop the process and the reading thread (the bot is closing)."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._worker is not None:
            self._retire(self._worker)
        self._reader.stop(wait=False)


class Ticket:
    """A place in bulk drawing's line (BulkDrawing.place)."""

    def __init__(self, bulk: BulkDrawing) -> None:
        self._bulk = bulk

    async def draw(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`function(*args, **kwargs)` (a module-level function, arguments and result that pickle)
        in the bulk drawing process, once the drawings ahead are done; what it raises is raised
        here. TookTooLong past the time allowed; DrawingProcessDied if its process ended."""
        return await self._bulk._draw(function, args, kwargs)


class _Worker:
    """The process and this end of its pipe."""

    def __init__(self, preload: tuple[str, ...]) -> None:
        context = multiprocessing.get_context("forkserver")
        if preload:
            context.set_forkserver_preload(list(preload))  # only before the forkserver starts, as render.workers does
        ours, theirs = context.Pipe()
        self.process: BaseProcess = context.Process(target=_serve, args=(theirs,), name="bulk-drawing", daemon=True)
        self.process.start()
        theirs.close()
        self.connection: Connection = ours
        self.busy = False  # a call waits for its outcome (in the reading thread)

    @property
    def alive(self) -> bool:
        """Whether the process is still there."""
        return self.process.is_alive()

    def call(self, function: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> tuple[bool, Any, int]:
        """Send the call and wait for its outcome: (True, result, rss) or (False, exception, rss).
        Blocks: run in the reading thread."""
        self.busy = True
        try:
            self.connection.send((function, args, kwargs))
            return self.connection.recv()
        except (EOFError, OSError):
            self.connection.close()  # here, where nothing reads it any more
            raise
        finally:
            self.busy = False

    def stop(self) -> None:
        """Kill the process; a read waiting on its pipe then ends with EOFError, and closes it."""
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.join(5)
        if not self.busy:
            self.connection.close()


def _serve(connection: Connection) -> None:
    """The bulk drawing process: at a lower priority, each call in turn until the bot closes its end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's to handle: it ends us
    os.nice(NICENESS)
    exit_with_the_bot()
    while True:
        try:
            function, args, kwargs = connection.recv()
        except (EOFError, OSError):
            return
        try:
            outcome: tuple[bool, Any] = (True, function(*args, **kwargs))
        except Exception as error:
            error.__notes__ = [*getattr(error, "__notes__", []), "".join(traceback.format_exception(error))]
            outcome = (False, error)
        del function, args, kwargs
        gc.collect()
        give_back_memory()
        try:
            connection.send((*outcome, resident_bytes()))
        except Exception as error:  # an unpicklable result or exception: its words, at least
            with contextlib.suppress(OSError):
                connection.send((False, RuntimeError(f"{error!r} (unpicklable)"), resident_bytes()))
        del outcome


def give_back_memory() -> None:
    """Hand the memory malloc holds free back to the system (glibc's malloc_trim; elsewhere
    nothing): some milliseconds, for after a large result has come and gone (a replay's GIF)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)


def resident_bytes(pid: int | None = None) -> int:
    """The resident memory of a process (this one by default), in bytes; 0 where unknown."""
    try:
        with open(f"/proc/{pid or 'self'}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
