"""Edits of a public message, at most about one a second however fast the changes come."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class CoalescedEdits:
    """Runs `edit(key)` about `delay` seconds after a change to `key`; the changes that come in
    meanwhile join that one edit, so a burst of moves costs one message edit (rate limits)."""

    def __init__(self, edit: Callable[[int], Awaitable[None]], delay: float, what: str) -> None:
        self.edit, self.delay, self.what = edit, delay, what
        self._pending: dict[int, asyncio.Task[None]] = {}

    def changed(self, key: int) -> None:
        """Note a change: schedule an edit unless one is already waiting."""
        task = self._pending.get(key)
        if task is None or task.done():
            self._pending[key] = asyncio.create_task(self._edit_soon(key))

    async def _edit_soon(self, key: int) -> None:
        await asyncio.sleep(self.delay)
        self._pending.pop(key, None)
        try:
            await self.edit(key)
        except Exception:
            log.exception("could not edit the %s of %s", self.what, key)
