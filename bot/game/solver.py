"""A solver for the Canfield family: the true end of a game, honest hints, winnable deals.

Three questions, one search machinery:

- `solve(game, limit=...)`: with every card known, can the game still be won? A depth-first
  search with a transposition table, deterministic, that returns the winning line.
- `is_dead(game)`: from what the player can see, can any sequence of moves still put a card on a
  foundation or turn up a reserve card? (The bot decides, not the player: docs/games.md.)
- `hint(game)`: the next move from visible information that leads to such progress soonest,
  with the draws before it (a `Hint`).

The search works on a compact copy of the position: cards are the ints 0..51 (suit index * 13 +
rank - 1), piles are tuples. The stock and waste are one "talon" whose cards are reached by
drawing: a talon move draws (redealing as needed) until a card is on top of the waste, then plays
it, so runs of draws are never searched one by one. Safe foundation moves are made at once; the
key of a position sorts the columns, so equal columns count as one; moves to empty columns go to
the first one only. Where any group may move, `solve` leaves out the partial group moves that
only swap what lies on two twin cards (Search.twin_move; why that loses no win: docs/games.md,
"How the solver searches").
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, TypeGuard

from bot.game.cards import full_deck
from bot.game.moves import DRAW, Move
from bot.game.rules import Build, Die, Groups

try:
    from bot.game import _solver_core
except ImportError:  # built without a C compiler: the same search runs in Python
    _solver_core = None

if TYPE_CHECKING:
    from bot.game.canfield import CanfieldGame
    from bot.game.cards import Card
    from bot.game.patience import Game, Hint

COLUMNS = 4
DECK = 52
COLUMN_NAMES = ("t1", "t2", "t3", "t4")
FOUNDATION_NAMES = ("f1", "f2", "f3", "f4")
MAX_PASSES = 64  # with unlimited redeals and a die rolled each pass, passes are searched up to here
DEAD_LIMIT = 30_000  # positions is_dead and hint may look at (about 1 s) before giving the benefit of the doubt
# The same for games the search does not cover (two decks), searched with the engine itself.
ENGINE_DEAD_LIMIT = 2_000


class GaveUp(Exception):
    """The search reached its limit."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What `solve` found: `status` is "winnable", "unwinnable" or "gave-up"; `moves`, when
    winnable, is the winning line in canonical moves that `play` accepts one by one."""

    status: str
    moves: list[Move] = field(default_factory=list)
    positions: int = 0
    seconds: float = 0.0


# A position: foundation counts by suit, reserve length, columns, waste, stock (top last),
# redeals used. Immutable, so that positions can be shared freely during the search.
State = tuple[tuple[int, ...], int, tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]
# One step of a line: (draws first, source pile, destination pile, cards).
SearchStep = tuple[int, str, str, int]
# A card drawn to the top of the waste and played from it: the card, then the waste left under
# it, the stock and the passes (Talon.play).
Drawn = tuple[int, tuple[int, ...], tuple[int, ...], int]


def covers(game: Game) -> TypeGuard[CanfieldGame]:
    """Whether the search covers the game, as its kind says: the one-deck Canfield family, four
    columns. The two-deck games get is_dead and hint from a smaller search with the engine's
    own moves (`Game.shortest_progress`), and no `solve`."""
    return game.kind.solver_covers


def card_index(card: Card) -> int:
    """The int a Card is searched as."""
    return _CARD_INDEXES[card.name]


# Each card's int, by its name: a card's suit index is a search of the suits, and every search
# starts by reading every card of the game.
_CARD_INDEXES = {card.name: card.suit.index * 13 + card.rank - 1 for card in full_deck()}


def card_indexes(cards: Sequence[Card]) -> tuple[int, ...]:
    """The ints a pile of Cards is searched as."""
    return tuple([_CARD_INDEXES[card.name] for card in cards])


_DIE_ROLLS: dict[tuple[Die, object], list[int]] = {}


def _die_rolls(game: CanfieldGame) -> list[int]:
    """The Die of Justice's roll for each pass up to MAX_PASSES. Kept: every search asks, and
    working them out seeds a random generator for each pass (some 0.3 ms in all); the rolls are
    fixed by the die and the deal, its number or, without one, its cards (see
    CanfieldGame.die_roll_for_pass)."""
    key = (game.rules.die, game.deal if game.deal is not None else game.cards)
    rolls = _DIE_ROLLS.get(key)
    if rolls is None:
        if len(_DIE_ROLLS) > 10_000:
            _DIE_ROLLS.clear()
        rolls = _DIE_ROLLS[key] = [game.die_roll_for_pass(p) for p in range(MAX_PASSES + 1)]
    return rolls


@cache
def _card_tables(build: Build, base: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...],
                                                   tuple[frozenset[int], ...], tuple[tuple[int, ...], ...]]:
    """Each card's suit, rank and place on a foundation; the cards that can sit on each; the suits
    whose cards could be built on each suit's. Worked out once for each way of building and base
    rank (a table of 52 x 52: most of what a Search cost to make, with every move)."""
    suit = tuple(c // 13 for c in range(DECK))
    rank = tuple(c % 13 + 1 for c in range(DECK))
    rel = tuple((rank[c] - base) % 13 for c in range(DECK))  # its place on a foundation
    red = [suit[c] >= 2 for c in range(DECK)]  # hearts and diamonds
    sits_on = []
    for onto in range(DECK):
        below = (rank[onto] - 2) % 13 + 1
        sits_on.append(frozenset(c for c in range(DECK) if rank[c] == below and (
            build is Build.ANY
            or (build is Build.SUIT and suit[c] == suit[onto])
            or (build is Build.ALTERNATE and red[c] != red[onto]))))
    # The suits whose cards could be built on a card of each suit: a card is safe to put on its
    # foundation once those suits' foundations are past the rank below it.
    helpers = tuple(tuple(sorted({suit[c] for c in sits_on[s * 13]})) for s in range(4))
    return suit, rank, rel, tuple(sits_on), helpers


@cache
def _foundation_tables(build: Build, base: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The card each foundation wants after `count` cards, and the cards that can sit on each card, sorted."""
    sits_on = _card_tables(build, base)[3]
    wanted = tuple(tuple(suit * 13 + (base - 1 + count) % 13 for count in range(13)) for suit in range(4))
    return wanted, tuple(tuple(sorted(cards)) for cards in sits_on)


class Talon:
    """What drawing can bring to the top of the waste from one position of the stock and waste.

    While drawing and redealing, the waste followed by the stock from its top down (`cards`)
    never changes: a draw moves the stock's top cards to the waste's end, a redeal turns the
    whole waste over as the stock. So a position of the talon is just the waste's length and the
    passes made, and its waste and stock are built only for a move that uses them.
    """

    __slots__ = ("cards", "reachable")

    def __init__(self, cards: tuple[int, ...], reachable: dict[int, tuple[int, int, int]]) -> None:
        self.cards = cards
        # Each card drawing can bring to the top of the waste, in the order drawing comes to
        # them: (draws, the waste's length with the card on top, passes).
        self.reachable = reachable

    def play(self, card: int) -> Drawn:
        """Drawing `card` to the top of the waste and playing it: the card, then the waste left
        under it, the stock and the passes."""
        _, length, passes = self.reachable[card]
        return card, self.cards[:length - 1], self.cards[length:][::-1], passes


class Search:
    """The rules of one game as tables, and the moves they allow in a State."""

    def __init__(self, game: CanfieldGame, reserve: tuple[int, ...], *, reference: bool = False,
                 prune: bool = False) -> None:
        rules = game.rules
        self.reference = reference
        self.rules = rules
        self.reserve = reserve  # bottom to top, as dealt; the state keeps only its length
        self.suit, self.rank, self.rel, self.sits_on, self.helpers = _card_tables(rules.build, game.base_rank)
        self.any_group = rules.groups is Groups.ANY
        # Leave out partial group moves between twins (see `twin_move`): only where any group
        # may move, which the argument for it needs. Off by default: the searches for the
        # shortest way somewhere (hints, short lines) want every move.
        self.prune = prune and self.any_group
        self.fill = rules.fill_from_reserve
        self.redeals = rules.redeals
        self.rolls = _die_rolls(game) if rules.die is not Die.OFF else None
        self.draw = rules.draw
        self.capped = False  # set when MAX_PASSES cut a search short: then "unwinnable" is not proven
        self._sizes: dict[tuple[int, ...], list[int]] = {}
        self._wanted_cards: dict[tuple[int, ...], frozenset[int]] = {}
        self._talons: dict[tuple[tuple[int, ...], tuple[int, ...], int], Talon] = {}
        # The card each foundation wants after `count` cards, and the cards that can sit on each.
        self.wanted, self.sits_list = _foundation_tables(rules.build, game.base_rank)

    # --- positions ---------------------------------------------------------------------

    @staticmethod
    def state_of(game: CanfieldGame) -> State:
        """The position of a game as a State."""
        foundations = tuple(len(pile) for pile in game.foundations)
        columns = tuple([card_indexes(column) for column in game.tableau])
        waste = card_indexes(game.waste)
        stock = card_indexes(game.stock)
        return foundations, len(game.reserve), columns, waste, stock, game.redeals_used

    def key(self, state: State) -> tuple:
        """What makes two positions the same: columns in any order; redeals only when they
        still matter."""
        foundations, reserve, columns, waste, stock, passes = state
        if self.redeals is None and self.rolls is None:
            if not stock or len(waste) % self.draw == 0:
                # Unlimited redeals: drawing to the end, redealing and drawing again comes back
                # to every waste length that is a multiple of the draw, so those talons are one.
                return foundations, reserve, tuple(sorted(columns)), (), stock + waste[::-1], 0
            return foundations, reserve, tuple(sorted(columns)), waste, stock, 0
        return foundations, reserve, tuple(sorted(columns)), waste, stock, passes

    def restart_key(self, state: State) -> tuple | None:
        """With unlimited redeals, the key of the position with the talon back at its start,
        which drawing to the end and redealing reaches from this one: a position with no move
        this one lacks, so it need not be searched after this one (None when that is this
        position's own key, or when redeals or a die make the passes matter)."""
        foundations, reserve, columns, waste, stock, _ = state
        if self.redeals is not None or self.rolls is not None or not stock or len(waste) % self.draw == 0:
            return None
        return foundations, reserve, tuple(sorted(columns)), (), stock + waste[::-1], 0

    def draws_per_pass(self, passes: int) -> int:
        """How many cards a draw turns in a pass."""
        if self.rolls is None:
            return self.draw
        return self.rolls[min(passes, MAX_PASSES)]

    # --- the talon: which cards drawing brings to the top of the waste ------------------

    def talon(self, waste: tuple[int, ...], stock: tuple[int, ...], passes: int) -> Talon:
        """Each card that drawing (redealing as needed) can bring to the top of the waste, once,
        with the fewest draws. Sets `capped` when MAX_PASSES cuts the drawing short."""
        cards = waste + stock[::-1]
        total = len(cards)
        length = len(waste)
        reachable: dict[int, tuple[int, int, int]] = {}
        if length:
            reachable[cards[length - 1]] = (0, length, passes)
        # With unlimited redeals and no die, drawing comes back to a waste length it had, and
        # from there on repeats itself; otherwise each (length, pass) comes once.
        repeats = self.redeals is None and self.rolls is None
        seen_lengths: set[int] = set()
        drawn_through: set[int] = set()  # the counts of the passes drawn through from their start
        draws = 0
        while True:  # one pass a turn: draw to its end, then redeal
            count = self.draws_per_pass(passes)
            if not repeats and length == 0 and count in drawn_through:
                # A pass turning as many cards at a time as one drawn through already shows the
                # same cards again, none new: its draws (total / count, rounded up) are counted only.
                draws += -(-total // count)
                length = total
            elif length == 0:
                drawn_through.add(count)
            while length < total:
                length = min(length + count, total)
                draws += 1
                if repeats:
                    if length in seen_lengths:
                        return Talon(cards, reachable)
                    seen_lengths.add(length)
                top = cards[length - 1]
                if top not in reachable:
                    reachable[top] = (draws, length, passes)
            if not total or (self.redeals is not None and passes >= self.redeals):
                return Talon(cards, reachable)
            if passes >= MAX_PASSES:
                self.capped = True
                return Talon(cards, reachable)
            passes += 1
            length = 0

    # --- moves -------------------------------------------------------------------------

    def accepts(self, foundations: tuple[int, ...], card: int) -> bool:
        """Whether the card's foundation takes it now."""
        return self.rel[card] == foundations[self.suit[card]]

    def safe(self, foundations: tuple[int, ...], card: int) -> bool:
        """Whether putting the card on its foundation can never hurt: every card that could be
        built on it is on a foundation already.

        With `reference`, the rule of the reference solver instead (Jan Wolter's): ranks counted
        from the base without the wrap, so a base-rank card always goes up at once, although a
        column could still have used it (a J on a Q when Q is the base). That rule loses wins:
        see tests/game/test_solver.py."""
        rel = self.rel[card]
        if self.reference:
            return rel == 0 or all(foundations[s] >= rel for s in self.helpers[self.suit[card]])
        return all(foundations[s] > (rel - 1) % 13 for s in self.helpers[self.suit[card]])

    def group_sizes(self, column: tuple[int, ...]) -> list[int]:
        """How many cards may leave a column together (kept: the same columns come back often)."""
        sizes = self._sizes.get(column)
        if sizes is None:
            if len(self._sizes) > 500_000:
                self._sizes.clear()
            sizes = self._sizes[column] = self._count_group_sizes(column)
        return sizes

    def _count_group_sizes(self, column: tuple[int, ...]) -> list[int]:
        run = 1
        while run < len(column) and column[-run] in self.sits_on[column[-run - 1]]:
            run += 1
        if self.any_group:
            return list(range(1, run + 1))
        return [1, len(column)] if run == len(column) and len(column) > 1 else [1]

    def twin_move(self, foundations: tuple[int, ...], column: tuple[int, ...], count: int, onto: int) -> bool:
        """Whether moving the top `count` cards of `column` onto the card `onto` is a move the
        pruning leaves out: a part of a built run moved, so that the card it leaves on top takes
        what `onto` takes (its twin: same rank, and same colour or any suit), and that card cannot
        go to its foundation at once. Such a move only swaps what lies on the twins
        (docs/games.md, "How the solver searches")."""
        if count >= len(column):
            return False
        left = column[-count - 1]
        return (column[-count] in self.sits_on[left] and self.sits_on[left] == self.sits_on[onto]
                and not self.accepts(foundations, left))

    def after_column_move(self, state: State, src: int, dst: int, count: int) -> State:
        """The position after moving `count` cards from column src to column dst."""
        foundations, reserve, columns, waste, stock, passes = state
        moving = columns[src][-count:]
        left = columns[src][:-count]
        if not left and self.fill and reserve:
            left, reserve = (self.reserve[reserve - 1],), reserve - 1
        new = list(columns)
        new[src], new[dst] = left, columns[dst] + moving
        return foundations, reserve, tuple(new), waste, stock, passes

    def to_foundation(self, state: State, src: str, drawn: Drawn | None = None) -> State:
        """The position after putting the top card of src ("r", "t1".. or "w": the card `drawn`,
        as Talon.play gives it) on its foundation."""
        foundations, reserve, columns, waste, stock, passes = state
        if src == "r":
            card = self.reserve[reserve - 1]
            reserve -= 1
        elif src == "w":
            assert drawn is not None
            card, waste, stock, passes = drawn
        else:
            index = int(src[1]) - 1
            card = columns[index][-1]
            left = columns[index][:-1]
            if not left and self.fill and reserve:
                left, reserve = (self.reserve[reserve - 1],), reserve - 1
            new = list(columns)
            new[index] = left
            columns = tuple(new)
        counts = list(foundations)
        counts[self.suit[card]] += 1
        return tuple(counts), reserve, columns, waste, stock, passes

    def to_column(self, state: State, src: str, dst: int, drawn: Drawn | None = None) -> State:
        """The position after moving the reserve's top ("r") or the waste's top ("w": the card
        `drawn`, as Talon.play gives it) onto column dst."""
        foundations, reserve, columns, waste, stock, passes = state
        if src == "r":
            card = self.reserve[reserve - 1]
            reserve -= 1
        else:
            assert drawn is not None
            card, waste, stock, passes = drawn
        new = list(columns)
        new[dst] = columns[dst] + (card,)
        return foundations, reserve, tuple(new), waste, stock, passes

    def auto(self, state: State) -> tuple[State, list[SearchStep]]:
        """Make every safe foundation move from the reserve and the columns; the steps made."""
        made: list[SearchStep] = []
        rel, suit, safe = self.rel, self.suit, self.safe
        while True:
            foundations, reserve, columns, _, _, _ = state
            src = None
            card = self.reserve[reserve - 1] if reserve else -1
            if card >= 0 and rel[card] == foundations[suit[card]] and safe(foundations, card):
                src = "r"
            else:
                for index, column in enumerate(columns):
                    if column:
                        card = column[-1]
                        if rel[card] == foundations[suit[card]] and safe(foundations, card):
                            src = COLUMN_NAMES[index]
                            break
            if src is None:
                return state, made
            made.append((0, src, FOUNDATION_NAMES[suit[card]], 1))
            state = self.to_foundation(state, src)

    def moves(self, state: State, *, reserve_moves: bool = True) -> Iterator[tuple[SearchStep, State, int]]:
        """Every move from a position, best first, made lazily: (the step, the position after
        it, what kind of progress it makes: 2 a card to a foundation, 1 a reserve card turned
        up, 0 none)."""
        foundations, reserve, columns, waste, stock, passes = state
        talon = self.talon_cards(waste, stock, passes)
        reachable = talon.reachable
        wanted = self._wanted_cards.get(foundations)
        if wanted is None:
            wanted = self._wanted_cards[foundations] = frozenset(
                self.wanted[suit][count] for suit, count in enumerate(foundations) if count < 13)
        empty = next((i for i, column in enumerate(columns) if not column), None)
        reserve_top = self.reserve[reserve - 1] if reserve else -1
        tops = [column[-1] if column else -1 for column in columns]
        # Cards to the foundations: the reserve's top, the columns' tops, then from the talon.
        if reserve_top in wanted:
            yield (0, "r", f"f{self.suit[reserve_top] + 1}", 1), self.to_foundation(state, "r"), 2
        for index, top in enumerate(tops):
            if top in wanted:
                yield (0, f"t{index + 1}", f"f{self.suit[top] + 1}", 1), self.to_foundation(state, f"t{index + 1}"), 2
        for draws, card in sorted((reachable[card][0], card) for card in wanted if card in reachable):
            after = self.to_foundation(state, "w", talon.play(card))
            yield (draws, "w", FOUNDATION_NAMES[self.suit[card]], 1), after, 2
        # The reserve's top to a column: it turns up the next reserve card.
        if reserve_moves and reserve_top >= 0:
            progress = 0 if self.rules.reserve_face_up else 1
            for index, top in enumerate(tops):
                if (top >= 0 and reserve_top in self.sits_on[top]) or index == empty:
                    yield (0, "r", f"t{index + 1}", 1), self.to_column(state, "r", index), progress
        # Column to column. Each card that heads a group able to move is looked up under the
        # columns it could go on (at most a few cards fit a top), not tried against every column.
        heads: dict[int, tuple[int, int]] = {}  # card -> (column, cards in its group)
        for src, column in enumerate(columns):
            if column:
                for count in self.group_sizes(column):
                    heads[column[-count]] = (src, count)
        column_moves: list[tuple[int, int, int]] = []  # (src, count, dst), in the order tried
        for dst, top in enumerate(tops):
            if top >= 0:
                for card in self.sits_list[top]:
                    found_head = heads.get(card)
                    if found_head is not None and found_head[0] != dst and not (
                            self.prune and self.twin_move(foundations, columns[found_head[0]], found_head[1], top)):
                        column_moves.append((found_head[0], found_head[1], dst))
            elif dst == empty:
                column_moves.extend((src, count, dst) for src, count in heads.values()
                                    if count < len(columns[src]))
        column_moves.sort()
        # Whole columns moved while the reserve fills the space turn a card up too: first.
        shuffles: list[tuple[int, int, int]] = []
        for src, count, dst in column_moves:
            if self.fill and reserve and count == len(columns[src]):
                after = self.after_column_move(state, src, dst, count)
                yield (0, COLUMN_NAMES[src], COLUMN_NAMES[dst], count), after, 1
            else:
                shuffles.append((src, dst, count))
        # The other column moves, then the waste's cards to columns.
        for src, dst, count in shuffles:
            yield (0, COLUMN_NAMES[src], COLUMN_NAMES[dst], count), self.after_column_move(state, src, dst, count), 0
        fits: list[tuple[int, int, int]] = []  # (draws, column, card): fewest draws first, as the talon comes
        for index, top in enumerate(tops):
            if top >= 0:
                for card in self.sits_list[top]:
                    if card in reachable:
                        fits.append((reachable[card][0], index, card))
            elif index == empty:
                for card, (draws, _, _) in reachable.items():
                    fits.append((draws, index, card))
        fits.sort()
        for draws, index, card in fits:
            yield (draws, "w", f"t{index + 1}", 1), self.to_column(state, "w", index, talon.play(card)), 0

    def talon_cards(self, waste: tuple[int, ...], stock: tuple[int, ...], passes: int) -> Talon:
        """`talon`, kept: many positions share a talon."""
        cache_key = (waste, stock, passes)
        found = self._talons.get(cache_key)
        if found is None:
            found = self.talon(waste, stock, passes)
            if len(self._talons) > 200_000:
                self._talons.clear()
            self._talons[cache_key] = found
        return found


NATIVE = _solver_core is not None  # whether the C search (bot/game/_solver_core.c) is built


def native_file() -> str | None:
    """The file the C search was loaded from (a compiled module beside this one), or None when it
    is not built and the search runs in Python (see NATIVE)."""
    return None if _solver_core is None else _solver_core.__file__


def solve(game: Game, *, limit: int = 1_000_000, seconds: float | None = None,
          reference: bool = False, native: bool = True, prune: bool = True) -> Solution:
    """Search the game from its position with every card known: "winnable" with the winning
    line, "unwinnable", or "gave-up" after `limit` positions (or `seconds`, if given).
    Deterministic when no time limit is given. `reference` plays the reference solver's
    automatic foundation moves (see Search.safe), to compare verdicts with it. The search runs
    in C when that is built (see NATIVE) unless `native` is false; both search the same
    positions in the same order. `prune` leaves out the partial group moves between twins that
    cannot change the verdict (see Search.twin_move); off, every move is searched. ValueError for
    a game it does not cover (see `covers`)."""
    if not covers(game):
        raise ValueError(f"the solver does not cover {game.name}: it knows the one-deck Canfield family")
    start = time.perf_counter()
    search = Search(game, card_indexes(game.reserve), reference=reference, prune=prune)
    state = Search.state_of(game)
    if search.redeals is None and search.rolls is None:
        # With unlimited redeals and no die, the passes made so far do not matter: a game
        # redealt MAX_PASSES times or more is searched as if in its first pass.
        state = (*state[:5], 0)
    if native and _solver_core is not None:
        return _solve_native(search, state, limit, seconds, start)
    root, opening = search.auto(state)
    visited: set[tuple] = set()
    deadline = None if seconds is None else start + seconds
    path: list[SearchStep] = list(opening)
    counter = [0]

    def expand_node(state: State):
        counter[0] += 1
        if counter[0] > limit or (deadline is not None and counter[0] % 1024 == 0 and time.perf_counter() > deadline):
            raise GaveUp
        return search.moves(state)

    # Depth-first, with an explicit stack: a line can be thousands of moves deep.
    winnable = sum(root[0]) == DECK
    if not winnable:
        visited.add(search.key(root))
        stack = [(expand_node(root), 0)]  # (moves left to try, how many steps the move in hand added)
        try:
            while stack:
                moves, added = stack[-1]
                if added:
                    del path[len(path) - added:]
                    stack[-1] = (moves, 0)
                step_state = next(moves, None)
                if step_state is None:
                    stack.pop()
                    continue
                step, after, _ = step_state
                settled, automatic = search.auto(after)
                if sum(settled[0]) == DECK:
                    path.append(step)
                    path.extend(automatic)
                    winnable = True
                    break
                key = search.key(settled)
                if key in visited:
                    continue
                visited.add(key)
                restart = search.restart_key(settled)
                if restart is not None:
                    visited.add(restart)
                path.append(step)
                path.extend(automatic)
                stack[-1] = (moves, 1 + len(automatic))
                stack.append((expand_node(settled), 0))
        except GaveUp:
            return Solution("gave-up", positions=counter[0], seconds=time.perf_counter() - start)
    elapsed = time.perf_counter() - start
    if not winnable:
        status = "gave-up" if search.capped else "unwinnable"
        return Solution(status, positions=counter[0], seconds=elapsed)
    return Solution("winnable", moves=expand(path), positions=counter[0], seconds=elapsed)


_STATUSES = ("winnable", "unwinnable", "gave-up")
_PILES = (*COLUMN_NAMES, "r", "w", *FOUNDATION_NAMES)  # the C search's pile codes


def _solve_native(search: Search, state: State, limit: int, seconds: float | None, start: float) -> Solution:
    """solve() by the C search: the rules go over as tables, the steps come back as bytes."""
    foundations, reserve, columns, waste, stock, passes = state
    tables = (search.suit, search.rel, [sum(1 << card for card in cards) for cards in search.sits_on],
              [sum(1 << suit for suit in helpers) for helpers in search.helpers],
              [card for suit in search.wanted for card in suit], search.reserve)
    options = (search.any_group, search.fill, -1 if search.redeals is None else search.redeals, search.draw,
               search.reference, search.rolls, search.prune)
    position = (foundations, reserve, columns, waste + stock[::-1], len(waste), passes)
    assert _solver_core is not None  # only called when NATIVE
    code, raw, positions, _ = _solver_core.solve(tables, options, position, min(limit, 2**62),
                                                 -1.0 if seconds is None else seconds)
    elapsed = time.perf_counter() - start
    if _STATUSES[code] != "winnable":
        return Solution(_STATUSES[code], positions=positions, seconds=elapsed)
    steps = [(raw[i], _PILES[raw[i + 1]], _PILES[raw[i + 2]], raw[i + 3]) for i in range(0, len(raw), 4)]
    return Solution("winnable", moves=expand(steps), positions=positions, seconds=elapsed)


def expand(steps: list[SearchStep]) -> list[Move]:
    """The canonical moves of a line of steps: each step's draws, then its move."""
    moves: list[Move] = []
    for draws, src, dst, count in steps:
        moves.extend([DRAW] * draws)
        moves.append(Move(src, dst, count))
    return moves


# --- visible information only: the end of the game, and hints ------------------------------


def _visible_search(game: CanfieldGame) -> tuple[Search, State]:
    """A search that knows only what the player sees: the reserve's top (and the whole
    reserve when it lies face up); the stock, which cycling shows, is known."""
    if game.rules.reserve_face_up:
        reserve = card_indexes(game.reserve)
    else:
        # Hidden cards are stand-ins that never take part: any move that uncovers one counts as
        # progress and ends the search before it is looked at.
        reserve = tuple([-1] * (len(game.reserve) - 1) + [card_index(c) for c in game.reserve[-1:]])
    search = Search(game, reserve)
    return search, Search.state_of(game)


def progress_path(game: CanfieldGame, limit: int = DEAD_LIMIT) -> list[SearchStep] | None:
    """The shortest line of moves (in searched steps) from the position to a card put on a
    foundation or a reserve card turned up: [] when none exists, None when the search gave up."""
    search, root = _visible_search(game)
    frontier: list[tuple[State, list[SearchStep]]] = [(root, [])]
    visited = {search.key(root)}
    looked = 0
    while frontier:
        next_frontier: list[tuple[State, list[SearchStep]]] = []
        for state, line in frontier:
            for step, after, progress in search.moves(state):
                if progress:
                    return [*line, step]
                key = search.key(after)
                if key in visited:
                    continue
                visited.add(key)
                looked += 1
                if looked > limit:
                    return None
                next_frontier.append((after, [*line, step]))
        frontier = next_frontier
    return []


def _first_progress_step(game: CanfieldGame, limit: int | None = None) -> tuple[int, Move] | bool | None:
    """The first move besides draws on the shortest way to progress, with the draws before it;
    False when no way exists, None when the search gave up (after `limit` positions, or its
    usual limit)."""
    if not covers(game):
        moves = game.shortest_progress(min(limit or ENGINE_DEAD_LIMIT, ENGINE_DEAD_LIMIT))
        if not moves:
            return False if moves == [] else None
        draws = next(index for index, move in enumerate(moves) if not move.is_draw)  # progress is no draw
        return draws, moves[draws]
    line = progress_path(game, min(limit or DEAD_LIMIT, DEAD_LIMIT))
    if line is None:
        return None
    if not line:
        return False
    draws, src, dst, count = line[0]
    return draws, Move(src, dst, count)


def is_dead(game: CanfieldGame, limit: int | None = None) -> bool:
    """True when no sequence of legal moves (stock cycling and column shuffles included) can put
    another card on a foundation or turn up another reserve card, judged from what the player
    can see. A search that reaches its limit says "not dead": never too early. With `limit`
    (positions, below the usual limit), GaveUp instead when the search reaches it."""
    if game.foundation_cards == game.deck_size:
        return False
    step = _first_progress_step(game, limit)
    if step is None and limit is not None:
        raise GaveUp
    return step is False


def hint(game: CanfieldGame) -> Hint | None:
    """The next move besides draws, from visible information only, on the shortest way to a card
    on a foundation or a reserve card turned up, with the draws before it; never one that merely
    undoes the last move. None when no move can help."""
    step = _first_progress_step(game)
    if step is False:
        return None
    if isinstance(step, tuple):
        draws, move = step
        if draws or not game.undoes_last(move):
            return game.hint_of(draws, move)
    return likeliest_hint(game)


def likeliest_hint(game: CanfieldGame) -> Hint | None:
    """The hint when the search gave up, or when its way starts by undoing the last move: a
    card to a foundation or from the reserve, after the fewest draws (up to as many as the stock
    and the waste hold cards: a pass at least); else any other move that does not undo the last
    one, after the fewest draws; None when there is none."""
    scratch = game.copy(last_move_only=True)
    other: tuple[int, Move] | None = None
    for draws in range(len(game.stock) + len(game.waste) + 2):
        for move in scratch.legal_moves():
            if move.is_draw or (draws == 0 and game.undoes_last(move)):
                continue
            if move.dst.startswith("f") or move.src == "r":
                return game.hint_of(draws, move)
            if other is None:
                other = (draws, move)
        if not scratch.can_move(DRAW):
            break
        scratch.play(DRAW)
    return None if other is None else game.hint_of(*other)
