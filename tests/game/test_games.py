"""The registry of game kinds and the one Game interface every solo game implements."""

from __future__ import annotations

import pytest

from bot.game import (
    GAMES,
    TITLES,
    Game,
    GameKind,
    UnknownGameError,
    dealt_cards,
    describe_game,
    from_snapshot,
    game_kind,
    game_rules,
    new_game,
    option_names,
    to_snapshot,
)
from bot.game.games import RACE
from bot.game.race import RaceGame, new_race_with
from bot.game.solver import covers, solve


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_kind_builds_games_of_its_own_kind(name: str) -> None:
    kind = GAMES[name]
    game = new_game(name, deal=7)
    assert isinstance(kind, GameKind) and isinstance(game, Game)
    assert kind.name == game.name == name and game.kind is kind
    assert game.title == kind.title == TITLES[name]
    assert option_names(name) == kind.option_names and set(game.options) == set(kind.option_names)
    assert game_rules(name) == game.rules
    assert describe_game(name) == kind.describe_rules() and kind.title in str(describe_game(name))
    assert list(new_game(name, cards=dealt_cards(name, 7)).cards) == list(game.cards)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_kind_says_whether_the_solver_covers_it(name: str) -> None:
    game = new_game(name, deal=3)
    assert covers(game) is GAMES[name].solver_covers
    if GAMES[name].solver_covers:
        assert solve(game, limit=10).status in ("winnable", "unwinnable", "gave-up")
    else:
        with pytest.raises(ValueError, match="does not cover"):
            solve(game)


def test_the_covered_games_are_the_one_deck_canfield_family() -> None:
    covered = {name for name, kind in GAMES.items() if kind.solver_covers}
    assert covered == {"canfield", "superior-canfield", "rainbow-canfield", "storehouse", "canfield-draw1",
                       "canfield-one-pass"}


def test_the_interface_is_abstract() -> None:
    with pytest.raises(TypeError, match="abstract"):
        Game(game_rules("canfield"), [], None)  # type: ignore[abstract]


def test_an_unknown_name_is_refused_everywhere_with_the_games_listed() -> None:
    for ask in (game_kind, new_game, option_names, describe_game, game_rules,
                lambda name: dealt_cards(name, 1)):
        with pytest.raises(UnknownGameError, match=r"'klondike'.*patriarchs"):
            ask("klondike")


def test_the_demon_race_is_its_own_type_dealt_apart_with_its_options_checked() -> None:
    race = new_race_with(1, {"players": 3, "layout": "demon"})
    assert isinstance(race, RaceGame) and not isinstance(race, Game)
    assert race.options == {"players": 3, "layout": "demon"} and TITLES[RACE] == race.title
    assert RACE not in GAMES
    with pytest.raises(UnknownGameError, match="'speed'"):
        new_race_with(1, {"speed": 2})
    with pytest.raises(UnknownGameError, match="players='3'"):
        new_race_with(1, {"players": "3"})
    with pytest.raises(UnknownGameError, match="'demon-race'"):  # new_game deals the games of patience
        new_game(RACE, deal=1)


@pytest.mark.parametrize("name", ["canfield", "demons-and-thieves", "patriarchs"])
def test_resume_puts_a_new_game_at_a_position_and_only_a_new_one(name: str) -> None:
    game = new_game(name, deal=11)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    fresh = new_game(name, deal=11)
    fresh.resume(game.position, game.moves)
    assert fresh.piles(reveal=True) == game.piles(reveal=True) and fresh.moves == game.moves
    assert fresh.last_move == game.last_move and to_snapshot(fresh) == to_snapshot(game)
    with pytest.raises(ValueError, match="before any move"):
        fresh.resume(game.position, game.moves)
    while fresh.can_undo():
        assert fresh.undo() == game.undo()
        assert fresh.position == game.position
    assert fresh.last_move is None


def test_resume_refuses_a_position_the_deck_cannot_reach() -> None:
    game = new_game("canfield", deal=11)
    piles, redeals, roll = game.position
    reserve_index = game.pile_order.index("r")
    damaged = tuple(pile[::-1] if index == reserve_index else pile for index, pile in enumerate(piles))
    with pytest.raises(ValueError, match="reserve"):
        new_game("canfield", deal=11).resume((damaged, redeals, roll), [])


@pytest.mark.parametrize("name", ["demons-and-thieves", "canfield"])
def test_the_shortest_progress_leaves_the_game_as_it_was(name: str) -> None:
    game = new_game(name, deal=4)
    game.play(game.legal_moves()[-1])
    before = to_snapshot(game)
    line = game.shortest_progress(2_000)
    assert line is not None and line  # a fresh deal always has a way on
    assert to_snapshot(game) == before
    scratch = from_snapshot(before)
    cards_up, reserve_left = scratch.foundation_cards, scratch.reserve_cards
    for move in line:
        scratch.play(move)
    assert scratch.foundation_cards > cards_up or scratch.reserve_cards < reserve_left
