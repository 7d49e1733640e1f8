"""GET /healthz and GET /metrics (bot/web/health.py) on a real aiohttp server on 127.0.0.1, for a
stand-in bot with the few attributes they read over a real play layer and a real SQLite store."""

from __future__ import annotations

import asyncio
import datetime
import importlib.metadata
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.play import Player
from bot.play.errors import NoGameHere
from bot.play.services import Play, build_play
from bot.store import open_store
from bot.views.respond import Answer, answer
from bot.web import health
from render import workers


class Shard:
    """A gateway connection, open unless closed."""

    def __init__(self) -> None:
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed


class StandIn:
    """The bot as /healthz and /metrics read it: a play layer, ready, two shards connected."""

    def __init__(self, play: Play) -> None:
        self.store, self.solo, self.bulk = play.store, play.solo, play.bulk
        self.ready, self.closed = True, False
        self.shards = {0: Shard(), 1: Shard()}

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[StandIn]:
    store = await open_store(str(tmp_path / "pe.sqlite3"))
    play = build_play(store)
    yield StandIn(play)
    play.bulk.stop()
    play.solo.work.stop()
    await store.close()


@pytest.fixture
async def client(bot: StandIn) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    """A client of a real server on 127.0.0.1 serving the routes."""
    app = web.Application()
    health.add_routes(app, bot)
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        yield client


async def test_healthz_says_ok_with_the_gateway_the_store_and_the_version(client: TestClient) -> None:
    response = await client.get("/healthz")
    assert response.status == 200 and response.content_type == "application/json"
    assert await response.json() == {"status": "ok", "gateway": "connected", "store": "reachable",
                                     "version": importlib.metadata.version("patient-exorcism")}
    assert (await client.head("/healthz")).status == 200


async def test_healthz_is_503_naming_the_gateway_while_a_shard_is_disconnected_or_the_bot_starts_or_closes(
        client: TestClient, bot: StandIn) -> None:
    bot.shards[1].closed = True
    response = await client.get("/healthz")
    body = await response.json()
    assert response.status == 503
    assert body["status"] == "down" and body["down"] == ["gateway"] and body["store"] == "reachable"
    assert body["gateway"] == "disconnected (shard 1)"
    bot.shards[0].closed = True
    assert (await (await client.get("/healthz")).json())["gateway"] == "disconnected (shards 0, 1)"
    bot.shards[0].closed = bot.shards[1].closed = False
    bot.ready = False
    assert (await (await client.get("/healthz")).json())["gateway"] == "starting"
    bot.ready, bot.closed = True, True
    response = await client.get("/healthz")
    assert response.status == 503 and (await response.json())["gateway"] == "closed"
    bot.closed = False
    assert (await client.get("/healthz")).status == 200


async def test_healthz_is_503_naming_the_store_when_it_is_closed_and_when_it_does_not_answer_in_time(
        client: TestClient, bot: StandIn, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(health, "STORE_TIMEOUT", 0.3)
    async with bot.store.db.transaction():  # SQLite's one connection held: the query waits for it
        started = time.perf_counter()
        response = await client.get("/healthz")
        assert 0.3 <= time.perf_counter() - started < 2.0
    body = await response.json()
    assert response.status == 503 and body["store"] == "timed out" and body["down"] == ["store"]
    assert body["gateway"] == "connected"
    assert (await client.get("/healthz")).status == 200  # given back: reachable again
    await bot.store.close()
    response = await client.get("/healthz")
    body = await response.json()
    assert response.status == 503 and body["store"] == "failing" and body["down"] == ["store"]
    assert "not open" in caplog.text and "not open" not in str(body)  # the reason is logged, not shown
    bot.shards[0].closed = True
    assert (await (await client.get("/healthz")).json())["down"] == ["gateway", "store"]


class Interaction:
    """Stands in for the parts of a discord.Interaction that `answer` reads for a private answer
    to a command, a button or a menu, recording what is sent."""

    def __init__(self, kind: discord.InteractionType, component: discord.ComponentType | None = None) -> None:
        self.id = discord.utils.time_snowflake(discord.utils.utcnow() - datetime.timedelta(seconds=0.1))
        self.type = kind
        self.data: dict[str, Any] = {} if component is None else {"component_type": component.value}
        self.user = discord.Object(7)
        self.locale = discord.Locale.american_english
        self.guild_id, self.channel_id, self.message = None, 8, None
        self.sent: list[str] = []
        outer = self

        class Response:
            def is_done(self) -> bool:
                return False

            async def send_message(self, content: str | None = None, **fields: Any) -> None:
                outer.sent.append(content or "")

        self.response = Response()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one series in Prometheus's text."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    found = re.search(rf"^{re.escape(name)}{re.escape('{' + wanted + '}') if labels else ''} (\S+)$", text, re.M)
    assert found is not None, f"{name} {labels} not in the metrics"
    return float(found[1])


async def scrape(client: TestClient) -> str:
    response = await client.get("/metrics")
    assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain; version=")
    return await response.text()


async def test_metrics_count_answers_by_kind_and_outcome_and_read_the_play_layer_when_scraped(
        client: TestClient, bot: StandIn) -> None:
    before = await scrape(client)
    assert all(name.startswith("pe_") for name in re.findall(r"^# TYPE (\S+)", before, re.M))
    counted = {(kind, outcome): sample(before, "pe_interactions_total", kind=kind, outcome=outcome)
               for kind in ("command", "button", "menu") for outcome in ("answered", "refused", "failed")}

    async def fine() -> Answer:
        return Answer("done")

    async def refused() -> Answer:
        raise NoGameHere()

    async def broken() -> Answer:
        raise RuntimeError("a bug")

    interactions = [(Interaction(discord.InteractionType.application_command), fine()),
                    (Interaction(discord.InteractionType.component, discord.ComponentType.button), fine()),
                    (Interaction(discord.InteractionType.component, discord.ComponentType.button), refused()),
                    (Interaction(discord.InteractionType.component, discord.ComponentType.string_select), broken())]
    for interaction, work in interactions:
        await answer(interaction, work)  # type: ignore[arg-type]
        assert len(interaction.sent) == 1
    player = Player(7, "Alice")
    reply = await bot.solo.start(player, guild_id=None, channel_id=8, deal=1)
    await bot.solo.move(reply.game_id, player, "d")
    await bot.solo.undo(reply.game_id, player)

    after = await scrape(client)
    grown = {key: sample(after, "pe_interactions_total", kind=key[0], outcome=key[1]) - value
             for key, value in counted.items()}
    assert {key: n for key, n in grown.items() if n} == {("command", "answered"): 1, ("button", "answered"): 1,
                                                         ("button", "refused"): 1, ("menu", "failed"): 1}
    assert sample(after, "pe_answer_seconds_count", kind="button") - sample(
        before, "pe_answer_seconds_count", kind="button") == 2
    assert sample(after, "pe_games_in_play") == 1
    assert sample(after, "pe_moves_total", kind="move") == 1 and sample(after, "pe_moves_total", kind="undo") == 1
    assert sample(after, "pe_store_statement_seconds_count") > sample(before, "pe_store_statement_seconds_count")
    assert sample(after, "pe_build_info", version=importlib.metadata.version("patient-exorcism")) == 1
    for name in ("pe_deferrals_total", "pe_search_queue_length", "pe_drawing_queue_length"):
        assert f"\n{name}{{" in after
    await bot.solo.resign(reply.game_id, player)
    assert sample(await scrape(client), "pe_games_in_play") == 0


async def test_the_queue_lengths_are_what_waits_when_scraped(client: TestClient, bot: StandIn) -> None:
    drawing = asyncio.ensure_future(workers.draw(time.sleep, 0.5))
    search = asyncio.ensure_future(bot.solo.work.search(7, time.sleep, 0.5))
    await asyncio.sleep(0.05)
    with bot.bulk.place(7), bot.bulk.place(8):
        text = await scrape(client)
    assert sample(text, "pe_drawing_queue_length", place="boards") == 1
    assert sample(text, "pe_drawing_queue_length", place="bulk") == 2
    assert sample(text, "pe_search_queue_length", place="search") == 1
    assert sample(text, "pe_search_queue_length", place="verdict") == 0
    await asyncio.gather(drawing, search)
    text = await scrape(client)
    assert [sample(text, "pe_drawing_queue_length", place=place) for place in ("boards", "bulk")] == [0, 0]
    assert sample(text, "pe_search_queue_length", place="search") == 0
