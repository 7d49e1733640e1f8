"""What every worker process of the bot shares (the drawing processes, the search and verdict
processes): it ends when the bot does."""

from __future__ import annotations

import multiprocessing
import os
import threading
from typing import Any


def exit_with_the_bot() -> None:
    """In a worker: end when the bot's process ends, however it ends (SIGKILL too). A worker
    waiting for work would otherwise wait for ever, and keep the forkserver and multiprocessing's
    resource tracker alive with it."""
    bot = multiprocessing.parent_process()  # the process that asked for the worker, not the forkserver
    if bot is not None:
        threading.Thread(target=_exit_after, args=(bot,), name="exit-with-the-bot", daemon=True).start()


def _exit_after(bot: Any) -> None:
    bot.join()
    os._exit(0)
