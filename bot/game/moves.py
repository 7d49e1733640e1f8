"""A move: a small frozen value whose `str` is its canonical notation (docs/notation.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PILE_PATTERN = r"(?:s|w|r[1-9]?|f[1-8]?|t[1-9])"
PILE_NAMES = frozenset(
    ["s", "w", "r", "f"] + [f"r{i}" for i in range(1, 10)] + [f"f{i}" for i in range(1, 9)]
    + [f"t{i}" for i in range(1, 10)]
)


@dataclass(frozen=True, slots=True)
class Move:
    """Move `count` cards from pile `src` to pile `dst`; the draw is `Move("s", "w")`.

    Piles are named as in the notation: `s` stock, `w` waste, `r` reserve, `f1`..`f8`
    foundations, `t1`..`t9` tableau columns. `str(move)` is canonical: `rt2`, `wf1`,
    `t1t3:2`, and `d` for the draw.
    """

    src: str
    dst: str
    count: int = 1
    # Its text, kept the first time it is asked for: a game's moves are written out whole at
    # every move (to store it, and in its snapshot), and its copies share its Move objects.
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[type[Move], tuple[str, str, int]]:
        return Move, (self.src, self.dst, self.count)  # quicker than a slotted dataclass's own (Card's)

    def __post_init__(self) -> None:
        for pile in (self.src, self.dst):
            if pile not in PILE_NAMES:
                raise ValueError(f"{pile!r} is not a pile name")
        if self.src == self.dst:
            raise ValueError(f"a move from {self.src} to itself is no move")
        if self.src == "s" and (self.dst != "w" or self.count != 1):
            raise ValueError("the stock only turns onto the waste: the draw is Move('s', 'w')")
        if self.count < 1:
            raise ValueError(f"a move takes at least one card, not {self.count}")

    @property
    def is_draw(self) -> bool:
        """True for the draw from the stock (which redeals when the stock is empty)."""
        return self.src == "s"

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = "d" if self.is_draw else f"{self.src}{self.dst}" + (f":{self.count}" if self.count > 1 else "")
            object.__setattr__(self, "_text", text)
        return text


DRAW = Move("s", "w")


_CANONICAL_RE = re.compile(rf"\A(?P<src>{PILE_PATTERN})(?P<dst>{PILE_PATTERN})(?::(?P<count>[1-9][0-9]*))?\Z")


def parse_move(text: str) -> Move:
    """Read a move in canonical form (`rt2`, `wf1`, `t1t3:2`, `d`), as `str(move)` writes it.

    Raises ValueError, quoting the text, for anything else; `notation.parse` reads the
    friendlier forms that players type.
    """
    if text == "d":
        return DRAW
    match = _CANONICAL_RE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a move in canonical form")
    return Move(match["src"], match["dst"], int(match["count"] or 1))
