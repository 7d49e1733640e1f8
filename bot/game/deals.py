"""Deals as PySolFC game numbers: the same number lays out the same cards as in PySolFC.

PySolFC shuffles a fresh deck (suit by suit, ace to king; see `full_deck`) with one of two
generators from the `pysol-cards` package: game numbers below 32000 use the MS-compatible
`LCRandom31`, after `ms_rearrange` of the deck; all others use `MTRandom`. The shuffled list
is the talon with its top at the end; cards are dealt from the top. (pysol-cards' own
`shuffle()` sends 32000 to LCRandom31; PySolFC does not, so the generators are called here.)
"""

from __future__ import annotations

import random
from collections import Counter

from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from bot.game.cards import Card, Suit, full_deck
from bot.game.phrases import Phrase, PhrasedError

FIRST_DEAL = 1
LAST_DEAL = MTRandom.MAX_SEED
MS_DEALS_BELOW = 32000
_PYSOL_SUITS = "CSHD"
DECK_SIZE = 52


class DealError(PhrasedError):
    """A deal number outside PySolFC's range, or an explicit deck that is not a deck."""


def check_deal(deal: int) -> int:
    """Return the deal number if PySolFC knows it; raise DealError quoting it otherwise."""
    if isinstance(deal, bool) or not isinstance(deal, int) or not FIRST_DEAL <= deal <= LAST_DEAL:
        raise DealError("deal {deal} is not a PySolFC game number ({first} to {last})", deal=repr(deal),
                        first=FIRST_DEAL, last=LAST_DEAL)
    return deal


def random_deal(rng: random.Random | None = None) -> int:
    """A random game number, drawn from 1..999,999,999 so that it is easy to read out."""
    return (rng or random.SystemRandom()).randint(FIRST_DEAL, 999_999_999)


def shuffled_talon(deal: int, decks: int = 1) -> list[Card]:
    """PySolFC's talon for game number `deal`, bottom first (its last card is dealt first)."""
    return [card for card, _ in shuffled_talon_with_decks(deal, decks)]


def move_to_top(talon: list[Card], rank: int) -> list[Card]:
    """PySolFC's shuffle hook that moves every card of `rank` to the top of the talon,
    the clubs dealt first, then spades, hearts, diamonds; the rest keep their order."""
    rest = [card for card in talon if card.rank != rank]
    chosen = sorted((card for card in talon if card.rank == rank), key=lambda c: c.suit.index)
    return rest + chosen[::-1]


def dealing_order(talon: list[Card]) -> list[Card]:
    """The talon's cards in the order they are dealt: the top first."""
    return talon[::-1]


def check_deck(cards: list[Card], decks: int = 1) -> list[Card]:
    """Return the cards if they are exactly `decks` full decks; raise DealError otherwise."""
    counts = Counter(cards)
    missing = [card for card in full_deck() if counts[card] < decks]
    repeated = [card for card in full_deck() if counts[card] > decks]
    if missing or repeated or len(cards) != DECK_SIZE * decks:
        details = []
        if missing:
            details.append(Phrase("missing {cards}", cards=" ".join(map(str, missing[:8]))))
        if repeated:
            details.append(Phrase("repeated {cards}", cards=" ".join(map(str, repeated[:8]))))
        if len(cards) != DECK_SIZE * decks:
            details.append(Phrase("{count} cards instead of {expected}", count=len(cards), expected=DECK_SIZE * decks))
        said = details[0]
        for detail in details[1:]:
            said = Phrase("{first}; {second}", first=said, second=detail)
        raise DealError("the cards are not a full deck: {problems}", problems=said)
    return list(cards)


def shuffled_talon_with_decks(deal: int, decks: int = 1) -> list[tuple[Card, int]]:
    """`shuffled_talon`, each card paired with the deck it comes from (0 for the first): some
    of PySolFC's shuffle hooks pick cards of the first deck only. Bottom first."""
    check_deal(deal)
    pysol_cards = createCards(decks)
    if deal < MS_DEALS_BELOW:
        generator: LCRandom31 | MTRandom = LCRandom31(deal)
        pysol_cards = ms_rearrange(pysol_cards)
    else:
        generator = MTRandom(deal)
    generator.shuffle(pysol_cards)
    return [(Card(card.rank, Suit(_PYSOL_SUITS[card.suit])), card.id // DECK_SIZE) for card in pysol_cards]
