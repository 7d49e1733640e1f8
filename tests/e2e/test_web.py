"""The web table with the real bot: `python -m bot` on the fake Discord with WEB_PORT set; a private
board's Open table link and /table's open the member's game in a browser (aiohttp's client here;
tests/web drives Chromium), a move made there is stored and the next Discord board agrees; a public
board carries no link."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import aiohttp

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
