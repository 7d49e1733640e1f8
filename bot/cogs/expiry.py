"""The expiry round: every ten minutes (or as often as asked), a play layer ends what is over:
matches and races idle for a day, daily attempts past their deadline."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from discord.ext import tasks

log = logging.getLogger(__name__)
EVERY_MINUTES = 10


class ExpiryRound:
    """Calls `expire()` (such as `MatchPlay.expire_idle`) every `minutes` from `start()` to
    `stop()`; a failure is logged and the next round comes all the same."""

    def __init__(self, expire: Callable[[], Awaitable[object]], what: str, minutes: float = EVERY_MINUTES) -> None:
        self.expire, self.what = expire, what
        self._loop = tasks.loop(minutes=minutes)(self._round)

    def start(self) -> None:
        """Run a round now, then one every `minutes`."""
        self._loop.start()

    def stop(self) -> None:
        """No more rounds."""
        self._loop.cancel()

    async def _round(self) -> None:
        try:
            await self.expire()
        except Exception:
            log.exception("expiring idle %s failed", self.what)
