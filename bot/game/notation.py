"""Reading the move notation of DESIGN.md section 4 into commands for a game to carry out.

The reader knows the notation, not the rules: it turns `rt2 wf d` into three commands and
leaves the game to decide which card, which foundation and how many cards each one means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from bot.game.cards import CARD_PATTERN, Card
from bot.game.errors import NotationError
from bot.game.moves import PILE_PATTERN

EXAMPLES = "moves look like rt2, wf, t1t3:2, 7h, 7h t2, d (draw), a (all to foundations), u (undo)"


class Action(Enum):
    """A one-letter command."""

    DRAW = "d"
    AUTO = "a"
    UNDO = "u"
    HINT = "h"


@dataclass(frozen=True, slots=True)
class PileCommand:
    """Move from pile `src` to pile `dst` (None: to the best place), `count` cards (None: the
    one legal number). `dst` may be a bare `f`: whichever foundation takes the card."""

    src: str
    dst: str | None
    count: int | None
    text: str


@dataclass(frozen=True, slots=True)
class CardCommand:
    """Move the named card (and the cards on it) to `dst`, or to its best place when None."""

    card: Card
    dst: str | None
    text: str


@dataclass(frozen=True, slots=True)
class ActionCommand:
    """Draw, play all to foundations, undo or hint."""

    action: Action
    text: str


Command = PileCommand | CardCommand | ActionCommand

# One token at a time; order matters: a numbered pile before a card (`t1` is a pile, `ts`
# the ten of spades), a card before a bare pile or letter (`as` is the ace of spades).
_TOKEN_RE = re.compile(
    rf"(?P<count>:\s*\d+)|(?P<pile>{PILE_PATTERN})(?![0-9])|(?P<card>{CARD_PATTERN})"
    r"|(?P<action>[dauh])|(?P<space>[\s,;]+)"
)


def _tokens(text: str) -> list[tuple[str, str, str]]:
    """Split text into (kind, value, original text) tokens; NotationError on anything else."""
    lowered = text.lower()
    tokens: list[tuple[str, str, str]] = []
    position = 0
    while position < len(lowered):
        match = _TOKEN_RE.match(lowered, position)
        if not match:
            start = lowered.rfind(" ", 0, position) + 1
            word = text[start:].split()[0]
            raise NotationError(f"cannot read {word!r}: {EXAMPLES}")
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append((kind, match.group(kind), text[match.start():match.end()]))
        position = match.end()
    return tokens


def parse(text: str) -> list[Command]:
    """Read one message of moves into commands, in order.

    Raises NotationError, quoting the text, when any part of it cannot be read; nothing of
    a message is carried out unless all of it reads.
    """
    if not text.strip():
        raise NotationError(f"no move given: {EXAMPLES}")
    tokens = _tokens(text)
    commands: list[Command] = []
    index = 0
    while index < len(tokens):
        kind, value, original = tokens[index]
        index += 1
        if kind == "action":
            commands.append(ActionCommand(Action(value), original))
        elif kind == "count":
            raise NotationError(f"{original.strip()!r} must follow a move, as in t1t3:2")
        elif kind == "card":
            dst = None
            if index < len(tokens) and tokens[index][0] == "pile":
                dst = tokens[index][1]
                original += " " + tokens[index][2]
                index += 1
            _check_destination(dst, original)
            commands.append(CardCommand(Card.parse(value), dst, original))
        else:
            src, dst, count = value, None, None
            if index < len(tokens) and tokens[index][0] == "pile":
                dst = tokens[index][1]
                original += tokens[index][2]
                index += 1
            if index < len(tokens) and tokens[index][0] == "count":
                count = int(tokens[index][1].lstrip(": \t"))
                original += tokens[index][2].strip()
                index += 1
                if count < 1:
                    raise NotationError(f"{original!r}: a move takes at least one card")
            if src == "s":
                if dst not in (None, "w"):
                    raise NotationError(f"{original!r}: the stock only turns onto the waste; use d")
                commands.append(ActionCommand(Action.DRAW, original))
                continue
            if dst == src:
                raise NotationError(f"{original!r} moves a pile onto itself")
            _check_destination(dst, original)
            commands.append(PileCommand(src, dst, count, original))
    return commands


def _check_destination(dst: str | None, original: str) -> None:
    if dst in ("s", "w") or (dst is not None and dst.startswith("r")):
        raise NotationError(
            f"{original!r}: cards go to a foundation (f) or a tableau column (t1..t9), not to {dst}"
        )
