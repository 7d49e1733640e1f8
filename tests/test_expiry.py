"""The expiry round of the match and race cogs: a round at once, failures logged, never raised."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.cogs.expiry import ExpiryRound


async def test_a_round_runs_at_once_and_its_failure_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []

    async def expire() -> None:
        calls.append(len(calls))
        raise RuntimeError("the database is away")

    expiry = ExpiryRound(expire, "matches")
    with caplog.at_level(logging.ERROR, logger="bot.cogs.expiry"):
        expiry.start()
        for _ in range(100):
            await asyncio.sleep(0.01)
            if caplog.records:
                break
    expiry.stop()
    assert calls == [0]
    assert [record.getMessage() for record in caplog.records] == ["expiring idle matches failed"]
