"""The play layer's services, wired once on one store: the one place that says which service
shares what with which (the solo games' work and limits, their finish hooks, one clock), for
every front end (the Discord app, the terminal, the tests)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.play.bulk import BulkDrawing
from bot.play.daily import DailyPlay
from bot.play.leaderboards import Leaderboards
from bot.play.matches import MatchPlay, TeamPlay
from bot.play.posts import Posts
from bot.play.race import RacePlay
from bot.play.ratings import Ratings
from bot.play.review import ReviewPlay
from bot.play.ritual import Ritual
from bot.play.solo import SoloPlay
from bot.play.solution import SOLUTION_LIMIT, SolutionPlay
from bot.play.table import TablePlay
from bot.play.watch import WatchPlay
from bot.play.work import RateLimiter
from bot.store import Store


@dataclass(frozen=True, slots=True)
class Play:
    """Every service of the play layer, on one store."""

    store: Store
    solo: SoloPlay
    matches: MatchPlay
    teams: TeamPlay
    daily: DailyPlay
    review: ReviewPlay
    races: RacePlay
    leaderboards: Leaderboards
    solutions: SolutionPlay
    watching: WatchPlay
    posts: Posts
    bulk: BulkDrawing
    ratings: Ratings
    ritual: Ritual
    table: TablePlay


def build_play(store: Store, *, clock: Callable[[], float] = time.time, limits: RateLimiter | None = None,
               solution_limit: int = SOLUTION_LIMIT, match_clock: Callable[[], float] | None = None,
               rng: random.Random | None = None, bulk: BulkDrawing | None = None) -> Play:
    """The play services on `store`, sharing one clock, the solo games' work places and their
    rate limits (`limits`: RateLimiter's default ones unless given). `solution_limit`: the
    positions a winning line's search may look at; `match_clock`: the matches' own clock (the
    store's `clock` unless given, for a test that moves matches on); `rng`: what draws matches'
    seeds and races' decks (the system's unless given); `bulk`: replays' drawing place (a new
    one, its process started with render and the engine imported, unless given)."""
    solo = SoloPlay(store, limits=limits, clock=clock)
    matches = MatchPlay(store, solo, match_clock or clock, rng=rng)
    races = RacePlay(store, clock, rng=rng, work=solo.work, limits=solo.limits)
    ratings = Ratings(store)
    matches.listeners.append(ratings)  # first: a match's end is rated before it is announced
    races.listeners.append(ratings)
    leaderboards = Leaderboards(store, clock)
    watching = WatchPlay(store, solo, clock)
    return Play(
        store=store,
        solo=solo,
        matches=matches,
        teams=TeamPlay(store),
        daily=DailyPlay(store, solo, clock),
        review=ReviewPlay(store, solo, clock=clock),
        races=races,
        leaderboards=leaderboards,
        solutions=SolutionPlay(store, solo, clock=clock, limit=solution_limit),
        watching=watching,
        posts=Posts(solo.limits),
        bulk=bulk or BulkDrawing(preload=("render", "bot.game")),
        ratings=ratings,
        ritual=Ritual(store, leaderboards, clock),
        table=TablePlay(store, solo, watching, clock),
    )
