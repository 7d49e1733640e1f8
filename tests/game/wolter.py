"""Read Jan Wolter's Canfield solver output (tests/data/wolter-canfield-sample100.txt).

The format is described in tests/data/README.md. Pile names are kept as Wolter writes them:
`F01`..`F04` foundations, `T01` reserve, `T02`..`T05` tableau, `B01` stock and waste.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "wolter-canfield-sample100.txt"

Verdict = Literal["won", "stuck"]
Layout = dict[str, list[str]]  # Wolter pile name -> cards, bottom first (B01: top of the stock first)

PILES = ("F01", "F02", "F03", "F04", "T01", "T02", "T03", "T04", "T05", "B01")

_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
_HEADER_RE = re.compile(r"Canfield - seed (\d+)")
_PILE_RE = re.compile(r"(F0[1-4]|T0[1-5]|B01):(.*)")
_CONTINUATION_RE = re.compile(r"\s+([2-9TJQKA][CDHS](?:\s+[2-9TJQKA][CDHS])*)\s*")
_MOVE_RE = re.compile(r"\s*(\d+): \[([^\]]+)\] (T0[1-5]|B01) -> (F0[1-4]|T0[2-5])")
_VERDICT_RE = re.compile(r"(Victory!|Stuck[.!]) .*")
_MAXOFF_RE = re.compile(r"maxoff=(\d+)")
_IGNORED = ("No Moves Possible",)
_SUMMARY = ("Played:", "Won:", "Abandoned:", "Cards Off:")


@dataclass(frozen=True, slots=True)
class WolterMove:
    """One numbered move: `cards` bottom (deepest) first, from pile `src` to pile `dst`."""

    number: int
    cards: tuple[str, ...]
    src: str
    dst: str

    def __str__(self) -> str:
        return f"{self.number}: [{' '.join(self.cards)}] {self.src} -> {self.dst}"


@dataclass(slots=True)
class WolterDeal:
    """One deal of the file: its layout as dealt, the verdict, and the numbered moves (the
    winning line, or for a stuck deal the best partial line). `end` is the layout printed
    after a stuck deal's partial line, if any; `maxoff` the cards on the foundations at the end."""

    seed: int
    verdict: Verdict | None = None
    layout: Layout | None = None
    moves: list[WolterMove] = field(default_factory=list)
    end: Layout | None = None
    maxoff: int | None = None

    def cards(self) -> list[str]:
        """The deck in `new_game(cards=...)` order: the base card, the reserve bottom to top,
        the tableau t1..t4, the stock from the top down."""
        assert self.layout is not None
        bases = [card for pile in ("F01", "F02", "F03", "F04") for card in self.layout[pile]]
        if len(bases) != 1:
            raise ValueError(f"seed {self.seed}: expected one foundation base card, found {bases}")
        tableau = [card for pile in ("T02", "T03", "T04", "T05") for card in self.layout[pile]]
        return bases + self.layout["T01"] + tableau + self.layout["B01"]


def read_deals(path: Path = SAMPLE) -> list[WolterDeal]:
    """Parse the solver output at `path` into its deals, in file order."""
    return parse(path.read_text(encoding="ascii"))


def parse(text: str) -> list[WolterDeal]:
    """Parse the solver output `text` into its deals; ValueError, naming the line, for anything
    that does not fit the format."""
    deals: list[WolterDeal] = []
    block: Layout | None = None  # the layout block being read
    last_pile: str | None = None
    in_summary = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _ANSI_RE.sub("", raw).rstrip()
        deal = deals[-1] if deals else None
        if not line:
            continue
        if in_summary:
            if not line.startswith(_SUMMARY):
                raise ValueError(f"line {number}: unexpected text after the summary: {line!r}")
            continue
        if match := _HEADER_RE.fullmatch(line):
            deals.append(WolterDeal(seed=int(match[1])))
            block, last_pile = None, None
            continue
        if line.startswith(_SUMMARY):
            in_summary = True
            continue
        if deal is None:
            raise ValueError(f"line {number}: text before the first deal: {line!r}")
        if match := _PILE_RE.fullmatch(line):
            pile, cards = match[1], match[2].split()
            if block is None:
                block = {}
                if deal.layout is None:
                    deal.layout = block
                elif deal.end is None:
                    deal.end = block
                else:
                    raise ValueError(f"line {number}: a third layout in seed {deal.seed}")
            if pile in block:
                raise ValueError(f"line {number}: {pile} twice in one layout")
            block[pile], last_pile = cards, pile
            continue
        if last_pile is not None and block is not None and (match := _CONTINUATION_RE.fullmatch(line)):
            block[last_pile].extend(match[1].split())
            continue
        block, last_pile = None, None  # any other line ends a layout block
        if match := _VERDICT_RE.fullmatch(line):
            if deal.verdict is not None:
                raise ValueError(f"line {number}: a second verdict in seed {deal.seed}")
            deal.verdict = "won" if match[1] == "Victory!" else "stuck"
        elif match := _MOVE_RE.fullmatch(line):
            move = WolterMove(int(match[1]), tuple(match[2].split()), match[3], match[4])
            if move.number != len(deal.moves) + 1:
                raise ValueError(f"line {number}: move {move.number} follows move {len(deal.moves)}")
            deal.moves.append(move)
        elif match := _MAXOFF_RE.fullmatch(line):
            deal.maxoff = int(match[1])
        elif line not in _IGNORED:
            raise ValueError(f"line {number}: cannot read {line!r}")
    for deal in deals:
        _check(deal)
    return deals


def _check(deal: WolterDeal) -> None:
    """Raise ValueError unless `deal` was read completely."""
    if deal.verdict is None or deal.layout is None or deal.maxoff is None:
        raise ValueError(f"seed {deal.seed}: missing its verdict, layout or maxoff")
    for layout in (deal.layout, deal.end):
        if layout is not None and sorted(layout) != sorted(PILES):
            raise ValueError(f"seed {deal.seed}: a layout has piles {sorted(layout)}")
    if len(deal.cards()) != 52 or len(set(deal.cards())) != 52:
        raise ValueError(f"seed {deal.seed}: the layout is not one deck of 52 cards")
