"""The expiry round: every ten minutes, a play layer ends what has been idle for a day."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from discord.ext import tasks

log = logging.getLogger(__name__)
EVERY_MINUTES = 10


class ExpiryRound:
    """Calls `expire()` (such as `MatchPlay.expire_idle`) every ten minutes from `start()` to
    `stop()`; a failure is logged and the next round comes all the same."""

    def __init__(self, expire: Callable[[], Awaitable[object]], what: str) -> None:
        self.expire, self.what = expire, what
        self._loop = tasks.loop(minutes=EVERY_MINUTES)(self._round)

    def start(self) -> None:
        """Run a round now, then every ten minutes."""
        self._loop.start()

    def stop(self) -> None:
        """No more rounds."""
        self._loop.cancel()

    async def _round(self) -> None:
        try:
            await self.expire()
        except Exception:
            log.exception("expiring idle %s failed", self.what)
