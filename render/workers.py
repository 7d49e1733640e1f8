"""Where boards are drawn: in worker threads of the bot's process (the default), or in worker
processes (`RENDER_PROCESSES`), which take the drawing off the bot's GIL.

A board costs some 5 ms of CPU, most of it in Pillow and zlib. In threads, those threads and
the event loop take turns with one GIL, so under load an answer waits for drawings that are
not its own (benchmarks/load.py profiles it). In processes, the drawing runs beside the event
loop on another core; the game is pickled there and the PNG back (some 10 KB and 100 KB).
Each process has one worker of its own, and a game's boards are always drawn by the same one,
which keeps the game's last board and draws the next only where it differs (render.redraw).
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
_pools: list[ProcessPoolExecutor] = []  # one worker process each: a game's boards go to one of them
_busy: list[int] = []  # drawings under way in each


def use_processes(count: int) -> None:
    """Draw in `count` worker processes from now on (0: in threads of this process)."""
    global _pools, _busy
    stop()
    _pools, _busy = [_new_pool() for _ in range(count)], [0] * count


def _new_pool() -> ProcessPoolExecutor:
    """A pool of one worker process."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["render", "bot.game"])  # each worker starts with them imported
    return ProcessPoolExecutor(1, mp_context=context, initializer=exit_with_the_bot)


def stop() -> None:
    """Let the worker processes go (drawings in progress are cancelled)."""
    global _pools, _busy
    for pool in _pools:
        pool.shutdown(wait=False, cancel_futures=True)
    _pools, _busy = [], []


async def draw(function: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> bytes:
    """`function(*args, **kwargs)` off the event loop: in a worker process when there are some,
    else in a thread. A `key` among the keywords (a game's id: render.board `render` keeps the
    game's last board under it) sends every drawing with that key to one process, where that
    board is kept; without one, the least busy process draws. A worker that died is replaced,
    and that drawing is done in a thread."""
    if not _pools:
        return await asyncio.to_thread(function, *args, **kwargs)
    key, busy = kwargs.get("key"), _busy
    index = busy.index(min(busy)) if key is None else hash(key) % len(busy)
    pool = _pools[index]
    busy[index] += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, partial(function, *args, **kwargs))
    except BrokenProcessPool:
        if index < len(_pools) and _pools[index] is pool:  # not replaced yet by another drawing
            log.warning("a drawing process died: starting a new one")
            pool.shutdown(wait=False, cancel_futures=True)
            _pools[index] = _new_pool()
        return await asyncio.to_thread(function, *args, **kwargs)
    finally:
        busy[index] -= 1
