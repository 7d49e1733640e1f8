"""Reading the move notation (docs/notation.md) into commands for a game to carry out.

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


class Action(Enum):
    """A command that is a letter or its word: d or draw, a or auto, u or undo, h or hint."""

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

class Word(Enum):
    """A word that is not a move: it asks the front end for something, and is sent on its own."""

    BOARD = "board"
    RESIGN = "resign"
    RULES = "rules"
    HELP = "help"


# Every spelling of an action: its letter and its word.
ACTION_WORDS: dict[str, Action] = {
    **{action.value: action for action in Action},
    "draw": Action.DRAW, "auto": Action.AUTO, "undo": Action.UNDO, "hint": Action.HINT,
}
# The words a player may type, moves aside, with a few synonyms people reach for.
WORDS: dict[str, Word] = {
    **{word.value: word for word in Word}, "show": Word.BOARD, "?": Word.HELP,
}

_SEPARATORS_RE = re.compile(r"[\s,;]+")
_PILES_RE = re.compile(rf"(?P<src>{PILE_PATTERN})(?P<dst>{PILE_PATTERN})?(?P<count>:\d+)?")
_CARD_MOVE_RE = re.compile(rf"(?P<card>{CARD_PATTERN})(?P<dst>{PILE_PATTERN})?")
_COUNT_RE = re.compile(r":\d+")
_PILE_RE = re.compile(PILE_PATTERN)


def read_word(text: str) -> Word | None:
    """The word a whole message is (`board`, `resign`, `rules`, `help`, in any case), or None."""
    return WORDS.get(text.strip().lower())


def parse(text: str) -> list[Command]:
    """Read one message of moves into commands, in order.

    A token is one move or one word, never a run of letters split into moves: `draw` is the
    draw, and `dad` is unreadable, not three moves. Raises NotationError, quoting the token and
    carrying it in `token`, when any part of the message cannot be read: nothing of a message
    is carried out unless all of it reads.
    """
    words = [word for word in _SEPARATORS_RE.split(text.strip()) if word]
    if not words:
        raise NotationError("no move given", token="")
    commands: list[Command] = []
    index = 0

    def next_is(pattern: re.Pattern[str]) -> bool:
        return index < len(words) and pattern.fullmatch(words[index].lower()) is not None

    while index < len(words):
        original = words[index]
        word = original.lower()
        index += 1
        if word in ACTION_WORDS:
            commands.append(ActionCommand(ACTION_WORDS[word], original))
        elif word in WORDS:
            raise NotationError("{text!r} is a word of its own: send it alone", token=original, text=original)
        elif _COUNT_RE.fullmatch(word):
            raise NotationError("{text!r} must follow a move, as in t1t3:2", token=original, text=original)
        elif match := _PILES_RE.fullmatch(word):
            src, dst, count = match["src"], match["dst"], match["count"]
            if dst is None and count is None and next_is(_PILE_RE):  # `r t2`
                dst, original = words[index].lower(), original + words[index]
                index += 1
            if count is None and next_is(_COUNT_RE):  # `t1t3 :2`
                count, original = words[index], original + words[index]
                index += 1
            commands.append(_pile_command(src, dst, int(count[1:]) if count else None, original))
        elif match := _CARD_MOVE_RE.fullmatch(word):
            dst = match["dst"]
            if dst is None and next_is(_PILE_RE):  # `7h t2`
                dst, original = words[index].lower(), f"{original} {words[index]}"
                index += 1
            _check_destination(dst, original)
            commands.append(CardCommand(Card.parse(match["card"]), dst, original))
        else:
            raise NotationError("cannot read {text!r}", token=original, text=original)
    return commands


def _pile_command(src: str, dst: str | None, count: int | None, original: str) -> Command:
    """The command for a pile (and a pile and a count) that read; NotationError when it means nothing."""
    if count is not None and count < 1:
        raise NotationError("{text!r}: a move takes at least one card", token=original, text=original)
    if src == "s":
        if dst not in (None, "w") or count is not None:
            raise NotationError("{text!r}: the stock only turns onto the waste; use d", token=original, text=original)
        return ActionCommand(Action.DRAW, original)
    if dst == src:
        raise NotationError("{text!r} moves a pile onto itself", token=original, text=original)
    _check_destination(dst, original)
    return PileCommand(src, dst, count, original)


def _check_destination(dst: str | None, original: str) -> None:
    if dst in ("s", "w") or (dst is not None and dst.startswith("r")):
        raise NotationError(
            "{text!r}: cards go to a foundation (f) or a tableau column (t1..t9), not to {pile}",
            token=original, text=original, pile=dst,
        )
