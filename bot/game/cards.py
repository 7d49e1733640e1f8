"""Cards, ranks, suits and colours: small frozen values shared by every game."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum

from bot.game.errors import NotationError
from bot.game.phrases import Phrase


class Colour(Enum):
    """The colour of a suit."""

    BLACK = "black"
    RED = "red"


class Suit(Enum):
    """The four suits, in PySolFC's order (clubs, spades, hearts, diamonds)."""

    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"

    @property
    def colour(self) -> Colour:
        """Black for clubs and spades, red for hearts and diamonds."""
        return Colour.BLACK if self in (Suit.CLUBS, Suit.SPADES) else Colour.RED

    @property
    def symbol(self) -> str:
        """The suit's Unicode symbol, for example ♥."""
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        """0..3 in PySolFC's order; also the foundation a suit builds on in one-deck games."""
        return _SUIT_ORDER.index(self)


_SUIT_ORDER = list(Suit)
# Each suit's name in a sentence, such as "f1 builds clubs".
SUIT_WORDS = {Suit.CLUBS: Phrase("clubs"), Suit.SPADES: Phrase("spades"), Suit.HEARTS: Phrase("hearts"),
              Suit.DIAMONDS: Phrase("diamonds")}
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}

RANK_NAMES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
ACE, KING = 1, 13

_SUIT_BY_TEXT = {
    "c": Suit.CLUBS, "s": Suit.SPADES, "h": Suit.HEARTS, "d": Suit.DIAMONDS,
    "♣": Suit.CLUBS, "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS,
    "♧": Suit.CLUBS, "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS,
}
_RANK_BY_TEXT = {"a": 1, "t": 10, "10": 10, "j": 11, "q": 12, "k": 13}
_RANK_BY_TEXT.update({str(n): n for n in range(2, 10)})

CARD_PATTERN = r"(?:10|[2-9atjqk])[cshd♣♠♥♦♧♤♡♢]"
_CARD_RE = re.compile(rf"\A{CARD_PATTERN}\Z")


def rank_name(rank: int) -> str:
    """The one-character name of a rank: A, 2..9, T, J, Q, K."""
    return RANK_NAMES.get(rank, str(rank))


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. `str(card)` is its canonical two-character name, such as `7H` or `TD`."""

    rank: int
    suit: Suit
    is_red: bool = field(init=False, repr=False, compare=False)
    # Its name, worked out once: a board's answer names every card a few times (its piles, alt
    # text, snapshot).
    name: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not ACE <= self.rank <= KING:
            raise ValueError(f"no card has rank {self.rank!r}")
        object.__setattr__(self, "is_red", self.suit.colour is Colour.RED)
        object.__setattr__(self, "name", rank_name(self.rank) + self.suit.value)

    @property
    def colour(self) -> Colour:
        """The colour of the card's suit."""
        return self.suit.colour

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[Callable[[int, str], Card], tuple[int, str]]:
        # Pickled as its rank and suit letter, unpickled as the deck's one card of that name: a
        # dataclass with slots is pickled field by field through `dataclasses.fields`, some 10 us
        # a card, and building each card anew (`__post_init__`) was two thirds of unpickling a
        # game, which goes to a drawing process with every move (render.workers).
        return _deck_card, (self.rank, self.suit.value)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card name: `7H`, `7h`, `10h`, `TD`, `7♥` all work.

        Raises NotationError, quoting the text, when it names no card.
        """
        known = _BY_NAME.get(text)  # a canonical name, as boards and stored games write them: the deck's card
        if known is not None:
            return known
        cleaned = text.strip().lower()
        if not _CARD_RE.match(cleaned):
            raise NotationError(
                "{text!r} is not a card: write a rank (A, 2-10 or T, J, Q, K) "
                "and a suit (C, D, H, S), such as 7H or TD", text=text,
            )
        return cls(_RANK_BY_TEXT[cleaned[:-1]], _SUIT_BY_TEXT[cleaned[-1]])


def full_deck() -> list[Card]:
    """The 52 cards in PySolFC's order: suit by suit (C, S, H, D), ace to king in each."""
    return [Card(rank, suit) for suit in Suit for rank in range(ACE, KING + 1)]


_DECK = {(card.rank, card.suit.value): card for card in full_deck()}
_BY_NAME = {card.name: card for card in _DECK.values()}
_CODE_BY_NAME = {name: chr(ord("0") + index) for index, name in enumerate(_BY_NAME)}
_CARD_BY_CODE = {code: _BY_NAME[name] for name, code in _CODE_BY_NAME.items()}


def cards_code(cards: Iterable[Card]) -> str:
    """Cards as a short text, one character each (`cards_from_code` reads it back): how games
    are pickled. Quicker both ways than card names, as a one-character string is Python's own."""
    return "".join([_CODE_BY_NAME[card.name] for card in cards])


def cards_from_code(code: str) -> tuple[Card, ...]:
    """The deck's cards a `cards_code` stands for, in order."""
    return tuple(map(_CARD_BY_CODE.__getitem__, code))


def _deck_card(rank: int, suit: str) -> Card:
    """The card of that rank and suit (its letter), the same object each time: as unpickled."""
    return _DECK[rank, suit]


def next_rank(rank: int) -> int:
    """The rank one above, wrapping from king to ace."""
    return rank % KING + 1


def previous_rank(rank: int) -> int:
    """The rank one below, wrapping from ace to king."""
    return (rank - 2) % KING + 1
