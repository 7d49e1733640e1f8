"""The table page in Chromium on the real server (bot/web/server.py) over a real play layer and a
SQLite store: a member's link opens the table; a legal drag is played and stored before the
page shows it; an illegal one is refused and stores nothing; the page in German at 360 px.
(The e2e tests add Discord around it; tests/web/test_page.py covers the page's ways in detail.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer

from bot.play.services import Play, build_play
from bot.play.solo import Player
from bot.store import open_store
from bot.web.server import TableServer
from tests.play.test_daily import FakeClock, at

from .conftest import PHONE, keep_shot

pytestmark = pytest.mark.asyncio(loop_scope="session")
ALICE = Player(1, "alice")


@dataclass
class Served:
    play: Play
    http: TestServer

    async def link(self, game_id: int, language: str = "en") -> str:
        """The address of a new link to Alice's game."""
        return str(self.http.make_url("/t/" + await self.play.table.link(ALICE.id, game_id, language)))

    async def moves(self, game_id: int) -> list[str]:
        stored = await self.play.store.games.get_game(game_id)
        assert stored is not None
        return stored.moves


@pytest_asyncio.fixture(loop_scope="session")
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    clock = FakeClock(at("2026-11-27 12:00"))
    store = await open_store(str(tmp_path / "pe.sqlite3"), clock)
    play = build_play(store, clock=clock)
    http = TestServer(TableServer(play, "http://127.0.0.1").app())
    await http.start_server()
    try:
        yield Served(play, http)
    finally:
        await http.close()
        play.bulk.stop()
        await store.close()


async def test_a_drag_on_the_served_page_is_played_and_stored(browser: Any, served: Served, tmp_path: Path) -> None:
    reply = await served.play.solo.start(ALICE, guild_id=5, channel_id=10, name="canfield", deal=7)
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = await context.new_page()
        await page.goto(await served.link(reply.game_id))
        assert page.url.endswith(f"/table/{reply.game_id}")
        await page.wait_for_selector('[data-pile="t4"] [data-card="9H"]')
        assert await page.inner_text('button[data-action="draw"]') == "Draw"

        await drag(page, '[data-card="QC"]', '[data-pile="t2"]')  # QC cannot go on 7S
        await page.wait_for_function("() => document.querySelector('#said').textContent !== ''")
        assert await served.moves(reply.game_id) == []
        assert await page.locator('[data-pile="t1"] [data-card="QC"]').count() == 1

        await drag(page, '[data-card="9H"]', '[data-pile="t3"]')
        await page.wait_for_selector('[data-pile="t3"] [data-card="9H"]')
        assert await served.moves(reply.game_id) == ["t4t3"]  # stored before the page was told
        assert "t4t3" in await page.inner_text("#said")
    finally:
        await context.close()


async def test_the_served_page_in_german_on_a_phone(browser: Any, served: Served, tmp_path: Path) -> None:
    reply = await served.play.solo.start(ALICE, guild_id=5, channel_id=10, name="canfield", deal=7)
    context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = await context.new_page()
        await page.goto(await served.link(reply.game_id, "de"))
        await page.wait_for_selector("[data-card]")
        await page.click('[data-pile="s"]')  # a tap on the stock draws
        await page.wait_for_selector('[data-pile="w"] [data-card]')
        assert await served.moves(reply.game_id) == ["d"]
        assert await page.evaluate("document.documentElement.lang") == "de"
        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        await page.screenshot(path=tmp_path / "served-360-de.png", full_page=True)
        keep_shot(tmp_path / "served-360-de.png")
    finally:
        await context.close()


async def drag(page: Any, source: str, target: str) -> None:
    """Press on `source`, move in steps onto `target`, let go."""
    start, end = await page.locator(source).bounding_box(), await page.locator(target).bounding_box()
    await page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 15)
    await page.mouse.down()
    await page.mouse.move(end["x"] + end["width"] / 2, end["y"] + 15, steps=8)
    await page.mouse.up()


async def test_a_replay_plays_a_finished_game_move_by_move_in_the_browser(browser: Any, served: Served,
                                                                         tmp_path: Path) -> None:
    reply = await served.play.solo.start(ALICE, guild_id=5, channel_id=10, name="canfield", deal=7)
    await served.play.solo.move(reply.game_id, ALICE, "t4t3 d d")
    await served.play.solo.resign(reply.game_id, ALICE)
    token = await served.play.table.view_link(ALICE.id, reply.game_id, "en")
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = await context.new_page()
        await page.goto(str(served.http.make_url(f"/view/{token}")))
        await page.wait_for_selector('[data-pile="t3"] [data-card="9H"]')  # at the end, as it ended
        assert await page.inner_text("#said") == "Move 3 of 3"
        await page.click('button[data-step="start"]')
        await page.wait_for_selector('[data-pile="t4"] [data-card="9H"]')  # at the deal
        assert await page.locator('[data-pile="w"] [data-card]').count() == 0
        await page.click('button[data-step="forward"]')
        await page.wait_for_selector('[data-pile="t3"] [data-card="9H"]')
        assert await page.inner_text("#said") == "Move 1 of 3"
        await page.select_option("#speed", "10")
        await page.click('button[data-step="play"]')  # plays on to the end by itself
        await page.wait_for_function("() => document.querySelector('#said').textContent === 'Move 3 of 3'")
        assert await page.locator('[data-pile="w"] [data-card]').count() > 0
        assert await page.locator('button[data-action="draw"]').is_hidden()  # nothing to play here
        await page.screenshot(path=tmp_path / "replay-1280.png")
        keep_shot(tmp_path / "replay-1280.png")
    finally:
        await context.close()
