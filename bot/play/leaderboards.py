"""Leaderboards (players, teams, dailies, streaks) and a player's stats, as pages of rows: data,
which a presenter lays out (in Discord, an aligned table in a code block).

Periods: `all`; `week`, since Monday 00:00 UTC of the current ISO week; `today`, since 00:00 UTC;
`season`, the server's current season (bot.play.seasons: a month, week or quarter in its time zone,
by its settings; a month in UTC over all servers), or a season named, past or current. The
players' and teams' boards count what finished in the period. The players' board and a
player's stats count alike (bot.store.stats): games are finished games of patience (solo, match
rounds, dailies) and race hands; a win is a game won or a race hand gone out; a match is won by
its winner, or by every player of the winning team. The daily board counts
attempts by the day they began: `today` lists today's results one by one, ties broken by fewer
moves, then less time; the other periods add up each player's dailies of the period's days (a
season's: the dailies of the dates it spans). Streaks are over all time, whatever the period.

Records worth chasing: a clean win is a game of patience won with no move taken back and no hint
(a race hand is never one); `clean` ranks them. Casino Canfield (docs/games.md): every finished game of
a casino game (bot.game.rules.CASINO_GAMES) costs its player $52 and pays $5 a card it put on the
foundations, and their bankroll carries over from game to game; `casino` ranks it. The boards and
a player's stats count these the same way too.

Ratings (bot.play.ratings): `rating` ranks players by their rating, one across every server. Over
`all`, each player's rating now; over another period (a season among them), the players with a
rated game in the period, each by their rating after their last rated game in it. On a server, the
players with a rated game there.
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
from bot.game.games import RACE
from bot.game.rules import CASINO_GAMES, casino_money
from bot.play.daily import Streaks, streaks
from bot.play.days import today, utc_day
from bot.play.errors import UnknownGame, UnknownPeriod, UnknownRanking
from bot.play.ratings import PROVISIONAL_GAMES, PlayerRating, player_rating, shown_rating
from bot.play.seasons import Season, first_day, last_day, parse_season, recent, season_of
from bot.play.settings import load_settings
from bot.store import Store
from bot.store.base import DailyDay, DailyResult, GameRecord, RatingStanding, Skill

RANKINGS = ("players", "teams", "daily", "streaks", "clean", "casino", "rating")
PERIODS = ("all", "week", "today", "season")
# The boards of a season's final standings (SeasonStandings), in order.
STANDINGS = ("players", "teams", "rating", "daily")
STANDINGS_GAME = "canfield"  # the daily board's game in them
# A ranking's columns (after the rank) and unranked rows, best first.
RankedRows = tuple[tuple[str, ...], list[tuple[Any, ...]]]


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of leaderboard `ranking` over `period` on server `guild_id` (None: all servers);
    the daily leaderboard is of `game`, and today's is of `day`. `columns` name what each row
    holds (rank, player, games, wins, win_rate, points, matches_won, clean_wins, bankroll, team, result, score,
    moves, time, days, best, streak, best_streak, win_streak, best_win_streak, rating, provisional); each row
    starts with the rank and the name. A time is in whole seconds."""

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
    season: Season | None = None  # the season shown (period `season`)


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    """The final standings of `season` on server `guild_id` (None: all servers): the top rows of
    each board of STANDINGS, in that order (a team that scored nothing in it left out)."""

    season: Season
    guild_id: int | None
    boards: tuple[LeaderboardPage, ...]


@dataclass(frozen=True, slots=True)
class Window:
    """What a board counts: results finished from `since` (None: ever) until before `until`
    (None: now), and dailies of the days `first_day` (None: the first ever) to `last_day`."""

    since: float | None
    until: float | None
    first_day: str | None
    last_day: str


@dataclass(frozen=True, slots=True)
class GameStats:
    """A player's record at one game (`game`, a name of bot.game.GAMES or RACE): finished games
    played, won and won clean, the best score, the average cards on the foundations (None: not
    known), their current and best streaks of days with a daily of this game played; of their lost
    games, those the analysis answered and those of them that could have been won; and for a
    casino game, their bankroll in dollars."""

    game: str
    played: int
    wins: int
    clean_wins: int
    best_score: int | None
    average_cards: float | None
    streaks: Streaks
    lost_analysed: int = 0
    lost_winnable: int = 0
    bankroll: int | None = None

    @property
    def win_rate(self) -> float:
        """The share of finished games won, 0 to 1 (0 with no games)."""
        return self.wins / self.played if self.played else 0.0

    @property
    def winnable_share(self) -> float | None:
        """The share of the analysed lost games that could have been won (None: none analysed)."""
        return self.lost_winnable / self.lost_analysed if self.lost_analysed else None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record: finished games, matches and daily streaks; clean wins; and game by game."""

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
    clean_wins: int = 0
    games_played: tuple[GameStats, ...] = ()  # the most played first
    rating: PlayerRating | None = None  # None: no rated game yet (a rating counts every server)

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
                   game: str = "canfield", season: Season | str | None = None) -> LeaderboardPage:
        """One page (from 0; clamped to the pages there are) of leaderboard `ranking` (players,
        teams, daily, streaks, clean, casino or rating) over `period` (all, week, today or season: the
        current season) on this server (None: all servers); a `season` (one, or its name) shows
        that season, whatever the period. `game` is the daily leaderboard's game. UnknownRanking,
        UnknownPeriod, UnknownGame or UnknownSeason for a name there is not; ValueError for a
        `per_page` below 1 (a caller's bug)."""
        if ranking not in RANKINGS:
            raise UnknownRanking(ranking, RANKINGS)
        if period not in PERIODS:
            raise UnknownPeriod(period, PERIODS)
        if game not in GAMES:
            raise UnknownGame(game)
        if per_page < 1:
            raise ValueError(f"per_page must be at least 1, not {per_page!r}")
        shown = None
        if season is not None or period == "season":
            period = "season"
            shown = season if isinstance(season, Season) else await self.season(guild_id, season)
        columns, rows = await self._rows(ranking, period, self.window(period, shown), guild_id, game)
        return self._page(ranking, period, guild_id, game, shown, columns, rows, page, per_page)

    async def season(self, guild_id: int | None, name: str | None = None) -> Season:
        """The season called `name` (a month, week or quarter by its form, in the server's time
        zone; UnknownSeason for a name there is not), or without one the server's current season
        (its kind and time zone by its settings); over all servers (None), in UTC, and by the month.
        A season whose final standings the server's daily channel was given keeps the edges it had
        then, whatever the settings became."""
        settings = await load_settings(self.store, guild_id)
        if name is not None:
            season = parse_season(name, settings.zone)
            kept = None if guild_id is None else await self.store.ritual.post(guild_id, "season", season.name)
            if kept is not None and kept.starts is not None and kept.ends is not None:
                return Season(season.kind, season.name, int(kept.starts), int(kept.ends))
            return season
        return season_of(self.clock(), settings.season, settings.zone)

    async def recent_seasons(self, guild_id: int | None, count: int = 12) -> list[Season]:
        """The server's current season and the ones before it, `count` in all, the latest first."""
        settings = await load_settings(self.store, guild_id)
        return recent(self.clock(), settings.season, settings.zone, count)

    async def season_standings(self, guild_id: int | None, season: Season | str, top: int = 5) -> SeasonStandings:
        """The standings of a season (one, or its name: UnknownSeason for a name there is not) on
        this server (None: all servers): the first `top` rows of each board of STANDINGS, the
        daily one of STANDINGS_GAME, as `page` shows them."""
        shown = season if isinstance(season, Season) else await self.season(guild_id, season)
        window = self.window("season", shown)
        boards = []
        for ranking in STANDINGS:
            columns, rows = await self._rows(ranking, "season", window, guild_id, STANDINGS_GAME)
            if ranking == "teams":  # every team of the server is on its board: those that played only
                rows = [row for row in rows if row[1] or row[2]]
            boards.append(self._page(ranking, "season", guild_id, STANDINGS_GAME, shown, columns, rows, 0, top))
        return SeasonStandings(season=shown, guild_id=guild_id, boards=tuple(boards))

    def _page(self, ranking: str, period: str, guild_id: int | None, game: str, season: Season | None,
              columns: tuple[str, ...], rows: list[tuple[Any, ...]], page: int, per_page: int) -> LeaderboardPage:
        """Page `page` (clamped to the pages there are) of a board's rows, `per_page` a page, ranked."""
        total = len(rows)
        pages = max(1, math.ceil(total / per_page))
        page = min(max(page, 0), pages - 1)
        first = page * per_page
        ranked = [(first + i + 1, *row) for i, row in enumerate(rows[first:first + per_page])]
        return LeaderboardPage(ranking=ranking, period=period, guild_id=guild_id, game=game, day=today(self.clock),
                               columns=("rank", *columns), rows=ranked, page=page, pages=pages, total=total,
                               season=season)

    async def _rows(self, ranking: str, period: str, window: Window, guild_id: int | None,
                    game: str) -> RankedRows:
        """The columns and rows of board `ranking` over `period` and its `window` (`game`: the daily board's)."""
        makers: dict[str, Callable[[Window, int | None], Awaitable[RankedRows]]] = {
            "players": self._players, "teams": self._teams, "streaks": self._streaks, "clean": self._clean,
            "casino": self._casino, "rating": self._rating,
            "daily": lambda window, guild: self._daily(window, guild, game, daily_today=period == "today"),
        }
        return await makers[ranking](window, guild_id)

    async def stats(self, user_id: int, guild_id: int | None, game: str | None = None) -> PlayerStats:
        """A player's stats: finished games and matches on this server (None: all servers), and
        their daily streaks (which count dailies on any server); then game by game, every game
        they have a finished game or a daily of, or only `game` (UnknownGame for a name there is not)."""
        if game is not None and game not in GAMES and game != RACE:
            raise UnknownGame(game)
        totals = await self.store.stats.player_totals(user_id, guild_id)
        days = await self.store.stats.daily_days(user_id=user_id)
        records = {record.game or RACE: record for record in await self.store.stats.game_records(user_id, guild_id)}
        only_dailies = sorted({day.game for day in days} - set(records))  # a daily in play, or on another server
        as_of = today(self.clock)
        games_played = tuple(_game_stats(name, records.get(name), [day for day in days if day.game == name], as_of)
                             for name in [*records, *only_dailies] if game in (None, name))
        return PlayerStats(
            user_id=user_id, name=totals.name or f"user {user_id}", guild_id=guild_id, games=totals.games,
            wins=totals.wins, best_score=totals.best_score, average_score=totals.average_score,
            matches_played=totals.matches_played, matches_won=totals.matches_won,
            streaks=streaks(((d.day, d.won) for d in days), as_of), clean_wins=totals.clean_wins,
            games_played=games_played, rating=await player_rating(self.store, user_id),
        )

    # --- the rankings -----------------------------------------------------------------------

    def since(self, period: str) -> float | None:
        """The Unix time a period other than a season starts at (None for all time)."""
        now = self.clock()
        if period == "all":
            return None
        midnight = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        if period == "week":
            midnight -= timedelta(days=midnight.weekday())
        return midnight.timestamp()

    def window(self, period: str, season: Season | None = None) -> Window:
        """What a board over `period` counts: a season's results and dailies (`season`, for the
        period `season`), or the period's since it began."""
        if season is not None:
            return Window(since=season.starts, until=season.ends, first_day=first_day(season).isoformat(),
                          last_day=last_day(season).isoformat())
        since = self.since(period)
        return Window(since=since, until=None, first_day=utc_day(since) if since is not None else None,
                      last_day=today(self.clock))

    async def _players(self, window: Window, guild_id: int | None) -> RankedRows:
        standings = await self.store.stats.player_standings(guild_id, window.since, window.until)
        rows = [(s.name, s.games, s.wins, round(100 * s.wins / s.games) if s.games else None, s.points,
                 s.matches_won) for s in standings]
        return ("player", "games", "wins", "win_rate", "points", "matches_won"), rows

    async def _clean(self, window: Window, guild_id: int | None) -> RankedRows:
        standings = await self.store.stats.player_standings(guild_id, window.since, window.until)
        rows = [(s.name, s.clean_wins, s.wins, s.games) for s in sorted(
            (s for s in standings if s.clean_wins), key=lambda s: (-s.clean_wins, -s.wins, s.name.lower()))]
        return ("player", "clean_wins", "wins", "games"), rows

    async def _casino(self, window: Window, guild_id: int | None) -> RankedRows:
        standings = await self.store.stats.casino_standings(CASINO_GAMES, guild_id, window.since, window.until)
        rows = [(s.name, casino_money(s.games, s.cards), s.games) for s in standings]
        rows.sort(key=lambda row: (-row[1], row[2], row[0].lower()))
        return ("player", "bankroll", "games"), rows

    async def _rating(self, window: Window, guild_id: int | None) -> RankedRows:
        standings = await self.store.ratings.standings(guild_id, window.since, window.until)
        return ("player", "rating", "games", "provisional"), rating_rows(standings)

    async def _teams(self, window: Window, guild_id: int | None) -> RankedRows:
        standings = await self.store.stats.team_standings(guild_id, window.since, window.until)
        rows = [(s.name, s.matches_won, s.points) for s in standings]
        return ("team", "matches_won", "points"), rows

    async def _daily(self, window: Window, guild_id: int | None, game: str, *, daily_today: bool) -> RankedRows:
        if daily_today:
            results = await self.store.stats.daily_results(game, guild_id, window.last_day, window.last_day)
            rows = [(r.name, r.status, r.score, r.moves if r.status != "playing" else None,
                     None if r.seconds is None else round(r.seconds)) for r in results]
            return ("player", "result", "score", "moves", "time"), rows
        rows = _daily_totals(await self.store.stats.daily_results(game, guild_id, window.first_day, window.last_day))
        return ("player", "days", "wins", "points", "best"), rows

    async def _streaks(self, _window: Window, guild_id: int | None) -> RankedRows:
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


def rating_rows(standings: list[RatingStanding]) -> list[tuple[Any, ...]]:
    """The rating board's rows (player, rating as shown, rated games in the period, whether
    provisional), by rating, then more games, then name."""
    rows = [(s.name, shown_rating(Skill(s.mu, s.sigma)), s.games, s.rated_games < PROVISIONAL_GAMES)
            for s in standings]
    return sorted(rows, key=lambda row: (-row[1], -row[2], row[0].lower()))


def _daily_totals(results: list[DailyResult]) -> list[tuple[Any, ...]]:
    """Each player's dailies added up: days played, wins, points and best score (of the finished
    games), by points, then wins, then fewer moves and less time in all (of the finished games),
    then name."""
    by_player: dict[int, list[DailyResult]] = {}
    for result in results:
        by_player.setdefault(result.user_id, []).append(result)
    lines = []
    for attempts in by_player.values():
        finished = [a for a in attempts if a.status != "playing"]
        row = (attempts[0].name, len({a.day for a in attempts}), sum(a.status == "won" for a in finished),
               sum(a.score for a in finished), max((a.score for a in finished), default=None))
        lines.append((row, sum(a.moves for a in finished), sum(a.seconds or 0 for a in finished)))
    lines.sort(key=lambda line: (-line[0][3], -line[0][2], line[1], line[2], line[0][0].lower()))
    return [row for row, _moves, _seconds in lines]


def _game_stats(game: str, record: GameRecord | None, days: list[DailyDay], as_of: str) -> GameStats:
    """A player's record at `game` from the store's (None: no finished game) and their days with a daily of it."""
    daily_streaks = streaks(((d.day, d.won) for d in days), as_of)
    if record is None:
        return GameStats(game=game, played=0, wins=0, clean_wins=0, best_score=None, average_cards=None,
                         streaks=daily_streaks, bankroll=0 if game in CASINO_GAMES else None)
    return GameStats(game=game, played=record.played, wins=record.wins, clean_wins=record.clean_wins,
                     best_score=record.best_score, average_cards=record.average_cards, streaks=daily_streaks,
                     lost_analysed=record.lost_analysed, lost_winnable=record.lost_winnable,
                     bankroll=casino_money(record.counted_cards, record.cards) if game in CASINO_GAMES else None)
