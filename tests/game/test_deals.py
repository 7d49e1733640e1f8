"""Deals are PySolFC game numbers: golden layouts, and a cross-check with pysol-cards' own dealer."""

from __future__ import annotations

import pytest
from pysol_cards.deal_game import Game as PysolCardsGame
from pysol_cards.random_base import RandomBase

from bot.game import Card, Suit, new_game
from bot.game.deals import dealing_order, shuffled_talon

# (deal, base card, reserve bottom to top, t1..t4, stock from the top), read off our engine
# and checked for game 1 against PySolFC's Canfield (base JD, reserve top QC, KS 2S 3H KH).
GOLDEN = [
    (1, "JD", "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC", "KS 2S 3H KH",
     "9D QD JS AS AH 3C 4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"),
    (12345, "QC", "TS QD 7H 6C QH 4S 4D 9C 4C 2S JC AS 3D", "8S 2H 5C 9H",
     "TD 6H 3H 5D 5H AD 2C TH KH KS 3C AC TC JH 8C AH JS 9S 8H 7C 6D 6S 8D JD KC KD 4H 9D 7S 3S 2D 5S 7D QS"),
    (31999, "JD", "JH AD QH KH 6S 6D JC AC TH AS 8H 9D 2H", "7H AH 6H 8D",
     "7C 5D 7S 6C QC JS 9C 3D 5C 4C 2S 8S 3C 7D 5H 8C 4H TD TS 3H 4S KC TC 4D 9S 2C KD 9H KS 5S QS 2D QD 3S"),
    (32000, "7S", "4D JS 8D 6D 3H 3D TH JC 3C 2C 5S 9D AC", "6S 4H 2S 9C",
     "8S 9S TS 9H KD QD 6H 7D 5H QS AD QH TC 4C AH JD 4S JH TD 3S 7H 8C 6C 2H 2D 5D KS QC KH 5C 7C 8H KC AS"),
    (123456789, "8H", "2H JD 3D KH 6S 5D 6H 5S 3S 4S TS 9C JS", "9S QH 2D AC",
     "KS JC 9H 8D 7S 3C AD 5H 2C TH 4D KC QS 7H QD 8C AS 9D 5C 4C TC 3H 2S AH QC 7C 6C KD 7D 6D JH 8S 4H TD"),
]


@pytest.mark.parametrize(("deal", "base", "reserve", "columns", "stock"), GOLDEN)
def test_golden_canfield_layouts(deal: int, base: str, reserve: str, columns: str, stock: str) -> None:
    layout = new_game("canfield", deal=deal).piles(reveal=True)
    assert [card for name in ("f1", "f2", "f3", "f4") for card in layout[name]] == [base]
    assert layout["r"] == reserve.split()
    assert [layout[f"t{i}"][0] for i in range(1, 5)] == columns.split()
    assert layout["s"][::-1] == stock.split() and layout["w"] == []


def test_every_canfield_variant_shares_the_shuffle_but_storehouse_moves_the_twos_up() -> None:
    canfield = new_game("canfield", deal=1).piles(reveal=True)
    for name in ("superior-canfield", "rainbow-canfield", "canfield-draw1", "canfield-one-pass"):
        assert new_game(name, deal=1).piles(reveal=True) == canfield
    storehouse = new_game("storehouse", deal=1).piles(reveal=True)
    assert [storehouse[f"f{i}"] for i in range(1, 5)] == [["2C"], ["2S"], ["2H"], ["2D"]]
    others = [c for c in dealing_order(shuffled_talon(1)) if c.rank != 2]
    assert [Card.parse(c) for c in storehouse["r"]] == others[:13]
    assert [storehouse[f"t{i}"][0] for i in range(1, 5)] == [str(c) for c in others[13:17][::-1]]


@pytest.mark.parametrize("deal", [1, 2, 617, 31999, 32001, 10**8 + 7, 123456789])
def test_the_shuffle_matches_pysol_cards_dealer(deal: int) -> None:
    """pysol-cards deals Klondike from the same shuffle; its order of dealing is the talon top first."""
    other = PysolCardsGame("klondike", deal, RandomBase.DEALS_PYSOLFC)
    other.deal()
    theirs = [str(Card(card.rank, Suit(card.suit_s()))) for card in other.cards]
    assert [str(card) for card in dealing_order(shuffled_talon(deal))] == theirs


def test_game_32000_uses_the_mersenne_twister_as_pysolfc_does() -> None:
    """pysol-cards' own shuffle() sends 32000 to the MS generator; PySolFC does not."""
    other = PysolCardsGame("klondike", 32000, RandomBase.DEALS_PYSOLFC)
    other.deal()
    ms_order = [f"{card.rank}{card.suit_s()}" for card in other.cards]
    ours = [f"{card.rank}{card.suit.value}" for card in dealing_order(shuffled_talon(32000))]
    assert ours != ms_order and sorted(ours) == sorted(ms_order)

