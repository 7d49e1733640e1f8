"""Queries for daily challenges, leaderboards and stats, mixed into SqliteStore."""

from __future__ import annotations

import aiosqlite

from bot.store.base import DailyAttempt, DailyDay, DailyResult, PlayerStanding, PlayerTotals, TeamStanding


class StatsQueries:
    """Daily attempts, leaderboards and stats; uses the store's open connection `self.db`."""

    db: aiosqlite.Connection

    # --- daily challenges ------------------------------------------------------------------

    async def daily_attempt(self, day: str, game: str, user_id: int) -> DailyAttempt | None:
        """The player's attempt at that day's daily of `game`, with its game's state, or None."""
        async with self.db.execute(
            "SELECT a.day, a.game, a.user_id, a.guild_id, a.game_id, g.status, g.score, g.finished_at "
            "FROM daily_attempts a JOIN games g ON g.id = a.game_id "
            "WHERE a.day = ? AND a.game = ? AND a.user_id = ?",
            (day, game, user_id),
        ) as cursor:
            row = await cursor.fetchone()
        return DailyAttempt(*row) if row else None

    async def claim_daily(self, day: str, game: str, user_id: int, guild_id: int | None, game_id: int) -> int:
        """Record game `game_id` as the player's attempt at that day's daily; the id of the
        attempt's game. When they have one already, the new game is deleted and the existing
        attempt's game id is returned."""
        # The primary key (day, game, user_id) decides between simultaneous starts, in this
        # process or another: each statement stands alone, so nothing relies on a transaction
        # that another coroutine sharing the connection could commit halfway.
        cursor = await self.db.execute(
            "INSERT INTO daily_attempts (day, game, user_id, guild_id, game_id) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (day, game, user_id) DO NOTHING",
            (day, game, user_id, guild_id, game_id),
        )
        if cursor.rowcount != 1:
            await self.db.execute(
                "DELETE FROM games WHERE id = ? AND NOT EXISTS (SELECT 1 FROM daily_attempts WHERE game_id = ?)",
                (game_id, game_id),
            )
        await self.db.commit()
        async with self.db.execute(
            "SELECT game_id FROM daily_attempts WHERE day = ? AND game = ? AND user_id = ?", (day, game, user_id)
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def daily_results(self, game: str, guild_id: int | None, first_day: str | None,
                            last_day: str) -> list[DailyResult]:
        """The attempts at the dailies of `game` from `first_day` (None: the first ever) to
        `last_day` on this server (None: anywhere): finished games first, by score, then by
        the earlier finish; games in play after them."""
        async with self.db.execute(
            "SELECT a.day, a.user_id, COALESCE(p.name, 'user ' || a.user_id) AS name, g.status, g.score, g.finished_at "
            "FROM daily_attempts a JOIN games g ON g.id = a.game_id LEFT JOIN players p ON p.user_id = a.user_id "
            "WHERE a.game = ? AND (? IS NULL OR a.guild_id = ?) AND (? IS NULL OR a.day >= ?) AND a.day <= ? "
            "ORDER BY g.status = 'playing', g.score DESC, g.finished_at, name COLLATE NOCASE, a.user_id",
            (game, guild_id, guild_id, first_day, first_day, last_day),
        ) as cursor:
            rows = await cursor.fetchall()
        return [DailyResult(*row) for row in rows]

    async def daily_days(self, *, guild_id: int | None = None, user_id: int | None = None) -> list[DailyDay]:
        """Every day each player made a daily attempt (on any server), and whether they won one
        that day, by player and day: the players with an attempt on this server (None: anywhere),
        or one player."""
        async with self.db.execute(
            "SELECT a.user_id, COALESCE(p.name, 'user ' || a.user_id), a.day, MAX(g.status = 'won') "
            "FROM daily_attempts a JOIN games g ON g.id = a.game_id LEFT JOIN players p ON p.user_id = a.user_id "
            "WHERE (? IS NULL OR a.user_id = ?) "
            "AND (? IS NULL OR a.user_id IN (SELECT user_id FROM daily_attempts WHERE guild_id = ?)) "
            "GROUP BY a.user_id, a.day ORDER BY a.user_id, a.day",
            (user_id, user_id, guild_id, guild_id),
        ) as cursor:
            rows = await cursor.fetchall()
        return [DailyDay(user_id=row[0], name=row[1], day=row[2], won=bool(row[3])) for row in rows]

    # --- leaderboards and stats -------------------------------------------------------------

    async def player_standings(self, guild_id: int | None, since: float | None) -> list[PlayerStanding]:
        """Every player with a game or a race finished, or a match won, on this server (None: all)
        since `since` (None: ever): by points, then wins (a race's win: going out), then name."""
        async with self.db.execute(
            "WITH results AS ("
            "  SELECT user_id, status = 'won' AS won, score, guild_id, finished_at FROM games WHERE status != 'playing'"
            "  UNION ALL"
            "  SELECT p.user_id, COALESCE(r.demon_user_id = p.user_id, 0), p.score, r.guild_id, r.finished_at"
            "  FROM race_players p JOIN races r ON r.id = p.race_id WHERE r.status = 'finished'), "
            "finished AS ("
            "  SELECT user_id, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS points FROM results"
            "  WHERE (? IS NULL OR guild_id = ?) AND (? IS NULL OR finished_at >= ?)"
            "  GROUP BY user_id), "
            "won_matches AS ("
            "  SELECT winner_user_id AS user_id, COUNT(*) AS matches FROM matches"
            "  WHERE winner_user_id IS NOT NULL AND (? IS NULL OR guild_id = ?) AND (? IS NULL OR finished_at >= ?)"
            "  GROUP BY winner_user_id), "
            "everyone AS (SELECT user_id FROM finished UNION SELECT user_id FROM won_matches) "
            "SELECT e.user_id, COALESCE(p.name, 'user ' || e.user_id) AS name, COALESCE(f.games, 0), "
            "COALESCE(f.wins, 0) AS wins, COALESCE(f.points, 0) AS points, COALESCE(w.matches, 0) "
            "FROM everyone e LEFT JOIN finished f ON f.user_id = e.user_id "
            "LEFT JOIN won_matches w ON w.user_id = e.user_id LEFT JOIN players p ON p.user_id = e.user_id "
            "ORDER BY points DESC, wins DESC, name COLLATE NOCASE, e.user_id",
            (guild_id, guild_id, since, since) * 2,
        ) as cursor:
            rows = await cursor.fetchall()
        return [PlayerStanding(*row) for row in rows]

    async def team_standings(self, guild_id: int | None, since: float | None) -> list[TeamStanding]:
        """The server's teams (None: every server's) with their match points and matches won
        since `since` (None: ever): by matches won, then points, then name."""
        # A round's points go to the team its player was in for that match (match_players),
        # whatever team they are in now.
        async with self.db.execute(
            "WITH points AS ("
            "  SELECT mp.team_id, SUM(g.score) AS points FROM games g"
            "  JOIN matches m ON m.id = g.match_id"
            "  JOIN match_players mp ON mp.match_id = g.match_id AND mp.user_id = g.user_id"
            "  WHERE g.kind = 'match' AND g.status != 'playing' AND m.teams = 1 AND mp.team_id IS NOT NULL"
            "  AND (? IS NULL OR g.finished_at >= ?)"
            "  GROUP BY mp.team_id), "
            "wins AS ("
            "  SELECT winner_team_id AS team_id, COUNT(*) AS won FROM matches"
            "  WHERE winner_team_id IS NOT NULL AND (? IS NULL OR finished_at >= ?)"
            "  GROUP BY winner_team_id) "
            "SELECT t.id, t.name, COALESCE(w.won, 0) AS won, COALESCE(pt.points, 0) AS points FROM teams t "
            "LEFT JOIN points pt ON pt.team_id = t.id LEFT JOIN wins w ON w.team_id = t.id "
            "WHERE (? IS NULL OR t.guild_id = ?) "
            "ORDER BY won DESC, points DESC, t.name, t.id",
            (since, since, since, since, guild_id, guild_id),
        ) as cursor:
            rows = await cursor.fetchall()
        return [TeamStanding(*row) for row in rows]

    async def player_totals(self, user_id: int, guild_id: int | None) -> PlayerTotals:
        """A player's finished games and matches (those that started) on this server (None: all);
        a match is won when they won it, or their team did."""
        async with self.db.execute(
            "SELECT COUNT(*), COALESCE(SUM(status = 'won'), 0), MAX(score), AVG(score) FROM games "
            "WHERE user_id = ? AND status != 'playing' AND (? IS NULL OR guild_id = ?)",
            (user_id, guild_id, guild_id),
        ) as cursor:
            games, wins, best, average = await cursor.fetchone() or (0, 0, None, None)
        async with self.db.execute(
            "SELECT COUNT(*), "
            "COALESCE(SUM(CASE WHEN m.winner_user_id = mp.user_id OR m.winner_team_id = mp.team_id THEN 1 END), 0) "
            "FROM match_players mp "
            "JOIN matches m ON m.id = mp.match_id "
            "WHERE mp.user_id = ? AND m.started_at IS NOT NULL AND (? IS NULL OR m.guild_id = ?)",
            (user_id, guild_id, guild_id),
        ) as cursor:
            played, won = await cursor.fetchone() or (0, 0)
        async with self.db.execute("SELECT name FROM players WHERE user_id = ?", (user_id,)) as cursor:
            row = await cursor.fetchone()
        return PlayerTotals(user_id=user_id, name=row[0] if row else None, games=games, wins=wins, best_score=best,
                            average_score=average, matches_played=played, matches_won=won)
