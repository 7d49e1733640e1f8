"""The Activity in a real browser: Chromium (Debian's, driven by Playwright) loads a host page the
test serves as https://discord.com, which frames the bot's /activity and plays the Discord
client's side of the Embedded App SDK (its postMessage RPC: the handshake, READY, AUTHORIZE with a
code the fake Discord issued, AUTHENTICATE). The page exchanges the code with the real bot, gets
its session and sets window.PE_TABLE for table.js; two members' pages, each on the WebSocket it
names, see each other's progress. Skips with one line without Playwright or Chromium."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import keep_shot

from .fakediscord import FakeDiscord
from .harness import BotRunner
from .test_bot import SOLVER_WAIT, start
from .test_web import free_port

CHROMIUM = "/usr/bin/chromium"
HOST = "https://discord.com/activities/patient-exorcism"
INSTANCE = "i-1300000000000000001-gc-1400000000000000001"
# The host page stands for https://discord.com, a public address, framing the bot on 127.0.0.1:
# Chromium's checks of a public page reaching the local network are off for it.
LOCAL_NETWORK = "--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessForNavigations," \
                "PrivateNetworkAccessForIframes,BlockInsecurePrivateNetworkRequests"

# The Discord client's side of the SDK's RPC, as the SDK's source speaks it (Discord.mjs:
# opcodes HANDSHAKE 0, FRAME 1; a DISPATCH READY after the handshake; a command's answer is a FRAME
# with its cmd and nonce and the data its schema asks for).
HOST_PAGE = """<!doctype html><meta charset=utf-8><title>Discord, played by the test</title>
<iframe id=app src="{src}" style="width:1000px;height:700px"></iframe>
<script>
const code = {code}, user = {user}, application = {application};
const app = document.getElementById("app");
window.calls = [];
window.addEventListener("message", (event) => {{
  if (event.source !== app.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  const send = (message) => app.contentWindow.postMessage(message, "*");
  if (opcode === 0) {{
    window.calls.push("HANDSHAKE " + payload.client_id);
    send([1, {{cmd: "DISPATCH", evt: "READY", nonce: null,
              data: {{v: 1, config: {{api_endpoint: "//discord.com/api", environment: "production"}}}}}}]);
  }} else if (opcode === 1) {{
    window.calls.push(payload.cmd);
    const reply = (data) => send([1, {{cmd: payload.cmd, nonce: payload.nonce, evt: null, data}}]);
    if (payload.cmd === "AUTHORIZE") reply({{code}});
    else if (payload.cmd === "AUTHENTICATE")
      reply({{access_token: payload.args.access_token, user, scopes: ["identify"],
              expires: "2099-01-01T00:00:00Z", application}});
    else reply({{}});
  }}
}});
</script>"""

async def test_two_members_open_the_activity_in_chromium_and_see_each_others_progress(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    playwright_api = pytest.importorskip("playwright.async_api", reason="the playwright package is not installed")
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip("Chromium is not installed (Debian's chromium package): no browser test")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    await start(bots, tmp_path, WEB_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret)
    await (await fake.slash_command("alice", "play", {"deal": 1})).wait_response(timeout=SOLVER_WAIT)
    await (await fake.slash_command("bob", "play", {"deal": 4})).wait_response(timeout=SOLVER_WAIT)
    fake.launch_activity(INSTANCE, fake.channel_id, "alice", "bob")
    async with playwright_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"), args=[LOCAL_NETWORK])
        try:
            frames = {}
            for who in ("alice", "bob"):
                frames[who] = await launch(browser, fake, base, who, tmp_path)
            for who, frame in frames.items():
                table = await frame.evaluate("window.PE_TABLE")
                assert table["wsUrl"] == (f"ws://127.0.0.1:{port}/ws/{table['game']}?session={table['session']}"
                                          f"&instance={INSTANCE}"), who
                # table.js, loaded by activity.js, draws the member's own game from that socket.
                await until(frame, "document.querySelector('[data-pile=\"t4\"] [data-card]') !== null")
            # Each sees the other at the table, with a mini board (their solo games' cards may be seen).
            await until(frames["alice"], "document.querySelector('#others li .mini .card') !== null")
            assert "Bob" in await frames["alice"].inner_text("#others")
            await frames["alice"].click('[data-pile="s"]')  # a tap on the stock draws
            await until(frames["alice"], "document.querySelector('[data-pile=\"w\"] [data-card]') !== null")
            await until(frames["bob"], "[...document.querySelectorAll('#others li')].some(li => "
                                       "li.textContent.startsWith('Alice') && li.querySelector('.mini .card'))")
            with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
                assert ("d",) in db.execute("SELECT moves FROM games").fetchall()
            await frames["bob"].page.screenshot(path=tmp_path / "activity-bob.png")
            keep_shot(tmp_path / "activity-bob.png")
            for frame in frames.values():  # one table.js, on the Activity's socket: connected, not retrying
                assert await frame.evaluate("document.body.dataset.connected") == "yes"
                assert not await frame.evaluate("document.getElementById('status').classList.contains('offline')")
                assert await frame.evaluate("document.querySelectorAll('script[src$=\"table.js\"]').length") == 1
            # Framed by anyone but Discord, the Activity's page does not show.
            page = await browser.new_page()
            elsewhere = "https://example.org/frames-the-table"
            await page.route(elsewhere, lambda route: route.fulfill(
                status=200, content_type="text/html", body=f'<iframe src="{base}/activity"></iframe>'))
            await page.goto(elsewhere)
            await page.wait_for_timeout(500)
            assert not [f for f in page.frames if f.url.startswith(base)]
        finally:
            await browser.close()


async def launch(browser: Any, fake: FakeDiscord, base: str, who: str, tmp_path: Path) -> Any:
    """A member's Discord client (a browser context of its own) launching the Activity in the
    channel: the Activity's frame once its script has set window.PE_TABLE."""
    context = await browser.new_context()
    page = await context.new_page()
    user = fake.user(who)
    src = (f"{base}/activity?frame_id=frame-{who}&instance_id={INSTANCE}&platform=desktop"
           f"&guild_id={fake.guild_id}&channel_id={fake.channel_id}")
    html = HOST_PAGE.format(src=src, code=json.dumps(fake.oauth_code(user)),
                            user=json.dumps({"id": str(user.id), "username": user.username, "discriminator": "0",
                                             "public_flags": 0, "global_name": user.global_name}),
                            application=json.dumps({"id": str(fake.application_id), "name": "PatienceBot",
                                                    "description": ""}))

    async def host(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html", body=html)

    await page.route(HOST, host)
    await page.goto(HOST)
    frame = None
    for _ in range(100):
        frame = next((f for f in page.frames if f.url.startswith(f"{base}/activity")), None)
        if frame is not None:
            break
        await page.wait_for_timeout(100)
    assert frame is not None, "the Activity's frame did not load"
    if not await until(frame, "window.PE_TABLE !== undefined", must=False):
        await page.screenshot(path=str(tmp_path / f"activity-{who}.png"))
        raise AssertionError(f"{who}: no PE_TABLE; the host saw {await page.evaluate('window.calls')}; "
                             f"the frame says {await frame.inner_text('body')!r}")
    assert await page.evaluate("window.calls") == [f"HANDSHAKE {fake.application_id}", "AUTHORIZE", "AUTHENTICATE"]
    return frame


async def until(frame: Any, expression: str, *, must: bool = True) -> bool:
    """Whether the expression came true in the frame within SOLVER_WAIT (asked by evaluate, which
    the page's CSP allows, not wait_for_function, which it refuses: no eval)."""
    for _ in range(int(SOLVER_WAIT * 10)):
        if await frame.evaluate(expression):
            return True
        await asyncio.sleep(0.1)
    assert not must, f"never true in the frame: {expression}"
    return False
