"""The rules of each game, on small hand-made positions."""

from __future__ import annotations

import pytest

from bot.game import DRAW, DealError, IllegalMoveError, Move, Outcome, UnknownGameError, new_game
from tests.game.decks import deck

# Base AC; reserve top QH; t1..t4 = 8S 9H TS 2D; stock from the top: 5C 6C 7C 8C ...
CARDS = deck("AC", ["KD", "QH"], ["8S", "9H", "TS", "2D"], ["5C", "6C", "7C", "8C", "3C", "2C"])


def test_the_deal_lays_out_the_named_cards() -> None:
    game = new_game("canfield", cards=CARDS)
    layout = game.piles()
    assert layout["f1"] == ["AC"] and layout["f2"] == layout["f3"] == layout["f4"] == []
    assert layout["r"] == ["??"] * 12 + ["QH"]
    assert [layout[f"t{i}"] for i in range(1, 5)] == [["8S"], ["9H"], ["TS"], ["2D"]]
    assert layout["s"] == ["??"] * 34 and layout["w"] == []
    assert game.piles(reveal=True)["s"][-3:] == ["7C", "6C", "5C"]


def test_an_emptied_column_is_filled_from_the_reserve_and_undo_takes_both_back() -> None:
    game = new_game("canfield", cards=CARDS)
    assert game.play("t1t2") == [Move("t1", "t2")]
    assert game.piles()["t1"] == ["QH"] and game.piles()["t2"] == ["9H", "8S"]
    assert game.piles()["r"][-1] == "KD" and len(game.reserve) == 12
    assert game.history[-1].fills == ("t1",)
    game.undo()
    assert game.piles() == new_game("canfield", cards=CARDS).piles()


def test_superior_canfield_leaves_columns_empty_and_shows_the_whole_reserve() -> None:
    game = new_game("superior-canfield", cards=CARDS)
    assert "??" not in game.piles()["r"]
    game.play("t1t2")
    assert game.piles()["t1"] == []
    with pytest.raises(IllegalMoveError, match="whole column into an empty column"):
        game.play("t2t1:2")
    assert game.can_move(Move("t2", "t1", 1))
    assert game.play("rt1") == [Move("r", "t1")]
    assert game.piles()["t1"] == ["QH"]


def test_whole_column_moves_but_not_a_part_of_it_under_top_or_whole() -> None:
    game = new_game("canfield", cards=CARDS)
    game.play("t1t2")  # t2 = 9H 8S
    assert game.play("t2t3") == [Move("t2", "t3", 2)]
    assert str(game.moves[-1]) == "t2t3:2"
    assert game.piles()["t3"] == ["TS", "9H", "8S"]
    with pytest.raises(IllegalMoveError, match="only the top card or the whole column"):
        game.play("t3t1:2")


def test_any_group_moves_a_part_of_a_column() -> None:
    game = new_game("canfield", cards=CARDS, groups="any")
    game.play("t1t2")
    game.play("t2t3")  # t3 = TS 9H 8S; t1 = QH, t2 = KD (refills)
    assert game.can_move(Move("t3", "t1", 2)) is False  # 9H cannot go on QH
    assert Move("t3", "t2", 1) not in game.legal_moves()
    assert game.piles()["t2"] == ["KD"]
    # Nothing takes 9H here; check the group sizes the rules offer instead.
    assert game.group_sizes("t3") == [1, 2, 3]
    assert new_game("canfield", cards=CARDS).group_sizes("t1") == [1]


def test_foundations_wrap_from_king_to_ace_and_columns_from_ace_to_king() -> None:
    cards = deck("QH", ["KH"], ["AH", "KS", "5C", "6C"], ["AS"])
    game = new_game("canfield", cards=cards)
    assert game.play("rf") == [Move("r", "f3")]
    assert game.play("t1f") == [Move("t1", "f3")]
    assert game.piles()["f3"] == ["QH", "KH", "AH"]
    cards = deck("QH", [], ["AH", "KS", "5C", "6C"])
    game = new_game("canfield", cards=cards)
    assert game.play("t2t1") == [Move("t2", "t1")]  # KS on AH: down, with the wrap


def test_alternate_colour_in_suit_and_regardless() -> None:
    cards = deck("AC", [], ["8H", "9H", "8S", "9S"])
    canfield = new_game("canfield", cards=cards)
    assert {str(m) for m in canfield.legal_moves() if m.src.startswith("t")} == {"t1t4", "t3t2"}
    rainbow = new_game("rainbow-canfield", cards=cards)
    assert {str(m) for m in rainbow.legal_moves() if m.src.startswith("t")} == {"t1t2", "t1t4", "t3t2", "t3t4"}
    store = new_game("storehouse", cards=["2C", "2S", "2H", "2D"] + [c for c in cards if c[0] != "2"])
    assert {str(m) for m in store.legal_moves() if m.src.startswith("t")} == {"t1t2", "t3t4"}
    with pytest.raises(IllegalMoveError, match="8H cannot go on 9S"):
        store.play("t1t4")


def test_storehouse_starts_with_the_twos_and_plays_draw_one_with_two_redeals() -> None:
    game = new_game("storehouse", deal=1)
    assert game.piles()["f1"] == ["2C"] and game.piles()["f4"] == ["2D"]
    assert game.base_rank == 2 and game.score == 4 - 13
    assert game.draw_count == 1 and game.redeals_left == 2
    with pytest.raises(ValueError, match="must begin with them"):
        new_game("storehouse", cards=deck("AC", [], []))


def test_draws_redeals_and_the_one_pass_game() -> None:
    game = new_game("canfield-one-pass", cards=CARDS)
    stock_order = list(reversed(game.piles(reveal=True)["s"]))
    for _ in range(11):
        game.play("d")
    assert game.piles(reveal=True)["w"] == stock_order[:33] and len(game.stock) == 1
    game.play("d")
    assert game.piles(reveal=True)["w"] == stock_order and not game.stock
    assert DRAW not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="no redeal is left"):
        game.play("d")
    unlimited = new_game("canfield", cards=CARDS)
    for _ in range(12):
        unlimited.play("d")
    unlimited.play("d")  # turns the waste over and draws again
    assert unlimited.redeals_used == 1 and unlimited.pass_number == 2
    assert unlimited.piles(reveal=True)["w"] == stock_order[:3]
    unlimited.undo()
    assert unlimited.redeals_used == 0 and unlimited.piles(reveal=True)["w"] == stock_order


@pytest.mark.parametrize("draw", [1, 2, 6])
def test_the_draw_option_turns_that_many_cards(draw: int) -> None:
    game = new_game("canfield", cards=CARDS, draw=draw)
    game.play("d")
    assert len(game.waste) == draw and game.piles()["w"][-1] == game.piles(reveal=True)["w"][-1]


def test_the_die_of_justice_is_fixed_by_the_deal() -> None:
    rolls = {new_game("canfield", deal=deal, die="game").die_roll for deal in range(1, 60)}
    assert rolls == {1, 2, 3, 4, 5, 6}
    for deal in (7, 40000):
        first, second = new_game("canfield", deal=deal, die="pass"), new_game("canfield", deal=deal, die="pass")
        assert first.die_roll == second.die_roll == first.draw_count
    game = new_game("canfield", deal=5, die="pass", redeals=None)
    seen = []
    while len(seen) < 12:
        roll = game.die_roll
        game.play("d")
        if game.redeals_used == len(seen) + 1:
            seen.append(roll)
            assert game.die_roll == new_game("canfield", deal=5, die="pass").die_roll_for_pass(game.redeals_used)
            game.undo()
            assert game.die_roll == roll
            game.play("d")
    assert len(set(seen)) > 1
    fixed = new_game("canfield", deal=5, die="game")
    roll = fixed.die_roll
    for _ in range(40):
        fixed.play("d")
    assert fixed.redeals_used >= 1 and fixed.die_roll == roll
    assert new_game("canfield", deal=5).die_roll is None


def test_scores() -> None:
    game = new_game("canfield", deal=1)
    assert game.score == 1 - 13 and game.casino_score == -52 + 5
    cards = deck("QH", ["KH"], ["AH", "KS", "5C", "6C"])
    game = new_game("canfield", cards=cards)
    game.play("rf t1f")
    # the emptied t1 took a reserve card: 3 on the foundations, 11 left in the reserve
    assert game.score == 3 - 11 and game.casino_score == -52 + 15


def test_a_fresh_deal_is_not_over() -> None:
    assert new_game("canfield", deal=1).outcome is None


# Aces and queens hidden in the reserve, kings on the tableau: only the stock can help.
DEAD_RESERVE = ["AS", "AH", "AD", "QD", "QS", "QC", "2C", "3C", "4C", "2D", "3D", "5D"]
KINGS = ["KS", "KC", "KH", "KD"]


def test_a_game_that_no_stock_card_can_help_is_blocked_at_once() -> None:
    game = new_game("canfield", cards=deck("AC", ["QH", *DEAD_RESERVE], KINGS))
    assert game.outcome is Outcome.BLOCKED
    assert game.legal_moves() == [DRAW] and game.moves == []


def test_blocked_depends_on_which_cards_cycling_can_reach() -> None:
    # AS (wanted on a foundation) is second from the top of the stock: draw 3 never shows it.
    reserve = ["AH", "AD", "QD", "QS", "QC", "QH", "2C", "3C", "4C", "2D", "3D", "5D"]
    cards = deck("AC", reserve, KINGS, ["2S", "AS"])
    assert new_game("canfield", cards=cards).outcome is Outcome.BLOCKED
    assert new_game("canfield-draw1", cards=cards).outcome is None
    game = new_game("canfield", cards=cards, draw=2)
    assert game.outcome is None
    game.play("d")
    assert game.play("wf") == [Move("w", "f2")]


def test_moves_that_lead_nowhere_do_not_keep_a_game_alive() -> None:
    # Draw 1 brings QH to the waste and it fits on a king, but the columns built from there end in
    # a red 6 and the reserve's 5D needs a black one: no foundation card, no reserve card, ever.
    game = new_game("canfield-draw1", cards=deck("AC", DEAD_RESERVE, KINGS, ["QH"]))
    game.play("d")
    assert Move("w", "t1") in game.legal_moves()
    assert game.outcome is Outcome.BLOCKED


def test_options_and_names_are_checked() -> None:
    with pytest.raises(UnknownGameError, match="'klondike'"):
        new_game("klondike")
    for options, quoted in [({"draw": 7}, "draw=7"), ({"redeals": -1}, "redeals=-1"), ({"groups": "all"}, "'all'"),
                            ({"die": "always"}, "'always'"), ({"speed": 1}, "'speed'")]:
        with pytest.raises(UnknownGameError, match=quoted):
            new_game("canfield", deal=1, **options)
    with pytest.raises(ValueError, match="not both"):
        new_game("canfield", deal=1, cards=CARDS)
    with pytest.raises(DealError, match="missing AC"):
        new_game("canfield", cards=[*CARDS[1:], "KS"])


def test_cards_never_leave_the_foundations_nor_go_to_the_reserve() -> None:
    game = new_game("canfield", cards=CARDS)
    with pytest.raises(IllegalMoveError, match="never leave the foundations"):
        game.play(Move("f1", "t1"))
    with pytest.raises(IllegalMoveError, match="never go to r"):
        game.play(Move("t1", "r"))
    with pytest.raises(IllegalMoveError, match="no pile t5"):
        game.play(Move("t1", "t5"))


def test_the_outcome_is_worked_out_once_a_position(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.game import canfield

    searches: list[int] = []
    real = canfield.solver.is_dead
    monkeypatch.setattr(canfield.solver, "is_dead", lambda game: searches.append(1) or real(game))
    game = new_game("canfield", deal=1)
    assert game.outcome is None and game.outcome is None and game.copy().outcome is None
    assert len(searches) == 1  # asked three times, searched once (the copy shares it)
    game.play("d")
    assert game.outcome is None and len(searches) == 2
    game.undo()
    assert game.outcome is None and len(searches) == 3  # another position again: asked afresh
