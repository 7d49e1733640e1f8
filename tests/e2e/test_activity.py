"""The web table as a Discord Activity with the real bot: `python -m bot` on the fake Discord with
WEB_PORT and DISCORD_CLIENT_SECRET; the page's side of the Embedded App SDK's flow played over
HTTP (the OAuth2 code exchanged by the bot, a session for the member's game in the channel, the
WebSocket with `?session=`); two members in one instance see each other's progress, and never a
live daily's cards; forged codes, tokens and sessions are refused."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import aiohttp

from .fakediscord import FakeDiscord
from .harness import BotRunner
from .test_bot import SOLVER_WAIT, start
from .test_web import free_port

INSTANCE = "i-1300000000000000001-gc-1400000000000000001"
CARD = re.compile(r'"(?:10|[2-9TJQKA])[CDHS]"')  # a face-up card's notation, as JSON sends it


async def open_activity(http: aiohttp.ClientSession, base: str, code: str, channel_id: int) -> dict[str, Any]:
    """The page's side of the Activity's start once the SDK has a code: the token, then the session."""
    async with http.post(f"{base}/activity/token", json={"code": code}) as exchanged:
        assert exchanged.status == 200, await exchanged.text()
        access = (await exchanged.json())["access_token"]
    async with http.post(f"{base}/activity/session", json={"access_token": access, "channel_id": str(channel_id),
                                                           "instance_id": INSTANCE}) as session:
        assert session.status == 200, await session.text()
        return await session.json()


async def next_of(socket: aiohttp.ClientWebSocketResponse, kind: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """The next message of this type on the socket (every message read is kept in `seen`)."""
    while True:
        message = await socket.receive_json(timeout=SOLVER_WAIT)
        seen.append(message)
        if message["type"] == kind:
            return message


async def test_two_members_in_one_activity_see_each_others_progress_but_not_a_live_dailys_cards(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    await start(bots, tmp_path, WEB_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret)
    await (await fake.slash_command("alice", "play", {"deal": 1})).wait_response(timeout=SOLVER_WAIT)
    await (await fake.slash_command("bob", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    carol = fake.add_user("carol")
    fake.launch_activity(INSTANCE, fake.channel_id, "alice", "bob", carol)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/activity") as page:
            assert page.status == 200
            text = await page.text()
            assert f'src="/static/activity.js" data-client-id="{fake.application_id}"' in text
            assert "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com" in \
                page.headers["Content-Security-Policy"]
        alice = await open_activity(http, base, fake.oauth_code("alice"), fake.channel_id)
        bob = await open_activity(http, base, fake.oauth_code("bob"), fake.channel_id)
        alices_seen: list[dict[str, Any]] = []
        bobs_seen: list[dict[str, Any]] = []
        query = f"instance={INSTANCE}&session="
        async with http.ws_connect(f"{base}/ws/{alice['game']}?{query}{alice['session']}") as alices:
            assert (await next_of(alices, "state", alices_seen))["game"]["label"] == "deal #1"
            assert (await next_of(alices, "others", alices_seen))["players"] == []
            async with http.ws_connect(f"{base}/ws/{bob['game']}?{query}{bob['session']}") as bobs:
                bobs_state = await next_of(bobs, "state", bobs_seen)
                [seen_by_bob] = (await next_of(bobs, "others", bobs_seen))["players"]
                assert (seen_by_bob["name"], seen_by_bob["game"], seen_by_bob["status"]) == ("Alice", "Canfield",
                                                                                              "playing")
                assert "board" in seen_by_bob  # Alice's solo deal is no secret
                [seen_by_alice] = (await next_of(alices, "others", alices_seen))["players"]
                assert seen_by_alice["name"] == "Bob" and "board" not in seen_by_alice  # today's daily is live
                # Alice draws: Bob sees it; Bob draws: Alice sees his progress, not his cards.
                await alices.send_json({"type": "action", "action": "draw"})
                drawn = await next_of(alices, "state", alices_seen)
                [after] = (await next_of(bobs, "others", bobs_seen))["players"]
                waste = next(p["cards"] for p in drawn["game"]["piles"] if p["name"] == "w")
                assert next(p["cards"] for p in after["board"]["piles"] if p["name"] == "w") == waste != []
                await bobs.send_json({"type": "action", "action": "draw"})
                bobs_drawn = await next_of(bobs, "state", bobs_seen)
                assert bobs_drawn["game"]["version"] > bobs_state["game"]["version"]
                [moved] = (await next_of(alices, "others", alices_seen))["players"]
                assert (moved["name"], moved["moves"]) == ("Bob", 1) and "board" not in moved
                # A move made in Discord (not at the table) shows too, within the hub's look.
                await (await fake.slash_command("alice", "move", {"moves": "d"})).wait_response(timeout=SOLVER_WAIT)
                [elsewhere] = (await next_of(bobs, "others", bobs_seen))["players"]
                assert (elsewhere["name"], elsewhere["moves"]) == ("Alice", 2)
        others = [json.dumps(message) for message in alices_seen if message["type"] == "others"]
        assert len(others) == 3 and not [text for text in others if CARD.search(text)]

        # Refusals, in one line: a forged code, a forged access token, no game there, a forged session.
        async with http.post(f"{base}/activity/token", json={"code": "forged"}) as forged:
            assert forged.status == 403
            assert (await forged.json())["said"] == ("Discord did not confirm who you are: close the Activity "
                                                     "and start it again.")
        async with http.post(f"{base}/activity/session", json={"access_token": "forged", "channel_id": "1",
                                                               "instance_id": INSTANCE}) as forged:
            assert forged.status == 403 and (await forged.json())["said"].startswith("Discord did not confirm")
        async with http.post(f"{base}/activity/token", json={"code": fake.oauth_code(carol)}) as exchanged:
            access = (await exchanged.json())["access_token"]
        async with http.post(f"{base}/activity/session", json={"access_token": access,
                                                               "channel_id": str(fake.channel_id),
                                                               "instance_id": INSTANCE}) as nothing:
            assert nothing.status == 403
            assert (await nothing.json())["said"] == "You have no game in this channel: start one with /play."
        # Discord decides who is in an instance and where it runs, not the page: not in it, or elsewhere.
        dave = fake.add_user("dave")
        await (await fake.slash_command(dave, "play", {"deal": 2})).wait_response(timeout=SOLVER_WAIT)
        for who, channel, instance in ((dave, fake.channel_id, INSTANCE), (carol, 1, INSTANCE),
                                       (dave, fake.channel_id, "i-made-up")):
            async with http.post(f"{base}/activity/token", json={"code": fake.oauth_code(who)}) as exchanged:
                access = (await exchanged.json())["access_token"]
            async with http.post(f"{base}/activity/session", json={"access_token": access, "channel_id": str(channel),
                                                                   "instance_id": instance}) as outsider:
                assert outsider.status == 403 and (await outsider.json())["said"].startswith("Discord did not confirm")
        made_up = f"a.1.{alice['game']}.en.99999999999.AAAAAAAAAAAAAAAA.{'A' * 43}"
        for forged_query in (f"instance={INSTANCE}&session={made_up}",
                             f"instance=i-another&session={alice['session']}",  # bound to its instance
                             f"instance={INSTANCE}&session={bob['session']}"):  # bound to its game
            async with http.get(f"{base}/ws/{alice['game']}?{forged_query}") as refused:
                assert refused.status == 403
    assert not fake.failed_interactions


async def test_without_a_client_secret_the_activity_says_its_admin_can_turn_it_on(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    port = free_port()
    await start(bots, tmp_path, WEB_PORT=str(port))
    async with aiohttp.ClientSession() as http, \
            http.post(f"http://127.0.0.1:{port}/activity/token", json={"code": fake.oauth_code("alice")}) as off:
        assert off.status == 403 and "DISCORD_CLIENT_SECRET" in (await off.json())["said"]

