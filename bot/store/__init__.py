"""Persistence behind one repository interface; SQLite (aiosqlite) is the default."""

from __future__ import annotations

from pathlib import Path

from bot.store.base import NewGame, Store, StoredGame, StoreError, VersionConflict
from bot.store.sqlite import SqliteStore

DEFAULT_DATABASE_URL = "sqlite:///data/patient-exorcism.sqlite3"

__all__ = ["DEFAULT_DATABASE_URL", "NewGame", "SqliteStore", "Store", "StoreError", "StoredGame", "VersionConflict",
           "open_store"]


def store_for(url: str) -> Store:
    """The store a DATABASE_URL names: `sqlite:///relative/path`, `sqlite:////absolute/path`,
    or a bare file path. StoreError for anything else."""
    if url.startswith("sqlite:///"):
        return SqliteStore(Path(url.removeprefix("sqlite:///")))
    if "://" in url:
        raise StoreError(f"DATABASE_URL {url.split('://')[0]}:// is not supported here; use sqlite:///path/file")
    return SqliteStore(Path(url))


async def open_store(url: str = DEFAULT_DATABASE_URL) -> Store:
    """Open the store a DATABASE_URL names, with its migrations applied."""
    store = store_for(url)
    await store.open()
    return store
