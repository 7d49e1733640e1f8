"""Every game the engine plays, by name: the Canfield family with Demons and Thieves
(canfield.py, their rules in rules.py) and Patriarchs with Picture Patience (patriarchs.py).
`new_game` builds any of them; the rest of the bot knows games only through this module."""

from __future__ import annotations

from bot.game import rules as canfield_rules
from bot.game.canfield import CanfieldGame, dealt_canfield_cards, new_canfield_game
from bot.game.cards import Card
from bot.game.patriarchs import (
    OPTION_NAMES as PATRIARCHS_OPTIONS,
)
from bot.game.patriarchs import (
    PATRIARCHS_GAMES,
    PATRIARCHS_TITLES,
    PatriarchsGame,
    PatriarchsRules,
    dealt_patriarchs_cards,
    make_patriarchs_rules,
    new_patriarchs_game,
)
from bot.game.race import RaceGame, new_race
from bot.game.rules import Rules, UnknownGameError

Game = CanfieldGame | PatriarchsGame
# The games one player plays alone (solo, matches, dailies); the demon race is apart: RACE.
GAMES: dict[str, Rules | PatriarchsRules] = {**canfield_rules.GAMES, **PATRIARCHS_GAMES}
RACE = "demon-race"
TITLES: dict[str, str] = {**canfield_rules.TITLES, **PATRIARCHS_TITLES, RACE: RaceGame.title}


def new_game(name: str = "canfield", *, deal: int | None = None, cards: list[Card] | list[str] | None = None,
             **options: object) -> Game | RaceGame:
    """A new game of `name`: PySolFC's game number `deal`, or an explicit deck `cards` (in the
    order the game's own `new_*_game` documents), or a random game number. Options as the game
    allows (`option_names`). UnknownGameError, quoting it, for a name or option it does not know."""
    if name == RACE:
        if cards is not None:
            raise UnknownGameError("a demon race is dealt from its number, or from `decks=`, one a player")
        return new_race(deal, **options)  # type: ignore[arg-type]
    if name in PATRIARCHS_GAMES:
        return new_patriarchs_game(name, deal=deal, cards=cards, **options)
    return new_canfield_game(name, deal=deal, cards=cards, **options)


def dealt_cards(name: str, deal: int) -> list[Card]:
    """The deck of PySolFC's game `deal` of `name`, in `new_game(cards=...)` order."""
    if name in PATRIARCHS_GAMES:
        return dealt_patriarchs_cards(name, deal)
    return dealt_canfield_cards(name, deal)


def game_rules(name: str, **options: object) -> Rules | PatriarchsRules:
    """The rules of `name` with options applied; UnknownGameError, quoting it, when it cannot."""
    if name in PATRIARCHS_GAMES:
        return make_patriarchs_rules(name, **options)
    return canfield_rules.make_rules(name, **options)


def option_names(name: str) -> tuple[str, ...]:
    """The options a game takes (the Canfield family: draw, redeals, groups, die)."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return PATRIARCHS_OPTIONS if name in PATRIARCHS_GAMES else canfield_rules.OPTION_NAMES


def describe_game(name: str) -> str:
    """The rules of `name` in a few plain sentences."""
    rules = game_rules(name)
    if isinstance(rules, PatriarchsRules):
        return _describe_patriarchs(rules)
    return canfield_rules.describe(rules)


def _describe_patriarchs(rules: PatriarchsRules) -> str:
    start = ("An ace and a king of each suit start on them. " if rules.preplaced
             else "The aces and kings are shuffled in; an empty foundation takes one of its suit. ")
    reversals = (" When the two foundations of a suit have tops in sequence, cards may go from one to the "
                 "other (never the base cards)." if rules.reversals else "")
    redeals = "one redeal" if rules.redeals else "no redeal"
    return (
        f"**{TITLES[rules.name]}** (two decks): build four foundations up in suit from the ace to the king, "
        f"and four down from the king to the ace. {start}Nine reserve cards, each playable to the foundations "
        "only; an emptied reserve space is filled at once from the waste (from the stock when the waste is "
        f"empty). The stock turns one card at a time, {redeals}.{reversals} Score: 50 a finished foundation, "
        "100 for a win, 1 a foundation card, −1 a card left in the reserve."
    )
