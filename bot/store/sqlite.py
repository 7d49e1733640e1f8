"""The SQLite store (aiosqlite): numbered migrations, WAL mode, parameterised queries only."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import STATUSES, NewGame, StoredGame, StoreError, VersionConflict
from bot.store.sqlite_matches import MatchQueries
from bot.store.sqlite_races import RaceQueries
from bot.store.sqlite_stats import StatsQueries

_GAME_COLUMNS = ("id, guild_id, channel_id, user_id, name, options, deal, cards, moves, snapshot, version, status, "
                 "score, created_at, updated_at, kind, match_id, round, undo_allowed, finished_at")


def migrations() -> list[tuple[int, str, str]]:
    """The migration files as (number, name, SQL), in order."""
    folder = resources.files("bot.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


class SqliteStore(MatchQueries, RaceQueries, StatsQueries):
    """Games, players, settings, teams, matches and daily attempts in one SQLite file."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock  # every time the store writes comes from here
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> None:
        """Open the file (creating its folder), switch to WAL and apply pending migrations."""
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path)
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self._migrate()

    async def close(self) -> None:
        """Close the connection."""
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        async with self.db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    async def _migrate(self) -> None:
        await self.db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
            "applied_at REAL NOT NULL)"
        )
        current = await self.schema_version()
        for number, name, sql in migrations():
            if number <= current:
                continue
            # The migration and its record go in one transaction: both or neither.
            await self.db.executescript("BEGIN;\n" + sql)
            await self.db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (number, name, self.clock()),
            )
            await self.db.commit()

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game and return it."""
        now = self.clock()
        cursor = await self.db.execute(
            "INSERT INTO games (guild_id, channel_id, user_id, name, options, deal, cards, snapshot, score, "
            "created_at, updated_at, kind, match_id, round, undo_allowed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (new.guild_id, new.channel_id, new.user_id, new.name, json.dumps(new.options, sort_keys=True),
             new.deal, new.cards, new.snapshot, new.score, now, now, new.kind, new.match_id, new.round,
             int(new.undo_allowed)),
        )
        await self.db.commit()
        game = await self.get_game(int(cursor.lastrowid or 0))
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> StoredGame | None:
        """The game with this id, or None."""
        async with self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return _game(row) if row else None

    async def running_game(self, user_id: int, channel_id: int | None, kind: str | None = None
                           ) -> StoredGame | None:
        """The game in play of this player in this channel that moved last (of one kind)."""
        async with self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE user_id = ? AND channel_id IS ? AND status = 'playing' "
            "AND (? IS NULL OR kind = ?) ORDER BY updated_at DESC, id DESC LIMIT 1",
            (user_id, channel_id, kind, kind),
        ) as cursor:
            row = await cursor.fetchone()
        return _game(row) if row else None

    async def save_game(self, game_id: int, *, expected_version: int, moves: list[str], snapshot: str | None,
                        status: str, score: int) -> StoredGame:
        """Write the new state if the stored version is the expected one; one version on."""
        if status not in STATUSES:
            raise StoreError(f"unknown game status {status!r}")
        now = self.clock()
        cursor = await self.db.execute(
            "UPDATE games SET moves = ?, snapshot = ?, status = ?, score = ?, version = version + 1, updated_at = ?, "
            "finished_at = CASE WHEN ? = 'playing' THEN NULL ELSE COALESCE(finished_at, ?) END "
            "WHERE id = ? AND version = ?",
            (" ".join(moves), snapshot, status, score, now, status, now, game_id, expected_version),
        )
        await self.db.commit()
        if cursor.rowcount != 1:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def count_games(self) -> int:
        """How many games are stored."""
        async with self.db.execute("SELECT COUNT(*) FROM games") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def upsert_player(self, user_id: int, name: str) -> None:
        """Remember a player's display name."""
        await self.db.execute(
            "INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
            (user_id, name, self.clock()),
        )
        await self.db.commit()

    async def get_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings."""
        async with self.db.execute("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
            return {key: value for key, value in await cursor.fetchall()}

    async def set_setting(self, guild_id: int, key: str, value: str) -> None:
        """Change one of a server's settings."""
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, value),
        )
        await self.db.commit()


def _game(row: Any) -> StoredGame:
    (game_id, guild_id, channel_id, user_id, name, options, deal, cards, moves, snapshot, version, status, score,
     created_at, updated_at, kind, match_id, round_number, undo_allowed, finished_at) = row
    try:
        parsed_options = json.loads(options)
    except (TypeError, ValueError):
        parsed_options = None
    return StoredGame(
        id=game_id, guild_id=guild_id, channel_id=channel_id, user_id=user_id, name=name,
        options=parsed_options if isinstance(parsed_options, dict) else {"corrupt": options},
        deal=deal, cards=cards, moves=moves.split() if moves else [], snapshot=snapshot, version=version,
        status=status, score=score, created_at=created_at, updated_at=updated_at, kind=kind, match_id=match_id,
        round=round_number, undo_allowed=bool(undo_allowed), finished_at=finished_at,
    )
