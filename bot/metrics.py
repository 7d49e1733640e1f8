"""The bot's Prometheus metrics, on a registry of their own (`REGISTRY`), every name starting with
`pe_`; the web server shows them at GET /metrics (bot/web/health.py).

Counted as they happen, by the presenters: the interactions and typed moves answered
(bot/views/respond.py `answer`, the solo cog's typed moves), by kind and outcome, with the time
each took, and the deferrals. Read when scraped, from what the play layer, the store and render
count for themselves (they import nothing of this: `watch`): the games in play, the moves, the
searches, drawings and bulk drawings in progress or waiting, and each statement's time in the
store (the store's `timer`).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal, Protocol, get_args

from prometheus_client import CollectorRegistry, Counter, Histogram, Info, disable_created_metrics, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from render import workers

if TYPE_CHECKING:
    from bot.play.bulk import BulkDrawing
    from bot.play.solo import SoloPlay
    from bot.store import Store

Kind = Literal["command", "button", "menu", "typed", "web"]  # what a player did
Outcome = Literal["answered", "refused", "failed"]  # a refusal is a PlayError's or a refused move's words

disable_created_metrics()  # no `_created` series beside each counter: the bot's process is the metrics' alone
REGISTRY = CollectorRegistry(auto_describe=True)
INTERACTIONS = Counter("pe_interactions", "Interactions and typed moves handled, by kind and outcome",
                       ["kind", "outcome"], registry=REGISTRY)
ANSWER_SECONDS = Histogram("pe_answer_seconds", "Seconds from the bot taking up an interaction or typed move to its "
                           "answer sent (or its failure)",
                           ["kind"], registry=REGISTRY,
                           buckets=(0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0))
DEFERRALS = Counter("pe_deferrals", "Interactions deferred (answered later by an edit), by reason: "
                    "busy (deferred at once) or slow (the work outlasted ANSWER_WITHIN)", ["reason"],
                    registry=REGISTRY)
STORE_SECONDS = Histogram("pe_store_statement_seconds", "Seconds each store statement took, from its start to its "
                          "rows read (not the wait for a connection)", registry=REGISTRY,
                          buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
BUILD = Info("pe_build", "The bot's version", registry=REGISTRY)


def version() -> str:
    """The installed package's version ("unknown" when it is run from a copy of the source)."""
    try:
        return importlib.metadata.version("patient-exorcism")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


BUILD.info({"version": version()})
for _kind in get_args(Kind):  # every series shown from the start, at 0
    ANSWER_SECONDS.labels(_kind)
    for _outcome in get_args(Outcome):
        INTERACTIONS.labels(_kind, _outcome)
for _reason in ("busy", "slow"):
    DEFERRALS.labels(_reason)


def handled(kind: Kind, outcome: Outcome, seconds: float) -> None:
    """Count one interaction or typed move of `kind` handled with `outcome`, in `seconds`."""
    INTERACTIONS.labels(kind, outcome).inc()
    ANSWER_SECONDS.labels(kind).observe(seconds)


def deferred(reason: Literal["busy", "slow"]) -> None:
    """Count one deferral."""
    DEFERRALS.labels(reason).inc()


class Played(Protocol):
    """What the metrics read of a bot (the app's bot has them once set up; a test's stand-in may)."""

    store: Store
    solo: SoloPlay
    bulk: BulkDrawing


class _Readings(Collector):
    """The metrics read when scraped, from the play layer's and render's own counts."""

    def __init__(self, bot: Played) -> None:
        self.bot = bot

    def collect(self) -> Iterator[Metric]:
        """The games in play, the moves, and the searches and drawings in progress or waiting."""
        solo = self.bot.solo
        yield GaugeMetricFamily("pe_games_in_play", "Unfinished games played lately (those in the play "
                                "layer's cache, which keeps the most recently used)", value=solo.playing())
        moves = CounterMetricFamily("pe_moves", "Changes to games stored: moves (or several typed at once) "
                                    "and undos", labels=["kind"])
        for kind in ("move", "undo"):
            moves.add_metric([kind], solo.changes[kind])
        yield moves
        searches = GaugeMetricFamily("pe_search_queue_length", "Searches handed to their processes and not back "
                                     "yet (running or waiting), by place: search (moves' outcomes, hints, "
                                     "solutions) or verdict", labels=["place"])
        for place in ("search", "verdict"):
            searches.add_metric([place], solo.work.in_processes[place])
        yield searches
        drawings = GaugeMetricFamily("pe_drawing_queue_length", "Drawings in progress or waiting, by place: boards "
                                     "(render's threads or processes) or bulk (replays' line)", labels=["place"])
        drawings.add_metric(["boards"], workers.in_progress())
        drawings.add_metric(["bulk"], self.bot.bulk.in_line)
        yield drawings


_watching: list[_Readings] = []


def watch(bot: Played) -> None:
    """Read `bot`'s play layer when scraped, and time its store's statements (in place of any
    bot watched before: one a process)."""
    for readings in _watching:
        REGISTRY.unregister(readings)
    _watching[:] = [_Readings(bot)]
    REGISTRY.register(_watching[0])
    bot.store.db.timer = STORE_SECONDS.observe


def exposition() -> bytes:
    """Every metric in Prometheus's text format."""
    return generate_latest(REGISTRY)
