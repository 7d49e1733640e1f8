"""Queries for daily challenges, leaderboards and stats, mixed into SqliteStore."""

from __future__ import annotations

import aiosqlite


class StatsQueries:
    """Daily attempts, leaderboards and stats; uses the store's open connection `self.db`."""

    db: aiosqlite.Connection
