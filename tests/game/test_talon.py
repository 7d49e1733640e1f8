"""The solver's talon (Search.talon): the cards drawing can bring to the top of the waste, against
the plain way of working them out (drawing card by card, a new waste and stock at every draw),
and the search's moves against the engine's own play."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.game import DRAW, Game, Move, new_game
from bot.game.cards import full_deck
from bot.game.solver import MAX_PASSES, Search, card_index, card_indexes

# Every member of the one-deck Canfield family with the options that change the talon: the draw,
# the redeals (none, a few, more than MAX_PASSES, unlimited) and the Die of Justice.
VARIANTS = [
    ("canfield", {}),
    ("canfield", {"draw": 2}),
    ("canfield", {"draw": 6, "groups": "any"}),
    ("canfield", {"redeals": 2}),
    ("canfield", {"redeals": MAX_PASSES}),
    ("canfield", {"redeals": MAX_PASSES + 6}),
    ("canfield", {"die": "pass"}),
    ("canfield", {"die": "game"}),
    ("canfield", {"die": "pass", "redeals": 3}),
    ("canfield", {"die": "game", "redeals": 1}),
    ("canfield", {"die": "pass", "redeals": MAX_PASSES + 6}),
    ("canfield-draw1", {}),
    ("canfield-one-pass", {}),
    ("superior-canfield", {}),
    ("rainbow-canfield", {}),
    ("storehouse", {}),
]
IDS = [name + "".join(f"-{key}={value}" for key, value in options.items()) for name, options in VARIANTS]


def plain_talon(search: Search, waste: tuple[int, ...], stock: tuple[int, ...],
                passes: int) -> tuple[list[tuple[int, int, tuple[int, ...], tuple[int, ...], int]], bool]:
    """The oracle: draw card by card, building the waste and stock at every draw, as the search
    once did. Each card drawing brings to the top of the waste, once: (draws, card, waste, stock,
    passes); and whether MAX_PASSES cut the drawing short."""
    options = []
    seen_cards: set[int] = set()
    seen_positions: set[tuple[int, int]] = set()
    capped = False
    if waste:
        options.append((0, waste[-1], waste, stock, passes))
        seen_cards.add(waste[-1])
    draws = 0
    while True:
        if stock:
            count = search.draws_per_pass(passes)
            turned = stock[-count:]
            waste, stock = waste + turned[::-1], stock[:-count] if count < len(stock) else ()
        elif waste and (search.redeals is None or passes < search.redeals):
            if passes >= MAX_PASSES:
                capped = True
                break
            stock, waste, passes = waste[::-1], (), passes + 1
            count = search.draws_per_pass(passes)
            turned = stock[-count:]
            waste, stock = waste + turned[::-1], stock[:-count] if count < len(stock) else ()
        else:
            break
        draws += 1
        position = (len(waste), passes if (search.redeals is not None or search.rolls is not None) else 0)
        if position in seen_positions:
            break
        seen_positions.add(position)
        top = waste[-1]
        if top not in seen_cards:
            seen_cards.add(top)
            options.append((draws, top, waste, stock, passes))
    return options, capped


def new_talon(search: Search, waste: tuple[int, ...], stock: tuple[int, ...],
              passes: int) -> tuple[list[tuple[int, int, tuple[int, ...], tuple[int, ...], int]], bool]:
    """Search.talon in the oracle's terms, its waste and stock built from each card's length."""
    search.capped = False
    talon = search.talon(waste, stock, passes)
    options = []
    for card, (draws, length, then) in talon.reachable.items():
        built = (draws, card, talon.cards[:length], talon.cards[length:][::-1], then)
        assert talon.play(card) == (card, built[2][:-1], built[3], then)
        options.append(built)
    return options, search.capped


def search_of(name: str, options: dict, deal: int) -> tuple[Search, Game]:
    game = new_game(name, deal=deal, **options)
    return Search(game, card_indexes(game.reserve)), game


def played(name: str, options: dict, rng: random.Random, games: int, moves: int,
           draw_share: float) -> Iterator[tuple[Search, Game]]:
    """Random games of a variant: each game's search, with the game after each of its moves (a
    draw in about `draw_share` of them, where one is legal; else any legal move)."""
    for _ in range(games):
        search, game = search_of(name, options, rng.randint(1, 10**9))
        for _ in range(moves):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(DRAW if DRAW in legal and rng.random() < draw_share else rng.choice(legal))
            yield search, game


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_talon_is_the_plain_one_on_random_talons(name: str, options: dict) -> None:
    rng = random.Random(f"{name} {options}")
    for _ in range(6):
        search, _ = search_of(name, options, rng.randint(1, 10**9))
        for _ in range(25):
            cards = rng.sample(range(52), rng.choice([0, 1, 2, 3, 5, rng.randint(0, 30)]))
            length = rng.randint(0, len(cards))
            waste, stock = tuple(cards[:length]), tuple(cards[length:])
            limit = search.redeals if search.redeals is not None else MAX_PASSES + 3
            passes = rng.choice([0, 1, rng.randint(0, limit), limit, MAX_PASSES - 1, MAX_PASSES, MAX_PASSES + 2])
            assert new_talon(search, waste, stock, passes) == plain_talon(search, waste, stock, passes)


def test_the_talon_is_the_plain_one_for_every_draw_and_redeals() -> None:
    rng = random.Random(7)
    for draw in range(1, 7):
        for redeals in (None, 0, 1, 5, MAX_PASSES - 1, MAX_PASSES, MAX_PASSES + 1):
            for die in ("off", "game", "pass"):
                search, _ = search_of("canfield", {"draw": draw, "redeals": redeals, "die": die}, rng.randint(1, 10**9))
                for size in (0, 1, 2, draw, draw + 1, 23):
                    cards = rng.sample(range(52), size)
                    for length in {0, size // 2, size}:
                        for passes in {0, 2, min(redeals or 0, MAX_PASSES + 2), MAX_PASSES}:
                            waste, stock = tuple(cards[:length]), tuple(cards[length:])
                            assert new_talon(search, waste, stock, passes) == plain_talon(search, waste, stock, passes)


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_talon_is_the_plain_one_in_played_games(name: str, options: dict) -> None:
    for search, game in played(name, options, random.Random(f"played {name} {options}"), 4, 150, 0.7):
        _, _, _, waste, stock, passes = Search.state_of(game)
        assert new_talon(search, waste, stock, passes) == plain_talon(search, waste, stock, passes)


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_search_moves_are_the_engines(name: str, options: dict) -> None:
    """Every move the search offers, its draws and then the move played in the engine, leaves the
    position the search says: the talon's lazily built waste and stock included."""
    for search, game in played(name, options, random.Random(f"moves {name} {options}"), 3, 60, 0.6):
        if game.redeals_used >= MAX_PASSES:
            continue
        for (draws, src, dst, count), after, _ in search.moves(Search.state_of(game)):
            followed = game.copy()
            for _ in range(draws):
                followed.play(DRAW)
            followed.play(Move(src, dst, count))
            assert Search.state_of(followed) == after


def test_the_searchs_die_rolls_are_the_games_own() -> None:
    """The rolls a Search keeps by deal are the game's, for a deal number and for a deal given by
    its cards, and a second search of the same deal gets the same."""
    by_number = [new_game("canfield", deal=deal, die=die) for deal in (11, 12) for die in ("game", "pass")]
    by_cards = [new_game("canfield", cards=[str(card) for card in game.cards], die=game.rules.die.value)
                for game in by_number]
    for game in by_number + by_cards:
        expected = [game.die_roll_for_pass(passes) for passes in range(MAX_PASSES + 1)]
        assert Search(game, ()).rolls == expected and Search(game.copy(), ()).rolls == expected
    assert Search(new_game("canfield", deal=11), ()).rolls is None


def test_card_indexes_follow_the_deck_order() -> None:
    assert [card_index(card) for card in full_deck()] == list(range(52))
    assert card_indexes(full_deck()[::-1]) == tuple(range(51, -1, -1))
