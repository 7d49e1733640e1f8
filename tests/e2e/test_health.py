"""The bot's /healthz and /metrics end to end: `python -m bot` with WEB_PORT set, against the fake
Discord, asked over HTTP as Docker and Prometheus ask them."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp

from .fakediscord import FakeDiscord
from .harness import BotRunner
from .test_bot import play, start


def free_port() -> int:
    """A port nothing listens on now, on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def health_until(http: aiohttp.ClientSession, url: str, status: int, timeout: float = 15.0
                       ) -> dict[str, Any]:
    """/healthz's JSON once it answers `status` (the bot connects, or loses the gateway, meanwhile)."""
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        try:
            async with http.get(url) as response:
                last = (response.status, await response.json())
                if response.status == status:
                    return last[1]
        except aiohttp.ClientConnectionError as error:
            last = error
        await asyncio.sleep(0.1)
    raise AssertionError(f"/healthz never answered {status}: last {last!r}")


def sample(text: str, series: str) -> float:
    """One series' value in Prometheus's text, such as `pe_moves_total{kind="move"}`."""
    found = re.search(rf"^{re.escape(series)} (\S+)$", text, re.M)
    assert found is not None, f"{series} is not in the metrics"
    return float(found[1])


async def test_healthz_and_metrics_of_the_running_bot(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    port = free_port()
    await start(bots, tmp_path, WEB_PORT=str(port))
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        healthy = await health_until(http, f"{base}/healthz", 200)
        assert healthy["status"] == "ok" and healthy["gateway"] == "connected" and healthy["store"] == "reachable"
        assert re.fullmatch(r"\d+\.\d+\.\d+.*|unknown", healthy["version"])

        message = await play(fake, deal=1)  # a command
        reply = await fake.click("alice", message, label="Draw (34)")  # a button
        await reply.wait_response()
        sent = await fake.message("alice", f"{fake.bot_user.mention} rt4", mentions_bot=True)  # a typed move
        await fake.wait_for_bot_message(after=sent)
        sent = await fake.message("alice", f"{fake.bot_user.mention} zz9", mentions_bot=True)  # refused
        await fake.wait_for_bot_message(after=sent)

        async with http.get(f"{base}/metrics") as response:
            assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain; version=")
            text = await response.text()
        assert sample(text, 'pe_interactions_total{kind="command",outcome="answered"}') == 1
        assert sample(text, 'pe_interactions_total{kind="button",outcome="answered"}') == 1
        assert sample(text, 'pe_interactions_total{kind="typed",outcome="answered"}') == 1
        assert sample(text, 'pe_interactions_total{kind="typed",outcome="refused"}') == 1
        assert sample(text, 'pe_answer_seconds_count{kind="command"}') == 1
        assert sample(text, 'pe_moves_total{kind="move"}') == 2 and sample(text, "pe_games_in_play") == 1
        assert sample(text, "pe_store_statement_seconds_count") > 0
        assert sample(text, 'pe_drawing_queue_length{place="boards"}') == 0
        assert all(name.startswith("pe_") for name in re.findall(r"^# TYPE (\S+)", text, re.M))

        await fake.stop()  # Discord gone: the bot keeps trying to reconnect, and says it is down
        down = await health_until(http, f"{base}/healthz", 503)
        assert down["down"] == ["gateway"] and down["gateway"].startswith("disconnected")
        assert down["store"] == "reachable"
