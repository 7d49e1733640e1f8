"""The repository interface: what the play layer asks of storage, whatever the database."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

STATUSES = ("playing", "won", "blocked", "resigned")


class StoreError(Exception):
    """Storage failed or holds something it should not."""


class VersionConflict(StoreError):
    """The game changed since it was read: someone else's move came first."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: its deal, options and moves, with who plays it where."""

    id: int
    guild_id: int | None
    channel_id: int | None
    user_id: int
    name: str
    options: dict[str, Any]
    deal: int | None
    cards: str | None
    moves: list[str] = field(default_factory=list)
    snapshot: str | None = None
    version: int = 0
    status: str = "playing"
    score: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0


@dataclass(frozen=True, slots=True)
class NewGame:
    """What it takes to store a new game."""

    guild_id: int | None
    channel_id: int | None
    user_id: int
    name: str
    options: dict[str, Any]
    deal: int | None
    cards: str | None
    snapshot: str | None
    score: int


class Store(Protocol):
    """Persistence for games, players and server settings."""

    async def open(self) -> None:
        """Connect and bring the schema up to date."""

    async def close(self) -> None:
        """Disconnect."""

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game (version 0, status playing) and return it."""

    async def get_game(self, game_id: int) -> StoredGame | None:
        """The game with this id, or None."""

    async def running_game(self, user_id: int, channel_id: int | None) -> StoredGame | None:
        """The newest game still in play of this player in this channel, or None."""

    async def save_game(self, game_id: int, *, expected_version: int, moves: list[str], snapshot: str | None,
                        status: str, score: int) -> StoredGame:
        """Store the game's new moves and state, one version on; VersionConflict when the
        stored version is not `expected_version` (nothing is written then)."""

    async def count_games(self) -> int:
        """How many games are stored."""

    async def upsert_player(self, user_id: int, name: str) -> None:
        """Remember a player's display name."""

    async def get_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings."""

    async def set_setting(self, guild_id: int, key: str, value: str) -> None:
        """Change one of a server's settings."""
