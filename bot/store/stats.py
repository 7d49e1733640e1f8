"""The store of daily challenges, leaderboards, stats and server settings."""

from __future__ import annotations

from bot.store.base import DailyAttempt, DailyDay, DailyResult, PlayerStanding, PlayerTotals, TeamStanding
from bot.store.databases import Database

# What counts, the same for the players' leaderboard and /stats (README, "Leaderboards and stats"):
# a result is a finished game of patience (solo, a match's round or a daily; won when won) or a
# finished race hand (won by the player who went out), each with its score; rounds closed by
# the end of their match count nowhere.
_RESULTS = (
    "results AS ("
    "  SELECT user_id, CASE WHEN status = 'won' THEN 1 ELSE 0 END AS won, score, guild_id, finished_at"
    "  FROM games WHERE status != 'playing' AND closed = 0"
    "  UNION ALL"
    "  SELECT p.user_id, CASE WHEN r.demon_user_id = p.user_id THEN 1 ELSE 0 END, p.score, r.guild_id,"
    "  r.finished_at FROM race_players p JOIN races r ON r.id = p.race_id WHERE r.status = 'finished')")
# A match is won by its winner and, in a team match, by every player who played for the winning team.
_MATCH_WINS = (
    "match_wins AS ("
    "  SELECT mp.user_id, m.guild_id, m.finished_at FROM match_players mp JOIN matches m ON m.id = mp.match_id"
    "  WHERE m.status = 'finished' AND (m.winner_user_id = mp.user_id OR m.winner_team_id = mp.team_id))")


class StatsStore:
    """Daily attempts, leaderboards, stats and server settings."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --- daily challenges ------------------------------------------------------------------

    async def daily_attempt(self, day: str, game: str, user_id: int) -> DailyAttempt | None:
        """The player's attempt at that day's daily of `game`, with its game's state, or None."""
        row = await self.db.fetch_one(
            "SELECT a.day, a.game, a.user_id, a.guild_id, a.game_id, g.status, g.score, g.finished_at "
            "FROM daily_attempts a JOIN games g ON g.id = a.game_id "
            "WHERE a.day = :day AND a.game = :game AND a.user_id = :user_id",
            {"day": day, "game": game, "user_id": user_id},
        )
        return DailyAttempt(*row) if row else None

    async def daily_of_game(self, game_id: int) -> DailyAttempt | None:
        """The daily attempt whose game is `game_id`, with the hints asked for in it and whether
        its result was shared; None when that game is no daily."""
        row = await self.db.fetch_one(
            "SELECT a.day, a.game, a.user_id, a.guild_id, a.game_id, g.status, g.score, g.finished_at, g.hints, "
            "a.shared FROM daily_attempts a JOIN games g ON g.id = a.game_id WHERE a.game_id = :game_id",
            {"game_id": game_id},
        )
        if row is None:
            return None
        *attempt, shared = row
        return DailyAttempt(*attempt, shared=bool(shared))

    async def mark_shared(self, game_id: int) -> bool:
        """Note that the result of the daily played in game `game_id` was shared: True the first
        time, False when it was already (one statement decides, between processes too)."""
        changed = await self.db.execute(
            "UPDATE daily_attempts SET shared = 1 WHERE game_id = :game_id AND shared = 0", {"game_id": game_id})
        return changed == 1

    async def claim_daily(self, day: str, game: str, user_id: int, guild_id: int | None, game_id: int) -> int:
        """Record game `game_id` (just created, unplayed) as the player's attempt at that day's
        daily; the id of the attempt's game. When they have an attempt already (two starts at
        once), the new game is deleted and the existing attempt's game id is returned."""
        # The primary key (day, game, user_id) decides between simultaneous starts, in this
        # process or another: each statement stands alone and commits on its own.
        claimed = await self.db.execute(
            "INSERT INTO daily_attempts (day, game, user_id, guild_id, game_id) "
            "VALUES (:day, :game, :user_id, :guild_id, :game_id) ON CONFLICT (day, game, user_id) DO NOTHING",
            {"day": day, "game": game, "user_id": user_id, "guild_id": guild_id, "game_id": game_id},
        )
        if claimed != 1:
            await self.db.execute(
                "DELETE FROM games WHERE id = :game_id "
                "AND NOT EXISTS (SELECT 1 FROM daily_attempts WHERE game_id = :game_id)",
                {"game_id": game_id},
            )
        attempt = await self.db.fetch_value(
            "SELECT game_id FROM daily_attempts WHERE day = :day AND game = :game AND user_id = :user_id",
            {"day": day, "game": game, "user_id": user_id})
        assert attempt is not None
        return int(attempt)

    async def daily_results(self, game: str, guild_id: int | None, first_day: str | None,
                            last_day: str) -> list[DailyResult]:
        """The attempts at the dailies of `game` from `first_day` (None: the first ever) to
        `last_day`, played on this server (None: anywhere), with their games' state: finished
        games first, by score, then by the earlier finish; games in play after them."""
        rows = await self.db.fetch_all(
            "SELECT a.day, a.user_id, COALESCE(p.name, 'user ' || a.user_id) AS name, g.status, g.score, g.finished_at "
            "FROM daily_attempts a JOIN games g ON g.id = a.game_id LEFT JOIN players p ON p.user_id = a.user_id "
            "WHERE a.game = :game AND (CAST(:guild_id AS BIGINT) IS NULL OR a.guild_id = :guild_id) "
            "AND (CAST(:first_day AS TEXT) IS NULL OR a.day >= :first_day) AND a.day <= :last_day "
            "ORDER BY CASE WHEN g.status = 'playing' THEN 1 ELSE 0 END, g.score DESC, g.finished_at, "
            "LOWER(COALESCE(p.name, 'user ' || a.user_id)), a.user_id",
            {"game": game, "guild_id": guild_id, "first_day": first_day, "last_day": last_day},
        )
        return [DailyResult(*row) for row in rows]

    async def daily_days(self, *, guild_id: int | None = None, user_id: int | None = None) -> list[DailyDay]:
        """Every day each player made a daily attempt, and whether they won a daily that day, by
        player and day: for the players with an attempt on this server (None: anywhere), or for one
        player. A player's days are all theirs, on any server: a streak is personal."""
        rows = await self.db.fetch_all(
            "SELECT a.user_id, COALESCE(p.name, 'user ' || a.user_id), a.day, "
            "MAX(CASE WHEN g.status = 'won' THEN 1 ELSE 0 END) "
            "FROM daily_attempts a JOIN games g ON g.id = a.game_id LEFT JOIN players p ON p.user_id = a.user_id "
            "WHERE (CAST(:user_id AS BIGINT) IS NULL OR a.user_id = :user_id) "
            "AND (CAST(:guild_id AS BIGINT) IS NULL "
            "OR a.user_id IN (SELECT user_id FROM daily_attempts WHERE guild_id = :guild_id)) "
            "GROUP BY a.user_id, p.name, a.day ORDER BY a.user_id, a.day",
            {"user_id": user_id, "guild_id": guild_id},
        )
        return [DailyDay(user_id=row[0], name=row[1], day=row[2], won=bool(row[3])) for row in rows]

    # --- leaderboards and stats -------------------------------------------------------------

    async def player_standings(self, guild_id: int | None, since: float | None) -> list[PlayerStanding]:
        """Every player with a game finished, or a match won, on this server (None: all) since
        `since` (None: ever): by points, then wins, then name."""
        rows = await self.db.fetch_all(
            f"WITH {_RESULTS}, {_MATCH_WINS}, "
            "finished AS ("
            "  SELECT user_id, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS points FROM results"
            "  WHERE (CAST(:guild_id AS BIGINT) IS NULL OR guild_id = :guild_id)"
            "  AND (CAST(:since AS DOUBLE PRECISION) IS NULL OR finished_at >= :since)"
            "  GROUP BY user_id), "
            "won_matches AS ("
            "  SELECT user_id, COUNT(*) AS matches FROM match_wins"
            "  WHERE (CAST(:guild_id AS BIGINT) IS NULL OR guild_id = :guild_id)"
            "  AND (CAST(:since AS DOUBLE PRECISION) IS NULL OR finished_at >= :since)"
            "  GROUP BY user_id), "
            "everyone AS (SELECT user_id FROM finished UNION SELECT user_id FROM won_matches) "
            "SELECT e.user_id, COALESCE(p.name, 'user ' || e.user_id) AS name, COALESCE(f.games, 0), "
            "COALESCE(f.wins, 0) AS wins, COALESCE(f.points, 0) AS points, COALESCE(w.matches, 0) "
            "FROM everyone e LEFT JOIN finished f ON f.user_id = e.user_id "
            "LEFT JOIN won_matches w ON w.user_id = e.user_id LEFT JOIN players p ON p.user_id = e.user_id "
            "ORDER BY points DESC, wins DESC, LOWER(COALESCE(p.name, 'user ' || e.user_id)), e.user_id",
            {"guild_id": guild_id, "since": since},
        )
        return [PlayerStanding(*row) for row in rows]

    async def team_standings(self, guild_id: int | None, since: float | None) -> list[TeamStanding]:
        """The server's teams (None: every server's) with their match points and matches won
        since `since` (None: ever): by matches won, then points, then name."""
        # A round's points go to the team its player was in for that match (match_players),
        # whatever team they are in now.
        rows = await self.db.fetch_all(
            "WITH points AS ("
            "  SELECT mp.team_id, SUM(g.score) AS points FROM games g"
            "  JOIN matches m ON m.id = g.match_id"
            "  JOIN match_players mp ON mp.match_id = g.match_id AND mp.user_id = g.user_id"
            "  WHERE g.kind = 'match' AND g.status != 'playing' AND g.closed = 0 AND m.teams = 1"
            "  AND mp.team_id IS NOT NULL"
            "  AND (CAST(:since AS DOUBLE PRECISION) IS NULL OR g.finished_at >= :since)"
            "  GROUP BY mp.team_id), "
            "wins AS ("
            "  SELECT winner_team_id AS team_id, COUNT(*) AS won FROM matches"
            "  WHERE winner_team_id IS NOT NULL AND (CAST(:since AS DOUBLE PRECISION) IS NULL OR finished_at >= :since)"
            "  GROUP BY winner_team_id) "
            "SELECT t.id, t.name, COALESCE(w.won, 0) AS won, COALESCE(pt.points, 0) AS points FROM teams t "
            "LEFT JOIN points pt ON pt.team_id = t.id LEFT JOIN wins w ON w.team_id = t.id "
            "WHERE (CAST(:guild_id AS BIGINT) IS NULL OR t.guild_id = :guild_id) "
            "ORDER BY won DESC, points DESC, LOWER(t.name), t.id",
            {"since": since, "guild_id": guild_id},
        )
        return [TeamStanding(*row) for row in rows]

    async def player_totals(self, user_id: int, guild_id: int | None) -> PlayerTotals:
        """A player's finished games, and the matches they played (that started) and won (they, or
        their team), on this server (None: all servers)."""
        games, wins, best, average = await self.db.fetch_one(
            f"WITH {_RESULTS} SELECT COUNT(*), COALESCE(SUM(won), 0), MAX(score), AVG(score) FROM results "
            "WHERE user_id = :user_id AND (CAST(:guild_id AS BIGINT) IS NULL OR guild_id = :guild_id)",
            {"user_id": user_id, "guild_id": guild_id},
        ) or (0, 0, None, None)
        played = await self.db.fetch_value(
            "SELECT COUNT(*) FROM match_players mp JOIN matches m ON m.id = mp.match_id "
            "WHERE mp.user_id = :user_id AND m.started_at IS NOT NULL "
            "AND (CAST(:guild_id AS BIGINT) IS NULL OR m.guild_id = :guild_id)",
            {"user_id": user_id, "guild_id": guild_id},
        ) or 0
        won = await self.db.fetch_value(
            f"WITH {_MATCH_WINS} SELECT COUNT(*) FROM match_wins "
            "WHERE user_id = :user_id AND (CAST(:guild_id AS BIGINT) IS NULL OR guild_id = :guild_id)",
            {"user_id": user_id, "guild_id": guild_id},
        ) or 0
        name = await self.db.fetch_value("SELECT name FROM players WHERE user_id = :user_id", {"user_id": user_id})
        return PlayerTotals(user_id=user_id, name=name, games=games, wins=wins, best_score=best,
                            average_score=None if average is None else float(average),
                            matches_played=played, matches_won=won)

    # --- server settings ---------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings."""
        rows = await self.db.fetch_all("SELECT key, value FROM guild_settings WHERE guild_id = :guild_id",
                                       {"guild_id": guild_id})
        return {key: value for key, value in rows}

    async def set_setting(self, guild_id: int, key: str, value: str) -> None:
        """Change one of a server's settings."""
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (:guild_id, :key, :value) "
            "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            {"guild_id": guild_id, "key": key, "value": value},
        )
