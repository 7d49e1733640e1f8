"""Demons and Thieves and Demonthief (docs/games.md): the deal, the two sides of the tableau and their
shifts, the eight foundations, spaces, redeals, and a won game.

Where our rules differ from PySolFC's (game 889) on purpose, the seed wins: its columns wrap
(a king goes on an ace); PySolFC's do not. PySolFC turns the first stock card onto the waste as
part of the deal; here that is the player's first draw, as in our Canfield.
"""

from __future__ import annotations

import pytest

from bot.game import IllegalMoveError, Move, Outcome, new_game
from bot.game.cards import Card, full_deck
from tests.samples import blocked_game, won_two_deck_cards

# PySolFC's deal order, read from its DemonsAndThieves.startGame: seven rows to the right five
# columns, a row to all nine (each left to right), the base card to the first foundation of its
# suit, thirteen cards to the reserve, the rest is the stock.
GOLDEN = {
    1: {
        "base": "8H", "f5": ["8H"], "reserve_top": "QH", "stock_top": ["3C", "AS", "4S", "KS", "6D"],
        "t1": "2D", "t2": "6H", "t3": "TH", "t4": "8C",
        "t5": "3D 5H AS 8D KD 7C 7D 2S", "t6": "5H KC 8C 4C 2H 2H 9S 3S", "t7": "JC KC 6C JS TD AD 8H 9C",
        "t8": "KH 8D 6H QC 8S 9H JH 7D", "t9": "5S JD TC 4H AC 8S 4D 4S",
    },
    889: {
        "base": "8C", "f1": ["8C"], "reserve_top": "QD", "stock_top": ["AS", "8S", "TC", "9S", "5H"],
        "t1": "JS", "t2": "2D", "t3": "9C", "t4": "7D",
        "t5": "4H 9D 2H 6D QS 8D 8H 9S", "t6": "QC 9H TD QH AS JC 3D TH", "t7": "JC 6H TD QH AC 6C KS 4H",
        "t8": "AD 6S 2C 8S JH 3D 2S KC", "t9": "7S 4C 7H 2H KH 5C 2D 7S",
    },
}


@pytest.mark.parametrize("deal", sorted(GOLDEN))
def test_pysolfc_deals_lay_out_as_pysolfc_deals_them(deal: int) -> None:
    golden = GOLDEN[deal]
    game = new_game("demons-and-thieves", deal=deal)
    layout = game.piles(reveal=True)
    assert game.base_rank == Card.parse(golden["base"]).rank
    assert [f for f in layout if f.startswith("f") and layout[f]] == [f for f in golden if f.startswith("f")]
    assert layout["r"][-1] == golden["reserve_top"] and len(layout["r"]) == 13
    assert layout["s"][::-1][:5] == golden["stock_top"] and len(layout["s"]) == 46 and layout["w"] == []
    for column in (f"t{i}" for i in range(1, 10)):
        assert " ".join(layout[column]) == golden[column]
    assert new_game("demonthief", deal=deal).piles(reveal=True) == layout  # the same deals


def deck(base: str, reserve: list[str], columns: list[list[str]], stock: list[str]) -> list[str]:
    """An explicit deck: the named cards where they are dealt, and the rest of the two decks
    (in a fixed order) filling the columns up to their dealt sizes, then the reserve, then the stock."""
    named = [base, *reserve, *(card for column in columns for card in column), *stock]
    rest = [str(card) for card in full_deck() * 2]
    for card in named:
        rest.remove(card)
    sizes = [1, 1, 1, 1, 8, 8, 8, 8, 8]
    filled = [[*(rest.pop() for _ in range(size - len(column))), *column] for size, column in zip(sizes, columns,
                                                                                                   strict=True)]
    reserve = [*(rest.pop() for _ in range(13 - len(reserve))), *reserve]
    return [base, *reserve, *(card for column in filled for card in column), *stock, *rest]


def test_groups_shift_between_the_sides_as_the_seed_says() -> None:
    # t1 holds 9H (a one-card left column) and gets 8C 7D built on it; t5's top is 9C.
    game = new_game("demons-and-thieves", cards=deck(
        "AS", [], [["9H"], ["8C"], ["7D"], ["TS"], ["9C"], ["6S", "5S"], ["QD"], ["QD"], ["2H"]], []))
    game.play("t2t1")
    game.play("t3t1")
    assert [str(c) for c in game.tableau[0]] == ["9H", "8C", "7D"]
    # Left to right: an alternate-colour group may shift onto a right column by suit (8C on 9C).
    assert Move("t1", "t5", 2) in game.legal_moves()
    game.play("t1t5:2")
    assert [str(c) for c in game.tableau[4][-3:]] == ["9C", "8C", "7D"]
    # Once shifted, it is no group on the right (8C 7D is not a suit sequence): only 7D moves.
    assert all(move.count == 1 for move in game.legal_moves() if move.src == "t5")
    game.play("t1t4")  # 9H onto TS: t1 is empty, so that any group could go there
    assert game.tableau[0] == [] and not game.can_move(Move("t5", "t1", 2)) and game.can_move(Move("t5", "t1"))
    with pytest.raises(IllegalMoveError, match="t5t1:2"):
        game.play("t5t1:2")


def test_a_same_suit_group_shifts_from_right_to_left_and_no_longer_moves_together() -> None:
    game = new_game("demons-and-thieves", cards=deck(
        "AS", [], [["7H"], ["2C"], ["3D"], ["2D"], ["6S", "5S"], ["QD"], ["QD"], ["3H"], ["2H"]], []))
    assert Move("t5", "t1", 2) in game.legal_moves()  # 6S 5S (in suit) onto 7H (alternate colour)
    game.play("t5t1:2")
    assert [str(c) for c in game.tableau[0]] == ["7H", "6S", "5S"]
    # On the left, 6S 5S is not an alternate-colour sequence: it moves one card at a time.
    game.play("t2t3")  # 2C onto 3D empties t2
    assert game.can_move(Move("t1", "t2", 1)) and not game.can_move(Move("t1", "t2", 2))
    game.undo()
    game.undo()
    assert [str(c) for c in game.tableau[0]] == ["7H"] and [str(c) for c in game.tableau[4][-2:]] == ["6S", "5S"]


def test_columns_wrap_and_spaces_take_any_card_or_group_without_a_reserve_fill() -> None:
    game = new_game("demons-and-thieves", cards=deck(
        "AS", ["QC"], [["AC"], ["KD"], ["KS"], ["JH"], ["AH"], ["KH"], ["5C"], ["5C"], ["2H"]], []))
    assert game.can_move(Move("t2", "t1"))  # KD on AC: the seed wraps, PySolFC would not
    assert game.can_move(Move("t6", "t5"))  # KH on AH in suit, wrapping
    game.play("t2t1")
    assert game.tableau[1] == [] and len(game.reserve) == 13  # no fill from the reserve
    assert game.can_move(Move("r", "t2")) and game.can_move(Move("t5", "t2"))
    assert not game.can_move(Move("t3", "t2"))  # a whole column into a space is no move
    game.play("t6t5")
    assert game.can_move(Move("t5", "t2", 2))  # a group (AH KH, in suit) into the space
    game.play("rt2")
    assert [str(c) for c in game.tableau[1]] == ["QC"] and len(game.reserve) == 12


def test_eight_foundations_two_a_suit_from_the_base_rank_wrapping() -> None:
    game = new_game("demons-and-thieves", cards=deck(
        "QS", ["QS"], [["KS"], ["AS"], ["3D"], ["3D"], ["4D"], ["4D"], ["5D"], ["5D"], ["6D"]], ["KS"]))
    assert [str(p[0]) for p in game.foundations if p] == ["QS"] and game.foundations[2]  # f3: spades
    assert game.foundation_base("f4") == Card.parse("QS") and game.foundation_base("f8") == Card.parse("QD")
    assert set(game.legal_moves()) >= {Move("r", "f4"), Move("t1", "f3")}
    assert not game.can_move(Move("r", "f5"))  # f5 builds hearts
    game.play("rf4")
    game.play("t1f3")
    game.play("t2f3")  # KS then AS: the foundations wrap from king to ace
    assert [str(c) for c in game.foundations[2]] == ["QS", "KS", "AS"]
    assert game.can_move(Move("w", "f4")) is False and game.play("d") == [Move("s", "w")]
    game.play("wf4")
    assert [str(c) for c in game.foundations[3]] == ["QS", "KS"]


@pytest.mark.parametrize(("name", "redeals"), [("demons-and-thieves", 2), ("demonthief", 0)])
def test_the_stock_turns_one_card_and_redeals_as_the_game_allows(name: str, redeals: int) -> None:
    game = new_game(name, deal=7)
    for pass_number in range(1, redeals + 2):
        for _ in range(46):
            game.play("d")
        assert game.pass_number == pass_number and len(game.waste) == 46 and not game.stock
    assert not game.can_move(Move("s", "w"))
    with pytest.raises(IllegalMoveError, match="no redeal is left"):
        game.play("d")


@pytest.mark.parametrize("name", ["demons-and-thieves", "demonthief"])
def test_a_won_game_scores_604(name: str) -> None:
    game = new_game(name, cards=won_two_deck_cards())
    assert game.score == -12
    while game.stock:
        game.play("d a")
    game.play("a")
    assert game.outcome is Outcome.WON and game.foundation_cards == 104 and game.score == 604


@pytest.mark.parametrize("name", ["demons-and-thieves", "demonthief"])
def test_a_game_with_nothing_left_to_do_is_blocked_and_gets_no_hint(name: str) -> None:
    game = blocked_game(name)
    assert game.outcome is Outcome.BLOCKED and game.hint() is None
    fresh = new_game(name, deal=5)
    hint = fresh.hint()
    assert fresh.outcome is None and hint is not None
    for move in hint.moves:  # its draws, then its move: legal in turn
        fresh.play(move)


def test_a_card_to_either_of_two_equal_foundations_is_one_move_not_a_question() -> None:
    # Base AH: both spade foundations are empty, and either takes the AS on t1.
    game = new_game("demons-and-thieves", cards=deck("AH", [], [["AS"], [], [], [], [], [], [], [], []], []))
    played = game.play("t1f")
    assert len(played) == 1 and played[0].src == "t1" and played[0].dst.startswith("f")
    assert game.tableau[0] == []


def test_a_named_card_of_which_two_lie_in_play_moves_the_copy_that_can() -> None:
    # One AS lies under 2D in t5, the other is on top of t9: `as` means the exposed one.
    game = new_game("demons-and-thieves", cards=deck(
        "AH", [], [[], [], [], [], ["AS", "2D"], [], [], [], ["AS"]], []))
    assert [move.src for move in game.play("as")] == ["t9"]
    assert [str(card) for card in game.tableau[4][-2:]] == ["AS", "2D"]
