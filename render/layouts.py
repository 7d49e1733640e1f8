"""Where each pile sits on the board: one layout description per game, no drawing code.

Positions are in card slots (column) and card rows (row); `fan` says how a pile shows its
cards. A new layout adds a `BoardLayout` here, under the name its game kinds give as
`board_layout` (bot.game.GameKind).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.game import GameKind


class Fan(Enum):
    """How a pile shows its cards."""

    TOP = "top card only"
    STACK = "top card, with the depth of the pile at its edge"
    DOWN = "every card, fanned downward"
    DOWN3 = "the top three, fanned downward"


@dataclass(frozen=True, slots=True)
class Spot:
    """One pile on the board: its notation name, its place, how it fans, and whether its
    label shows how many cards it holds."""

    pile: str
    column: float
    row: float
    fan: Fan
    counted: bool = False


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """A game's board: its width in card slots and its piles."""

    columns: float
    spots: tuple[Spot, ...]


def _canfield(reserve_fan: Fan) -> BoardLayout:
    """Stock, reserve and waste on the left; foundations over the four columns on the right."""
    right = 2.25  # the right block starts a quarter slot further out, to set it apart
    return BoardLayout(
        columns=right + 4,
        spots=(
            Spot("s", 0, 0, Fan.STACK, counted=True),
            Spot("r", 1, 0, reserve_fan, counted=True),
            Spot("w", 0, 1, Fan.DOWN3, counted=True),
            *(Spot(f"f{i + 1}", right + i, 0, Fan.TOP) for i in range(4)),
            *(Spot(f"t{i + 1}", right + i, 1, Fan.DOWN) for i in range(4)),
        ),
    )


def _demons_and_thieves() -> BoardLayout:
    """As Canfield's, with eight foundations, and nine columns split four and five (seed 003's
    line between the left and right tableau is a quarter slot of felt)."""
    right = 2.25
    return BoardLayout(
        columns=right + 9.25,
        spots=(
            Spot("s", 0, 0, Fan.STACK, counted=True),
            Spot("r", 1, 0, Fan.STACK, counted=True),
            Spot("w", 0, 1, Fan.DOWN3, counted=True),
            *(Spot(f"f{i + 1}", right + i, 0, Fan.TOP) for i in range(8)),
            *(Spot(f"t{i + 1}", right + i + (0.25 if i >= 4 else 0), 1, Fan.DOWN) for i in range(9)),
        ),
    )


def _patriarchs() -> BoardLayout:
    """Seed 004's picture: the ace foundations in a column, the king foundations in another,
    the 3x3 reserve between them; the stock and the waste on the far left."""
    return BoardLayout(
        columns=6.75,
        spots=(
            Spot("s", 0, 0, Fan.STACK, counted=True),
            Spot("w", 0, 1, Fan.DOWN3, counted=True),
            *(Spot(f"f{i + 1}", 1.25, i, Fan.TOP) for i in range(4)),
            *(Spot(f"r{3 * row + column + 1}", 2.5 + column, row + 0.5, Fan.TOP)
              for row in range(3) for column in range(3)),
            *(Spot(f"f{i + 5}", 5.75, i, Fan.TOP) for i in range(4)),
        ),
    )


# By the name a game kind gives as its `board_layout`.
LAYOUTS: dict[str, BoardLayout] = {
    "canfield": _canfield(Fan.STACK),
    "superior-canfield": _canfield(Fan.DOWN),  # the whole reserve is face up: show it all
    "demons-and-thieves": _demons_and_thieves(),
    "patriarchs": _patriarchs(),
}


def layout_for(kind: GameKind) -> BoardLayout:
    """The board layout of a kind of game; ValueError, quoting its name, when there is none."""
    if kind.board_layout not in LAYOUTS:
        raise ValueError(f"no board layout {kind.board_layout!r} for {kind.name!r}")
    return LAYOUTS[kind.board_layout]
