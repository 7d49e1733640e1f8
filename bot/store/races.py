"""The store of demon races."""

from __future__ import annotations

from collections.abc import Callable

from bot.store.base import NewRace, Race, RaceError, VersionConflict
from bot.store.databases import Database, DuplicateRow

_RACE_COLUMNS = ("id, guild_id, channel_id, host_id, layout, deal, status, moves, version, message_id, demon_user_id, "
                 "created_at, started_at, finished_at, target, series_id, hand")
MAX_SEATS = 8


class RaceStore:
    """Demon races and their players by seat."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock  # every time this store writes comes from here

    async def create_race(self, new: NewRace) -> Race:
        """A new race in its lobby, its host in seat 0."""
        now = self.clock()
        async with self.db.transaction() as tx:
            race_id = await tx.insert(
                "INSERT INTO races (guild_id, channel_id, host_id, layout, deal, target, created_at, last_activity) "
                "VALUES (:guild_id, :channel_id, :host_id, :layout, :deal, :target, :now, :now)",
                {"guild_id": new.guild_id, "channel_id": new.channel_id, "host_id": new.host_id, "layout": new.layout,
                 "deal": new.deal, "target": new.target, "now": now})
            await tx.execute("UPDATE races SET series_id = id WHERE id = :race_id", {"race_id": race_id})
            await tx.execute("INSERT INTO race_players (race_id, seat, user_id, joined_at) "
                             "VALUES (:race_id, 0, :user_id, :now)",
                             {"race_id": race_id, "user_id": new.host_id, "now": now})
        race = await self.get_race(race_id)
        assert race is not None
        return race

    async def get_race(self, race_id: int) -> Race | None:
        """A race with its players by seat, or None."""
        row = await self.db.fetch_one(f"SELECT {_RACE_COLUMNS} FROM races WHERE id = :race_id", {"race_id": race_id})
        if row is None:
            return None
        seats = await self.db.fetch_all(
            "SELECT user_id, score FROM race_players WHERE race_id = :race_id ORDER BY seat", {"race_id": race_id})
        (race_id, guild_id, channel_id, host_id, layout, deal, status, moves, version, message_id, demon, created,
         started, finished, target, series_id, hand) = row
        return Race(id=race_id, guild_id=guild_id, channel_id=channel_id, host_id=host_id, layout=layout, deal=deal,
                    status=status, moves=moves.split() if moves else [], version=version, message_id=message_id,
                    demon_user_id=demon, players=[user for user, _ in seats],
                    scores=[score for _, score in seats] if status == "finished" else [],
                    created_at=created, started_at=started, finished_at=finished, target=target,
                    series_id=series_id or race_id, hand=hand)

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
                await tx.execute(
                    "INSERT INTO race_players (race_id, seat, user_id, joined_at) "
                    "SELECT CAST(:race_id AS BIGINT), COUNT(*), :user_id, :now FROM race_players "
                    "WHERE race_id = :race_id",
                    {"race_id": race_id, "user_id": user_id, "now": self.clock()})
                await tx.execute("UPDATE races SET version = version + 1, last_activity = :now WHERE id = :race_id",
                                 {"now": self.clock(), "race_id": race_id})
        except DuplicateRow:  # two joins at once took the same seat: try once more
            return await self.join_race(race_id, user_id)
        race = await self.get_race(race_id)
        assert race is not None
        return race

    async def start_race(self, race_id: int) -> bool:
        """Lobby to running; False when it was not in its lobby."""
        now = self.clock()
        return await self.db.execute(
            "UPDATE races SET status = 'running', started_at = :now, last_activity = :now, version = version + 1 "
            "WHERE id = :race_id AND status = 'lobby'", {"now": now, "race_id": race_id}) == 1

    async def save_race_moves(self, race_id: int, *, expected_version: int, moves: list[str]) -> int:
        """Store a running race's moves; the new version; VersionConflict when it changed meanwhile."""
        changed = await self.db.execute(
            "UPDATE races SET moves = :moves, version = version + 1, last_activity = :now "
            "WHERE id = :race_id AND version = :expected_version AND status = 'running'",
            {"moves": " ".join(moves), "now": self.clock(), "race_id": race_id, "expected_version": expected_version})
        if changed != 1:
            raise VersionConflict(f"race {race_id} changed meanwhile")
        return expected_version + 1

    async def finish_race(self, race_id: int, *, demon_user_id: int | None, scores: list[int],
                          version: int | None = None) -> bool:
        """Running to finished with every seat's score; False when it was not running (or had
        changed since `version`, when given)."""
        now = self.clock()
        async with self.db.transaction() as tx:
            if await tx.execute(
                    "UPDATE races SET status = 'finished', finished_at = :now, last_activity = :now, "
                    "demon_user_id = :demon_user_id, version = version + 1 WHERE id = :race_id AND status = 'running' "
                    "AND (CAST(:version AS BIGINT) IS NULL OR version = :version)",
                    {"now": now, "demon_user_id": demon_user_id, "race_id": race_id, "version": version}) != 1:
                return False
            await tx.execute_many("UPDATE race_players SET score = :score WHERE race_id = :race_id AND seat = :seat",
                                  [{"score": score, "race_id": race_id, "seat": seat}
                                   for seat, score in enumerate(scores)])
        return True

    async def next_hand(self, race: Race, deal: int) -> Race:
        """The next hand of a series: the same players and seats, running at once."""
        now = self.clock()
        async with self.db.transaction() as tx:
            race_id = await tx.insert(
                "INSERT INTO races (guild_id, channel_id, host_id, layout, deal, status, message_id, target, "
                "series_id, hand, created_at, started_at, last_activity) "
                "VALUES (:guild_id, :channel_id, :host_id, :layout, :deal, 'running', :message_id, :target, "
                ":series_id, :hand, :now, :now, :now)",
                {"guild_id": race.guild_id, "channel_id": race.channel_id, "host_id": race.host_id,
                 "layout": race.layout, "deal": deal, "message_id": race.message_id, "target": race.target,
                 "series_id": race.series_id, "hand": race.hand + 1, "now": now})
            await tx.execute_many(
                "INSERT INTO race_players (race_id, seat, user_id, joined_at) VALUES (:race_id, :seat, :user_id, :now)",
                [{"race_id": race_id, "seat": seat, "user_id": user, "now": now}
                 for seat, user in enumerate(race.players)])
        hand = await self.get_race(race_id)
        assert hand is not None
        return hand

    async def series_totals(self, series_id: int) -> dict[int, int]:
        """Each player's points over the finished hands of a series."""
        rows = await self.db.fetch_all(
            "SELECT p.user_id, SUM(p.score) FROM race_players p JOIN races r ON r.id = p.race_id "
            "WHERE r.series_id = :series_id AND r.status = 'finished' GROUP BY p.user_id", {"series_id": series_id})
        return {user: total for user, total in rows}

    async def cancel_race(self, race_id: int, *, version: int | None = None) -> bool:
        """Lobby to cancelled; False when it had started or ended (or had changed since
        `version`, when given)."""
        return await self.db.execute(
            "UPDATE races SET status = 'cancelled', last_activity = :now, version = version + 1 "
            "WHERE id = :race_id AND status = 'lobby' AND (CAST(:version AS BIGINT) IS NULL OR version = :version)",
            {"now": self.clock(), "race_id": race_id, "version": version}) == 1

    async def idle_races(self, before: float) -> list[Race]:
        """Races in their lobby or running that have not changed since `before`."""
        ids = await self.db.fetch_all(
            "SELECT id FROM races WHERE status IN ('lobby', 'running') AND last_activity < :before ORDER BY id",
            {"before": before})
        races = [await self.get_race(race_id) for race_id, in ids]
        return [race for race in races if race is not None]

    async def set_race_message(self, race_id: int, message_id: int) -> None:
        """Remember the race's public board message."""
        await self.db.execute("UPDATE races SET message_id = :message_id WHERE id = :race_id",
                              {"message_id": message_id, "race_id": race_id})

    async def running_race(self, channel_id: int, user_id: int) -> Race | None:
        """The race a player is in (lobby or running) in a channel."""
        race_id = await self.db.fetch_value(
            "SELECT r.id FROM races r JOIN race_players p ON p.race_id = r.id WHERE r.channel_id = :channel_id "
            "AND p.user_id = :user_id AND r.status IN ('lobby', 'running') ORDER BY r.id DESC LIMIT 1",
            {"channel_id": channel_id, "user_id": user_id})
        return None if race_id is None else await self.get_race(race_id)
