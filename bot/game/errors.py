"""The engine's errors about moves. Both are ValueErrors whose message quotes the bad input,
and both are phrased (bot/game/phrases.py): `template` and `values` say them in any language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.game.phrases import Phrase, PhrasedError

if TYPE_CHECKING:
    from bot.game.moves import Move


class NotationError(PhrasedError):
    """Text that cannot be read as a card or a move, or that could mean more than one move.

    `token` is the part of the input at fault, as it was typed ("" when none was given).
    """

    def __init__(self, template: str | Phrase, /, token: str | None = None, **values: str | int | Phrase) -> None:
        """The error saying `template` filled with `values`; `token` is the input at fault."""
        super().__init__(template, **values)
        self.token = token


class IllegalMoveError(PhrasedError):
    """A move that the rules do not allow in the current position.

    `played` holds the moves of the same input that were played before this one
    (a message of several moves stops at the first illegal one; the earlier ones stand).
    """

    def __init__(self, template: str | Phrase, /, played: list[Move] | None = None,
                 **values: str | int | Phrase) -> None:
        """The error saying `template` filled with `values`; `played`: the moves that stand."""
        super().__init__(template, **values)
        self.played: list[Move] = list(played or [])
