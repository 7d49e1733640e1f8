"""GET /healthz and GET /metrics on the bot's web server: what Docker, systemd and Kubernetes
probe, and what Prometheus scrapes.

/healthz answers 200 with a small JSON when the gateway is connected (every shard of the process)
and the store answers a cheap query within STORE_TIMEOUT seconds, else 503 with the same JSON,
`down` naming what is not: `{"status": "ok", "gateway": "connected", "store": "reachable",
"version": "0.1.0"}`. It says why in a word or two, never an error's text (which may name the
database's host): the bot's log has that. /metrics is bot/metrics.py's registry in Prometheus's
text format.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot import metrics

log = logging.getLogger(__name__)
STORE_TIMEOUT = 2.0  # seconds the store has to answer /healthz's query


class Shard(Protocol):
    """A gateway connection (discord.py's ShardInfo)."""

    def is_closed(self) -> bool:
        """Whether its connection is closed."""
        ...


class Served(metrics.Played, Protocol):
    """What /healthz and /metrics read of the bot: the app's PatientExorcismBot once set up, or a
    test's stand-in with the same few attributes. `is_ready()`: the gateway has been connected
    (discord.py's ready); `is_closed()`: the bot is closing or closed; `shards`: the process's
    gateway connections by shard id; `store`, `solo`, `bulk`: bot/metrics.py's."""

    @property
    def shards(self) -> Mapping[int, Shard]:
        """The gateway connections, by shard id."""
        ...

    def is_ready(self) -> bool:
        """Whether the gateway has been connected and the bot's cache filled."""
        ...

    def is_closed(self) -> bool:
        """Whether the bot is closing or closed."""
        ...


def add_routes(app: web.Application, bot: Served) -> None:
    """Serve GET /healthz and GET /metrics for `bot` on `app` (HEAD too), and have the metrics
    read its play layer and time its store (bot.metrics.watch)."""
    metrics.watch(bot)

    async def healthz(_request: web.Request) -> web.Response:
        report = {"gateway": gateway_state(bot), "store": await store_state(bot), "version": metrics.version()}
        down = [part for part, state, healthy in (("gateway", report["gateway"], "connected"),
                                                  ("store", report["store"], "reachable")) if state != healthy]
        body = {"status": "down" if down else "ok", **report, **({"down": down} if down else {})}
        return web.json_response(body, status=503 if down else 200, headers={"Cache-Control": "no-store"})

    async def metrics_text(_request: web.Request) -> web.Response:
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST,
                                                                "Cache-Control": "no-store"})

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_text)


def gateway_state(bot: Served) -> str:
    """"connected" when the bot is ready and every shard's connection open; else "starting"
    (not ready yet), "closed" (shutting down), or "disconnected (shards 1, 3)"."""
    if bot.is_closed():
        return "closed"
    if not bot.is_ready():
        return "starting"
    lost = sorted(number for number, shard in bot.shards.items() if shard.is_closed())
    if lost:
        return f"disconnected (shard{'s' if len(lost) > 1 else ''} {', '.join(map(str, lost))})"
    return "connected"


async def store_state(bot: Served) -> str:
    """"reachable" when the store answers a cheap query (its schema's version) within
    STORE_TIMEOUT seconds; else "timed out" or "failing" (the error is logged)."""
    try:
        await asyncio.wait_for(bot.store.schema_version(), STORE_TIMEOUT)
    except TimeoutError:
        log.warning("health: the store did not answer within %s s", STORE_TIMEOUT)
        return "timed out"
    except Exception as error:
        log.warning("health: the store failed: %r", error)
        return "failing"
    return "reachable"
