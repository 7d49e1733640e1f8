"""Patriarchs and Picture Patience (docs/games.md): two decks, eight foundations, a 3x3 reserve.

The ace foundations f1..f4 (clubs, spades, hearts, diamonds) build up in suit from the ace to
the king; the king foundations f5..f8 (same suits) build down in suit from the king to the ace.
The nine reserve piles r1..r9 (row by row) hold one card each, which may go to the foundations
only; a reserve pile that empties is filled at once from the top of the waste, or from the stock
when the waste is empty. The stock turns one card at a time onto the waste, with one redeal.

Patriarchs starts with an ace and a king of each suit on the foundations, and allows reversals:
while the tops of a suit's ace and king foundations are in sequence (ace top + 1 == king top),
cards may move one at a time between those two foundations, never a pile's base card. Picture
Patience shuffles those eight cards in and has no reversals.

A game is its deck plus its move list, changed through `play` and `undo` only (and `resume`),
implementing `bot.game.patience.Game`; `PATRIARCHS_KINDS` registers both games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from bot.game.cards import ACE, KING, SUIT_WORDS, Card, Suit
from bot.game.deals import (
    DealError,
    check_deal,
    check_deck,
    dealing_order,
    shuffled_talon,
    shuffled_talon_with_decks,
)
from bot.game.errors import IllegalMoveError
from bot.game.moves import DRAW, Move
from bot.game.patience import FOUNDATION_LENGTH, Game, GameKind, Hint, Outcome, Step
from bot.game.phrases import ENGLISH, N_, Phrase, Sentences, Translator
from bot.game.rules import SCORE_RULE, UnknownGameError
from bot.game.text import header

DECKS = 2
DRAW_COUNT = 1  # the stock turns one card at a time
DECK_SIZE = 52 * DECKS
SUITS = list(Suit)  # fi and f(i+4) build suit SUITS[i - 1], as in PySolFC
ACE_FOUNDATIONS = ("f1", "f2", "f3", "f4")
KING_FOUNDATIONS = ("f5", "f6", "f7", "f8")
FOUNDATION_NAMES = ACE_FOUNDATIONS + KING_FOUNDATIONS
RESERVE_NAMES = tuple(f"r{i}" for i in range(1, 10))
PILE_ORDER = ("s", "w", *FOUNDATION_NAMES, *RESERVE_NAMES)
# The cards that start on f1..f8 in Patriarchs, in that order.
BASE_CARDS = tuple(Card(ACE, suit) for suit in SUITS) + tuple(Card(KING, suit) for suit in SUITS)
_SOURCES = (*RESERVE_NAMES, "w")  # where a card can come from to go to a foundation



@dataclass(frozen=True, slots=True)
class PatriarchsRules:
    """What tells the two games apart. `preplaced`: an ace and a king of each suit start on the
    foundations; `reversals`: cards may move between the ace and king foundations of a suit."""

    name: str
    redeals: int = 1
    preplaced: bool = True
    reversals: bool = True

    def options(self) -> dict[str, object]:
        """The player-settable options as plain values: redeals."""
        return {"redeals": self.redeals}

# Each game's rules before options; its title and the rest: PATRIARCHS_KINDS.
PATRIARCHS_RULES: dict[str, PatriarchsRules] = {
    "patriarchs": PatriarchsRules("patriarchs"),
    "picture-patience": PatriarchsRules("picture-patience", preplaced=False, reversals=False),
}

PATRIARCHS_OPTION_NAMES = ("redeals",)
_REDEAL_CHOICES = (0, 1)


def make_patriarchs_rules(name: str, **options: object) -> PatriarchsRules:
    """The rules of `name` with the options applied (`redeals` 0 or 1).

    Raises UnknownGameError, quoting the bad value, for an unknown game, option or value.
    """
    if name not in PATRIARCHS_RULES:
        raise UnknownGameError("unknown game {name!r}; games: {games}", name=name, games=", ".join(PATRIARCHS_RULES))
    unknown = sorted(set(options) - set(PATRIARCHS_OPTION_NAMES))
    if unknown:
        raise UnknownGameError("unknown option {option!r} for {game}; options: {options}", option=unknown[0], game=name,
                               options=", ".join(PATRIARCHS_OPTION_NAMES))
    rules = PATRIARCHS_RULES[name]
    if "redeals" in options:
        redeals = options["redeals"]
        if isinstance(redeals, bool) or redeals not in _REDEAL_CHOICES:
            raise UnknownGameError("redeals={value}: {game} allows redeals=0 or redeals=1", value=repr(redeals),
                                   game=name)
        rules = replace(rules, redeals=redeals)
    return rules


def dealt_patriarchs_cards(name: str, deal: int) -> list[Card]:
    """The deck of PySolFC's game `deal` of `name`, in `new_patriarchs_game(cards=...)` order.

    PySolFC's Patriarchs moves the aces and kings of the first deck to the top of the talon,
    sorted by (rank, suit), and deals them to f1..f8; then both games deal r1..r9, one card to
    the waste, and leave the rest as the stock.
    """
    rules = make_patriarchs_rules(name)
    check_deal(deal)
    if not rules.preplaced:
        return dealing_order(shuffled_talon(deal, decks=DECKS))
    talon = shuffled_talon_with_decks(deal, decks=DECKS)
    is_base = [card.rank in (ACE, KING) and deck == 0 for card, deck in talon]
    rest = [card for (card, _), chosen in zip(talon, is_base, strict=True) if not chosen]
    return list(BASE_CARDS) + dealing_order(rest)


def _foundation_index(pile: str) -> int:
    return FOUNDATION_NAMES.index(pile)


def _partner(index: int) -> int:
    """The other foundation of the same suit: f1 <-> f5 and so on."""
    return (index + 4) % 8


class PatriarchsGame(Game[PatriarchsRules]):
    """One game of Patriarchs or Picture Patience. Build it with `new_patriarchs_game`."""

    pile_order = PILE_ORDER
    examples = Phrase("moves look like r1f, wf, f1f5, 7h, 7h f, d (draw), a (all to foundations), u (undo)")

    def __init__(self, rules: PatriarchsRules, cards: Sequence[Card], deal: int | None = None, *,
                 checked: bool = False) -> None:
        self.rules = rules
        self.deal = deal
        self.cards: tuple[Card, ...] = tuple(cards if checked else check_deck(list(cards), decks=DECKS))
        base_count = len(BASE_CARDS) if rules.preplaced else 0
        bases = self.cards[:base_count]
        if bases != BASE_CARDS[:base_count]:
            raise DealError(
                "{game} starts with an ace and a king of each suit on the foundations: the deck must begin with "
                "{bases}, not {cards}", game=rules.name, bases=" ".join(map(str, BASE_CARDS)),
                cards=" ".join(map(str, bases)),
            )
        self.foundations: list[list[Card]] = [[] for _ in FOUNDATION_NAMES]
        for pile, card in zip(self.foundations, bases, strict=False):
            pile.append(card)
        first_waste = base_count + len(RESERVE_NAMES)
        self.reserves: list[list[Card]] = [[card] for card in self.cards[base_count:first_waste]]
        self.waste: list[Card] = [self.cards[first_waste]]
        self.stock: list[Card] = list(self.cards[first_waste + 1:])[::-1]  # the top is last
        self.redeals_used = 0
        self.die_roll = None  # no Die of Justice here
        self.base_rank = None  # the ace foundations start from aces, the king foundations from kings
        self.history: list[Step] = []
        self._piles: dict[str, list[Card]] = {"s": self.stock, "w": self.waste}
        self._piles.update(zip(FOUNDATION_NAMES, self.foundations, strict=True))
        self._piles.update(zip(RESERVE_NAMES, self.reserves, strict=True))

    # --- what a player sees -------------------------------------------------------------

    @property
    def kind(self) -> GameKind:
        """What kind of game this is (see PATRIARCHS_KINDS)."""
        return PATRIARCHS_KINDS[self.rules.name]

    @property
    def draw_count(self) -> int:
        """How many cards the next draw turns: always one."""
        return DRAW_COUNT

    @property
    def redeals_left(self) -> int:
        """Redeals still allowed."""
        return self.rules.redeals - self.redeals_used

    @property
    def reserve_cards(self) -> int:
        """How many cards are left in the reserve piles (a fresh deal: 9)."""
        return sum(len(pile) for pile in self.reserves)

    @property
    def outcome(self) -> Outcome | None:
        """WON when all 104 cards are on the foundations; BLOCKED when no sequence of legal moves
        (draws, redeals and reversals included) can put another card on a foundation, judged with
        the stock's order known, as cycling shows it; None while play can still get somewhere.

        The judgement is exact, not a bounded search: until a card reaches a foundation the
        reserve cannot change, and the draws and each suit's reversals act on separate piles,
        so every combination of the positions they reach is reachable.
        """
        return self._outcome_once(self._work_out_outcome)

    def _work_out_outcome(self, positions: int | None = None) -> Outcome | None:  # exact: no limit needed
        if self.foundation_cards == DECK_SIZE:
            return Outcome.WON
        if not self._progress_plans():
            return Outcome.BLOCKED
        return None

    def foundation_base(self, pile: str) -> Card:
        """The card a foundation starts with: the ace of its suit for f1..f4, the king for f5..f8."""
        if pile not in FOUNDATION_NAMES:
            raise ValueError(f"{pile!r} is not a foundation of {self.name}")
        index = _foundation_index(pile)
        return Card(ACE if index < 4 else KING, SUITS[index % 4])

    def is_face_up(self, pile: str, index: int) -> bool:
        """Whether the card at `index` (from the bottom) of `pile` shows its face: all but the stock."""
        self._pile(pile)
        return pile != "s"

    def piles(self, reveal: bool = False) -> dict[str, list[str]]:
        """Every pile by notation name in `pile_order`, its cards bottom to top as `7H`; the
        stock is face down (`??`) unless `reveal`. The stock's last card is the next one drawn."""
        return {
            name: [str(card) if reveal or name != "s" else "??" for card in self._piles[name]]
            for name in PILE_ORDER
        }

    def __str__(self) -> str:
        return self.text()

    def text(self, translator: Translator = ENGLISH) -> str:
        """The board as plain text, its header said through `translator`."""
        piles = self.piles()
        waste = piles["w"]
        waste_text = " ".join(waste[-3:]) if waste else "--"
        if len(waste) > 3:
            waste_text = "… " + waste_text

        def pile_text(name: str) -> str:
            cards = piles[name]
            count = f" ({len(cards)})" if len(cards) > 1 else ""
            return f"{name} {cards[-1] if cards else '--'}{count}"

        up, down = Phrase("up from the ace:").render(translator), Phrase("down from the king:").render(translator)
        room = max(len(up), len(down)) + 1  # the two rows of foundations start in one column
        lines = [
            header(self, draw=False).render(translator),
            f"s  [{len(piles['s'])}]   w  {waste_text} ({len(waste)})",
            up.ljust(room) + "  ".join(pile_text(name) for name in ACE_FOUNDATIONS),
            down.ljust(room) + "  ".join(pile_text(name) for name in KING_FOUNDATIONS),
        ]
        for row in range(3):
            lines.append("  ".join(pile_text(name) for name in RESERVE_NAMES[3 * row:3 * row + 3]))
        return "\n".join(lines)

    # --- the rules ----------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move: reserve piles then the waste to the foundations, the reversals,
        then the draw."""
        moves: list[Move] = []
        for source in _SOURCES:
            pile = self._piles[source]
            if pile:
                moves.extend(
                    Move(source, name) for index, name in enumerate(FOUNDATION_NAMES)
                    if self._accepts(index, pile[-1])
                )
        if self.rules.reversals:
            moves.extend(
                Move(name, FOUNDATION_NAMES[_partner(index)]) for index, name in enumerate(FOUNDATION_NAMES)
                if self._reason_reversal(index, _partner(index)) is None
            )
        if self._reason_draw() is None:
            moves.append(DRAW)
        return moves

    def describe(self, move: Move) -> Phrase:
        """A move in words for people, such as "7H to its king foundation"."""
        if move.is_draw:
            return Phrase("draw") if self.stock else Phrase("turn the waste over and draw")
        pile = self._piles.get(move.src)
        if not pile or move.dst not in FOUNDATION_NAMES:
            return Phrase("{move}", move=str(move))
        card = str(pile[-1])
        if move.src in FOUNDATION_NAMES:
            return Phrase("{card} back from {source} onto {target} (a reversal)", card=card, source=move.src,
                          target=move.dst)
        if move.dst in ACE_FOUNDATIONS:
            return Phrase("{card} to its ace foundation", card=card)
        return Phrase("{card} to its king foundation", card=card)

    def hint(self) -> Hint | None:
        """The next move besides draws on the shortest way to a card put on a foundation, with
        the draws before it, from what the player can see (the stock's order is known, as
        cycling shows it); never one that merely undoes the last move (a reversal straight
        back): then a move on a longer way, if any. None when nothing helps: the game is won or
        blocked, or the only way on is back."""
        for _, draws, move in self._progress_plans():
            if draws or not self.undoes_last(move):
                return self.hint_of(draws, move)
        return None

    # --- carrying out commands ----------------------------------------------------------

    def _auto_move(self, move: Move) -> bool:
        """Reserve and waste cards to the foundations (never reversals, which would go back and forth)."""
        return move.src in _SOURCES

    def _check_destination(self, dst: str | None, text: str) -> None:
        if dst is not None and dst != "f" and dst not in self._piles:
            raise IllegalMoveError("{text!r} is not legal: this game has no pile {pile}; {alternatives}", text=text,
                                   pile=dst, alternatives=self._alternatives(""))

    @staticmethod
    def _matches(move: Move, dst: str | None) -> bool:
        return dst is None or move.dst == dst or (dst == "f" and move.dst in FOUNDATION_NAMES)

    def _play_pile(self, src: str, dst: str | None, count: int | None, text: str) -> None:
        self._pile(src, text)
        self._check_destination(dst, text)
        candidates = [
            move for move in self.legal_moves()
            if move.src == src and (count is None or move.count == count) and self._matches(move, dst)
        ]
        if not candidates:
            raise IllegalMoveError("{text!r} is not legal: {reason}", text=text, reason=self._explain(src, dst, count))
        self._do(candidates[0])

    def _play_card(self, card: Card, dst: str | None, text: str) -> None:
        """Move a named card from a reserve pile or the waste top: the first legal way."""
        self._check_destination(dst, text)
        holders = [name for name in _SOURCES if self._piles[name] and self._piles[name][-1] == card]
        candidates = [move for move in self.legal_moves() if move.src in holders and self._matches(move, dst)]
        if candidates:
            self._do(candidates[0])
            return
        if holders:
            raise IllegalMoveError("{text!r} is not legal: {reason}", text=text,
                                   reason=self._explain(holders[0], dst, None))
        places = []
        if any(card in pile for pile in self.foundations):
            places.append(Phrase("on a foundation"))
        if card in self.waste:
            places.append(Phrase("in the waste under {card}", card=str(self.waste[-1])))
        if card in self.stock:
            places.append(Phrase("face down in the stock"))
        where = places[0]
        for place in places[1:]:
            where = Phrase("{first} and {second}", first=where, second=place)
        raise IllegalMoveError(
            "{text!r} is not legal: {card} is not on a reserve pile or the waste top (it is {places}); {alternatives}",
            text=text, card=str(card), places=where, alternatives=self._alternatives(""),
        )

    def _explain(self, src: str, dst: str | None, count: int | None) -> Phrase:
        """Why nothing matches a command, and what is legal instead."""
        pile = self._piles[src]
        if not pile:
            reason = Phrase("{pile} is empty", pile=src)
        elif count not in (None, 1):
            reason = Phrase("cards move one at a time")
        elif dst is None or dst == "f":
            if src in FOUNDATION_NAMES:
                index = _foundation_index(src)
                reason = self._reason_reversal(index, _partner(index)) or Phrase("no foundation takes it")
            else:
                reason = self._nowhere(pile[-1])
        else:
            reason = self._reason(Move(src, dst)) or Phrase("no move fits")
        return Phrase("{reason}; {alternatives}", reason=reason, alternatives=self._alternatives(src))

    def _nowhere(self, card: Card) -> Phrase:
        """Why a card goes to no foundation: what its suit's two foundations need."""
        ace, king = (self._reason_foundation(index, card) or Phrase("{pile} takes it", pile=FOUNDATION_NAMES[index])
                     for index in (card.suit.index, card.suit.index + 4))
        return Phrase("{card} has nowhere to go ({ace}; {king})", card=str(card), ace=ace, king=king)

    # --- the rules in detail ------------------------------------------------------------

    def _reason(self, move: Move) -> Phrase | None:
        """None when the move is legal, else why not."""
        if move.is_draw:
            return self._reason_draw()
        for pile in (move.src, move.dst):
            if pile not in self._piles:
                return Phrase("this game has no pile {pile} (piles: s, w, f1..f8, r1..r9)", pile=pile)
        if move.dst in ("s", "w"):
            return Phrase("cards never go to {pile}", pile=move.dst)
        if move.dst in RESERVE_NAMES:
            return Phrase("cards never go to a reserve pile: an emptied one is filled at once from the waste or "
                          "the stock")
        source = self._piles[move.src]
        if not source:
            return Phrase("{pile} is empty", pile=move.src)
        if move.count != 1:
            return Phrase("cards move one at a time")
        if move.src in FOUNDATION_NAMES:
            return self._reason_reversal(_foundation_index(move.src), _foundation_index(move.dst))
        return self._reason_foundation(_foundation_index(move.dst), source[-1])

    def _reason_draw(self) -> Phrase | None:
        if self.stock:
            return None
        if not self.waste:
            return Phrase("the stock and the waste are both empty")
        if self.redeals_left <= 0:
            return Phrase("the stock is empty and no redeal is left")
        return None

    def check_position(self) -> None:
        """ValueError when the position could not have come from this deck by legal moves (a
        damaged snapshot): each reserve pile holds one card at most, each foundation is a run of
        its suit (up from an ace on f1..f4, down from a king on f5..f8), and the redeals used are
        within the rules."""
        if not 0 <= self.redeals_used <= self.rules.redeals:
            raise ValueError(f"{self.redeals_used} redeals used where {self.rules.redeals} are allowed")
        for name, pile in zip(RESERVE_NAMES, self.reserves, strict=True):
            if len(pile) > 1:
                raise ValueError(f"{name} holds {len(pile)} cards: a reserve pile holds one")
        for index, pile in enumerate(self.foundations):
            suit, step = SUITS[index % 4], 1 if index < 4 else -1
            run = [Card(ACE if index < 4 else KING, suit)]
            while len(run) < min(len(pile), FOUNDATION_LENGTH):
                run.append(Card(run[-1].rank + step, suit))
            if pile != run[:len(pile)]:
                raise ValueError(f"{FOUNDATION_NAMES[index]} is not a run of its suit from {run[0]}")

    def _accepts(self, index: int, card: Card) -> bool:
        """Whether foundation `index` (0 for f1) takes `card` now."""
        if card.suit is not SUITS[index % 4]:
            return False
        pile = self.foundations[index]
        if index < 4:
            return card.rank == (pile[-1].rank + 1 if pile else ACE)
        return card.rank == (pile[-1].rank - 1 if pile else KING)

    def _reason_foundation(self, index: int, card: Card) -> Phrase | None:
        name, suit = FOUNDATION_NAMES[index], SUITS[index % 4]
        if card.suit is not suit:
            return Phrase("{pile} builds {suit}, not {card}", pile=name, suit=SUIT_WORDS[suit], card=str(card))
        if self._accepts(index, card):
            return None
        pile = self.foundations[index]
        if not pile and index < 4:
            return Phrase("{pile} is empty and starts with an ace of {suit}, not {card}", pile=name,
                          suit=SUIT_WORDS[suit], card=str(card))
        if not pile:
            return Phrase("{pile} is empty and starts with a king of {suit}, not {card}", pile=name,
                          suit=SUIT_WORDS[suit], card=str(card))
        top = pile[-1]
        if top.rank == (KING if index < 4 else ACE):
            return Phrase("{pile} is complete", pile=name)
        wanted = Card(top.rank + 1 if index < 4 else top.rank - 1, suit)
        return Phrase("{pile} needs the {wanted}, not {card}", pile=name, wanted=str(wanted), card=str(card))

    def _reversible(self, suit_index: int) -> bool:
        """Whether the suit's ace and king foundations have tops in sequence (ace top + 1 == king top)."""
        ace_pile, king_pile = self.foundations[suit_index], self.foundations[suit_index + 4]
        return bool(ace_pile and king_pile) and ace_pile[-1].rank + 1 == king_pile[-1].rank

    def _reason_reversal(self, src_index: int, dst_index: int) -> Phrase | None:
        src = FOUNDATION_NAMES[src_index]
        if not self.rules.reversals:
            return Phrase("cards never leave the foundations in {game}", game=Phrase.marked(self.title))
        if dst_index != _partner(src_index):
            return Phrase("a card leaves {pile} only in a reversal onto {partner}, the other foundation of its suit",
                          pile=src, partner=FOUNDATION_NAMES[_partner(src_index)])
        pile = self.foundations[src_index]
        if not pile:
            return Phrase("{pile} is empty", pile=src)
        suit_index = src_index % 4
        if not self._reversible(suit_index):
            ace_pile, king_pile = self.foundations[suit_index], self.foundations[suit_index + 4]
            ace_top, king_top = (str(top[-1]) if top else Phrase("empty") for top in (ace_pile, king_pile))
            return Phrase("reversals need the tops of {ace} and {king} in sequence "
                          "({ace} {ace_top}, {king} {king_top})", ace=ACE_FOUNDATIONS[suit_index],
                          king=KING_FOUNDATIONS[suit_index], ace_top=ace_top, king_top=king_top)
        if len(pile) == 1:
            return Phrase("{pile} never gives up its base card {card}", pile=src, card=str(pile[0]))
        return None

    # --- the way to progress: outcome and hint ------------------------------------------

    def _progress_plans(self) -> list[tuple[int, int, Move]]:
        """Every way to put a card from a reserve pile or the waste on a foundation, using only
        draws, redeals and reversals before it: (number of moves, the draws, the first move
        besides them), shortest first. Reversals and draws touch separate piles, so the draws
        may all come first; the first move is then the first reversal, or with none the
        foundation move itself."""
        plans: list[tuple[tuple[int, int, int], int, Move]] = []
        options = [self._suit_options(suit_index) for suit_index in range(4)]
        for order, (card, source, draws) in enumerate(self._reachable_cards()):
            for reversals, up_rank, down_rank in options[card.suit.index]:
                for index, wanted in ((card.suit.index, up_rank), (card.suit.index + 4, down_rank)):
                    if card.rank != wanted:
                        continue
                    first = reversals[0] if reversals else Move(source, FOUNDATION_NAMES[index])
                    plans.append(((len(reversals) + draws + 1, order, index), draws, first))
        plans.sort(key=lambda plan: plan[0])
        return [(key[0], draws, first) for key, draws, first in plans]

    def _reachable_cards(self) -> list[tuple[Card, str, int]]:
        """The cards that can reach a foundation without another card going there first:
        (card, its pile when it moves, draws needed to bring it to the waste top)."""
        cards = [(pile[-1], name, 0) for name, pile in zip(RESERVE_NAMES, self.reserves, strict=True) if pile]
        fewest: dict[Card, int] = {}
        drawn = 0
        passes = [list(reversed(self.stock))]
        if self.redeals_left > 0:
            passes.append(self.waste + list(reversed(self.stock)))  # the redeal turns the talon over
        if self.waste:
            fewest[self.waste[-1]] = 0
        for talon in passes:
            for card in talon:
                drawn += 1  # the redeal turns the waste over and draws, in one move
                fewest.setdefault(card, drawn)
        cards.extend((card, "w", draws) for card, draws in fewest.items())
        return cards

    def _suit_options(self, suit_index: int) -> list[tuple[list[Move], int | None, int | None]]:
        """The states a suit's two foundations can reach by reversals: (the reversals that lead
        there, the rank the ace foundation then takes, the rank the king foundation then takes)."""
        ace_pile, king_pile = self.foundations[suit_index], self.foundations[suit_index + 4]
        ace, king = ACE_FOUNDATIONS[suit_index], KING_FOUNDATIONS[suit_index]
        if not (self.rules.reversals and self._reversible(suit_index)):
            up = ACE if not ace_pile else ace_pile[-1].rank + 1 if ace_pile[-1].rank < KING else None
            down = KING if not king_pile else king_pile[-1].rank - 1 if king_pile[-1].rank > ACE else None
            return [([], up, down)]
        ace_top = ace_pile[-1].rank
        options: list[tuple[list[Move], int | None, int | None]] = []
        # In sequence the tops stay in sequence: the ace top can be any rank from A to Q (the
        # bases stay), and then the ace foundation takes the rank above it, the king one that rank.
        for new_top in range(ACE, KING):
            if new_top >= ace_top:
                reversals = [Move(king, ace)] * (new_top - ace_top)
            else:
                reversals = [Move(ace, king)] * (ace_top - new_top)
            options.append((reversals, new_top + 1, new_top))
        return options

    # --- changing the position ----------------------------------------------------------

    def _do(self, move: Move) -> None:
        """Carry out a move already known to be legal, with the reserve refill it causes."""
        before = self._position()
        fills: tuple[str, ...] = ()
        if move.is_draw:
            if not self.stock:
                self._redeal()
            self.waste.append(self.stock.pop())
        else:
            source = self._piles[move.src]
            self._piles[move.dst].append(source.pop())
            if move.src in RESERVE_NAMES:
                feeder = self.waste or self.stock
                if feeder:
                    source.append(feeder.pop())
                    fills = (move.src,)
        self.history.append(Step(move, before, fills))


def new_patriarchs_game(name: str = "patriarchs", *, deal: int | None = None,
                        cards: list[Card] | list[str] | None = None, **options: object) -> PatriarchsGame:
    """A new game of `name` ("patriarchs" or "picture-patience"): PySolFC's game number `deal`,
    or an explicit deck `cards` of 104 cards, or a random game number. Option: redeals=0 or 1.

    An explicit deck is in dealing order: for Patriarchs first the eight foundation bases
    AC AS AH AD KC KS KH KD (onto f1..f8); then for both games r1..r9, the one card face up
    on the waste, and the stock from the top down (its first card is the next one drawn).
    """
    return PatriarchsGame.dealt(make_patriarchs_rules(name, **options), deal=deal, cards=cards,
                                deck_of=lambda number: dealt_patriarchs_cards(name, number))


def describe_patriarchs(rules: PatriarchsRules, title: str) -> Sentences:
    """The rules of the game called `title` (a text marked with N_) in a few plain sentences; the
    first begins with the title."""
    sentences = [
        Phrase("{title} (two decks): build four foundations up in suit from the ace to the king, and four down "
               "from the king to the ace.", title=Phrase.marked(title)),
        Phrase("An ace and a king of each suit start on them.") if rules.preplaced
        else Phrase("The aces and kings are shuffled in; an empty foundation takes one of its suit."),
        Phrase("Nine reserve cards, each playable to the foundations only; an emptied reserve space is filled at "
               "once from the waste (from the stock when the waste is empty)."),
        Phrase("The stock turns one card at a time, one redeal.") if rules.redeals
        else Phrase("The stock turns one card at a time, no redeal."),
    ]
    if rules.reversals:
        sentences.append(Phrase("When the two foundations of a suit have tops in sequence, cards may go from one to "
                                "the other (never the base cards)."))
    return Sentences((*sentences, SCORE_RULE))


def _kind(name: str, title: str) -> GameKind:
    rules = PATRIARCHS_RULES[name]
    return GameKind(
        name=name, title=title, option_names=PATRIARCHS_OPTION_NAMES, piles=PILE_ORDER, solver_covers=False,
        board_layout="patriarchs",
        make_rules=partial(make_patriarchs_rules, name), new=partial(new_patriarchs_game, name),
        dealt_cards=partial(dealt_patriarchs_cards, name), describe_rules=lambda: describe_patriarchs(rules, title),
    )


PATRIARCHS_KINDS: dict[str, GameKind] = {kind.name: kind for kind in (
    _kind("patriarchs", N_("Patriarchs")),
    _kind("picture-patience", N_("Picture Patience")),
)}
