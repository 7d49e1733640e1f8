"""The Canfield family's rules as values: one `Rules` per game name, options applied on top."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any


class Build(Enum):
    """How tableau columns build down."""

    ALTERNATE = "in alternate colours"
    SUIT = "in suit"
    ANY = "regardless of suit"


class Groups(Enum):
    """Which cards may move together from a tableau column."""

    TOP_OR_WHOLE = "top-or-whole"  # the top card or the whole column, as PySolFC plays Canfield
    ANY = "any"  # any built group from the top, as Jan Wolter's solver plays it


class Die(Enum):
    """The Die of Justice (seed 000): a d6 sets how many cards each draw turns."""

    OFF = "off"
    GAME = "game"  # rolled once per game
    PASS = "pass"  # rolled afresh for each pass through the stock


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that tells one member of the Canfield family from another.

    `base_rank` None means the first card dealt sets the foundations' base rank; a rank means
    the four cards of that rank start on the foundations (Storehouse's 2s).
    `redeals` None means unlimited.
    """

    name: str
    draw: int = 3
    redeals: int | None = None
    build: Build = Build.ALTERNATE
    groups: Groups = Groups.TOP_OR_WHOLE
    die: Die = Die.OFF
    reserve_face_up: bool = False
    fill_from_reserve: bool = True
    base_rank: int | None = None
    casino: bool = False

    def options(self) -> dict[str, Any]:
        """The player-settable options as plain values: draw, redeals, groups, die."""
        return {
            "draw": self.draw,
            "redeals": self.redeals,
            "groups": self.groups.value,
            "die": self.die.value,
        }


GAMES: dict[str, Rules] = {
    "canfield": Rules("canfield"),
    "superior-canfield": Rules("superior-canfield", reserve_face_up=True, fill_from_reserve=False),
    "rainbow-canfield": Rules("rainbow-canfield", draw=1, redeals=0, build=Build.ANY),
    "storehouse": Rules("storehouse", draw=1, redeals=2, build=Build.SUIT, base_rank=2),
    "canfield-draw1": Rules("canfield-draw1", draw=1),
    "canfield-one-pass": Rules("canfield-one-pass", redeals=0, casino=True),
}

TITLES = {
    "canfield": "Canfield",
    "superior-canfield": "Superior Canfield",
    "rainbow-canfield": "Rainbow Canfield",
    "storehouse": "Storehouse",
    "canfield-draw1": "Canfield (draw 1)",
    "canfield-one-pass": "Canfield (one pass)",
}


class UnknownGameError(ValueError):
    """A game name the engine does not know, or an option it cannot take."""


OPTION_NAMES = ("draw", "redeals", "groups", "die")


def make_rules(name: str, **options: Any) -> Rules:
    """The rules of game `name` with the given options (draw, redeals, groups, die) applied
    to its defaults. `redeals=None` means unlimited.

    Raises UnknownGameError, quoting the bad value, for an unknown game, option or value.
    """
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise UnknownGameError(f"unknown option {unknown[0]!r}; options: {', '.join(OPTION_NAMES)}")
    changes: dict[str, Any] = {}
    if "draw" in options:
        draw = options["draw"]
        if isinstance(draw, bool) or not isinstance(draw, int) or not 1 <= draw <= 6:
            raise UnknownGameError(f"draw={draw!r}: draw 1 to 6 cards")
        changes["draw"] = draw
    if "redeals" in options:
        redeals = options["redeals"]
        if redeals is not None and (isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0):
            raise UnknownGameError(f"redeals={redeals!r}: give a number of redeals, or None for unlimited")
        changes["redeals"] = redeals
    if "groups" in options:
        changes["groups"] = _enum_value(Groups, options["groups"], "groups")
    if "die" in options:
        changes["die"] = _enum_value(Die, options["die"], "die")
    return replace(GAMES[name], **changes)


def _enum_value(kind: type[Enum], value: object, option: str) -> Any:
    if isinstance(value, kind):
        return value
    for member in kind:
        if member.value == value:
            return member
    choices = ", ".join(repr(member.value) for member in kind)
    raise UnknownGameError(f"{option}={value!r}: choose one of {choices}")
