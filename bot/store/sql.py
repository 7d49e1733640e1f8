"""The store in SQL: Alembic migrations, and queries as SQLAlchemy Core expressions, on SQLite or PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import column, select, table

from bot.store.databases import Database, PostgresDatabase, SqliteDatabase
from bot.store.games import GameStore
from bot.store.matches import MatchStore
from bot.store.races import RaceStore
from bot.store.ritual import RitualStore
from bot.store.stats import StatsStore


class Store:
    """One SQL database (SQLite or PostgreSQL: bot/store/databases.py tells them apart), opened and
    closed here, and a store per aggregate on it: `games` (games and players' names), `matches`
    (teams and matches), `races`, `stats` (dailies, leaderboards, stats and server settings) and
    `ritual` (the daily posts and reminders)."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.games = GameStore(db, clock)  # every time the stores write comes from `clock`
        self.matches = MatchStore(db, clock)
        self.races = RaceStore(db, clock)
        self.stats = StatsStore(db, clock)
        self.ritual = RitualStore(db, clock)

    @property
    def dialect(self) -> str:
        """"sqlite" or "postgresql"."""
        return self.db.dialect

    async def open(self) -> None:
        """Connect and apply pending migrations."""
        await self.db.open()
        try:
            await self.db.upgrade()
        except BaseException:
            await self.db.close()
            raise

    async def close(self) -> None:
        """Disconnect."""
        await self.db.close()

    async def schema_version(self) -> str | None:
        """The database's Alembic revision, or None before any."""
        return await self.db.fetch_value(select(column("version_num")).select_from(table("alembic_version")))


class SqliteStore(Store):
    """The store in one SQLite file (WAL mode): the embedded default."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        super().__init__(SqliteDatabase(self.path), clock)


class PostgresStore(Store):
    """The store in a PostgreSQL database that several bot processes share."""

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        super().__init__(PostgresDatabase(url), clock)
