"""The store of teams and matches."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import ColumnElement, Text, cast, delete, exists, func, select, update

from bot.store.base import Match, MatchPlayer, NewMatch, Team, TeamError, TeamProblem
from bot.store.databases import Database, DuplicateRow, Row, total
from bot.store.tables import games, match_players, matches, players, team_members, teams

_MATCH_COLUMNS = (matches.c.id, matches.c.guild_id, matches.c.channel_id, matches.c.host_id, matches.c.game,
                  matches.c.options, matches.c.target, matches.c.teams, matches.c.undo, matches.c.seed,
                  matches.c.status, matches.c.message_id, matches.c.winner_user_id, matches.c.winner_team_id,
                  matches.c.created_at, matches.c.started_at, matches.c.finished_at, matches.c.last_activity)


def scored_rounds(match_id: ColumnElement[Any], user_id: ColumnElement[Any]) -> tuple[ColumnElement[bool], ...]:
    """What picks a player's rounds that count in a match (its points and rounds): the games of
    that match and player that ended, except those its end closed."""
    return (games.c.match_id == match_id, games.c.user_id == user_id, games.c.status != "playing",
            games.c.closed == 0)


def _idle(before: float) -> ColumnElement[bool]:
    """A match nobody has touched since `before`: in its lobby or running, no activity, and no
    move in any of its rounds."""
    return (matches.c.status.in_(("lobby", "running")) & (matches.c.last_activity < before)
            & ~exists().where(games.c.match_id == matches.c.id, games.c.updated_at >= before))


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
                team_id = await tx.insert(teams.insert().values(guild_id=guild_id, name=name, created_by=user_id,
                                                                created_at=now))
                await tx.execute(team_members.insert().values(guild_id=guild_id, user_id=user_id, team_id=team_id,
                                                              joined_at=now))
        except DuplicateRow:
            raise TeamError(TeamProblem.NAME_TAKEN, name) from None
        team = await self.get_team(team_id)
        assert team is not None
        return team

    async def join_team(self, guild_id: int, name: str, user_id: int) -> Team:
        """Put a member in a team; TeamError if there is no such team or they are in another."""
        team_id = await self.db.fetch_value(
            select(teams.c.id).where(teams.c.guild_id == guild_id, func.lower(teams.c.name) == func.lower(name)))
        if team_id is None:
            raise TeamError(TeamProblem.NO_SUCH_TEAM, name)
        current = await self.team_of(guild_id, user_id)
        if current is not None:
            if current.id == team_id:
                return current
            raise TeamError(TeamProblem.IN_A_TEAM, current.name)
        try:
            await self.db.execute(team_members.insert().values(guild_id=guild_id, user_id=user_id, team_id=team_id,
                                                               joined_at=self.clock()))
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
            await tx.execute(delete(team_members).where(team_members.c.guild_id == guild_id,
                                                        team_members.c.user_id == user_id))
            # A team left empty goes, unless it has a history: that stays, for the leaderboards.
            await tx.execute(delete(teams).where(
                teams.c.id == team.id,
                ~exists().where(team_members.c.team_id == team.id),
                ~exists().where(match_players.c.team_id == team.id),
                ~exists().where(matches.c.winner_team_id == team.id)))
        return team

    async def team_of(self, guild_id: int, user_id: int) -> Team | None:
        """The member's team on this server, or None."""
        team_id = await self.db.fetch_value(select(team_members.c.team_id).where(
            team_members.c.guild_id == guild_id, team_members.c.user_id == user_id))
        return None if team_id is None else await self.get_team(team_id)

    async def get_team(self, team_id: int) -> Team | None:
        """The team with this id, with its members, or None."""
        row = await self.db.fetch_one(select(teams.c.id, teams.c.guild_id, teams.c.name).where(teams.c.id == team_id))
        if row is None:
            return None
        members = await self.db.fetch_mappings(select(team_members.c.user_id).where(team_members.c.team_id == team_id)
                                               .order_by(team_members.c.joined_at, team_members.c.user_id))
        return Team(row.id, row.guild_id, row.name, tuple(member["user_id"] for member in members))

    async def list_teams(self, guild_id: int) -> list[Team]:
        """The server's teams with their members, by name."""
        rows = await self.db.fetch_all(select(teams.c.id).where(teams.c.guild_id == guild_id)
                                       .order_by(func.lower(teams.c.name), teams.c.id))
        return [team for row in rows if (team := await self.get_team(row.id)) is not None]

    # --- matches -----------------------------------------------------------------------

    async def create_match(self, new: NewMatch, now: float) -> Match:
        """Open a match (status lobby)."""
        match_id = await self.db.insert(matches.insert().values(
            guild_id=new.guild_id, channel_id=new.channel_id, host_id=new.host_id, game=new.game,
            options=json.dumps(new.options, sort_keys=True), target=new.target, teams=int(new.teams),
            undo=int(new.undo), seed=new.seed, created_at=now, last_activity=now))
        match = await self.get_match(match_id)
        assert match is not None
        return match

    async def get_match(self, match_id: int) -> Match | None:
        """The match with this id, or None."""
        row = await self.db.fetch_one(select(*_MATCH_COLUMNS).where(matches.c.id == match_id))
        return _match(row) if row else None

    async def set_match_message(self, match_id: int, message_id: int) -> None:
        """Remember the match's lobby and scoreboard message."""
        await self.db.execute(update(matches).where(matches.c.id == match_id).values(message_id=message_id))

    async def add_match_player(self, match_id: int, user_id: int, team_id: int | None, now: float) -> None:
        """Put a player in a match (again, if they had left)."""
        insert = self.db.upsert(match_players).values(match_id=match_id, user_id=user_id, team_id=team_id,
                                                       joined_at=now)
        async with self.db.transaction() as tx:
            await tx.execute(insert.on_conflict_do_update(
                index_elements=[match_players.c.match_id, match_players.c.user_id],
                set_={"left_at": None, "team_id": insert.excluded.team_id}))
            await tx.execute(update(matches).where(matches.c.id == match_id).values(last_activity=now))

    async def leave_match(self, match_id: int, user_id: int, now: float) -> None:
        """Mark a player as gone from a match."""
        await self.db.execute(update(match_players).where(
            match_players.c.match_id == match_id, match_players.c.user_id == user_id).values(left_at=now))

    async def match_players(self, match_id: int) -> list[MatchPlayer]:
        """The match's players with the points and rounds of their finished rounds."""
        theirs = (games.c.match_id == match_players.c.match_id, games.c.user_id == match_players.c.user_id)
        scored = scored_rounds(match_players.c.match_id, match_players.c.user_id)
        rows = await self.db.fetch_mappings(
            select(match_players.c.user_id,
                   func.coalesce(players.c.name, cast(match_players.c.user_id, Text)).label("name"),
                   match_players.c.team_id,
                   select(func.coalesce(total(games.c.score), 0)).where(*scored).scalar_subquery().label("points"),
                   select(func.count()).select_from(games).where(*scored).scalar_subquery().label("rounds"),
                   match_players.c.left_at.is_not(None).label("left"),
                   select(games.c.id).where(*theirs, games.c.status == "playing")
                   .order_by(games.c.id.desc()).limit(1).scalar_subquery().label("game_id"))
            .select_from(match_players.outerjoin(players, players.c.user_id == match_players.c.user_id))
            .where(match_players.c.match_id == match_id)
            .order_by(match_players.c.joined_at, match_players.c.user_id))
        return [MatchPlayer(user_id=row["user_id"], name=row["name"], team_id=row["team_id"], points=row["points"],
                            rounds=row["rounds"], left=bool(row["left"]), game_id=row["game_id"]) for row in rows]

    async def change_match_status(self, match_id: int, old: str, new: str, now: float,
                                  winner_user_id: int | None = None, winner_team_id: int | None = None) -> bool:
        """Move a match from status `old` to `new` (with its winner); False, and nothing
        written, when it is no longer in `old` (so only one caller can finish a match)."""
        values: dict[str, object] = {"status": new, "last_activity": now}
        if new == "running":
            values["started_at"] = now
        if new in ("finished", "cancelled", "expired"):
            values["finished_at"] = now
        if winner_user_id is not None:
            values["winner_user_id"] = winner_user_id
        if winner_team_id is not None:
            values["winner_team_id"] = winner_team_id
        changed = await self.db.execute(
            update(matches).where(matches.c.id == match_id, matches.c.status == old).values(values))
        return changed == 1

    async def close_match_rounds(self, match_id: int, now: float) -> list[int]:
        """End the match's rounds still in play as resigned and closed (scored nowhere); their ids."""
        rows = await self.db.fetch_all(select(games.c.id).where(games.c.match_id == match_id,
                                                                games.c.status == "playing").order_by(games.c.id))
        closed = []
        for row in rows:
            # One version on, as any change: a move racing this one finds the game changed.
            if await self.db.execute(
                    update(games).where(games.c.id == row.id, games.c.status == "playing").values(
                        status="resigned", closed=1, version=games.c.version + 1, updated_at=now,
                        finished_at=now)) == 1:
                closed.append(row.id)
        return closed

    async def touch_match(self, match_id: int, now: float) -> None:
        """Note activity in a match (a move in one of its rounds)."""
        await self.db.execute(update(matches).where(matches.c.id == match_id).values(last_activity=now))

    async def idle_matches(self, before: float) -> list[Match]:
        """Matches in the lobby or running with no activity since `before`."""
        rows = await self.db.fetch_all(select(*_MATCH_COLUMNS).where(_idle(before)))
        return [_match(row) for row in rows]

    async def expire_match(self, match_id: int, before: float, now: float) -> bool:
        """Expire a match still idle since `before`; False when it moved meanwhile or ended."""
        return await self.db.execute(
            update(matches).where(matches.c.id == match_id, _idle(before))
            .values(status="expired", finished_at=now, last_activity=now)) == 1

    async def lobby_of(self, channel_id: int, host_id: int) -> Match | None:
        """The match a host has in its lobby in a channel, if any."""
        row = await self.db.fetch_one(
            select(*_MATCH_COLUMNS).where(matches.c.channel_id == channel_id, matches.c.host_id == host_id,
                                          matches.c.status == "lobby").order_by(matches.c.id.desc()).limit(1))
        return _match(row) if row else None


def _match(row: Row) -> Match:
    """A match from its row (_MATCH_COLUMNS)."""
    match = row._mapping  # by name, and cheaply (Statements.fetch_mappings)
    try:
        options = json.loads(match["options"])
    except (TypeError, ValueError):
        options = {}
    return Match(id=match["id"], guild_id=match["guild_id"], channel_id=match["channel_id"],
                 host_id=match["host_id"], game=match["game"], options=options if isinstance(options, dict) else {},
                 target=match["target"], teams=bool(match["teams"]), undo=bool(match["undo"]), seed=match["seed"],
                 status=match["status"], message_id=match["message_id"], winner_user_id=match["winner_user_id"],
                 winner_team_id=match["winner_team_id"], created_at=match["created_at"],
                 started_at=match["started_at"], finished_at=match["finished_at"],
                 last_activity=match["last_activity"])
