"""The Canfield family: one engine for canfield, superior-canfield, rainbow-canfield,
storehouse, canfield-draw1 and canfield-one-pass, and for the two-deck demons-and-thieves and
demonthief, each a `Rules` value (see rules.py).

A game is its deck plus its move list. It is mutable through `play` and `undo` only (and
`resume`, see `Game`); every rule question goes through `verify_move` (raises), `can_move`
(answers) and `play` (does). `CANFIELD_KINDS` registers each game of the family.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache, partial
from itertools import pairwise
from typing import cast

from bot.game import solver
from bot.game.cards import SUIT_WORDS, Card, Suit, next_rank, previous_rank
from bot.game.deals import check_deal, check_deck, dealing_order, move_to_top, shuffled_talon
from bot.game.errors import IllegalMoveError, NotationError
from bot.game.moves import DRAW, Move
from bot.game.patience import Game, GameKind, Hint, Outcome, Step
from bot.game.phrases import ENGLISH, N_, Phrase, Translator
from bot.game.rules import (
    BUILD_WORDS,
    CANFIELD_OPTION_NAMES,
    Build,
    Die,
    Groups,
    Rules,
    casino_money,
    describe_rules,
    make_rules,
)
from bot.game.text import picture

RESERVE_SIZE = 13
DECK_SIZE = 52
SUITS = list(Suit)  # foundations build SUITS in order, `decks` foundations a suit, as in PySolFC
# Demons and Thieves: PySolFC deals 7 rows to the right five columns, then a row to all nine.
_RIGHT_ROWS_FIRST = 7


@cache  # a game's every copy asks (a move makes a few), and a game has few sets of rules
def pile_order(rules: Rules) -> tuple[str, ...]:
    """The piles of a game in a fixed order: stock, waste, reserve, foundations, columns."""
    foundations = tuple(f"f{i + 1}" for i in range(4 * rules.decks))
    return ("s", "w", "r", *foundations, *(f"t{i + 1}" for i in range(rules.columns)))


def dealt_canfield_cards(name: str, deal: int) -> list[Card]:
    """The deck of PySolFC's game `deal` of game `name`, in `new_game(cards=...)` order:
    the foundation base card(s), the reserve bottom to top, the columns t1, t2, ... each
    bottom to top, the stock top down."""
    rules = make_rules(name)
    talon = shuffled_talon(check_deal(deal), rules.decks)
    if rules.base_rank is not None:
        talon = move_to_top(talon, rules.base_rank)
    order = dealing_order(talon)
    if rules.decks == 1:
        first_column = _base_count(rules) + RESERVE_SIZE
        # PySolFC deals Canfield's tableau row from t4 down to t1, after the reserve.
        columns = order[first_column:first_column + rules.columns][::-1]
        return order[:first_column] + columns + order[first_column + rules.columns:]
    # Demons and Thieves: the columns first (7 rows to t5..t9, then a row to t1..t9, each row
    # left to right), then the base card, then the reserve; PySolFC then turns one card onto
    # the waste, which here is the player's first draw.
    dealt: list[list[Card]] = [[] for _ in range(rules.columns)]
    position = 0
    rows = [range(4, rules.columns)] * _RIGHT_ROWS_FIRST + [range(rules.columns)]
    for row in rows:
        for index in row:
            dealt[index].append(order[position])
            position += 1
    base, reserve = order[position], order[position + 1:position + 1 + RESERVE_SIZE]
    stock = order[position + 1 + RESERVE_SIZE:]
    return [base, *reserve, *(card for column in dealt for card in column), *stock]


def _base_count(rules: Rules) -> int:
    return 1 if rules.base_rank is None else 4


class CanfieldGame(Game[Rules]):
    """One game of the Canfield family. Build it with `bot.game.new_game`."""

    def __init__(self, rules: Rules, cards: Sequence[Card], deal: int | None = None, *, checked: bool = False) -> None:
        self.rules = rules
        self.deal = deal
        self.cards: tuple[Card, ...] = tuple(cards if checked else check_deck(list(cards), rules.decks))
        self.deck_size = DECK_SIZE * rules.decks
        self.pile_order = pile_order(rules)
        self._sources = ("r", "w", *(f"t{i + 1}" for i in range(rules.columns)))
        base_count = _base_count(rules)
        bases = self.cards[:base_count]
        if rules.base_rank is not None and any(card.rank != rules.base_rank for card in bases):
            raise NotationError(
                "{game} starts with the four {rank}s on the foundations: the deck must begin with them, not {cards}",
                game=rules.name, rank=rules.base_rank, cards=" ".join(map(str, bases)),
            )
        self.base_rank = bases[0].rank
        self.foundations: list[list[Card]] = [[] for _ in range(4 * rules.decks)]
        for card in bases:
            self.foundations[card.suit.index * rules.decks].append(card)
        position = base_count + RESERVE_SIZE
        self.reserve: list[Card] = list(self.cards[base_count:position])
        self.tableau: list[list[Card]] = []
        for size in rules.column_sizes:
            self.tableau.append(list(self.cards[position:position + size]))
            position += size
        self.stock: list[Card] = list(self.cards[position:])[::-1]
        self.waste: list[Card] = []
        self.redeals_used = 0
        self.die_roll: int | None = None if rules.die is Die.OFF else self.die_roll_for_pass(0)
        self.history: list[Step] = []
        self._piles: dict[str, list[Card]] = {"s": self.stock, "w": self.waste, "r": self.reserve}
        self._piles.update({f"f{i + 1}": pile for i, pile in enumerate(self.foundations)})
        self._piles.update({f"t{i + 1}": pile for i, pile in enumerate(self.tableau)})

    # --- what a player sees -------------------------------------------------------------

    @property
    def kind(self) -> GameKind:
        """What kind of game this is (see CANFIELD_KINDS)."""
        return CANFIELD_KINDS[self.rules.name]

    @property
    def draw_count(self) -> int:
        """How many cards the next draw turns: the die's roll when the die is on."""
        return self.die_roll if self.die_roll is not None else self.rules.draw

    @property
    def redeals_left(self) -> int | None:
        """Redeals still allowed; None when unlimited."""
        if self.rules.redeals is None:
            return None
        return self.rules.redeals - self.redeals_used

    @property
    def casino_score(self) -> int:
        """Canfield's casino score: -52 for the game, +5 for each card on the foundations."""
        return casino_money(1, self.foundation_cards)

    @property
    def reserve_cards(self) -> int:
        """How many cards are left in the reserve."""
        return len(self.reserve)

    @property
    def outcome(self) -> Outcome | None:
        """WON when every card is on the foundations; BLOCKED when no sequence of moves can
        put another card on a foundation or turn up a reserve card (the solver's `is_dead`,
        from what the player can see); None while play can still get somewhere."""
        return self._outcome_once(self._work_out_outcome)

    def _work_out_outcome(self, positions: int | None = None) -> Outcome | None:
        if self.foundation_cards == self.deck_size:
            return Outcome.WON
        if solver.is_dead(self) if positions is None else solver.is_dead(self, positions):
            return Outcome.BLOCKED
        return None

    @property
    def _base_rank(self) -> int:
        """The rank every foundation starts from: a Canfield game always has one."""
        return cast(int, self.base_rank)

    def foundation_base(self, pile: str) -> Card:
        """The card a foundation starts with (its suit at the base rank), such as `JC` for f1."""
        if not pile.startswith("f") or pile not in self._piles:
            raise ValueError(f"{pile!r} is not a foundation of {self.name}")
        return Card(self._base_rank, SUITS[(int(pile[1:]) - 1) // self.rules.decks])

    def is_face_up(self, pile: str, index: int) -> bool:
        """Whether the card at `index` (from the bottom) of `pile` shows its face."""
        return index >= self._face_down(pile)

    def _face_down(self, pile: str) -> int:
        """How many cards at the bottom of `pile` lie face down: the whole stock, and the
        reserve but for its top unless the rules turn it face up."""
        if pile == "s":
            return len(self.stock)
        if pile == "r" and not self.rules.reserve_face_up:
            return max(len(self.reserve) - 1, 0)
        return 0

    def piles(self, reveal: bool = False) -> dict[str, list[str]]:
        """Every pile by notation name, its cards bottom to top as `7H`; face-down cards are
        `??` unless `reveal`. The stock's last card is the next one drawn."""
        piles = {name: [card.name for card in self._piles[name]] for name in self.pile_order}
        for name, cards in piles.items():
            hidden = 0 if reveal else self._face_down(name)
            cards[:hidden] = ["??"] * hidden
        return piles

    def __str__(self) -> str:
        return picture(self)

    def text(self, translator: Translator = ENGLISH) -> str:
        """The board as plain text (text.picture), its header said through `translator`."""
        return picture(self, translator)

    def check_position(self) -> None:
        """ValueError when the position could not have come from this deck by legal moves (a
        damaged snapshot): the reserve only ever loses its top cards, the stock and waste hold
        only cards dealt to them, each foundation is a run of its suit from the base rank, and
        each column is what was dealt to it with a built sequence on top."""
        base_count = _base_count(self.rules)
        dealt_reserve = list(self.cards[base_count:base_count + RESERVE_SIZE])
        if self.reserve != dealt_reserve[:len(self.reserve)]:
            raise ValueError("the reserve is not what was dealt to it")
        position = base_count + RESERVE_SIZE
        dealt_columns = []
        for size in self.rules.column_sizes:
            dealt_columns.append(list(self.cards[position:position + size]))
            position += size
        if Counter(self.stock + self.waste) - Counter(self.cards[position:]):
            raise ValueError("the stock and waste hold cards that were not dealt to them")
        if self.rules.redeals is not None and not 0 <= self.redeals_used <= self.rules.redeals:
            raise ValueError(f"{self.redeals_used} redeals used where {self.rules.redeals} are allowed")
        for index, pile in enumerate(self.foundations):
            base = Card(self._base_rank, SUITS[index // self.rules.decks])
            run = [base]
            while len(run) < min(len(pile), 13):
                run.append(Card(next_rank(run[-1].rank), base.suit))
            if pile != run[:len(pile)]:
                raise ValueError(f"f{index + 1} is not a run of {base.suit.name.lower()} from {base}")
        # A group keeps the build of the column it came from (docs/games.md, shifts): any of the game's.
        builds = {self.rules.column_build(index) for index in range(self.rules.columns)}
        for index, (column, dealt) in enumerate(zip(self.tableau, dealt_columns, strict=True)):
            kept = 0
            while kept < min(len(column), len(dealt)) and column[kept] == dealt[kept]:
                kept += 1
            built = column[kept:]
            for onto, card in pairwise(built):
                if not any(self._builds_on(card, onto, build) for build in builds):
                    raise ValueError(f"t{index + 1} is neither what was dealt to it nor a built sequence "
                                     f"({card} on {onto})")

    # --- the rules ----------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move: to the foundations, then to the tableau, then the draw."""
        moves: list[Move] = []
        sources = [(name, self._piles[name], self.group_sizes(name)) for name in self._sources]
        for name, pile, _ in sources:
            if pile:
                moves.extend(Move(name, f"f{index + 1}") for index in self._foundations_taking(pile[-1]))
        for dst_index in range(len(self.tableau)):
            dst = f"t{dst_index + 1}"
            for name, pile, sizes in sources:
                if name == dst:
                    continue
                from_tableau = name[0] == "t"
                for count in sizes:
                    if self._fits_tableau(pile, count, from_tableau, dst_index):
                        moves.append(Move(name, dst, count))
        if self._reason_draw() is None:
            moves.append(DRAW)
        return moves

    def describe(self, move: Move) -> Phrase:
        """A move in words for people, such as "KC to its foundation" or "9H 8S onto TC in t3"."""
        if move.is_draw:
            return Phrase("draw") if self.stock else Phrase("turn the waste over and draw")
        cards = " ".join(map(str, self._piles[move.src][-move.count:]))
        if move.dst.startswith("f"):
            return Phrase("{cards} to its foundation", cards=cards)
        target = self._piles[move.dst]
        if target:
            return Phrase("{cards} onto {card} in {pile}", cards=cards, card=str(target[-1]), pile=move.dst)
        return Phrase("{cards} to the empty {pile}", cards=cards, pile=move.dst)

    def hint(self) -> Hint | None:
        """The next move besides draws from what the player can see, on the shortest way to a
        card on a foundation or a reserve card turned up, with the draws before it (the solver's
        `hint`); None when nothing helps."""
        return solver.hint(self)

    # --- carrying out commands ----------------------------------------------------------

    def _play_card(self, card: Card, dst: str | None, text: str) -> None:
        places = self._locate(card, text)
        # With two decks the card may lie in two places: play the copy that can move.
        src, count = next((place for place in places if self._candidates(*place, dst)), places[0])
        self._resolve(src, dst, count, text)

    def _play_pile(self, src: str, dst: str | None, count: int | None, text: str) -> None:
        self._pile(src, text)
        self._resolve(src, dst, count, text)

    def _auto_move(self, move: Move) -> bool:
        """Every card that can go to a foundation."""
        return move.dst.startswith("f")

    def _locate(self, card: Card, text: str) -> list[tuple[str, int]]:
        """Where a named card can be moved from, with how many cards move with it: the fewest
        first (two decks hold two of each card); IllegalMoveError when it is in none."""
        places = [(name, 1) for name in ("r", "w") if self._top_or_none(name) == card]
        for index, column in enumerate(self.tableau):
            places += [(f"t{index + 1}", len(column) - at) for at, held in enumerate(column) if held == card]
        if places:
            return sorted(places, key=lambda place: place[1])
        if any(card in pile for pile in self.foundations):
            raise IllegalMoveError("{text!r} is not legal: {card} is already on a foundation", text=text,
                                   card=str(card))
        if card in self.waste:
            raise IllegalMoveError("{text!r} is not legal: {card} is in the waste under {top}", text=text,
                                   card=str(card), top=str(self.waste[-1]))
        if self.rules.reserve_face_up and card in self.reserve:
            raise IllegalMoveError("{text!r} is not legal: {card} is in the reserve under {top}", text=text,
                                   card=str(card), top=str(self.reserve[-1]))
        raise IllegalMoveError("{text!r} is not legal: {card} is not in play yet (it is face down)", text=text,
                               card=str(card))

    def _candidates(self, src: str, count: int | None, dst: str | None) -> list[Move]:
        """The legal moves a command from `src` may mean; `dst` None is anywhere, `f` any foundation."""
        return [
            move for move in self.legal_moves()
            if move.src == src
            and (count is None or move.count == count)
            and (dst is None or move.dst == dst or (dst == "f" and move.dst.startswith("f")))
        ]

    def _resolve(self, src: str, dst: str | None, count: int | None, text: str) -> Move:
        """The one move that a command means, played; IllegalMoveError when there is none,
        NotationError when it could mean groups of different sizes."""
        candidates = self._candidates(src, count, dst)
        if dst is None and candidates:
            candidates = [min(candidates, key=self._preference)]
        if dst is not None and len(candidates) > 1 and count is None:
            # Canonical text leaves out ":1", so a bare pile pair means one card when it can.
            candidates = [move for move in candidates if move.count == 1] or candidates
        if dst == "f":
            # Two foundations of a suit that both take the group are the same to the player.
            candidates = [move for at, move in enumerate(candidates)
                          if all(move.count != earlier.count for earlier in candidates[:at])]
        if dst is not None and len(candidates) > 1:
            choices: str | Phrase = f"{src}{dst}:{candidates[0].count}"
            for move in candidates[1:]:
                choices = Phrase("{first} or {second}", first=choices, second=f"{src}{dst}:{move.count}")
            raise NotationError("{text!r} could move {count} different groups: say {choices}", text, text=text,
                                count=len(candidates), choices=choices)
        if not candidates:
            raise IllegalMoveError("{text!r} is not legal: {reason}", text=text, reason=self._explain(src, dst, count))
        self._do(candidates[0])
        return candidates[0]

    def _preference(self, move: Move) -> tuple[int, int, int]:
        """Best place first: a foundation, then a built column, then an empty column."""
        if move.dst.startswith("f"):
            return (0, 0, 0)
        empty = not self._piles[move.dst]
        return (2 if empty else 1, -move.count, int(move.dst[1:]))

    def _explain(self, src: str, dst: str | None, count: int | None) -> Phrase:
        """Why nothing matches a command, and what is legal instead."""
        sizes = self.group_sizes(src)
        if not self._piles[src]:
            reason = Phrase("{pile} is empty", pile=src)
        elif count is not None and count not in sizes:
            reason = self._reason_group(src, count) or Phrase("{count} cards cannot move from {pile}", count=count,
                                                              pile=src)
        elif dst is None:
            reason = Phrase("{card} has nowhere to go", card=str(self._piles[src][-1]))
        else:
            move = Move(src, dst if dst != "f" else f"f{self._suit_foundations(self._piles[src][-1])[0] + 1}",
                        count or (sizes[0] if sizes else 1))
            reason = self._reason(move) or Phrase("no group fits")
        return Phrase("{reason}; {alternatives}", reason=reason, alternatives=self._alternatives(src))

    # --- the rules in detail ------------------------------------------------------------

    def _reason(self, move: Move) -> Phrase | None:
        """None when the move is legal, else why not."""
        if move.is_draw:
            return self._reason_draw()
        if move.dst in ("s", "w") or move.dst.startswith("r"):
            return Phrase("cards never go to {pile}", pile=move.dst)
        for pile in (move.src, move.dst):
            if pile not in self._piles:
                return Phrase("this game has no pile {pile}", pile=pile)
        if move.src.startswith("f"):
            return Phrase("cards never leave the foundations")
        if not self._piles[move.src]:
            return Phrase("{pile} is empty", pile=move.src)
        reason = self._reason_group(move.src, move.count)
        if reason is not None:
            return reason
        if move.dst.startswith("f"):
            return self._reason_foundation(move)
        return self._reason_tableau(move.src, move.count, int(move.dst[1:]) - 1)

    def _reason_draw(self) -> Phrase | None:
        if self.stock:
            return None
        if not self.waste:
            return Phrase("the stock and the waste are both empty")
        if self.redeals_left == 0:
            return Phrase("the stock is empty and no redeal is left")
        return None

    def _reason_group(self, src: str, count: int) -> Phrase | None:
        if count in self.group_sizes(src):
            return None
        pile = self._piles[src]
        if not src.startswith("t"):
            return Phrase("only the top card of {pile} can move", pile=src)
        if count > len(pile):
            return Phrase.counted("{pile} has only {count} card", "{pile} has only {count} cards", len(pile), pile=src)
        if self.rules.groups is Groups.TOP_OR_WHOLE:
            return Phrase("only the top card or the whole column of {pile} can move", pile=src)
        return Phrase("the top {count} cards of {pile} are not a built sequence", count=count, pile=src)

    def _reason_foundation(self, move: Move) -> Phrase | None:
        if move.count != 1:
            return Phrase("cards go to a foundation one at a time")
        card = self._piles[move.src][-1]
        index = int(move.dst[1:]) - 1
        suit = SUITS[index // self.rules.decks]
        if suit is not card.suit:
            return Phrase("{pile} builds {suit}, not {card}", pile=move.dst, suit=SUIT_WORDS[suit], card=str(card))
        if not self._foundation_accepts(index, card):
            pile = self.foundations[index]
            wanted = next_rank(pile[-1].rank) if pile else self._base_rank
            if len(pile) == 13:
                return Phrase("{pile} is complete", pile=move.dst)
            return Phrase("{pile} needs the {wanted}, not {card}", pile=move.dst, wanted=str(Card(wanted, card.suit)),
                          card=str(card))
        return None

    def _reason_tableau(self, src: str, count: int, dst_index: int) -> Phrase | None:
        pile, dst_pile = self._piles[src], self.tableau[dst_index]
        if self._fits_tableau(pile, count, src[0] == "t", dst_index):
            return None
        if not dst_pile:
            return Phrase("moving a whole column into an empty column is not a move")
        build = self.rules.column_build(dst_index)
        return Phrase("{card} cannot go on {target} ({pile} builds down {build})", card=str(pile[-count]),
                      target=str(dst_pile[-1]), pile=f"t{dst_index + 1}", build=BUILD_WORDS[build])

    def _fits_tableau(self, pile: list[Card], count: int, from_tableau: bool, dst_index: int) -> bool:
        """Whether the top `count` cards of `pile` may go on column `dst_index` (from 0)."""
        dst_pile = self.tableau[dst_index]
        if not dst_pile:
            return not (from_tableau and count == len(pile))
        return self._builds_on(pile[-count], dst_pile[-1], self.rules.column_build(dst_index))

    def _suit_foundations(self, card: Card) -> range:
        """The indexes of the foundations that build the card's suit."""
        decks = self.rules.decks
        return range(card.suit.index * decks, (card.suit.index + 1) * decks)

    def _foundations_taking(self, card: Card) -> list[int]:
        """The indexes of the foundations that take the card now."""
        return [index for index in self._suit_foundations(card) if self._foundation_accepts(index, card)]

    def _foundation_accepts(self, index: int, card: Card) -> bool:
        pile = self.foundations[index]
        if SUITS[index // self.rules.decks] is not card.suit:
            return False
        if not pile:
            return card.rank == self.base_rank
        return len(pile) < 13 and card.rank == next_rank(pile[-1].rank)

    def _builds_on(self, card: Card, onto: Card, build: Build) -> bool:
        if card.rank != previous_rank(onto.rank):
            return False
        if build is Build.ALTERNATE:
            return card.is_red != onto.is_red
        if build is Build.SUIT:
            return card.suit is onto.suit
        return True

    def group_sizes(self, src: str) -> list[int]:
        """How many cards may move together from a pile."""
        pile = self._piles[src]
        if not pile:
            return []
        if not src.startswith("t"):
            return [1]
        # A group moves when it is a built sequence for the column it leaves (docs/games.md, shifts).
        build = self.rules.column_build(int(src[1:]) - 1)
        run = 1
        while run < len(pile) and self._builds_on(pile[-run], pile[-run - 1], build):
            run += 1
        if self.rules.groups is Groups.ANY:
            return list(range(1, run + 1))
        return [1, len(pile)] if run == len(pile) and len(pile) > 1 else [1]

    # --- changing the position ----------------------------------------------------------

    def _do(self, move: Move) -> None:
        """Carry out a move already known to be legal."""
        before = self._position()
        fills: tuple[str, ...] = ()
        if move.is_draw:
            if not self.stock:
                self._redeal()
                if self.rules.die is Die.PASS:
                    self.die_roll = self.die_roll_for_pass(self.redeals_used)
            for _ in range(min(self.draw_count, len(self.stock))):
                self.waste.append(self.stock.pop())
        else:
            src, dst = self._piles[move.src], self._piles[move.dst]
            dst.extend(src[-move.count:])
            del src[-move.count:]
            if not src and move.src.startswith("t") and self.rules.fill_from_reserve and self.reserve:
                src.append(self.reserve.pop())
                fills = (move.src,)
        self.history.append(Step(move, before, fills))

    def die_roll_for_pass(self, pass_index: int) -> int:
        """The Die of Justice: the roll for a pass, fixed by the deal so that everyone on the
        same deal rolls the same (the game's one roll is pass 0's)."""
        index = pass_index if self.rules.die is Die.PASS else 0
        source = f"deal {self.deal}" if self.deal is not None else "cards " + "".join(map(str, self.cards))
        return random.Random(f"die of justice: {source}: pass {index}").randint(1, 6)

    # --- helpers ------------------------------------------------------------------------

    def _top_or_none(self, name: str) -> Card | None:
        pile = self._piles[name]
        return pile[-1] if pile else None


def new_canfield_game(name: str = "canfield", *, deal: int | None = None,
                      cards: list[Card] | list[str] | None = None, **options: object) -> CanfieldGame:
    """A new game of `name`: PySolFC's game number `deal`, or an explicit deck `cards` (first
    dealt first: base card(s), reserve bottom to top, the columns t1, t2, ... each bottom to
    top, stock top down), or a random game number. Options: draw=1..6, redeals=None|k, groups="top-or-whole"|"any",
    die="off"|"game"|"pass"."""
    return CanfieldGame.dealt(make_rules(name, **options), deal=deal, cards=cards,
                              deck_of=lambda number: dealt_canfield_cards(name, number))


def _kind(name: str, title: str, board_layout: str = "canfield") -> GameKind:
    rules = make_rules(name)
    # The solver's search knows the one-deck family on four columns (no options change that).
    solver_covers = rules.decks == 1 and rules.columns == solver.COLUMNS and rules.right_build is None
    return GameKind(
        name=name, title=title, option_names=CANFIELD_OPTION_NAMES, piles=pile_order(rules),
        solver_covers=solver_covers, board_layout=board_layout,
        make_rules=partial(make_rules, name), new=partial(new_canfield_game, name),
        dealt_cards=partial(dealt_canfield_cards, name), describe_rules=lambda: describe_rules(rules, title),
    )


CANFIELD_KINDS: dict[str, GameKind] = {kind.name: kind for kind in (
    _kind("canfield", N_("Canfield")),
    _kind("superior-canfield", N_("Superior Canfield"), board_layout="superior-canfield"),
    _kind("rainbow-canfield", N_("Rainbow Canfield")),
    _kind("storehouse", N_("Storehouse")),
    _kind("canfield-draw1", N_("Canfield (draw 1)")),
    _kind("canfield-one-pass", N_("Canfield (one pass)")),
    _kind("demons-and-thieves", N_("Demons and Thieves"), board_layout="demons-and-thieves"),
    _kind("demonthief", N_("Demonthief"), board_layout="demons-and-thieves"),
)}
