"""The answer to an action on a game, whatever the front end and whatever the game's kind (solo, a
match's round, a daily, a watched board): a Reply, with where the game stands (GameStatus) and how
its deal is named (DealLabel)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.game import Game, Move
    from bot.play.events import Event


class GameStatus(StrEnum):
    """Where a game stands; the store keeps the value."""

    PLAYING = "playing"
    WON = "won"
    BLOCKED = "blocked"
    RESIGNED = "resigned"


@dataclass(frozen=True, slots=True)
class DealLabel:
    """How a game's deal is named wherever it is shown: a daily by its `day`, a match's round by
    its `match_id` and `round` (their PySolFC numbers would let anyone deal them elsewhere, see
    bot/play/secrecy.py), any other game by its `number` (None with the rest: a fixed deck)."""

    number: int | None = None
    day: str | None = None
    match_id: int | None = None
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to one action: the game after it (a private copy, safe to render in another
    thread), what happened (events, in order: Started, Moved, Ended, a finish hook's…), and what
    to outline on the board."""

    game_id: int
    version: int
    status: GameStatus
    game: Game
    events: tuple[Event, ...] = ()
    ok: bool = True
    played: list[Move] = field(default_factory=list)
    highlight: Move | None = None
    stale: bool = False
    started: bool = False
    kind: str = "solo"
    match_id: int | None = None
    round: int | None = None
    undo_allowed: bool = True
    user_id: int = 0  # whose game it is
    channel_id: int | None = None  # where it is played (None: outside any channel)
    label: DealLabel = DealLabel()  # how its deal is named

    @property
    def finished(self) -> bool:
        """Whether the game has ended (won, blocked or resigned)."""
        return self.status != GameStatus.PLAYING
