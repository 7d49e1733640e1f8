"""The store of demon races."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import BigInteger, Double, bindparam, func, literal, select, update

from bot.store.base import NewRace, Race, RaceError, VersionConflict
from bot.store.databases import Database, DuplicateRow, total
from bot.store.tables import race_players, races

_RACE_COLUMNS = (races.c.id, races.c.guild_id, races.c.channel_id, races.c.host_id, races.c.layout, races.c.deal,
                 races.c.status, races.c.moves, races.c.version, races.c.message_id, races.c.demon_user_id,
                 races.c.created_at, races.c.started_at, races.c.finished_at, races.c.target, races.c.series_id,
                 races.c.hand)
MAX_SEATS = 8
# A race's move, built once with named parameters (so that its cache key is worked out once too).
_SAVE_RACE_MOVES = (update(races).where(races.c.id == bindparam("race_id"), races.c.status == "running",
                                        races.c.version == bindparam("expected_version"))
                    .values(moves=bindparam("new_moves"), version=races.c.version + 1,
                            last_activity=bindparam("now")))


class RaceStore:
    """Demon races and their players by seat."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock  # every time this store writes comes from here

    async def create_race(self, new: NewRace) -> Race:
        """A new race in its lobby, its host in seat 0."""
        now = self.clock()
        async with self.db.transaction() as tx:
            race_id = await tx.insert(races.insert().values(
                guild_id=new.guild_id, channel_id=new.channel_id, host_id=new.host_id, layout=new.layout,
                deal=new.deal, target=new.target, created_at=now, last_activity=now))
            await tx.execute(update(races).where(races.c.id == race_id).values(series_id=races.c.id))
            await tx.execute(race_players.insert().values(race_id=race_id, seat=0, user_id=new.host_id,
                                                          joined_at=now))
        race = await self.get_race(race_id)
        assert race is not None
        return race

    async def get_race(self, race_id: int) -> Race | None:
        """A race with its players by seat, or None."""
        row = await self.db.fetch_one(select(*_RACE_COLUMNS).where(races.c.id == race_id))
        if row is None:
            return None
        seats = await self.db.fetch_mappings(select(race_players.c.user_id, race_players.c.score)
                                             .where(race_players.c.race_id == race_id).order_by(race_players.c.seat))
        race = row._mapping  # by name, and cheaply (Statements.fetch_mappings)
        return Race(id=race["id"], guild_id=race["guild_id"], channel_id=race["channel_id"], host_id=race["host_id"],
                    layout=race["layout"], deal=race["deal"], status=race["status"],
                    moves=race["moves"].split() if race["moves"] else [], version=race["version"],
                    message_id=race["message_id"], demon_user_id=race["demon_user_id"],
                    players=[seat["user_id"] for seat in seats],
                    scores=[seat["score"] for seat in seats] if race["status"] == "finished" else [],
                    created_at=race["created_at"], started_at=race["started_at"], finished_at=race["finished_at"],
                    target=race["target"], series_id=race["series_id"] or race["id"], hand=race["hand"])

    async def join_race(self, race_id: int, user_id: int) -> Race:
        """Seat a player in a race's lobby; RaceError when it is full or has started."""
        race = await self.get_race(race_id)
        if race is None or race.status != "lobby":
            raise RaceError()
        if user_id in race.players:
            return race
        if len(race.players) >= MAX_SEATS:
            raise RaceError(full=True, seats=MAX_SEATS)
        try:
            async with self.db.transaction() as tx:
                # The next seat is the number of seats taken, counted in the same statement.
                await tx.execute(race_players.insert().from_select(
                    ["race_id", "seat", "user_id", "joined_at"],
                    select(literal(race_id, BigInteger), func.count(), literal(user_id, BigInteger),
                           literal(self.clock(), Double)).where(race_players.c.race_id == race_id)))
                await tx.execute(update(races).where(races.c.id == race_id)
                                 .values(version=races.c.version + 1, last_activity=self.clock()))
        except DuplicateRow:  # two joins at once took the same seat: try once more
            return await self.join_race(race_id, user_id)
        race = await self.get_race(race_id)
        assert race is not None
        return race

    async def start_race(self, race_id: int) -> bool:
        """Lobby to running; False when it was not in its lobby."""
        now = self.clock()
        return await self.db.execute(
            update(races).where(races.c.id == race_id, races.c.status == "lobby")
            .values(status="running", started_at=now, last_activity=now, version=races.c.version + 1)) == 1

    async def save_race_moves(self, race_id: int, *, expected_version: int, moves: list[str]) -> int:
        """Store a running race's moves; the new version; VersionConflict when it changed meanwhile."""
        changed = await self.db.execute(_SAVE_RACE_MOVES, {"race_id": race_id, "expected_version": expected_version,
                                                            "new_moves": " ".join(moves), "now": self.clock()})
        if changed != 1:
            raise VersionConflict(f"race {race_id} changed meanwhile")
        return expected_version + 1

    async def finish_race(self, race_id: int, *, demon_user_id: int | None, scores: list[int],
                          version: int | None = None) -> bool:
        """Running to finished with every seat's score; False when it was not running (or had
        changed since `version`, when given)."""
        now = self.clock()
        finish = update(races).where(races.c.id == race_id, races.c.status == "running").values(
            status="finished", finished_at=now, last_activity=now, demon_user_id=demon_user_id,
            version=races.c.version + 1)
        if version is not None:
            finish = finish.where(races.c.version == version)
        async with self.db.transaction() as tx:
            if await tx.execute(finish) != 1:
                return False
            await tx.execute_many(
                update(race_players).where(race_players.c.race_id == bindparam("race"),
                                           race_players.c.seat == bindparam("at_seat"))
                .values(score=bindparam("seat_score")),
                [{"seat_score": score, "race": race_id, "at_seat": seat} for seat, score in enumerate(scores)])
        return True

    async def next_hand(self, race: Race, deal: int) -> Race:
        """The next hand of a series: the same players and seats, running at once."""
        now = self.clock()
        async with self.db.transaction() as tx:
            race_id = await tx.insert(races.insert().values(
                guild_id=race.guild_id, channel_id=race.channel_id, host_id=race.host_id, layout=race.layout,
                deal=deal, status="running", message_id=race.message_id, target=race.target,
                series_id=race.series_id, hand=race.hand + 1, created_at=now, started_at=now, last_activity=now))
            await tx.execute_many(race_players.insert(),
                                  [{"race_id": race_id, "seat": seat, "user_id": user, "joined_at": now}
                                   for seat, user in enumerate(race.players)])
        hand = await self.get_race(race_id)
        assert hand is not None
        return hand

    async def series_totals(self, series_id: int) -> dict[int, int]:
        """Each player's points over the finished hands of a series."""
        rows = await self.db.fetch_mappings(
            select(race_players.c.user_id, total(race_players.c.score).label("points"))
            .select_from(race_players.join(races, races.c.id == race_players.c.race_id))
            .where(races.c.series_id == series_id, races.c.status == "finished").group_by(race_players.c.user_id))
        return {row["user_id"]: row["points"] for row in rows}

    async def cancel_race(self, race_id: int, *, version: int | None = None) -> bool:
        """Lobby to cancelled; False when it had started or ended (or had changed since
        `version`, when given)."""
        cancel = update(races).where(races.c.id == race_id, races.c.status == "lobby").values(
            status="cancelled", last_activity=self.clock(), version=races.c.version + 1)
        if version is not None:
            cancel = cancel.where(races.c.version == version)
        return await self.db.execute(cancel) == 1

    async def idle_races(self, before: float) -> list[Race]:
        """Races in their lobby or running that have not changed since `before`."""
        ids = await self.db.fetch_all(select(races.c.id).where(races.c.status.in_(("lobby", "running")),
                                                               races.c.last_activity < before).order_by(races.c.id))
        found = [await self.get_race(row.id) for row in ids]
        return [race for race in found if race is not None]

    async def set_race_message(self, race_id: int, message_id: int) -> None:
        """Remember the race's public board message."""
        await self.db.execute(update(races).where(races.c.id == race_id).values(message_id=message_id))

    async def running_race(self, channel_id: int, user_id: int) -> Race | None:
        """The race a player is in (lobby or running) in a channel."""
        race_id = await self.db.fetch_value(
            select(races.c.id).select_from(races.join(race_players, race_players.c.race_id == races.c.id))
            .where(races.c.channel_id == channel_id, race_players.c.user_id == user_id,
                   races.c.status.in_(("lobby", "running"))).order_by(races.c.id.desc()).limit(1))
        return None if race_id is None else await self.get_race(race_id)
