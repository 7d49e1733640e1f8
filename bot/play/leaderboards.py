"""Leaderboards (players, teams, dailies, streaks) and a player's stats, as pages of rows: data,
which a presenter lays out (in Discord, an aligned table in a code block).

Periods: `all`; `week`, since Monday 00:00 UTC of the current ISO week; `today`, since 00:00 UTC.
The players' and teams' boards count what finished in the period. The players' board and a
player's stats count alike (bot.store.stats): games are finished games of patience (solo, match
rounds, dailies) and race hands; a win is a game won or a race hand gone out; a match is won by
its winner, or by every player of the winning team. The daily board counts
attempts by the day they began: `today` lists today's results one by one; `week` and `all` add
up each player's dailies of the period. Streaks are over all time, whatever the period.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.game import GAMES
from bot.play.daily import Streaks, streaks, today, utc_day
from bot.play.solo import PlayError, UnknownGame
from bot.store import Store
from bot.store.base import DailyResult

RANKINGS = ("players", "teams", "daily", "streaks")
PERIODS = ("all", "week", "today")
# A ranking's columns (after the rank) and unranked rows, best first.
RankedRows = tuple[tuple[str, ...], list[tuple[Any, ...]]]


class UnknownRanking(PlayError):
    """There is no leaderboard called `ranking`; `choices` are those there are."""

    def __init__(self, ranking: str, choices: tuple[str, ...] = RANKINGS) -> None:
        super().__init__(ranking, choices)
        self.ranking = ranking
        self.choices = choices


class UnknownPeriod(PlayError):
    """There is no period called `period`; `choices` are those there are."""

    def __init__(self, period: str, choices: tuple[str, ...] = PERIODS) -> None:
        super().__init__(period, choices)
        self.period = period
        self.choices = choices


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of leaderboard `ranking` over `period` on server `guild_id` (None: all servers);
    the daily leaderboard is of `game`, and today's is of `day`. `columns` name what each row
    holds (rank, player, games, wins, win_rate, points, matches_won, team, result, score, finished, days, best, streak,
    best_streak, win_streak, best_win_streak); each row starts with the rank and the name."""

    ranking: str
    period: str
    guild_id: int | None
    game: str
    day: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    page: int  # from 0
    pages: int
    total: int  # rows on every page together


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record: finished games, matches and daily streaks."""

    user_id: int
    name: str
    guild_id: int | None  # the server the games and matches were counted on; None: all
    games: int
    wins: int
    best_score: int | None
    average_score: float | None
    matches_played: int
    matches_won: int
    streaks: Streaks

    @property
    def win_rate(self) -> float:
        """The share of finished games won, 0 to 1 (0 with no games)."""
        return self.wins / self.games if self.games else 0.0


class Leaderboards:
    """Pages of the leaderboards, and players' stats, as of the clock's time."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def page(self, ranking: str, period: str, guild_id: int | None, page: int = 0, per_page: int = 10, *,
                   game: str = "canfield") -> LeaderboardPage:
        """One page (from 0; clamped to the pages there are) of leaderboard `ranking` (players,
        teams, daily or streaks) over `period` (all, week or today) on this server (None: all
        servers). `game` is the daily leaderboard's game. UnknownRanking, UnknownPeriod or
        UnknownGame for a name there is not; ValueError for a `per_page` below 1 (a caller's bug)."""
        if ranking not in RANKINGS:
            raise UnknownRanking(ranking)
        if period not in PERIODS:
            raise UnknownPeriod(period)
        if game not in GAMES:
            raise UnknownGame(game)
        if per_page < 1:
            raise ValueError(f"per_page must be at least 1, not {per_page!r}")
        makers: dict[str, Callable[[str, int | None], Awaitable[RankedRows]]] = {
            "players": self._players, "teams": self._teams, "streaks": self._streaks,
            "daily": lambda period, guild: self._daily(period, guild, game),
        }
        columns, rows = await makers[ranking](period, guild_id)
        total = len(rows)
        pages = max(1, math.ceil(total / per_page))
        page = min(max(page, 0), pages - 1)
        first = page * per_page
        ranked = [(first + i + 1, *row) for i, row in enumerate(rows[first:first + per_page])]
        return LeaderboardPage(ranking=ranking, period=period, guild_id=guild_id, game=game, day=today(self.clock),
                               columns=("rank", *columns), rows=ranked, page=page, pages=pages, total=total)

    async def stats(self, user_id: int, guild_id: int | None) -> PlayerStats:
        """A player's stats: finished games and matches on this server (None: all servers), and
        their daily streaks (which count dailies on any server)."""
        totals = await self.store.stats.player_totals(user_id, guild_id)
        days = await self.store.stats.daily_days(user_id=user_id)
        return PlayerStats(
            user_id=user_id, name=totals.name or f"user {user_id}", guild_id=guild_id, games=totals.games,
            wins=totals.wins, best_score=totals.best_score, average_score=totals.average_score,
            matches_played=totals.matches_played, matches_won=totals.matches_won,
            streaks=streaks(((d.day, d.won) for d in days), today(self.clock)),
        )

    # --- the rankings -----------------------------------------------------------------------

    def since(self, period: str) -> float | None:
        """The Unix time the period starts at (None for all time)."""
        now = self.clock()
        if period == "all":
            return None
        midnight = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        if period == "week":
            midnight -= timedelta(days=midnight.weekday())
        return midnight.timestamp()

    async def _players(self, period: str, guild_id: int | None) -> RankedRows:
        standings = await self.store.stats.player_standings(guild_id, self.since(period))
        rows = [(s.name, s.games, s.wins, round(100 * s.wins / s.games) if s.games else None, s.points,
                 s.matches_won) for s in standings]
        return ("player", "games", "wins", "win_rate", "points", "matches_won"), rows

    async def _teams(self, period: str, guild_id: int | None) -> RankedRows:
        standings = await self.store.stats.team_standings(guild_id, self.since(period))
        rows = [(s.name, s.matches_won, s.points) for s in standings]
        return ("team", "matches_won", "points"), rows

    async def _daily(self, period: str, guild_id: int | None, game: str) -> RankedRows:
        day = today(self.clock)
        if period == "today":
            results = await self.store.stats.daily_results(game, guild_id, day, day)
            rows = [(r.name, r.status, r.score, _time_of_day(r.finished_at)) for r in results]
            return ("player", "result", "score", "finished"), rows
        since = self.since(period)
        first_day = utc_day(since) if since is not None else None
        rows = _daily_totals(await self.store.stats.daily_results(game, guild_id, first_day, day))
        return ("player", "days", "wins", "points", "best"), rows

    async def _streaks(self, period: str, guild_id: int | None) -> RankedRows:
        as_of = today(self.clock)
        days = await self.store.stats.daily_days(guild_id=guild_id)
        lines = []
        for _, group in itertools.groupby(days, key=lambda d: d.user_id):
            player_days = list(group)
            lines.append((player_days[0].name, streaks(((d.day, d.won) for d in player_days), as_of)))
        lines.sort(key=lambda line: (-line[1].played, -line[1].best_played, -line[1].won, -line[1].best_won,
                                     line[0].lower()))
        rows = [(name, s.played, s.best_played, s.won, s.best_won) for name, s in lines]
        return ("player", "streak", "best_streak", "win_streak", "best_win_streak"), rows


def _daily_totals(results: list[DailyResult]) -> list[tuple[Any, ...]]:
    """Each player's dailies added up: days played, wins, points and best score (of the finished
    games), by points, then wins, then name."""
    by_player: dict[int, list[DailyResult]] = {}
    for result in results:
        by_player.setdefault(result.user_id, []).append(result)
    rows = []
    for attempts in by_player.values():
        finished = [a for a in attempts if a.status != "playing"]
        rows.append((attempts[0].name, len({a.day for a in attempts}), sum(a.status == "won" for a in finished),
                     sum(a.score for a in finished), max((a.score for a in finished), default=None)))
    rows.sort(key=lambda row: (-row[3], -row[2], row[0].lower()))
    return rows


def _time_of_day(timestamp: float | None) -> str | None:
    return None if timestamp is None else datetime.fromtimestamp(timestamp, UTC).strftime("%H:%M")
