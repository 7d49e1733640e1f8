"""The web table's server over a real play layer and database (SQLite, then PostgreSQL), through
aiohttp's own client on a real port: links open once, in one browser, and become a session; the
page's moves go through SoloPlay and are stored; forged, expired, reused and foreign links and
sessions open nothing and change nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from bot import metrics
from bot.play.errors import DealIsLive, ElsewhereGame, NotYourGame, StillPlaying
from bot.play.links import LINK_SECONDS, make_link
from bot.play.services import Play, build_play
from bot.play.solo import Player
from bot.play.work import LIMITS, RateLimiter
from bot.store import open_store
from bot.web.server import COOKIE, TableServer
from tests.play.test_daily import FakeClock, at

ALICE, BOB = Player(1, "alice"), Player(2, "bob")


@dataclass
class Site:
    play: Play
    server: TableServer
    http: TestServer
    clock: FakeClock

    def url(self, path: str) -> str:
        return str(self.http.make_url(path))

    async def link(self, member: Player, game_id: int) -> str:
        """A link's path (the public address is the test server's)."""
        return "/t/" + await self.play.table.link(member.id, game_id, "en")


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Site]:
    clock = FakeClock(at("2026-11-27 12:00"))
    store = await open_store(database_url, clock)
    play = build_play(store, clock=clock)
    server = TableServer(play, "http://127.0.0.1")
    http = TestServer(server.app())
    await http.start_server()
    try:
        yield Site(play, server, http, clock)
    finally:
        await http.close()
        play.bulk.stop()
        await store.close()


def browser_session() -> aiohttp.ClientSession:
    """A browser's cookies and connections (cookies of an IP address kept, as a browser keeps them)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def new_game(site: Site, member: Player = ALICE, deal: int = 1) -> int:
    reply = await site.play.solo.start(member, guild_id=5, channel_id=10, name="canfield", deal=deal)
    return reply.game_id


async def opened(site: Site, browser: aiohttp.ClientSession, path: str) -> aiohttp.ClientResponse:
    async with browser.get(site.url(path), allow_redirects=False) as response:
        await response.read()
        return response


async def test_a_link_opens_once_into_a_session_and_the_page_plays_through_the_play_layer(site: Site) -> None:
    game_id = await new_game(site)
    link = await site.link(ALICE, game_id)
    counted = {outcome: metrics.REGISTRY.get_sample_value("pe_interactions_total", {"kind": "web", "outcome": outcome})
               for outcome in ("answered", "refused")}
    async with browser_session() as browser:
        first = await opened(site, browser, link)
        assert first.status == 303 and first.headers["Location"] == f"/table/{game_id}"
        assert COOKIE in first.cookies and first.cookies[COOKIE]["httponly"]
        page = await opened(site, browser, f"/table/{game_id}")
        assert page.status == 200 and "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        async with browser.ws_connect(site.url(f"/ws/{game_id}")) as socket:
            state = await socket.receive_json()
            assert state["type"] == "state" and state["said"] == "" and state["words"]["draw"] == "Draw"
            game = state["game"]
            assert (game["id"], game["name"], game["label"], game["over"]) == (game_id, "canfield", "deal #1", False)
            names = [pile["name"] for pile in game["piles"]]
            assert names[:3] == ["w", "s", "r"] and {"f1", "t4"} <= set(names)
            stock = next(pile for pile in game["piles"] if pile["name"] == "s")
            assert set(stock["cards"]) == {"??"} and stock["fan"] == "stack"  # face down: never sent
            assert "d" in game["moves"]
            await socket.send_json({"type": "action", "action": "draw"})
            drawn = await socket.receive_json()
            assert drawn["game"]["version"] == game["version"] + 1 and "Played d" in drawn["said"]
            # An illegal move is refused, said why, and changes nothing.
            await socket.send_json({"type": "move", "text": "t1t1"})
            refused = await socket.receive_json()
            assert refused["game"]["version"] == drawn["game"]["version"] and refused["said"]
            for junk in ("{", "[]", json.dumps({"type": "action", "action": "explode"}), "x" * 3000):
                await socket.send_str(junk)
                assert (await socket.receive_json())["type"] == "error"
    stored = await site.play.store.games.get_game(game_id)
    assert stored is not None and stored.moves == ["d"]  # stored before the page was told
    assert {outcome: metrics.REGISTRY.get_sample_value("pe_interactions_total", {"kind": "web", "outcome": outcome})
            - (before or 0) for outcome, before in counted.items()} == {"answered": 1, "refused": 5}
    # Opened again (elsewhere, or here), the link opens nothing.
    async with browser_session() as elsewhere:
        again = await opened(site, elsewhere, link)
        assert again.status == 403 and COOKIE not in again.cookies


async def test_forged_expired_and_foreign_links_and_sessions_open_nothing(site: Site) -> None:
    mine, bobs = await new_game(site), await new_game(site, BOB, deal=2)
    secret = await site.play.table.secret()
    async with browser_session() as browser:
        # Forged: signed with another secret, or another member's game put in a real link.
        forged = make_link("0" * 64, ALICE.id, mine, "en", site.clock())
        assert (await opened(site, browser, "/t/" + forged)).status == 403
        real = await site.link(ALICE, mine)
        tampered = real.replace(f".{mine}.", f".{bobs}.")
        assert (await opened(site, browser, tampered)).status == 403
        with pytest.raises(NotYourGame):  # a link to another member's game is not made at all
            await site.link(ALICE, bobs)
        # Expired.
        late = "/t/" + make_link(secret, ALICE.id, mine, "en", site.clock() - LINK_SECONDS - 1)
        assert (await opened(site, browser, late)).status == 403
        # No session: no page, no socket.
        assert (await opened(site, browser, f"/table/{mine}")).status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await browser.ws_connect(site.url(f"/ws/{mine}"))
        # Alice's session opens her game only, not Bob's.
        assert (await opened(site, browser, real)).status == 303
        assert (await opened(site, browser, f"/table/{mine}")).status == 200
        assert (await opened(site, browser, f"/table/{bobs}")).status == 403
        # Bob's link opened in the browser holding Alice's session opens nothing; hers stands.
        refused = await opened(site, browser, await site.link(BOB, bobs))
        assert refused.status == 403 and "another member" in (await refused.text())
        assert (await opened(site, browser, f"/table/{mine}")).status == 200
    for game_id in (mine, bobs):
        stored = await site.play.store.games.get_game(game_id)
        assert stored is not None and stored.moves == []


async def test_the_sprite_sheet_has_every_card_and_the_back(site: Site) -> None:
    async with browser_session() as browser:
        async with browser.get(site.url("/sprites/classic.json")) as response:
            where = await response.json()
        async with browser.get(site.url("/sprites/classic.png")) as response:
            png = await response.read()
        async with browser.get(site.url("/sprites/nope.png")) as response:
            assert response.status == 404
    assert png.startswith(b"\x89PNG") and len(png) < 60_000
    assert len([name for name in where if name != "card"]) == 53 and {"7H", "TS", "AC", "KD", "??"} <= set(where)


async def test_a_replay_link_shows_a_finished_game_move_by_move_under_the_secrecy_rule(site: Site) -> None:
    game_id = await new_game(site)
    player = ALICE
    await site.play.solo.move(game_id, player, "d d d")
    with pytest.raises(StillPlaying):  # a game in play is not replayed
        await site.play.table.view_link(ALICE.id, game_id, "en")
    await site.play.solo.resign(game_id, player)
    token = await site.play.table.view_link(ALICE.id, game_id, "fr")
    with pytest.raises(NotYourGame):  # another member's own game: not theirs to replay
        await site.play.table.view_link(BOB.id, game_id, "en")
    async with browser_session() as browser:
        page = await opened(site, browser, f"/view/{token}")
        assert page.status == 200
        async with browser.get(site.url(f"/view/{token}/data")) as response:
            data = await response.json()
        async with browser.get(site.url(f"/view/{token[:-3]}abc/data")) as forged:
            assert forged.status == 403
    replay = data["replay"]
    assert (replay["id"], replay["status"], replay["player"]) == (game_id, "resigned", "alice")
    assert [step["move"] for step in replay["steps"]] == ["d", "d", "d"]
    start = {pile["name"]: pile["cards"] for pile in replay["piles"]}
    assert set(start["s"]) == {"??"} and all(set(step["piles"]) <= {"s", "w"} for step in replay["steps"])
    assert data["words"]["language"] == "fr"


async def test_a_live_dailys_replay_link_is_its_players_alone(site: Site) -> None:
    alices = await site.play.daily.start(ALICE, guild_id=5, channel_id=10)
    await site.play.solo.resign(alices.game_id, ALICE)
    await site.play.daily.start(BOB, guild_id=5, channel_id=10)  # bob's attempt is in play: the deal is live
    assert await site.play.table.view_link(ALICE.id, alices.game_id, "en")
    with pytest.raises(DealIsLive):
        await site.play.table.view_link(BOB.id, alices.game_id, "en")


async def test_a_watch_link_follows_a_game_in_play_under_the_watch_rules(site: Site) -> None:
    game_id = await new_game(site)
    await site.play.solo.move(game_id, ALICE, "d")
    with pytest.raises(ElsewhereGame):  # /watch's rule: in the channel where it is played
        await site.play.table.watch_link(BOB.id, game_id, 99, "en")
    token = await site.play.table.watch_link(BOB.id, game_id, 10, "en")
    assert token.startswith("w.")
    async with browser_session() as browser:
        async with browser.get(site.url(f"/view/{token}/data")) as response:
            first = (await response.json())["replay"]
        await site.play.solo.move(game_id, ALICE, "d")
        async with browser.get(site.url(f"/view/{token}/data")) as response:
            later = (await response.json())["replay"]
    assert first["status"] == "playing" and [s["move"] for s in first["steps"]] == ["d"]
    assert [s["move"] for s in later["steps"]] == ["d", "d"]
    # A live daily is not watched by someone who has not finished theirs.
    daily = await site.play.daily.start(ALICE, guild_id=5, channel_id=11)
    with pytest.raises(DealIsLive):
        await site.play.table.watch_link(BOB.id, daily.game_id, 11, "en")


async def test_a_page_sending_too_fast_is_told_to_slow_down_and_stores_no_more(database_url: str) -> None:
    clock = FakeClock(at("2026-11-27 12:00"))
    store = await open_store(database_url, clock)
    play = build_play(store, clock=clock, limits=RateLimiter(clock=lambda: 0.0))  # every message in one instant
    http = TestServer(TableServer(play, "http://127.0.0.1").app())
    await http.start_server()
    try:
        game_id = (await play.solo.start(ALICE, guild_id=5, channel_id=10, name="canfield", deal=1)).game_id
        async with browser_session() as browser:
            await browser.get(http.make_url("/t/" + await play.table.link(ALICE.id, game_id, "en")))
            async with browser.ws_connect(http.make_url(f"/ws/{game_id}")) as socket:
                await socket.receive_json()
                answers = []
                for _ in range(LIMITS["web"].count + 5):
                    await socket.send_json({"type": "move", "text": "d"})
                    answers.append(await socket.receive_json())
        slowed = [a for a in answers if a["type"] == "error"]
        assert len(slowed) == 5 and slowed[0]["said"].startswith("Slow down: you have asked for moves on the table")
        stored = await store.games.get_game(game_id)
        assert stored is not None and len(stored.moves) == LIMITS["web"].count
    finally:
        await http.close()
        play.bulk.stop()
        await store.close()
