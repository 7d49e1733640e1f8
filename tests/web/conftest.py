"""Fixtures for the web table's tests in a real browser: Debian's Chromium driven by Playwright.

`browser` is one Chromium for the whole session (of each xdist worker); `table` a FakeTable
(the page's test double of the server) running on a free port. Every test here runs in the
session's event loop, which the browser lives in. Without /usr/bin/chromium (apt-get install
chromium; never `playwright install`) or the playwright package, the tests skip.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from .fake_table import GAME_ID, FakeTable

CHROMIUM = Path("/usr/bin/chromium")
NO_BROWSER = "no /usr/bin/chromium (Debian's chromium package): the browser tests skip"
SHOTS = os.environ.get("PE_SHOTS", "")  # a folder to copy screenshots to as well, for a person to look at


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip this folder's tests without the browser. (Each module marks its tests to run in the
    session's event loop: `pytestmark = pytest.mark.asyncio(loop_scope="session")`.)"""
    here = Path(__file__).parent
    for item in items:
        if not CHROMIUM.exists() and here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.skip(reason=NO_BROWSER))


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    """One headless Chromium for the session."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield chromium
        await chromium.close()


@dataclass
class Running:
    """A FakeTable being served, and the address of its table page."""

    fake: FakeTable
    url: str


@pytest_asyncio.fixture(loop_scope="session")
async def table() -> AsyncIterator[Running]:
    """A fresh FakeTable (Canfield deal 7, nothing played) on a free port of 127.0.0.1."""
    fake = FakeTable()
    runner = web.AppRunner(fake.make_app(), shutdown_timeout=1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        yield Running(fake, f"http://{host}:{port}/table/{GAME_ID}")
    finally:
        await fake.drop()
        await runner.cleanup()


DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
Opener = Callable[..., Awaitable[Any]]
VIOLATIONS = """window.violations = [];
document.addEventListener("securitypolicyviolation",
                          (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));"""


@pytest_asyncio.fixture(loop_scope="session")
async def open_page(browser: Any, table: Running) -> AsyncIterator[Opener]:
    """`await open_page(**context_options)`: a new page, in a browser context of its own (at
    1280 x 800 unless `viewport` says otherwise), showing the table with its state drawn
    (`goto=False`: not opened yet). The contexts close after the test."""
    contexts, pages = [], []

    async def opened(goto: bool = True, **options: Any) -> Any:
        context = await browser.new_context(viewport=options.pop("viewport", DESKTOP), **options)
        contexts.append(context)
        await context.add_init_script(VIOLATIONS)
        page = await context.new_page()
        pages.append(page)
        if goto:
            await page.goto(table.url)
            await drawn(page, table.fake)
        return page

    yield opened
    for page in pages:  # the page does nothing its server's Content-Security-Policy forbids
        assert await page.evaluate("window.violations") == []
    for context in contexts:
        await context.close()


async def drawn(page: Any, fake: FakeTable) -> None:
    """Wait until the page shows the fake's game as it is now."""
    await page.wait_for_function("v => document.body.dataset.version === v", arg=str(fake.version), timeout=5000)


def keep_shot(path: Path) -> None:
    """Copy a screenshot to PE_SHOTS too, when it is set."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(SHOTS) / path.name)


async def answered(page: Any, fake: FakeTable, messages: int) -> None:
    """Wait until the page has sent the fake `messages` messages in all, and shows its answer."""
    for _ in range(500):
        if len(fake.received) >= messages:
            break
        await asyncio.sleep(0.01)
    assert len(fake.received) == messages, fake.received
    await drawn(page, fake)
