"""Demon race (docs/games.md): the deal, shared foundations, races for one spot, going out, and a
race nobody can go on with; scripted interleavings of players' moves."""

from __future__ import annotations

import pytest

from bot.game import IllegalMoveError, Move, NotationError, Outcome
from bot.game.cards import Card, Suit, full_deck
from bot.game.race import DEMON_SIZE, BeatenError, RaceGame, new_race, player_deal

# Klondike's deal in PySolFC: six face-down rows, row r to columns r+1..7, then the face-up row,
# every row from right to left.

def klondike_deck(columns: list[list[str]], stock: list[str]) -> list[str]:
    """A deck in dealing order for the given columns (bottom to top; column i holds i cards) and
    the stock (top first); the cards not named fill the face-down places and the stock's end."""
    named = [card for column in columns for card in column] + stock
    rest = [str(card) for card in full_deck() if str(card) not in named]
    filled = [[*column] for column in columns]
    for index, column in enumerate(filled):
        while len(column) < index + 1:
            column.insert(0, rest.pop())
    face_down = [filled[column][depth] for depth in range(6) for column in reversed(range(depth + 1, 7))]
    face_up = [column[-1] for column in filled][::-1]
    return face_down + face_up + stock + rest


def test_each_player_deals_their_own_deck_from_the_race_number() -> None:
    race = new_race(1, players=3)
    assert isinstance(race, RaceGame) and race.deals == (1, player_deal(1, 1), player_deal(1, 2))
    assert len(set(race.deals)) == 3
    for player in range(3):
        layout = race.piles(player)
        assert [len(layout[f"t{i}"]) for i in range(1, 8)] == list(range(1, 8)) and len(layout["s"]) == 24
        assert all(cards[:-1] == ["??"] * (len(cards) - 1) and cards[-1] != "??"
                   for name, cards in layout.items() if name.startswith("t"))
    # Player 0 deals PySolFC's Klondike game 1: its shuffle (checked for Canfield) and its
    # Klondike.startGame order, rows dealt right to left (our stock turns three, not one).
    assert [race.piles(0)[f"t{i}"][-1] for i in range(1, 8)] == ["QH", "TS", "5C", "4C", "3C", "AH", "AS"]
    assert race.piles(0, reveal=True)["t7"] == ["JD", "7C", "5S", "3H", "9D", "JS", "AS"]
    demon = new_race(1, players=2, layout="demon")
    assert len(demon.piles(0)["r"]) == DEMON_SIZE and demon.piles(0)["r"][:-1] == ["??"] * 12
    assert [len(demon.piles(0)[f"t{i}"]) for i in range(1, 5)] == [1, 1, 1, 1] and len(demon.piles(0)["s"]) == 35


def test_bad_races_are_refused_clearly() -> None:
    for players in (1, 9, True):
        with pytest.raises(ValueError, match=repr(players)):
            new_race(1, players=players)
    with pytest.raises(ValueError, match="'spider'"):
        new_race(1, layout="spider")
    race = new_race(1, players=2)
    with pytest.raises(IllegalMoveError, match="player 2"):
        race.legal_moves(2)
    with pytest.raises(IllegalMoveError, match="no undo"):
        race.play(0, "u")


def test_foundations_are_shared_and_only_the_owner_moves_their_cards() -> None:
    alice = klondike_deck([["AH"], ["2S"], ["KC"], ["KD"], ["KS"], ["KH"], ["QC"]], ["6D", "5C", "3H"])
    bob = klondike_deck([["2H"], ["AS"], ["KC"], ["KD"], ["KS"], ["KH"], ["QC"]], ["3S", "5C", "6D"])
    race = new_race(7, players=2, decks=[alice, bob])
    assert race.play(0, "t1f") == [Move("t1", "f")]
    assert race.play(1, "2h") == [Move("t1", "f")]  # Bob builds on Alice's ace
    assert [(str(top.card), top.owner) for top in race.foundation_tops()] == [("2H", 1)]
    race.play(1, "t2 f")  # his ace of spades starts a foundation of his own
    race.play(0, "2s f")  # ... which Alice builds on
    assert [(str(top.card), top.owner) for top in race.foundation_tops()] == [("2H", 1), ("2S", 0)]
    assert race.on_foundations(0) == 2 and race.on_foundations(1) == 2 and race.scores == [2, 2]
    race.play(0, "d")
    race.play(0, "wf")  # 3H on Bob's 2H
    assert race.piles(1)["w"] == [] and race.cards_left(0) == 49


def test_two_players_racing_for_one_place_the_first_received_wins() -> None:
    alice = klondike_deck([["AH"], ["2H"], ["KC"], ["KD"], ["KS"], ["KH"], ["QC"]], [])
    bob = klondike_deck([["2H"], ["9S"], ["KC"], ["KD"], ["KS"], ["KH"], ["QC"]], [])
    race = new_race(7, players=2, decks=[alice, bob])
    race.play(0, "t1f")
    seen = len(race.history)  # both boards now show AH on a foundation, and both send their 2H
    race.play(0, "t2f", seen=seen)
    with pytest.raises(BeatenError, match="player 1 got their 2H there first") as beaten:
        race.play(1, "t1f", seen=seen)
    assert beaten.value.played == [] and race.piles(1)["t1"] == ["2H"] and race.cards_left(1) == 52
    assert [(str(top.card), top.owner) for top in race.foundation_tops()] == [("2H", 0)]
    # Without a board that predates it, it is a plain illegal move.
    with pytest.raises(IllegalMoveError) as plain:
        race.play(1, "t1f", seen=len(race.history))
    assert not isinstance(plain.value, BeatenError)


def won_deck() -> list[str]:
    """Player 0's deck that goes out with `a` and draws: the stock holds the aces to the 6s in
    threes turned so each draw shows the next card wanted; each column the later cards, the
    next one wanted on top."""
    wanted = [str(Card(rank, suit)) for rank in range(1, 14) for suit in Suit]
    stock_cards, column_cards = wanted[:24], wanted[24:]
    stock = [card for i in range(0, 24, 3) for card in reversed(stock_cards[i:i + 3])]
    columns, position = [], 0
    for size in range(1, 8):
        columns.append(column_cards[position:position + size][::-1])
        position += size
    return klondike_deck(columns, stock)


def test_a_player_who_goes_out_ends_the_race_and_scores_62() -> None:
    race = new_race(5, players=3, decks=[won_deck(), stuck_deck(), stuck_deck()])
    assert race.demon is None and not race.finished
    while race.demon is None:
        if not race.play(0, "a"):
            race.play(0, "d")
    assert race.demon == 0 and race.finished and race.cards_left(0) == 0 and race.outcome is Outcome.WON
    assert race.scores == [62, 0, 0] and race.legal_moves(1) == []
    with pytest.raises(IllegalMoveError, match="the race is over"):
        race.play(1, "d")


def stuck_deck() -> list[str]:
    """Kings and jacks on top, every ace, queen and ten face down: nothing ever moves."""
    tops = [["KC"], ["KS"], ["KH"], ["KD"], ["JC"], ["JS"], ["JH"]]
    hidden = ["AC", "AS", "AH", "AD", "QC", "QS", "QH", "QD", "TC", "TS", "TH", "TD"]
    columns = [list(top) for top in tops]
    for card in hidden:  # into the face-down places of the longest columns first
        column = next(c for c in range(6, 0, -1) if len(columns[c]) < c + 1)
        columns[column].insert(0, card)
    others = [str(c) for c in full_deck() if str(c) not in {*hidden, *(t[0] for t in tops)}]
    stock = others[:24]
    return klondike_deck(columns, stock)


def test_a_race_nobody_can_go_on_with_ends_with_no_demon() -> None:
    race = new_race(3, players=2, decks=[stuck_deck(), stuck_deck()])
    assert race.is_stuck(0) and race.is_stuck(1) and race.finished and race.outcome is Outcome.BLOCKED
    assert race.demon is None and race.scores == [0, 0]
    assert [str(m) for m in race.legal_moves(0)] == ["d"]  # drawing goes on, but helps nothing
    mixed = new_race(3, players=2, decks=[stuck_deck(), won_deck()])
    assert mixed.is_stuck(0) and not mixed.is_stuck(1) and not mixed.finished and mixed.outcome is None


def test_a_garbled_race_move_is_answered_with_a_race_s_examples_and_plays_nothing() -> None:
    race = new_race(1, players=2)
    assert isinstance(race, RaceGame)
    with pytest.raises(NotationError) as error:
        race.play(0, "d raw")
    message = str(error.value)
    assert error.value.token == "raw" and "moves look like t3f" in message and "undo" not in message
    assert race.history == []
