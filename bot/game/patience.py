"""The one interface every game of the engine implements, `Game`, and `GameKind`, what a game
kind tells the rest of the bot about itself (games.py registers every kind by name).

A game is a deck and a move list, changed through `play` and `undo` (and `resume`, which puts a
restored game at its stored position); a position is every pile in `pile_order`, the redeals
used and the die's roll. `CanfieldGame` (canfield.py) and `PatriarchsGame` (patriarchs.py)
implement `Game`: its public members, and the rule hooks `_reason` (why a move is illegal, or
None), `_do` (carry out a legal move, appending a `Step`), `_play_card` and `_play_pile` (the
two kinds of parsed command that move cards), `_auto_move` (which moves `auto` plays) and
`_work_out_outcome`. A game is typed by its rules' type: `Game[RulesT]`, so that `game.rules`
is the kind's own (CanfieldGame's `Rules`, PatriarchsGame's `PatriarchsRules`).
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, Self, TypeVar

from bot.game import notation
from bot.game.cards import Card, cards_code, cards_from_code
from bot.game.deals import random_deal
from bot.game.errors import IllegalMoveError, NotationError
from bot.game.moves import DRAW, Move
from bot.game.phrases import ENGLISH, Phrase, Sentences, Translator

SHOWN_ALTERNATIVES = 8  # legal moves an error message lists at most
FOUNDATION_LENGTH = 13  # a completed foundation


class Outcome(Enum):
    """How a finished game ended."""

    WON = "won"
    BLOCKED = "blocked"


# The position without history: every pile in pile_order, then redeals used and the die roll.
Position = tuple[tuple[tuple[Card, ...], ...], int, int | None]


@dataclass(slots=True)
class Step:
    """One played move, with the position before it (None when restored from a snapshot:
    undo then rebuilds it by replaying) and the piles the game filled by itself after it."""

    move: Move
    before: Position | None
    fills: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[Step], tuple[Move, Position | None, tuple[str, ...]]]:
        return Step, (self.move, self.before, self.fills)  # quicker than a slotted dataclass's own (Card's)


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint a player can follow (`Game.hint`): draw `draws` times, then play `move`, the next
    move that is not a draw. A draw on an empty stock turns the waste over first, as `d` does,
    so a redeal is one of the draws. `meaning` is the move in words as it will be played (after
    the draws); `way` the position before each draw and then before the move, which tells
    where a player following it has got to (`rest`)."""

    move: Move
    draws: int
    meaning: Phrase = field(compare=False)
    way: tuple[Position, ...] = field(compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.move.is_draw:
            raise ValueError("a hint's move is the one after its draws, never a draw")
        if self.draws < 0 or len(self.way) != self.draws + 1:
            raise ValueError(f"a hint of {self.draws} draws has {self.draws + 1} positions on its way, "
                             f"not {len(self.way)}")

    @property
    def next_move(self) -> Move:
        """What to play now: a draw while draws are left, then the move."""
        return DRAW if self.draws else self.move

    @property
    def moves(self) -> list[Move]:
        """The hint's moves in order: its draws, then its move."""
        return [DRAW] * self.draws + [self.move]

    @property
    def redeals(self) -> int:
        """How many of its draws turn the waste over first."""
        return self.way[-1][1] - self.way[0][1]

    def rest(self, position: Position) -> Hint | None:
        """What is left of the hint at `position` when a player following it is there (at its
        start, or after some of its draws): the draws left, then the same move; None when the
        position is not on its way."""
        for done, passed in enumerate(self.way):
            if passed == position:
                return self if done == 0 else Hint(self.move, self.draws - done, self.meaning, self.way[done:])
        return None


class GameRules(Protocol):
    """What every game's rules value offers: its game's name and the options in force."""

    @property
    def name(self) -> str:
        """The game's name, such as `canfield`."""
        ...

    def options(self) -> dict[str, object]:
        """The player-settable options as plain values."""
        ...


RulesT = TypeVar("RulesT", bound=GameRules)


@dataclass(frozen=True, slots=True)
class GameKind:
    """One game the engine plays, with what the rest of the bot needs to know of it: its title,
    the options a player may set, whether the solver's full search (`solver.solve`) covers it,
    its piles, and the name of the board layout render draws it with (render/layouts.py). The
    callables build its rules, its games and its decks, and describe it in words."""

    name: str
    title: str
    option_names: tuple[str, ...]
    piles: tuple[str, ...]  # every pile of its games by notation name, in `Game.pile_order` (no option changes them)
    solver_covers: bool
    board_layout: str
    make_rules: Callable[..., GameRules]  # (**options) -> the rules with the options applied
    new: Callable[..., Game[Any]]  # (deal=, cards=, **options) -> a new game; see games.new_game
    dealt_cards: Callable[[int], list[Card]]  # a PySolFC game number -> its deck, in `cards=` order
    describe_rules: Callable[[], Sentences]  # the rules in a few plain sentences


class Game(ABC, Generic[RulesT]):
    """One game of patience: the interface the bot, the solver, the serializer and render use,
    with the machinery every game shares. See the module's docstring for what a game adds."""

    # What moves look like in this game, for a player who typed something unreadable.
    examples = Phrase("moves look like rt2, wf, t1t3:2, 7h, 7h t2, d (draw), a (all to foundations), u (undo)")

    rules: RulesT
    deal: int | None  # PySolFC's game number; None for an explicit deck
    cards: tuple[Card, ...]  # the deck, in the order new_game(cards=...) takes it
    pile_order: tuple[str, ...]  # every pile by notation name, in a fixed order
    history: list[Step]  # the moves played, each with what the game filled by itself after it
    redeals_used: int
    die_roll: int | None  # the Die of Justice's roll in force; None when the game plays without the die
    base_rank: int | None  # the rank every foundation starts from; None when they start from different ranks
    foundations: list[list[Card]]
    stock: list[Card]  # the top, the next card drawn, is last
    waste: list[Card]
    _piles: dict[str, list[Card]]

    @abstractmethod
    def __init__(self, rules: RulesT, cards: Sequence[Card], deal: int | None = None, *,
                 checked: bool = False) -> None:
        """Deal `cards` (a whole deck, first dealt first) under `rules`; `deal` is its game number.
        `checked`: the cards are a game's own, already found to be whole decks (a copy's): they are
        not counted again, which is most of what a copy costs."""

    @property
    @abstractmethod
    def kind(self) -> GameKind:
        """What kind of game this is, with its title, options and board layout."""

    @property
    def title(self) -> str:
        """The game's name for people, such as `Superior Canfield`."""
        return self.kind.title

    @property
    @abstractmethod
    def draw_count(self) -> int:
        """How many cards the next draw turns."""

    @property
    @abstractmethod
    def redeals_left(self) -> int | None:
        """Redeals still allowed; None when unlimited."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """WON or BLOCKED once the game is over (the bot decides, not the player); None while
        play can still get somewhere."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move now."""

    @abstractmethod
    def describe(self, move: Move) -> Phrase:
        """A move in words for people, such as "KC to its foundation"."""

    @abstractmethod
    def hint(self) -> Hint | None:
        """The next move from what the player can see on the shortest way to progress, with the
        draws before it; None when no move can help."""

    @abstractmethod
    def foundation_base(self, pile: str) -> Card:
        """The card a foundation starts with; ValueError for a pile that is not a foundation."""

    @abstractmethod
    def is_face_up(self, pile: str, index: int) -> bool:
        """Whether the card at `index` (from the bottom) of `pile` shows its face."""

    @abstractmethod
    def piles(self, reveal: bool = False) -> dict[str, list[str]]:
        """Every pile by notation name in `pile_order`, its cards bottom to top as `7H`; face-down
        cards are `??` unless `reveal`. The stock's last card is the next one drawn."""

    @abstractmethod
    def text(self, translator: Translator = ENGLISH) -> str:
        """The board as plain text (what `str` gives), its header said through `translator`."""

    @abstractmethod
    def check_position(self) -> None:
        """ValueError when the position could not have come from this deck by legal moves."""

    @abstractmethod
    def _reason(self, move: Move) -> Phrase | None:
        """None when the move is legal, else why not."""

    @abstractmethod
    def _do(self, move: Move) -> None:
        """Carry out a move already known to be legal, appending its Step to the history."""

    @abstractmethod
    def _play_card(self, card: Card, dst: str | None, text: str) -> None:
        """Carry out a command naming a card (`7h`, `7h t2`): to `dst`, or its best place when
        None; ValueError (quoting `text`) when it cannot be."""

    @abstractmethod
    def _play_pile(self, src: str, dst: str | None, count: int | None, text: str) -> None:
        """Carry out a command naming piles (`rt2`, `t1t3:2`, `wf`): `count` cards from `src` (its
        best group when None) to `dst` (its best place when None); ValueError (quoting `text`)
        when it cannot be."""

    @abstractmethod
    def _auto_move(self, move: Move) -> bool:
        """Whether `auto` plays this legal move (it plays such moves until none is left)."""

    def _carry_out(self, command: notation.Command) -> None:
        """Carry out one parsed command; ValueError (quoting it) when it cannot be."""
        if isinstance(command, notation.ActionCommand):
            if command.action is notation.Action.DRAW:
                self.verify_move(DRAW)
                self._do(DRAW)
            elif command.action is notation.Action.UNDO:
                self.undo()
            else:
                self._auto_foundations()
            return
        if isinstance(command, notation.CardCommand):
            self._play_card(command.card, command.dst, command.text)
            return
        self._play_pile(command.src, command.dst, command.count, command.text)

    def _auto_foundations(self) -> None:
        """Play the moves `auto` plays (`_auto_move`) until none is left."""
        while (move := next((m for m in self.legal_moves() if self._auto_move(m)), None)) is not None:
            self._do(move)

    @classmethod
    def dealt(cls, rules: RulesT, *, deal: int | None, cards: list[Card] | list[str] | None,
              deck_of: Callable[[int], list[Card]]) -> Self:
        """A new game: an explicit deck `cards` (Cards or their text), or PySolFC's game number
        `deal` laid out by `deck_of`, or a random game number; not both."""
        if cards is not None and deal is not None:
            raise ValueError("give a deal number or the cards, not both")
        if cards is not None:
            return cls(rules, [card if isinstance(card, Card) else Card.parse(card) for card in cards])
        if deal is None:
            deal = random_deal()
        return cls(rules, deck_of(deal), deal)

    def copy(self, *, last_move_only: bool = False) -> Self:
        """An independent game in the same position with the same history; `last_move_only`:
        with only its last move's step (it shows and draws the same, and undoes once at most),
        which is all a board needs and a fraction of the bytes to send a drawing process."""
        history = self.history[-1:] if last_move_only else list(self.history)
        return self._rebuilt(self.rules, self.cards, self.deal, self._position(), history, self._known_outcome)

    @classmethod
    def _rebuilt(cls, rules: RulesT, cards: Sequence[Card], deal: int | None, position: Position, history: list[Step],
                 known: tuple[Position, Outcome | None] | None) -> Self:
        """A game of this deck at `position`, after `history`, its outcome there `known` (a copy's
        or an unpickled game's: every part of a game's state)."""
        game = cls(rules, cards, deal, checked=True)
        game._restore(position)
        game.history = history
        game._known_outcome = known
        return game

    def __reduce__(self) -> tuple[Callable[..., Game[Any]], tuple[Any, ...]]:
        # Pickled as what `copy` copies, every pile and the deck a `cards_code`: a game goes to
        # a drawing process with every move (render.workers), and pickling its cards one by one
        # (`Card.__reduce__`, a Python call each) was most of what sending it cost.
        known = self._known_outcome
        history = [(step.move, None if step.before is None else _position_code(step.before), step.fills)
                   for step in self.history]
        rules = (type(self.rules), _fields_of(type(self.rules))(self.rules))
        return _unpickled_game, (type(self), rules, self.deal, cards_code(self.cards),
                                 _position_code(self._position()), history,
                                 None if known is None else (_position_code(known[0]), known[1]))

    _known_outcome: tuple[Position, Outcome | None] | None = None

    def _outcome_once(self, work_out: Callable[[], Outcome | None]) -> Outcome | None:
        """The outcome of the position now, worked out (a search: up to a few ms) only the first
        time it is asked for: a move's answer asks for it twice, to store it and to draw it."""
        position = self._position()
        known = self._known_outcome
        if known is None or known[0] != position:
            known = self._known_outcome = (position, work_out())
        return known[1]

    def outcome_within(self, positions: int) -> Outcome | None:
        """`outcome`, when a search of at most `positions` positions settles it (it is then
        known, and `outcome` costs nothing more); the solver's GaveUp when it does not."""
        return self._outcome_once(lambda: self._work_out_outcome(positions))

    @abstractmethod
    def _work_out_outcome(self, positions: int | None = None) -> Outcome | None:
        """The outcome of the position now (`positions`: see `outcome_within`)."""

    @property
    def name(self) -> str:
        """The game's name, such as `canfield`."""
        return self.rules.name

    @property
    def options(self) -> dict[str, object]:
        """The options in force, as plain values."""
        return self.rules.options()

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, in order."""
        return [step.move for step in self.history]

    @property
    def last_move(self) -> Move | None:
        """The move played last, or None before the first."""
        return self.history[-1].move if self.history else None

    @property
    def pass_number(self) -> int:
        """Which pass through the stock this is, from 1."""
        return self.redeals_used + 1

    @property
    def foundation_cards(self) -> int:
        """How many cards are on the foundations."""
        return sum(len(pile) for pile in self.foundations)

    @property
    @abstractmethod
    def reserve_cards(self) -> int:
        """How many cards are left in the reserve (or reserve piles)."""

    @property
    def score(self) -> int:
        """The round score (docs/games.md), for any number of foundations: 50 a completed foundation
        (13 cards), 100 for a win, one a card on the foundations, minus one a card left in the
        reserve. One deck: from -12 up to 352; two decks, eight foundations: up to 604."""
        completed = sum(len(pile) == FOUNDATION_LENGTH for pile in self.foundations)
        won = 100 if self.foundation_cards == len(self.cards) else 0
        return 50 * completed + won + self.foundation_cards - self.reserve_cards

    def top(self, pile: str) -> Card | None:
        """The top card of a pile, or None when it is empty (the stock's top is hidden but given)."""
        cards = self._pile(pile)
        return cards[-1] if cards else None

    def verify_move(self, move: Move) -> None:
        """Raise IllegalMoveError, saying why and what is legal, unless `move` is legal now."""
        reason = self._reason(move)
        if reason is not None:
            raise IllegalMoveError("{move!r} is not legal: {reason}; {alternatives}", move=str(move), reason=reason,
                                   alternatives=self._alternatives(move.src))

    def can_move(self, move: Move) -> bool:
        """Whether `move` is legal now."""
        return self._reason(move) is None

    def play(self, move: Move | str) -> list[Move]:
        """Play a Move, or text in the notation of docs/notation.md (several moves allowed).

        Returns the moves this call added that still stand, in canonical form. Raises
        NotationError when any token of the text does not read, or could mean more than one
        move (nothing changes), IllegalMoveError at the first illegal move (the moves before
        it stand and are in the error's `played`). A `u`
        in the text takes back a move, perhaps one played before this call: whoever keeps the
        move list should then compare it with `moves`.
        """
        if isinstance(move, Move):
            self.verify_move(move)
            self._do(move)
            return [move]
        if not isinstance(move, str):
            raise NotationError("{value} is neither a move nor text", value=repr(move))
        commands = self.read(move)
        if any(isinstance(c, notation.ActionCommand) and c.action is notation.Action.HINT for c in commands):
            raise NotationError("{text!r}: 'h' asks for a hint, which is not a move", token="h", text=move.strip())
        start, position, history = len(self.history), self._position(), list(self.history)
        low = start
        for command in commands:
            try:
                self._carry_out(command)
            except NotationError:
                # A command that could mean several moves: nothing of the message stands.
                self._restore(position)
                self.history = history
                raise
            except IllegalMoveError as error:
                error.played = self.moves[low:]
                raise
            except ValueError as error:  # not a rule's refusal: said as it is, what came before standing
                raise IllegalMoveError("{problem}", self.moves[low:], problem=str(error)) from None
            low = min(low, len(self.history))
        return self.moves[low:]

    def read(self, text: str) -> list[notation.Command]:
        """The commands of a message of moves, all read before any is played; NotationError,
        naming the unreadable token and saying what moves look like in this game, otherwise."""
        try:
            return notation.parse(text)
        except NotationError as error:
            raise NotationError("{problem}: {examples}", error.token, problem=error.phrase,
                                examples=self.examples) from None

    def can_undo(self) -> bool:
        """Whether there is a move to take back."""
        return bool(self.history)

    def undo(self) -> Move:
        """Take back the last move, with what the game filled by itself after it; return it."""
        if not self.history:
            raise IllegalMoveError("'u' is not legal: no move has been played yet")
        step = self.history[-1]
        if step.before is None:
            self._rebuild_history()
            step = self.history[-1]
        assert step.before is not None
        self._restore(step.before)
        self.history.pop()
        return step.move

    def hint_of(self, draws: int, move: Move) -> Hint:
        """The hint of `draws` draws then `move` from the position now, with the positions on its
        way; IllegalMoveError when those moves are not legal in turn. The game is left as it was."""
        scratch = self.copy(last_move_only=True)
        way = [scratch._position()]
        for _ in range(draws):
            scratch.play(DRAW)
            way.append(scratch._position())
        scratch.verify_move(move)
        return Hint(move, draws, scratch.describe(move), tuple(way))

    def undoes_last(self, move: Move) -> bool:
        """Whether `move` puts back at once what the last move moved (which a hint never says)."""
        last = self.last_move
        return last is not None and not move.is_draw and (move.src, move.dst, move.count) == (
            last.dst, last.src, last.count)

    def _alternatives(self, src: str) -> Phrase:
        """The legal moves from `src`, or else some legal moves, for an error message."""
        legal = self.legal_moves()
        from_src = [str(m) for m in legal if m.src == src]
        if from_src:
            return Phrase("legal from {pile}: {moves}", pile=src, moves=", ".join(from_src[:SHOWN_ALTERNATIVES]))
        if not legal:
            return Phrase("no move is legal")
        shown = ", ".join(str(m) for m in legal[:SHOWN_ALTERNATIVES])
        return Phrase("legal moves: {moves}", moves=shown + (" …" if len(legal) > SHOWN_ALTERNATIVES else ""))

    @property
    def position(self) -> Position:
        """The position now, as a value: every pile in `pile_order`, the redeals used, the die's roll."""
        return self._position()

    def resume(self, position: Position, moves: list[Move]) -> None:
        """Put a new game at `position`, reached by `moves` (a snapshot restored without
        replaying): ValueError when the position could not have come from this deck, or when a
        move has been played; undo replays the moves when it first needs an earlier position."""
        if self.history:
            raise ValueError("a game resumes a position only before any move is played")
        self._restore(position)
        self.check_position()
        self.history = [Step(move, None) for move in moves]

    def shortest_progress(self, limit: int) -> list[Move] | None:
        """The shortest line of legal moves (stock cycling included) to a card put on a
        foundation or a reserve card turned up, searched with the game's own moves: [] when none
        exists, None when the search looked at more than `limit` positions. The game is left as
        it was."""
        scratch = self.copy()
        cards_up, reserve_left = self.foundation_cards, self.reserve_cards
        root = scratch._position()
        frontier: list[tuple[Position, list[Move]]] = [(root, [])]
        seen = {root}
        while frontier:
            next_frontier: list[tuple[Position, list[Move]]] = []
            for position, line in frontier:
                scratch._restore(position)
                for move in scratch.legal_moves():
                    scratch._do(move)
                    if scratch.foundation_cards > cards_up or scratch.reserve_cards < reserve_left:
                        return [*line, move]
                    after = scratch._position()
                    scratch._restore(position)
                    if after in seen:
                        continue
                    if len(seen) > limit:
                        return None
                    seen.add(after)
                    next_frontier.append((after, [*line, move]))
                scratch.history.clear()
            frontier = next_frontier
        return []

    def _redeal(self) -> None:
        """Turn the waste over as the new stock."""
        self.stock.extend(reversed(self.waste))
        self.waste.clear()
        self.redeals_used += 1

    def _position(self) -> Position:
        piles = tuple(tuple(self._piles[name]) for name in self.pile_order)
        return (piles, self.redeals_used, self.die_roll)

    def _restore(self, position: Position) -> None:
        piles, self.redeals_used, self.die_roll = position
        for name, cards in zip(self.pile_order, piles, strict=True):
            self._piles[name][:] = cards

    def restarted(self) -> Self:
        """A new game of the same kind, rules and deck, before any move (with its deal number,
        when it has one, so that its board says which deal it is)."""
        return type(self)(self.rules, self.cards, self.deal, checked=True)

    def _rebuild_history(self) -> None:
        """Replay the game from its deck to recover the positions that undo needs."""
        fresh = self.restarted()
        for step in self.history:
            fresh._do(step.move)
        self._restore(fresh._position())
        self.history = fresh.history

    def _pile(self, name: str, text: str | None = None) -> list[Card]:
        if name not in self._piles:
            raise IllegalMoveError("{text!r} is not legal: this game has no pile {pile}", text=text or name, pile=name)
        return self._piles[name]


def _position_code(position: Position) -> tuple[str, tuple[int, ...], int, int | None]:
    """A position as the `cards_code` of all its piles one after another, each pile's length,
    the redeals and the die."""
    piles, redeals, die = position
    return cards_code([card for pile in piles for card in pile]), tuple(map(len, piles)), redeals, die


def _position_from_code(code: tuple[str, tuple[int, ...], int, int | None]) -> Position:
    cards, lengths, redeals, die = code
    every = cards_from_code(cards)
    piles, start = [], 0
    for length in lengths:
        piles.append(every[start:start + length])
        start += length
    return tuple(piles), redeals, die


@functools.cache
def _fields_of(kind: type) -> Callable[[Any], tuple[Any, ...]]:
    """What gives a dataclass's fields as a tuple, in order (its rules' values, to pickle a game;
    rules have several fields, so that `attrgetter` gives a tuple)."""
    return operator.attrgetter(*(field.name for field in dataclasses.fields(kind)))


@functools.lru_cache(maxsize=64)
def _shared_rules(kind: type, values: tuple[Any, ...]) -> Any:
    """The rules with these values (`_fields_of`), one object for all the games unpickled with them."""
    return kind(*values)


def _unpickled_game(kind: type[Game[Any]], rules: tuple[type, tuple[Any, ...]], deal: int | None, cards: str,
                    position: tuple[str, tuple[int, ...], int, int | None],
                    history: list[tuple[Move, Any, tuple[str, ...]]], known: tuple[Any, Outcome | None] | None,
                    ) -> Game[Any]:
    """A game as `Game.__reduce__` pickled it."""
    steps = [Step(move, None if before is None else _position_from_code(before), fills)
             for move, before, fills in history]
    return kind._rebuilt(_shared_rules(*rules), cards_from_code(cards), deal, _position_from_code(position), steps,
                         None if known is None else (_position_from_code(known[0]), known[1]))
