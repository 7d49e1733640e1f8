"""The store of games and their players' names."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.store.base import STATUSES, NewGame, StoredGame, StoreError, VersionConflict
from bot.store.databases import Database

_GAME_COLUMNS = ("id, guild_id, channel_id, user_id, name, options, deal, cards, moves, snapshot, version, status, "
                 "score, created_at, updated_at, kind, match_id, round, undo_allowed, finished_at")


class GameStore:
    """Games (solo, match rounds, dailies) and the display names of the players."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock  # every time this store writes comes from here

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game (version 0, status playing) and return it."""
        now = self.clock()
        row = await self.db.fetch_one(
            "INSERT INTO games (guild_id, channel_id, user_id, name, options, deal, cards, snapshot, score, "
            "created_at, updated_at, kind, match_id, round, undo_allowed) "
            "VALUES (:guild_id, :channel_id, :user_id, :name, :options, :deal, :cards, :snapshot, :score, :now, :now, "
            f":kind, :match_id, :round, :undo_allowed) RETURNING {_GAME_COLUMNS}",
            {"guild_id": new.guild_id, "channel_id": new.channel_id, "user_id": new.user_id, "name": new.name,
             "options": json.dumps(new.options, sort_keys=True), "deal": new.deal, "cards": new.cards,
             "snapshot": new.snapshot, "score": new.score, "now": now, "kind": new.kind, "match_id": new.match_id,
             "round": new.round, "undo_allowed": int(new.undo_allowed)},
        )
        assert row is not None
        return _game(row)

    async def get_game(self, game_id: int) -> StoredGame | None:
        """The game with this id, or None."""
        row = await self.db.fetch_one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = :game_id",
                                      {"game_id": game_id})
        return _game(row) if row else None

    async def running_game(self, user_id: int, channel_id: int | None, kind: str | None = None
                           ) -> StoredGame | None:
        """The game in play of this player in this channel that moved last (of one kind, if
        given), or None."""
        row = await self.db.fetch_one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE user_id = :user_id "
            "AND (channel_id = :channel_id OR (channel_id IS NULL AND CAST(:channel_id AS BIGINT) IS NULL)) "
            "AND status = 'playing' AND (CAST(:kind AS TEXT) IS NULL OR kind = :kind) "
            "ORDER BY updated_at DESC, id DESC LIMIT 1",
            {"user_id": user_id, "channel_id": channel_id, "kind": kind},
        )
        return _game(row) if row else None

    async def save_game(self, game_id: int, *, expected_version: int, moves: list[str], snapshot: str | None,
                        status: str, score: int) -> StoredGame:
        """Store the game's new moves and state, one version on (and when it ends, the time);
        VersionConflict when the stored version is not `expected_version` (nothing is written)."""
        if status not in STATUSES:
            raise StoreError(f"unknown game status {status!r}")
        now = self.clock()
        # One statement checks the version, writes, and gives back the row as written.
        row = await self.db.fetch_one(
            "UPDATE games SET moves = :moves, snapshot = :snapshot, status = :status, score = :score, "
            "version = version + 1, updated_at = :now, "
            "finished_at = CASE WHEN CAST(:status AS TEXT) = 'playing' THEN NULL ELSE COALESCE(finished_at, :now) END "
            f"WHERE id = :game_id AND version = :expected_version RETURNING {_GAME_COLUMNS}",
            {"moves": " ".join(moves), "snapshot": snapshot, "status": status, "score": score, "now": now,
             "game_id": game_id, "expected_version": expected_version},
        )
        if row is None:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
        return _game(row)

    async def count_hint(self, game_id: int) -> None:
        """Count one hint shown to the player of game `game_id` (its version stays: no move was played)."""
        await self.db.execute("UPDATE games SET hints = hints + 1 WHERE id = :game_id", {"game_id": game_id})

    async def round_game(self, match_id: int, round_number: int, user_id: int) -> StoredGame | None:
        """This player's game of round `round_number` of a match, or None."""
        row = await self.db.fetch_one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE match_id = :match_id AND round = :round "
            "AND user_id = :user_id ORDER BY id DESC LIMIT 1",
            {"match_id": match_id, "round": round_number, "user_id": user_id},
        )
        return _game(row) if row else None

    async def count_games(self) -> int:
        """How many games are stored."""
        return int(await self.db.fetch_value("SELECT COUNT(*) FROM games") or 0)

    async def all_games(self) -> list[StoredGame]:
        """Every stored game, by id (for checks and tools)."""
        return [_game(row) for row in await self.db.fetch_all(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")]

    async def upsert_player(self, user_id: int, name: str) -> None:
        """Remember a player's display name."""
        await self.db.execute(
            "INSERT INTO players (user_id, name, updated_at) VALUES (:user_id, :name, :now) "
            "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
            {"user_id": user_id, "name": name, "now": self.clock()},
        )

    async def player_names(self, user_ids: list[int]) -> dict[int, str]:
        """The known display names of these players."""
        names: dict[int, str] = {}
        for user_id in set(user_ids):
            name = await self.db.fetch_value("SELECT name FROM players WHERE user_id = :user_id",
                                             {"user_id": user_id})
            if name is not None:
                names[user_id] = name
        return names


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
