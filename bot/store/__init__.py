"""Persistence behind one repository interface; SQLite (aiosqlite) is the default."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from bot.store.base import NewGame, Store, StoredGame, StoreError, VersionConflict
from bot.store.sqlite import SqliteStore

DEFAULT_DATABASE_URL = "sqlite:///data/patient-exorcism.sqlite3"

__all__ = ["DEFAULT_DATABASE_URL", "NewGame", "SqliteStore", "Store", "StoreError", "StoredGame", "VersionConflict",
           "open_store"]


def store_for(url: str, clock: Callable[[], float] = time.time) -> Store:
    """The store a DATABASE_URL names: `sqlite:///relative/path`, `sqlite:////absolute/path`,
    or a bare file path. StoreError for anything else."""
    if url.startswith("sqlite:///"):
        return SqliteStore(Path(url.removeprefix("sqlite:///")), clock)
    if "://" in url:
        raise StoreError(f"DATABASE_URL {url.split('://')[0]}:// is not supported here; use sqlite:///path/file")
    return SqliteStore(Path(url), clock)


async def open_store(url: str = DEFAULT_DATABASE_URL, clock: Callable[[], float] = time.time) -> Store:
    """Open the store a DATABASE_URL names, with its migrations applied; `clock` stamps its writes."""
    store = store_for(url, clock)
    await store.open()
    return store
