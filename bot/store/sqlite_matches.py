"""Queries for teams and matches, mixed into SqliteStore."""

from __future__ import annotations

import aiosqlite


class MatchQueries:
    """Teams and matches; uses the store's open connection `self.db`."""

    db: aiosqlite.Connection
