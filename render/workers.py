"""Where boards are drawn: in a drawing thread of the bot's process (the default), or in worker
processes (`RENDER_PROCESSES`), which take the drawing off the bot's GIL.

A board costs some 1.5 to 3 ms of CPU (drawn from the game's last board, render.redraw), most of
it in Pillow and zlib. In a thread, the drawing and the event loop take turns with one GIL, so
under load an answer waits for drawings that are not its own (benchmarks/load.py profiles it).
In processes, the drawing runs beside the event loop on another core; the game is pickled there
and the PNG back (some 2 KB and 40 KB).
Each process has one worker of its own, and a game's boards are always drawn by the same one,
which keeps the game's last board and draws the next only where it differs (render.redraw).

Each drawing process has a socket of its own to the bot: a request is an id and the pickled
call, an answer the same id and the pickled result or exception, each after its length. The
event loop reads the answers as they come (`loop.add_reader`) and settles the drawing's future
at once, and writes without ever blocking, the requests of one turn of the loop in one write (a
burst wakes a process once, not once a board): no thread in between (a ProcessPoolExecutor's
manager thread and its futures cost the bot's process some 10% of its CPU in a burst).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import pickle
import signal
import socket
import struct
import traceback
from collections.abc import Callable
from functools import partial
from multiprocessing.process import BaseProcess
from typing import Any

from bot.processes import exit_with_the_bot
from bot.threads import Threads

log = logging.getLogger(__name__)
HEADER = struct.Struct("!IQ")  # a message's length, and its drawing's id
RECEIVE_BYTES = 1 << 18  # read at most this much at a time: a few PNGs
# Without worker processes, one thread draws, the boards waiting their turn: more threads would only
# take turns with the GIL (and the event loop) more often, as Pillow and zlib let it go for each
# piece they draw (benchmarks/load.py --burst: some 5% less CPU an interaction than asyncio's
# six threads, and a burst answered as soon).
_threads = Threads(1, "drawing")


class DrawingProcessDied(Exception):
    """The drawing process died before it answered (internal: the drawing is done in a thread)."""


class RemoteTraceback(Exception):
    """Where an exception was raised in a drawing process: set as its cause."""

    def __str__(self) -> str:
        return str(self.args[0])


class _Worker:
    """A drawing process, started at its first drawing, and this process's end of its socket."""

    def __init__(self) -> None:
        self.process: BaseProcess | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.socket: socket.socket | None = None
        self.pending: dict[int, asyncio.Future[Any]] = {}  # drawings asked for, by id
        self.unsent = bytearray()  # requests not written yet
        self.write_soon = False  # a write of them is due in this turn of the event loop
        self.writing = False  # the socket was full: they are written when it can take more
        self.received = bytearray()  # answers not all read yet
        self.dead = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start the process, its socket read (and written when full) by `loop`."""
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["render", "bot.game"])  # each worker starts with them imported
        ours, theirs = socket.socketpair()
        try:
            process = context.Process(target=_serve, args=(theirs,), name="drawing", daemon=True)
            process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        self.process = process
        self.socket, self.loop = ours, loop
        loop.add_reader(ours.fileno(), self._read)

    def ask(self, function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> asyncio.Future[Any]:
        """Send the drawing: its future is settled when the answer is read."""
        assert self.loop is not None
        future = self.loop.create_future()
        if self.dead:
            future.set_exception(DrawingProcessDied())
            return future
        request = pickle.dumps((function, args, kwargs), pickle.HIGHEST_PROTOCOL)
        ident = next(_ids)
        self.pending[ident] = future
        self._send(HEADER.pack(len(request), ident) + request)
        return future

    def _send(self, message: bytes) -> None:
        """Queue a message: the ones asked for in one turn of the event loop go in one write
        (`_write`, soon after), so a burst's drawings wake the process once, not once each."""
        assert self.loop is not None
        if not self.writing and not self.write_soon:
            self.write_soon = True
            self.loop.call_soon(self._write)
        self.unsent += message

    def _write(self) -> None:
        """Write what the socket takes of the queued messages; the rest when it can take more."""
        self.write_soon = False
        if self.socket is None or self.loop is None or not self.unsent:
            return
        try:
            sent = self.socket.send(self.unsent)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._died()
            return
        del self.unsent[:sent]
        if self.unsent and not self.writing:
            self.loop.add_writer(self.socket.fileno(), self._write)
            self.writing = True
        elif not self.unsent and self.writing:
            self.loop.remove_writer(self.socket.fileno())
            self.writing = False

    def _read(self) -> None:
        assert self.socket is not None
        try:
            data = self.socket.recv(RECEIVE_BYTES)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._died()
            return
        self.received += data
        while len(self.received) >= HEADER.size:
            size, ident = HEADER.unpack_from(self.received)
            end = HEADER.size + size
            if len(self.received) < end:
                return
            answer = self.received[HEADER.size:end]
            del self.received[:end]
            future = self.pending.pop(ident, None)
            if future is not None and not future.done():  # not cancelled meanwhile
                _settle(future, answer)

    def _died(self) -> None:
        """The process is gone: every drawing waiting for it fails, to be done in a thread."""
        self.dead = True
        self._close_socket()
        for future in self.pending.values():
            if not future.done():
                future.set_exception(DrawingProcessDied())
        self.pending.clear()

    def _close_socket(self) -> None:
        if self.socket is None:
            return
        assert self.loop is not None
        self.loop.remove_reader(self.socket.fileno())
        self.loop.remove_writer(self.socket.fileno())
        self.socket.close()
        self.socket = None

    def stop(self) -> None:
        """End the process and cancel the drawings waiting for it."""
        self._close_socket()
        for future in self.pending.values():
            future.cancel()
        self.pending.clear()
        if self.process is not None:
            self.process.terminate()
            self.process.join()


def _settle(future: asyncio.Future[Any], answer: bytearray) -> None:
    """Set the future's result, or its exception, from a drawing process's answer."""
    try:
        done, value, where = pickle.loads(answer)
    except Exception as error:  # such as an exception whose class takes other arguments than its args
        future.set_exception(error)
        return
    if done:
        future.set_result(value)
    else:
        value.__cause__ = RemoteTraceback(where)
        future.set_exception(value)


_workers: list[_Worker] = []  # a game's boards go to one of them
_ids = itertools.count()
_drawing = 0  # drawings asked for and not done yet, in processes or threads


def in_progress() -> int:
    """How many drawings are asked for and not done yet (drawn or waiting for a process or thread)."""
    return _drawing


def use_processes(count: int) -> None:
    """Draw in `count` worker processes from now on (0: in threads of this process)."""
    global _workers
    stop()
    _workers = [_Worker() for _ in range(count)]


def start() -> None:
    """Start the worker processes now (from the event loop that will use them), rather than at
    their first drawing, which would otherwise wait for them."""
    loop = asyncio.get_running_loop()
    for index in range(len(_workers)):
        _started(_workers, index, loop)


def _started(workers: list[_Worker], index: int, loop: asyncio.AbstractEventLoop) -> _Worker:
    """The worker at `index`, started by `loop`: a new one when it was not started yet, or was
    started by an event loop that has gone."""
    worker = workers[index]
    if worker.loop is not loop:
        worker.stop()
        worker = workers[index] = _Worker()
        worker.start(loop)
    return worker


def stop() -> None:
    """Let the worker processes go (drawings in progress are cancelled)."""
    global _workers
    for worker in _workers:
        worker.stop()
    _workers = []


async def draw(function: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> bytes:
    """`function(*args, **kwargs)` off the event loop: in a worker process when there are some,
    else in a thread. A `key` among the keywords (a game's id: render.board `render` keeps the
    game's last board under it) sends every drawing with that key to one process, where that
    board is kept; without one, the least busy process draws. A worker that died is replaced,
    and that drawing is done in a thread. An exception raised by the drawing is raised here."""
    global _drawing
    _drawing += 1
    try:
        return await _draw(function, *args, **kwargs)
    finally:
        _drawing -= 1


async def _draw(function: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> bytes:
    if not _workers:
        return await _threads.call(partial(function, *args, **kwargs))
    key, workers = kwargs.get("key"), _workers
    if key is None:
        index = min(range(len(workers)), key=lambda at: len(workers[at].pending))
    else:
        index = hash(key) % len(workers)
    worker = _started(workers, index, asyncio.get_running_loop())
    try:
        return await worker.ask(function, args, kwargs)
    except DrawingProcessDied:
        if workers is _workers and workers[index] is worker:  # not replaced yet by another drawing
            log.warning("a drawing process died: starting a new one")
            worker.stop()
            workers[index] = _Worker()
        return await _threads.call(partial(function, *args, **kwargs))


def _serve(connection: socket.socket) -> None:
    """A drawing process: answer each request in turn, until the bot closes its end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's to handle: it ends us
    exit_with_the_bot()
    requests = connection.makefile("rb")
    while len(header := requests.read(HEADER.size)) == HEADER.size:
        size, ident = HEADER.unpack(header)
        answer = _answer(requests.read(size))
        try:
            connection.sendall(HEADER.pack(len(answer), ident) + answer)
        except OSError:  # the bot closed its end
            return


def _answer(request: bytes) -> bytes:
    """The pickled outcome of a pickled call: (True, its result, "") or (False, the exception
    it raised, where it was raised)."""
    try:
        function, args, kwargs = pickle.loads(request)
        return pickle.dumps((True, function(*args, **kwargs), ""), pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # an unpicklable result too
        where = "".join(traceback.format_exception(error))
        try:
            return pickle.dumps((False, error, where), pickle.HIGHEST_PROTOCOL)
        except Exception:  # an exception that does not pickle: its words, at least
            return pickle.dumps((False, RuntimeError(f"{error!r} (unpicklable)"), where), pickle.HIGHEST_PROTOCOL)
