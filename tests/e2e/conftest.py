"""Fixtures for end-to-end tests: ``fake`` (a running FakeDiscord) and ``bots`` (a BotRunner).

When a test fails, the output of every bot process it started is printed in the teardown section.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from .fakediscord import FakeDiscord
from .harness import BotRunner, running_fake


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Remember each phase's report on the test item, so fixtures can see whether the test failed."""
    report = yield
    setattr(item, f"e2e_report_{report.when}", report)
    return report


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord running on 127.0.0.1 in the test's event loop."""
    async with running_fake() as server:
        yield server


@pytest.fixture
async def bots(fake: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[BotRunner]:
    """Starts bot subprocesses against ``fake``; kills them after the test and prints their logs if it failed."""
    runner = BotRunner(fake, tmp_path)
    try:
        yield runner
    finally:
        await runner.close()
        report = getattr(request.node, "e2e_report_call", None)
        if report is None or report.failed:
            print(runner.logs())
            if fake.unknown_routes:
                print("fake Discord: unknown routes:", fake.unknown_routes)
