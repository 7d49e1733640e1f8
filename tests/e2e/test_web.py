"""The web table with the real bot: `python -m bot` on the fake Discord with WEB_PORT set; a private
board's Open table link and /table's open the member's game in a browser (aiohttp's client here;
tests/web drives Chromium), a move made there is stored and the next Discord board agrees; a public
board carries no link."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import aiohttp
import pytest

from tests.web.conftest import CHROMIUM, DESKTOP, NO_BROWSER, PHONE, keep_shot
from tests.web.test_page_served import drag

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, start


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def browser() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def test_a_board_opens_on_the_web_table_and_a_move_there_is_the_boards(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    port = free_port()
    await start(bots, tmp_path, WEB_PORT=str(port))
    board = await (await fake.slash_command("alice", "play", {"deal": 1})).wait_response(timeout=SOLVER_WAIT)
    [link] = [b.url for b in board.buttons if b.url]
    assert link.startswith(f"http://127.0.0.1:{port}/t/") and board.ephemeral
    public = await (await fake.slash_command("alice", "board", {"public": True})).wait_response(timeout=SOLVER_WAIT)
    assert not public.ephemeral and not [b for b in public.buttons if b.url]  # a link plays as its member: never public
    alices = browser()
    try:
        async with alices.get(link, allow_redirects=False) as opened:
            assert opened.status == 303
        async with alices.get(f"http://127.0.0.1:{port}{opened.headers['Location']}") as page:
            assert page.status == 200
        game_id = int(opened.headers["Location"].rsplit("/", 1)[1])
        async with alices.ws_connect(f"http://127.0.0.1:{port}/ws/{game_id}") as table:
            state = await table.receive_json()
            assert state["game"]["label"] == "deal #1"
            await table.send_json({"type": "action", "action": "draw"})
            drawn = await table.receive_json(timeout=SOLVER_WAIT)
            stock = next(len(p["cards"]) for p in drawn["game"]["piles"] if p["name"] == "s")
        with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
            assert db.execute("SELECT moves FROM games WHERE id = ?", (game_id,)).fetchone() == ("d",)
        again = await (await fake.slash_command("alice", "board", {})).wait_response(timeout=SOLVER_WAIT)
        assert f"stock {stock}" in again.text()
        # Bob's /table link is his own: the browser holding Alice's session does not open it.
        await (await fake.slash_command("bob", "play", {"deal": 4})).wait_response(timeout=SOLVER_WAIT)
        offered = await (await fake.slash_command("bob", "table", {})).wait_response()
        assert offered.ephemeral and "opens once" in said(offered)
        [bobs] = [b.url for b in offered.buttons if b.url]
        async with alices.get(bobs, allow_redirects=False) as foreign:
            assert foreign.status == 403 and "another member" in await foreign.text()
    finally:
        await alices.close()
    # Alice's link, opened once, opens nothing in another browser.
    async with browser() as elsewhere, elsewhere.get(link, allow_redirects=False) as reused:
        assert reused.status == 403 and "opened already" in await reused.text()
    assert not fake.failed_interactions


async def test_without_a_web_port_there_is_no_link_and_table_says_so(fake: FakeDiscord, bots: BotRunner,
                                                                     tmp_path: Path) -> None:
    await start(bots, tmp_path)
    board = await (await fake.slash_command("alice", "play", {"deal": 3})).wait_response(timeout=SOLVER_WAIT)
    assert not [b for b in board.buttons if b.url]
    off = await (await fake.slash_command("alice", "table", {})).wait_response()
    assert said(off).startswith("This bot does not serve the table in a browser")


async def test_in_chromium_a_drag_on_the_boards_table_is_the_next_discord_boards(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    """The issue's whole way through: /play in Discord, the board's link opened in Chromium, a
    legal drag stored and shown on the next Discord board, an illegal one refused, a forged link
    refused; screenshots at 1280 and 360 px wide kept for a person to look at."""
    if not CHROMIUM.exists():
        pytest.skip(NO_BROWSER)
    from playwright.async_api import async_playwright

    port = free_port()
    await start(bots, tmp_path, WEB_PORT=str(port))
    board = await (await fake.slash_command("alice", "play", {"deal": 7})).wait_response(timeout=SOLVER_WAIT)
    [link] = [b.url for b in board.buttons if b.url]
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            desktop = await chromium.new_context(viewport=DESKTOP)
            page = await desktop.new_page()
            await page.goto(link)
            await page.wait_for_selector('[data-pile="t4"] [data-card="9H"]')
            await drag(page, '[data-card="QC"]', '[data-pile="t2"]')  # the queen of clubs cannot go on the 7 of spades
            await page.wait_for_function("() => document.querySelector('#said').textContent !== ''")
            with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
                assert db.execute("SELECT moves FROM games").fetchall() == [("",)]
            await drag(page, '[data-card="9H"]', '[data-pile="t3"]')
            await page.wait_for_selector('[data-pile="t3"] [data-card="9H"]')
            with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
                assert db.execute("SELECT moves FROM games").fetchall() == [("t4t3",)]
            await page.screenshot(path=tmp_path / "table-1280.png")
            keep_shot(tmp_path / "table-1280.png")

            phone = await chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
            again = await (await fake.slash_command("alice", "table", {})).wait_response()
            [fresh] = [b.url for b in again.buttons if b.url]
            small = await phone.new_page()
            await small.goto(fresh)
            await small.wait_for_selector('[data-pile="t3"] [data-card="9H"]')
            assert await small.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            await small.screenshot(path=tmp_path / "table-360.png", full_page=True)
            keep_shot(tmp_path / "table-360.png")

            forged = await chromium.new_context()
            refused = await forged.new_page()
            response = await refused.goto(fresh[:-4] + "AAAA")
            assert response is not None and response.status == 403
            assert "does not open a table" in await refused.inner_text("body")
        finally:
            await chromium.close()
    shown = await (await fake.slash_command("alice", "board", {})).wait_response(timeout=SOLVER_WAIT)
    alt = shown.attachment("board.png").description or ""
    assert "Column t3: 10 of clubs, 9 of hearts." in alt and "Column t4: queen of spades." in alt


async def test_a_web_port_already_taken_ends_the_start_with_one_clear_line(fake: FakeDiscord, bots: BotRunner,
                                                                          tmp_path: Path) -> None:
    from .harness import BotExited

    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(BotExited) as exited:
            await start(bots, tmp_path, WEB_PORT=str(port))
    log = str(exited.value)
    assert f"the web table cannot listen on WEB_PORT {port}: " in log and "address already in use" in log
    assert "Traceback" not in log
