"""Every game the engine plays, by name: `GAMES`, the registry of the kinds of game one player
plays alone (the Canfield family with Demons and Thieves from canfield.py, Patriarchs with
Picture Patience from patriarchs.py), each a `GameKind` carrying its own title, options,
solver coverage and board layout; `new_game` builds any of them, and the rest of the bot knows
games through this module. The demon race (race.py), several players' game, is apart: `RACE`
names it, and race.new_race deals one."""

from __future__ import annotations

from typing import Any

from bot.game.canfield import CANFIELD_KINDS
from bot.game.cards import Card
from bot.game.patience import Game, GameKind, GameRules
from bot.game.patriarchs import PATRIARCHS_KINDS
from bot.game.phrases import Sentences
from bot.game.race import RaceGame
from bot.game.rules import UnknownGameError

__all__ = ["GAMES", "RACE", "TITLES", "Game", "GameKind", "dealt_cards", "describe_game", "game_kind", "game_rules",
           "new_game", "option_names"]

# The games one player plays alone (solo, matches, dailies), by name.
GAMES: dict[str, GameKind] = {**CANFIELD_KINDS, **PATRIARCHS_KINDS}
RACE = "demon-race"
TITLES: dict[str, str] = {**{name: kind.title for name, kind in GAMES.items()}, RACE: RaceGame.title}


def game_kind(name: str) -> GameKind:
    """The kind of game called `name`; UnknownGameError, quoting it, when there is none."""
    if name not in GAMES:
        raise UnknownGameError("unknown game {name!r}; games: {games}", name=name, games=", ".join(GAMES))
    return GAMES[name]


def new_game(name: str = "canfield", *, deal: int | None = None, cards: list[Card] | list[str] | None = None,
             **options: object) -> Game[Any]:
    """A new game of patience of `name`: PySolFC's game number `deal`, or an explicit deck `cards`
    (in the order the game's own `new_*_game` documents), or a random game number. Options as
    the game allows (`option_names`). UnknownGameError, quoting it, for a name or option it does
    not know (the demon race, several players' game, is dealt by race.new_race)."""
    return game_kind(name).new(deal=deal, cards=cards, **options)


def dealt_cards(name: str, deal: int) -> list[Card]:
    """The deck of PySolFC's game `deal` of `name`, in `new_game(cards=...)` order."""
    return game_kind(name).dealt_cards(deal)


def game_rules(name: str, **options: object) -> GameRules:
    """The rules of `name` with options applied; UnknownGameError, quoting it, when it cannot."""
    return game_kind(name).make_rules(**options)


def option_names(name: str) -> tuple[str, ...]:
    """The options a game takes (the Canfield family: draw, redeals, groups, die)."""
    return game_kind(name).option_names


def describe_game(name: str) -> Sentences:
    """The rules of `name` in a few plain sentences, beginning with its title (no markup); as
    phrases (bot/game/phrases.py), `str()` of which is the English."""
    return game_kind(name).describe_rules()
