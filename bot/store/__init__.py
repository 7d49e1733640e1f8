"""Persistence in a store per aggregate (games, matches, races, stats) on one database: SQLite
(aiosqlite) by default, PostgreSQL (asyncpg) for several processes sharing one database."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from bot.store.base import NewGame, StoredGame, StoreError, VersionConflict
from bot.store.sql import PostgresStore, SqliteStore, Store

DEFAULT_DATABASE_URL = "sqlite:///data/patient-exorcism.sqlite3"

__all__ = ["DEFAULT_DATABASE_URL", "NewGame", "PostgresStore", "SqliteStore", "Store", "StoreError",
           "StoredGame", "VersionConflict", "open_store", "sqlite_path", "store_for"]


def store_for(url: str, clock: Callable[[], float] = time.time) -> Store:
    """The store a DATABASE_URL names: `sqlite:///relative/path`, `sqlite:////absolute/path`,
    a bare file path, or `postgresql://user@host:port/database`. StoreError for anything else."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url, clock)
    path = sqlite_path(url)
    if path is None:
        raise StoreError(f"DATABASE_URL {url.split('://')[0]}:// is not supported; use sqlite:///path/file "
                         "or postgresql://user@host/database")
    return SqliteStore(path, clock)


def sqlite_path(url: str) -> Path | None:
    """The SQLite file a DATABASE_URL names (`sqlite:///path` or a bare path); None for any other URL."""
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///"))
    return None if "://" in url else Path(url)


async def open_store(url: str = DEFAULT_DATABASE_URL, clock: Callable[[], float] = time.time) -> Store:
    """Open the store a DATABASE_URL names, with its migrations applied; `clock` stamps its writes."""
    store = store_for(url, clock)
    await store.open()
    return store
