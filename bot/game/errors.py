"""The engine's errors. Both are ValueErrors whose message quotes the bad input."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.game.moves import Move


class NotationError(ValueError):
    """Text that cannot be read as a card or a move, or that could mean more than one move.

    `token` is the part of the input at fault, as it was typed ("" when none was given).
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the current position.

    `played` holds the moves of the same input that were played before this one
    (a message of several moves stops at the first illegal one; the earlier ones stand).
    """

    def __init__(self, message: str, played: list[Move] | None = None) -> None:
        super().__init__(message)
        self.played: list[Move] = list(played or [])
