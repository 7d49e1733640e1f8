"""Every input form of docs/notation.md, and the errors for bad ones."""

from __future__ import annotations

import pytest

from bot.game import Card, IllegalMoveError, Move, NotationError, Suit, new_game, parse_move
from bot.game.notation import Action, ActionCommand, CardCommand, PileCommand, Word, parse, read_word
from tests.game.decks import deck

# Base AC; reserve top QH; t1..t4 = 8S 9H TS 2C; the stock starts 5C 6C 7C.
CARDS = deck("AC", ["KD", "QH"], ["8S", "9H", "TS", "2C"], ["5C", "6C", "7C"])


def fresh():
    return new_game("canfield", cards=CARDS)


@pytest.mark.parametrize("text", ["7H", "7h", "7♥", "7♡", " 7h "])
def test_card_forms(text: str) -> None:
    assert Card.parse(text) == Card(7, Suit.HEARTS)


@pytest.mark.parametrize(("text", "name"), [("10h", "TH"), ("TD", "TD"), ("td", "TD"), ("as", "AS"), ("K♣", "KC")])
def test_card_names(text: str, name: str) -> None:
    assert str(Card.parse(text)) == name


@pytest.mark.parametrize("text", ["1H", "11S", "7X", "", "HH", "7"])
def test_bad_cards_are_refused_with_the_text_quoted(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Card.parse(text)
    assert repr(text) in str(error.value)


def test_the_reader_splits_a_message_into_commands() -> None:
    assert parse("rt2") == [PileCommand("r", "t2", None, "rt2")]
    assert parse("r t2") == [PileCommand("r", "t2", None, "rt2")]
    assert parse("t1t3:2") == [PileCommand("t1", "t3", 2, "t1t3:2")]
    assert parse("7h t2") == [CardCommand(Card.parse("7H"), "t2", "7h t2")]
    assert parse("10h f") == [CardCommand(Card.parse("TH"), "f", "10h f")]
    assert parse("d a u h") == [ActionCommand(a, a.value) for a in (Action.DRAW, Action.AUTO, Action.UNDO,
                                                                       Action.HINT)]
    assert [type(c).__name__ for c in parse("rt1 wf d")] == ["PileCommand", "PileCommand", "ActionCommand"]
    assert parse("ts") == [CardCommand(Card.parse("TS"), None, "ts")]
    assert parse("sw") == [ActionCommand(Action.DRAW, "sw")]


@pytest.mark.parametrize("text", ["x", "rt", "t0", "t1t3:", "zz top", "r t2 :0", "7h w", "t1 r", "t2t2", ":3", "f9"])
def test_garbled_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse(text)


@pytest.mark.parametrize("text", ["draw", "DRAW", "Draw"])
def test_a_word_is_one_command_never_a_run_of_letters(text: str) -> None:
    assert parse(text) == [ActionCommand(Action.DRAW, text)]
    assert parse("auto undo hint") == [ActionCommand(Action.AUTO, "auto"), ActionCommand(Action.UNDO, "undo"),
                                       ActionCommand(Action.HINT, "hint")]
    game = fresh()
    assert game.play(text) == [Move("s", "w")]


@pytest.mark.parametrize("text", ["raw", "saw", "dad", "wa", "wfd", "draws", "t1t2 raw", "d dad", "rt2x"])
def test_a_run_of_letters_that_is_no_move_plays_nothing_and_is_named(text: str) -> None:
    bad = text.split()[-1]
    with pytest.raises(NotationError) as error:
        parse(text)
    assert error.value.token == bad and repr(bad) in str(error.value)
    game = fresh()
    with pytest.raises(NotationError, match=f"cannot read '{bad}': moves look like"):
        game.play(text)
    assert game.moves == []


@pytest.mark.parametrize("word", ["board", "resign", "rules", "help"])
def test_the_front_end_words_read_whole_and_never_as_moves(word: str) -> None:
    assert read_word(f"  {word.upper()} ") is Word(word)
    assert read_word(f"{word} rt2") is None
    with pytest.raises(NotationError, match="word of its own") as error:
        parse(f"rt2 {word}")
    assert error.value.token == word


def test_pile_to_pile() -> None:
    game = fresh()
    assert game.play("t1t2") == [Move("t1", "t2")]
    assert game.play("t2 t3") == [Move("t2", "t3", 2)]  # the one legal group size: the whole column
    game.undo()
    assert game.play("t2t3:2") == [Move("t2", "t3", 2)]


def test_to_a_foundation_by_letter_or_number() -> None:
    game = fresh()
    assert game.play("t4f") == [Move("t4", "f1")]
    game.undo()
    assert game.play("t4f1") == [Move("t4", "f1")]
    game.undo()
    with pytest.raises(IllegalMoveError, match="f2 builds spades, not 2C"):
        game.play("t4f2")


def test_a_named_card_goes_to_the_named_pile_or_its_best_place() -> None:
    game = fresh()
    assert game.play("8s t2") == [Move("t1", "t2")]
    game.undo()
    assert game.play("8S") == [Move("t1", "t2")]
    assert game.play("2c") == [Move("t4", "f1")]  # a foundation before anything else
    assert game.play("9h") == [Move("t2", "t3", 2)]  # a card under others takes them along


def test_a_lone_pile_moves_its_top_card_to_its_best_place() -> None:
    game = fresh()
    assert game.play("t4") == [Move("t4", "f1")]


def test_draw_all_to_foundations_and_undo() -> None:
    game = fresh()
    assert game.play("d") == [Move("s", "w")]
    assert game.piles()["w"] == ["5C", "6C", "7C"]
    game.undo()
    assert game.play("a") == [Move("t4", "f1")]  # 2C; the 3C is not free
    assert game.play("a") == []
    assert game.play("u") == []
    assert game.moves == []


def test_several_moves_in_one_message() -> None:
    game = fresh()
    assert [str(m) for m in game.play("t1t2 t4f d")] == ["t1t2", "t4f1", "d"]
    assert [str(m) for m in game.moves] == ["t1t2", "t4f1", "d"]


def test_the_first_illegal_move_stops_the_rest_and_the_earlier_ones_stand() -> None:
    game = fresh()
    with pytest.raises(IllegalMoveError) as error:
        game.play("t1t2 rt2 d")
    assert error.value.played == [Move("t1", "t2")]
    assert "'rt2'" in str(error.value)
    assert game.moves == [Move("t1", "t2")]


def test_garbled_text_changes_nothing_even_after_good_moves() -> None:
    game = fresh()
    with pytest.raises(NotationError, match="'xyz'"):
        game.play("t1t2 xyz")
    assert game.moves == []


def test_illegal_moves_say_why_and_what_is_legal() -> None:
    game = fresh()
    with pytest.raises(IllegalMoveError) as error:
        game.play("rt3")
    message = str(error.value)
    assert message.startswith("'rt3' is not legal: QH cannot go on TS")
    with pytest.raises(IllegalMoveError, match="'7c' is not legal: 7C is not in play yet"):
        game.play("7c")
    game.play("d")
    with pytest.raises(IllegalMoveError, match="5C is in the waste under 7C"):
        game.play("5c")
    with pytest.raises(IllegalMoveError, match="f2 builds spades, not 2C"):
        game.play("2c f2")
    game.play("2c")
    with pytest.raises(IllegalMoveError, match="2C is already on a foundation"):
        game.play("2c")


def test_a_hint_request_is_not_a_move() -> None:
    with pytest.raises(NotationError, match="hint"):
        fresh().play("h")


def test_without_a_count_a_pile_pair_moves_one_card_when_several_sizes_fit() -> None:
    # Superior Canfield leaves emptied columns empty; build t3 = TS 9H 8S and empty t1.
    game = new_game("superior-canfield", cards=CARDS, groups="any")
    game.play("t1t2")
    game.play("t2t3")
    assert game.play("t3t1") == [Move("t3", "t1", 1)]
    game.undo()
    assert game.play("t3t1:2") == [Move("t3", "t1", 2)]


def test_canonical_moves_read_back() -> None:
    for text in ["rt2", "wf1", "t1t3:2", "d", "t4f4"]:
        assert str(parse_move(text)) == text
    for text in ["r t2", "t1t3:0", "7h", "x"]:
        with pytest.raises(ValueError, match="canonical"):
            parse_move(text)


def test_an_undo_in_the_text_takes_back_a_move_and_play_returns_what_stands() -> None:
    game = fresh()
    assert game.play("t1t2 u") == []
    assert game.moves == []
    game.play("d d")
    assert game.play("u t1t2") == [Move("t1", "t2")]
    assert [str(m) for m in game.moves] == ["d", "t1t2"]
    with pytest.raises(IllegalMoveError) as error:
        game.play("u u u")
    assert error.value.played == [] and game.moves == []


def test_moves_in_words() -> None:
    game = fresh()
    assert str(game.describe(Move("t1", "t2"))) == "8S onto 9H in t2"
    assert str(game.describe(Move("t4", "f1"))) == "2C to its foundation"
    assert str(game.describe(Move("s", "w"))) == "draw"
    game.play("t1t2")
    assert str(game.describe(Move("t2", "t3", 2))) == "9H 8S onto TS in t3"
