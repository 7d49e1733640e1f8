"""The Canfield family's rules as values: one `Rules` per game name, options applied on top."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from bot.game.phrases import Phrase, PhrasedError, Sentences


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
    """The Die of Justice (docs/games.md): a d6 sets how many cards each draw turns."""

    OFF = "off"
    GAME = "game"  # rolled once per game
    PASS = "pass"  # rolled afresh for each pass through the stock


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that tells one member of the Canfield family from another.

    `base_rank` None means the first card dealt sets the foundations' base rank; a rank means
    the four cards of that rank start on the foundations (Storehouse's 2s).
    `redeals` None means unlimited.
    `decks` 2 doubles everything: two foundations a suit (f1 f2 clubs, f3 f4 spades, ...).
    `column_sizes` gives the cards dealt to each column; columns after the first four build by
    `right_build` when it is set (Demons and Thieves' "right tableau").
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
    decks: int = 1
    column_sizes: tuple[int, ...] = (1, 1, 1, 1)
    right_build: Build | None = None

    @property
    def columns(self) -> int:
        """How many tableau columns the game has."""
        return len(self.column_sizes)

    def column_build(self, index: int) -> Build:
        """How column `index` (from 0) builds down."""
        return self.right_build if self.right_build is not None and index >= 4 else self.build

    def options(self) -> dict[str, Any]:
        """The player-settable options as plain values: draw, redeals, groups, die."""
        return {
            "draw": self.draw,
            "redeals": self.redeals,
            "groups": self.groups.value,
            "die": self.die.value,
        }


# Each game's rules before options; its title and the rest: canfield.CANFIELD_KINDS.
RULES: dict[str, Rules] = {
    "canfield": Rules("canfield"),
    "superior-canfield": Rules("superior-canfield", reserve_face_up=True, fill_from_reserve=False),
    "rainbow-canfield": Rules("rainbow-canfield", draw=1, redeals=0, build=Build.ANY),
    "storehouse": Rules("storehouse", draw=1, redeals=2, build=Build.SUIT, base_rank=2),
    "canfield-draw1": Rules("canfield-draw1", draw=1),
    "canfield-one-pass": Rules("canfield-one-pass", redeals=0, casino=True),
    # Demons and Thieves: the left four columns build down in alternate colours, the right five in suit,
    # both wrapping (PySolFC does not wrap them); any group that is a built sequence for the
    # column it leaves may move; spaces take any card or group (no fill from the reserve).
    "demons-and-thieves": Rules("demons-and-thieves", draw=1, redeals=2, groups=Groups.ANY, fill_from_reserve=False,
                                decks=2, column_sizes=(1, 1, 1, 1, 8, 8, 8, 8, 8), right_build=Build.SUIT),
    "demonthief": Rules("demonthief", draw=1, redeals=0, groups=Groups.ANY, fill_from_reserve=False,
                        decks=2, column_sizes=(1, 1, 1, 1, 8, 8, 8, 8, 8), right_build=Build.SUIT),
}

# Casino scoring (docs/games.md): a game costs CASINO_STAKE dollars and pays CASINO_PAY for each card
# it puts on the foundations. The games played so: CASINO_GAMES.
CASINO_STAKE = 52
CASINO_PAY = 5
CASINO_GAMES = tuple(name for name, rules in RULES.items() if rules.casino)


def casino_money(games: int, foundation_cards: int) -> int:
    """What `games` casino games with `foundation_cards` cards on their foundations in all won
    or lost, in dollars: CASINO_PAY a card less CASINO_STAKE a game."""
    return CASINO_PAY * foundation_cards - CASINO_STAKE * games


class UnknownGameError(PhrasedError):
    """A game name the engine does not know, or an option it cannot take."""


CANFIELD_OPTION_NAMES = ("draw", "redeals", "groups", "die")


def make_rules(name: str, **options: Any) -> Rules:
    """The rules of game `name` with the given options (draw, redeals, groups, die) applied
    to its defaults. `redeals=None` means unlimited.

    Raises UnknownGameError, quoting the bad value, for an unknown game, option or value.
    """
    if name not in RULES:
        raise UnknownGameError("unknown game {name!r}; games: {games}", name=name, games=", ".join(RULES))
    unknown = sorted(set(options) - set(CANFIELD_OPTION_NAMES))
    if unknown:
        raise UnknownGameError("unknown option {option!r}; options: {options}", option=unknown[0],
                               options=", ".join(CANFIELD_OPTION_NAMES))
    changes: dict[str, Any] = {}
    if "draw" in options:
        draw = options["draw"]
        if isinstance(draw, bool) or not isinstance(draw, int) or not 1 <= draw <= 6:
            raise UnknownGameError("draw={value}: draw 1 to 6 cards", value=repr(draw))
        changes["draw"] = draw
    if "redeals" in options:
        redeals = options["redeals"]
        if redeals is not None and (isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0):
            raise UnknownGameError("redeals={value}: give a number of redeals, or None for unlimited",
                                   value=repr(redeals))
        changes["redeals"] = redeals
    if "groups" in options:
        changes["groups"] = _enum_value(Groups, options["groups"], "groups")
    if "die" in options:
        changes["die"] = _enum_value(Die, options["die"], "die")
    return replace(RULES[name], **changes)


def _enum_value(kind: type[Enum], value: object, option: str) -> Any:
    if isinstance(value, kind):
        return value
    for member in kind:
        if member.value == value:
            return member
    choices = ", ".join(repr(member.value) for member in kind)
    raise UnknownGameError("{option}={value}: choose one of {choices}", option=option, value=repr(value),
                           choices=choices)


BUILD_WORDS: dict[Build, Phrase] = {
    Build.ALTERNATE: Phrase("in alternate colours"),
    Build.SUIT: Phrase("in suit"),
    Build.ANY: Phrase("regardless of suit"),
}
# The last sentence of every patience game's rules.
SCORE_RULE = Phrase("Score: 50 a finished foundation, 100 for a win, 1 a foundation card, −1 a card left in the "
                    "reserve.")


def describe_rules(rules: Rules, title: str) -> Sentences:
    """The rules of the game called `title` (a text marked with N_) in a few plain sentences,
    written from the values themselves; the first begins with the title."""
    game = Phrase.marked(title)
    foundations = (Phrase("the four foundations") if rules.decks == 1
                   else Phrase("the {count} foundations (two a suit)", count=4 * rules.decks))
    if rules.base_rank is None:
        start = Phrase("{title}: build {foundations} up in suit from the base rank (the rank of the first card dealt "
                       "to them), wrapping from king to ace, 13 cards each.", title=game, foundations=foundations)
    else:
        start = Phrase("{title}: build {foundations} up in suit from the four {rank}s they start with, wrapping from "
                       "king to ace, 13 cards each.", title=game, foundations=foundations, rank=rules.base_rank)
    reserve = (Phrase("A 13-card reserve, all face up.") if rules.reserve_face_up
               else Phrase("A 13-card reserve, its top card face up."))
    if rules.columns == 4:
        columns = Phrase("Four columns build down {build}, wrapping from ace to king.", build=BUILD_WORDS[rules.build])
    else:
        columns = Phrase("{count} columns build down, wrapping from ace to king: the first four {build}, the other "
                         "{others} {right_build}.", count=rules.columns, build=BUILD_WORDS[rules.build],
                         others=rules.columns - 4, right_build=BUILD_WORDS[rules.column_build(4)])
    groups = (Phrase("The top card or the whole column moves.") if rules.groups is Groups.TOP_OR_WHOLE
              else Phrase("Any built group moves."))
    if rules.fill_from_reserve:
        spaces = Phrase("An emptied column is filled from the reserve at once; once the reserve is empty, with any "
                        "card.")
    else:
        spaces = Phrase("An empty column takes any card, when you choose.")
    if rules.redeals is None:
        redeals = Phrase("unlimited redeals")
    elif rules.redeals == 0:
        redeals = Phrase("one pass through the stock, no redeal")
    else:
        redeals = Phrase.counted("{count} redeal", "{count} redeals", rules.redeals)
    if rules.die is Die.GAME:
        draw = Phrase("Then the Die of Justice (a d6) sets how many cards each draw turns, once a game, "
                      "with {redeals}.", redeals=redeals)
    elif rules.die is Die.PASS:
        draw = Phrase("Then the Die of Justice (a d6) sets how many cards each draw turns, afresh each pass, "
                      "with {redeals}.", redeals=redeals)
    else:
        draw = Phrase.counted("Then the stock turns {count} card at a time, with {redeals}.",
                              "Then the stock turns {count} cards at a time, with {redeals}.", rules.draw,
                              redeals=redeals)
    return Sentences((start, reserve, columns, groups, spaces, draw, SCORE_RULE))
