"""Where each pile sits on the board: one layout description per game, no drawing code.

Positions are in card slots (column) and card rows (row); `fan` says how a pile shows its
cards. A row starts lower than its place in the grid when a pile above it, in the columns it
spans, has grown into it (render.board places it); so a band of columns under another's moves
down as the columns above it grow. A new layout adds a `BoardLayout` here, under the name its
game kinds give as `board_layout` (bot.game.GameKind).

Every waste shows its top three cards fanned to the right (`Fan.RIGHT3`), two slots wide.
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
    RIGHT3 = "the top three, fanned to the right"


class Align(Enum):
    """Which edge of its column a mark's words start from."""

    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True, eq=False)  # a layout's own: compared and hashed as itself (render keys on it)
class Spot:
    """One pile on the board: its notation name, its place, how it fans, and whether its
    label shows how many cards it holds."""

    pile: str
    column: float
    row: float
    fan: Fan
    counted: bool = False


@dataclass(frozen=True, slots=True)
class Mark:
    """Words over a column of piles, in a band above the first row: the name of the
    render.captions `BoardCaptions` field that words them, the column, and the column's edge
    they start from (LEFT runs right from its left edge, RIGHT runs left from its right edge)."""

    caption: str
    column: float
    align: Align


@dataclass(frozen=True, slots=True, eq=False)  # the module's constants: compared and hashed as themselves
class BoardLayout:
    """A game's board: its width in card slots, its piles, and the marks over them."""

    columns: float
    spots: tuple[Spot, ...]
    marks: tuple[Mark, ...] = ()


def _canfield(reserve_fan: Fan) -> BoardLayout:
    """The waste on top at the left, the stock and the reserve under it, beside the four
    columns; the foundations over the columns. A reserve that fans down (Superior Canfield's)
    has the felt under it to grow into."""
    right = 2.15  # the right block starts a little further out, to set it apart
    return BoardLayout(
        columns=right + 4,
        spots=(
            Spot("w", 0, 0, Fan.RIGHT3, counted=True),
            Spot("s", 0, 1, Fan.STACK, counted=True),
            Spot("r", 1, 1, reserve_fan, counted=True),
            *(Spot(f"f{i + 1}", right + i, 0, Fan.TOP) for i in range(4)),
            *(Spot(f"t{i + 1}", right + i, 1, Fan.DOWN) for i in range(4)),
        ),
    )


def _demons_and_thieves() -> BoardLayout:
    """Demons and Thieves' two tableaux, as two bands: at the left the stock, the waste and the reserve
    over the left tableau (t1-t4, Canfield's part); at the right the eight foundations in two
    rows of four; the right tableau (t5-t9, Forty Thieves' part) in a band of its own under
    the foundations, which moves down as t4 or the foundations above it grow into it."""
    return BoardLayout(
        columns=8,
        spots=(
            Spot("s", 0, 0, Fan.STACK, counted=True),
            Spot("w", 1, 0, Fan.RIGHT3, counted=True),
            Spot("r", 3, 0, Fan.STACK, counted=True),
            *(Spot(f"f{i + 1}", 4 + i % 4, i // 4, Fan.TOP) for i in range(8)),
            *(Spot(f"t{i + 1}", i, 1, Fan.DOWN) for i in range(4)),
            *(Spot(f"t{i + 5}", 3 + i, 2, Fan.DOWN) for i in range(5)),
        ),
    )


def _patriarchs() -> BoardLayout:
    """Patriarchs' picture: the ace foundations in a column, the king foundations in another,
    the 3x3 reserve between them, under the stock and the waste; over the two columns, which
    way each builds."""
    return BoardLayout(
        columns=5.5,
        spots=(
            *(Spot(f"f{i + 1}", 0, i, Fan.TOP) for i in range(4)),
            Spot("s", 1.25, 0, Fan.STACK, counted=True),
            Spot("w", 2.25, 0, Fan.RIGHT3, counted=True),
            *(Spot(f"r{3 * row + column + 1}", 1.25 + column, row + 1, Fan.TOP)
              for row in range(3) for column in range(3)),
            *(Spot(f"f{i + 5}", 4.5, i, Fan.TOP) for i in range(4)),
        ),
        marks=(Mark("up_from_ace", 0, Align.LEFT), Mark("down_from_king", 4.5, Align.RIGHT)),
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
