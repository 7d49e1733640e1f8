"""Where boards are drawn: in worker threads of the bot's process (the default), or in worker
processes (`RENDER_PROCESSES`), which take the drawing off the bot's GIL.

A board costs some 5 ms of CPU, most of it in Pillow and zlib. In threads, those threads and
the event loop take turns with one GIL, so under load an answer waits for drawings that are
not its own (benchmarks/load.py profiles it). In processes, the drawing runs beside the event
loop on another core; the game is pickled there and the PNG back (some 10 KB and 100 KB).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

from bot.processes import exit_with_the_bot

log = logging.getLogger(__name__)
_pool: ProcessPoolExecutor | None = None
_workers = 0


def use_processes(count: int) -> None:
    """Draw in `count` worker processes from now on (0: in threads of this process)."""
    global _pool, _workers
    stop()
    _workers = count
    if count > 0:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["render", "bot.game"])  # each worker starts with them imported
        _pool = ProcessPoolExecutor(count, mp_context=context, initializer=exit_with_the_bot)


def stop() -> None:
    """Let the worker processes go (drawings in progress are cancelled)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


async def draw(function: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> bytes:
    """`function(*args, **kwargs)` off the event loop: in a worker process when there are some,
    else in a thread. A worker that died is replaced, and that drawing is done in a thread."""
    if _pool is None:
        return await asyncio.to_thread(function, *args, **kwargs)
    try:
        return await asyncio.get_running_loop().run_in_executor(_pool, partial(function, *args, **kwargs))
    except BrokenProcessPool:
        log.warning("a drawing process died: starting %d new ones", _workers)
        use_processes(_workers)
        return await asyncio.to_thread(function, *args, **kwargs)
