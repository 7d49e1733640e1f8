"""The store of teams and matches."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.store.base import Match, MatchPlayer, NewMatch, Team, TeamError, TeamProblem
from bot.store.databases import Database, DuplicateRow

_MATCH_COLUMNS = ("id, guild_id, channel_id, host_id, game, options, target, teams, undo, seed, status, message_id, "
                  "winner_user_id, winner_team_id, created_at, started_at, finished_at, last_activity")
# A match nobody has touched since `before` (the parameter): in its lobby or running, no
# activity, and no move in any of its rounds.
_IDLE = ("status IN ('lobby', 'running') AND last_activity < :before "
         "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.match_id = matches.id AND g.updated_at >= :before)")


class MatchStore:
    """Teams and matches, with their players and rounds."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock  # every time this store writes comes from here

    # --- teams -------------------------------------------------------------------------

    async def create_team(self, guild_id: int, name: str, user_id: int) -> Team:
        """A new team with its creator in it; TeamError if the name is taken or the creator
        is already in a team on this server."""
        if await self.team_of(guild_id, user_id) is not None:
            raise TeamError(TeamProblem.IN_A_TEAM)
        now = self.clock()
        try:
            async with self.db.transaction() as tx:
                team_id = await tx.insert(
                    "INSERT INTO teams (guild_id, name, created_by, created_at) "
                    "VALUES (:guild_id, :name, :user_id, :now)",
                    {"guild_id": guild_id, "name": name, "user_id": user_id, "now": now})
                await tx.execute(
                    "INSERT INTO team_members (guild_id, user_id, team_id, joined_at) "
                    "VALUES (:guild_id, :user_id, :team_id, :now)",
                    {"guild_id": guild_id, "user_id": user_id, "team_id": team_id, "now": now})
        except DuplicateRow:
            raise TeamError(TeamProblem.NAME_TAKEN, name) from None
        team = await self.get_team(team_id)
        assert team is not None
        return team

    async def join_team(self, guild_id: int, name: str, user_id: int) -> Team:
        """Put a member in a team; TeamError if there is no such team or they are in another."""
        team_id = await self.db.fetch_value(
            "SELECT id FROM teams WHERE guild_id = :guild_id AND LOWER(name) = LOWER(:name)",
            {"guild_id": guild_id, "name": name})
        if team_id is None:
            raise TeamError(TeamProblem.NO_SUCH_TEAM, name)
        current = await self.team_of(guild_id, user_id)
        if current is not None:
            if current.id == team_id:
                return current
            raise TeamError(TeamProblem.IN_A_TEAM, current.name)
        try:
            await self.db.execute(
                "INSERT INTO team_members (guild_id, user_id, team_id, joined_at) "
                "VALUES (:guild_id, :user_id, :team_id, :now)",
                {"guild_id": guild_id, "user_id": user_id, "team_id": team_id, "now": self.clock()})
        except DuplicateRow:
            raise TeamError(TeamProblem.JOINED_MEANWHILE) from None
        team = await self.get_team(team_id)
        assert team is not None
        return team

    async def leave_team(self, guild_id: int, user_id: int) -> Team | None:
        """Take a member out of their team (an emptied team is deleted); the team, or None."""
        team = await self.team_of(guild_id, user_id)
        if team is None:
            return None
        async with self.db.transaction() as tx:
            await tx.execute("DELETE FROM team_members WHERE guild_id = :guild_id AND user_id = :user_id",
                             {"guild_id": guild_id, "user_id": user_id})
            # A team left empty goes, unless it has a history: that stays, for the leaderboards.
            await tx.execute(
                "DELETE FROM teams WHERE id = :team_id "
                "AND NOT EXISTS (SELECT 1 FROM team_members WHERE team_id = :team_id) "
                "AND NOT EXISTS (SELECT 1 FROM match_players WHERE team_id = :team_id) "
                "AND NOT EXISTS (SELECT 1 FROM matches WHERE winner_team_id = :team_id)",
                {"team_id": team.id})
        return team

    async def team_of(self, guild_id: int, user_id: int) -> Team | None:
        """The member's team on this server, or None."""
        team_id = await self.db.fetch_value(
            "SELECT team_id FROM team_members WHERE guild_id = :guild_id AND user_id = :user_id",
            {"guild_id": guild_id, "user_id": user_id})
        return None if team_id is None else await self.get_team(team_id)

    async def get_team(self, team_id: int) -> Team | None:
        """The team with this id, with its members, or None."""
        row = await self.db.fetch_one("SELECT id, guild_id, name FROM teams WHERE id = :team_id", {"team_id": team_id})
        if row is None:
            return None
        rows = await self.db.fetch_all(
            "SELECT user_id FROM team_members WHERE team_id = :team_id ORDER BY joined_at, user_id",
            {"team_id": team_id})
        members = tuple(user_id for (user_id,) in rows)
        return Team(row[0], row[1], row[2], members)

    async def list_teams(self, guild_id: int) -> list[Team]:
        """The server's teams with their members, by name."""
        rows = await self.db.fetch_all("SELECT id FROM teams WHERE guild_id = :guild_id ORDER BY LOWER(name), id",
                                       {"guild_id": guild_id})
        ids = [team_id for (team_id,) in rows]
        return [team for team_id in ids if (team := await self.get_team(team_id)) is not None]

    # --- matches -----------------------------------------------------------------------

    async def create_match(self, new: NewMatch, now: float) -> Match:
        """Open a match (status lobby)."""
        match_id = await self.db.insert(
            "INSERT INTO matches (guild_id, channel_id, host_id, game, options, target, teams, undo, seed, "
            "created_at, last_activity) VALUES (:guild_id, :channel_id, :host_id, :game, :options, :target, :teams, "
            ":undo, :seed, :now, :now)",
            {"guild_id": new.guild_id, "channel_id": new.channel_id, "host_id": new.host_id, "game": new.game,
             "options": json.dumps(new.options, sort_keys=True), "target": new.target, "teams": int(new.teams),
             "undo": int(new.undo), "seed": new.seed, "now": now})
        match = await self.get_match(match_id)
        assert match is not None
        return match

    async def get_match(self, match_id: int) -> Match | None:
        """The match with this id, or None."""
        row = await self.db.fetch_one(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = :match_id",
                                      {"match_id": match_id})
        return _match(row) if row else None

    async def set_match_message(self, match_id: int, message_id: int) -> None:
        """Remember the match's lobby and scoreboard message."""
        await self.db.execute("UPDATE matches SET message_id = :message_id WHERE id = :match_id",
                              {"message_id": message_id, "match_id": match_id})

    async def add_match_player(self, match_id: int, user_id: int, team_id: int | None, now: float) -> None:
        """Put a player in a match (again, if they had left)."""
        async with self.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO match_players (match_id, user_id, team_id, joined_at) "
                "VALUES (:match_id, :user_id, :team_id, :now) "
                "ON CONFLICT (match_id, user_id) DO UPDATE SET left_at = NULL, team_id = excluded.team_id",
                {"match_id": match_id, "user_id": user_id, "team_id": team_id, "now": now})
            await tx.execute("UPDATE matches SET last_activity = :now WHERE id = :match_id",
                             {"now": now, "match_id": match_id})

    async def leave_match(self, match_id: int, user_id: int, now: float) -> None:
        """Mark a player as gone from a match."""
        await self.db.execute(
            "UPDATE match_players SET left_at = :now WHERE match_id = :match_id AND user_id = :user_id",
            {"now": now, "match_id": match_id, "user_id": user_id})

    async def match_players(self, match_id: int) -> list[MatchPlayer]:
        """The match's players with the points and rounds of their finished rounds."""
        rows = await self.db.fetch_all(
            "SELECT mp.user_id, COALESCE(p.name, CAST(mp.user_id AS TEXT)), mp.team_id, "
            "  (SELECT COALESCE(SUM(g.score), 0) FROM games g WHERE g.match_id = mp.match_id "
            "     AND g.user_id = mp.user_id AND g.status != 'playing' AND g.closed = 0), "
            "  (SELECT COUNT(*) FROM games g WHERE g.match_id = mp.match_id "
            "     AND g.user_id = mp.user_id AND g.status != 'playing' AND g.closed = 0), "
            "  mp.left_at IS NOT NULL, "
            "  (SELECT g.id FROM games g WHERE g.match_id = mp.match_id AND g.user_id = mp.user_id "
            "     AND g.status = 'playing' ORDER BY g.id DESC LIMIT 1) "
            "FROM match_players mp LEFT JOIN players p ON p.user_id = mp.user_id "
            "WHERE mp.match_id = :match_id ORDER BY mp.joined_at, mp.user_id",
            {"match_id": match_id},
        )
        return [MatchPlayer(user_id=row[0], name=row[1], team_id=row[2], points=row[3], rounds=row[4],
                            left=bool(row[5]), game_id=row[6]) for row in rows]

    async def change_match_status(self, match_id: int, old: str, new: str, now: float,
                                  winner_user_id: int | None = None, winner_team_id: int | None = None) -> bool:
        """Move a match from status `old` to `new` (with its winner); False, and nothing
        written, when it is no longer in `old` (so only one caller can finish a match)."""
        started = now if new == "running" else None
        finished = now if new in ("finished", "cancelled", "expired") else None
        changed = await self.db.execute(
            "UPDATE matches SET status = :new, started_at = COALESCE(:started, started_at), "
            "finished_at = COALESCE(:finished, finished_at), "
            "winner_user_id = COALESCE(:winner_user_id, winner_user_id), "
            "winner_team_id = COALESCE(:winner_team_id, winner_team_id), last_activity = :now "
            "WHERE id = :match_id AND status = :old",
            {"new": new, "started": started, "finished": finished, "winner_user_id": winner_user_id,
             "winner_team_id": winner_team_id, "now": now, "match_id": match_id, "old": old})
        return changed == 1

    async def close_match_rounds(self, match_id: int, now: float) -> list[int]:
        """End the match's rounds still in play as resigned and closed (scored nowhere); their ids."""
        rows = await self.db.fetch_all(
            "SELECT id FROM games WHERE match_id = :match_id AND status = 'playing' ORDER BY id",
            {"match_id": match_id})
        closed = []
        for (game_id,) in rows:
            # One version on, as any change: a move racing this one finds the game changed.
            if await self.db.execute(
                    "UPDATE games SET status = 'resigned', closed = 1, version = version + 1, updated_at = :now, "
                    "finished_at = :now WHERE id = :game_id AND status = 'playing'",
                    {"now": now, "game_id": game_id}) == 1:
                closed.append(game_id)
        return closed

    async def touch_match(self, match_id: int, now: float) -> None:
        """Note activity in a match (a move in one of its rounds)."""
        await self.db.execute("UPDATE matches SET last_activity = :now WHERE id = :match_id",
                              {"now": now, "match_id": match_id})

    async def idle_matches(self, before: float) -> list[Match]:
        """Matches in the lobby or running with no activity since `before`."""
        rows = await self.db.fetch_all(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE {_IDLE}", {"before": before})
        return [_match(row) for row in rows]

    async def expire_match(self, match_id: int, before: float, now: float) -> bool:
        """Expire a match still idle since `before`; False when it moved meanwhile or ended."""
        return await self.db.execute(
            f"UPDATE matches SET status = 'expired', finished_at = :now, last_activity = :now WHERE id = :match_id "
            f"AND {_IDLE}", {"now": now, "match_id": match_id, "before": before}) == 1

    async def lobby_of(self, channel_id: int, host_id: int) -> Match | None:
        """The match a host has in its lobby in a channel, if any."""
        row = await self.db.fetch_one(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel_id = :channel_id AND host_id = :host_id "
            "AND status = 'lobby' ORDER BY id DESC LIMIT 1", {"channel_id": channel_id, "host_id": host_id})
        return _match(row) if row else None


def _match(row: Any) -> Match:
    (match_id, guild_id, channel_id, host_id, game, options, target, teams, undo, seed, status, message_id,
     winner_user_id, winner_team_id, created_at, started_at, finished_at, last_activity) = row
    try:
        parsed = json.loads(options)
    except (TypeError, ValueError):
        parsed = {}
    return Match(id=match_id, guild_id=guild_id, channel_id=channel_id, host_id=host_id, game=game,
                 options=parsed if isinstance(parsed, dict) else {}, target=target, teams=bool(teams),
                 undo=bool(undo), seed=seed, status=status, message_id=message_id, winner_user_id=winner_user_id,
                 winner_team_id=winner_team_id, created_at=created_at, started_at=started_at,
                 finished_at=finished_at, last_activity=last_activity)
