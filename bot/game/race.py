"""Demon race (docs/games.md): two to eight players, each with their own deck and layout, all building
on shared foundations in the middle of the table.

Each player lays out their own deck for Klondike (seven columns of 1..7 cards, the top one face
up; columns build down in alternate colours, any face-up run moves, only a king or a run headed
by one fills a space) or, with `layout="demon"`, the traditional Racing Demon layout (a 13-card
demon pile with its top face up, four work piles that take any card in a space). Either way the
stock turns three cards at a time with unlimited redeals, and only the owner moves their cards.

The foundations are shared: an ace starts a new one, and anyone may build any of them up in
suit to the king. Moves are applied one at a time in the order they come: when two players send
a card for the same place, the first takes it and the second gets `BeatenError` (a kind of
IllegalMoveError) and keeps their card. The race ends when one player has every card on the
foundations ("Demon!") or when no player can make progress any more.

Moves use the notation of docs/notation.md for the player's own piles: `s`, `w`, `t1`..`t7`,
`r` (the demon pile), and `f` for "a foundation" (the engine picks the one that takes the card).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.game import notation
from bot.game.cards import ACE, KING, Card, next_rank, previous_rank
from bot.game.deals import DECK_SIZE, check_deal, check_deck, dealing_order, random_deal, shuffled_talon
from bot.game.errors import IllegalMoveError, NotationError
from bot.game.moves import DRAW, Move
from bot.game.patience import Outcome
from bot.game.phrases import N_, Phrase
from bot.game.rules import UnknownGameError

MIN_PLAYERS, MAX_PLAYERS = 2, 8
RACE_LAYOUTS = ("klondike", "demon")
DRAW_COUNT = 3
DEMON_SIZE = 13
KLONDIKE_COLUMNS = 7
DEMON_COLUMNS = 4
# Each layout's piles of a player's own hand by notation name, as `RaceGame.piles` gives them.
HAND_PILES: dict[str, tuple[str, ...]] = {
    "klondike": ("s", "w", *(f"t{i + 1}" for i in range(KLONDIKE_COLUMNS))),
    "demon": ("s", "w", "r", *(f"t{i + 1}" for i in range(DEMON_COLUMNS))),
}
OUT_BONUS = 10  # the player who goes out scores 52 + 10
STUCK_LIMIT = 3_000  # positions a player's own search may look at before saying "can still move"
_DEAL_RANGE = 999_999_999


class BeatenError(IllegalMoveError):
    """Another player's card got to the foundation first: this card stays where it was.
    `owner` is the player whose card took the place, `card` the card both wanted to play; the
    message's fields `player` and `card` are that player (from 1) and that card."""

    def __init__(self, template: str | Phrase, /, played: list[Move] | None = None, *, owner: int = -1,
                 card: Card | None = None, **values: str | int | Phrase) -> None:
        """The error saying `template` filled with `values`, the owner's number and the card."""
        if not isinstance(template, Phrase):
            values = {"player": owner + 1, "card": str(card), **values}
        super().__init__(template, played, **values)
        self.owner, self.card = owner, card


def player_deal(deal: int, player: int) -> int:
    """The PySolFC game number that player `player` (from 0) deals in race `deal`: player 0
    deals the race's own number; player k the number `int(sha256(f"race:{deal}:{k}"), 16) %
    999,999,999 + 1`, so every player's deck differs and anyone can recompute it."""
    if player == 0:
        return deal
    digest = hashlib.sha256(f"race:{deal}:{player}".encode()).hexdigest()
    return int(digest, 16) % _DEAL_RANGE + 1


@dataclass(frozen=True, slots=True)
class FoundationCard:
    """A card on a shared foundation, with its owner and the race move that put it there."""

    card: Card
    owner: int
    move_number: int


class Hand:
    """One player's own layout: stock, waste, columns (with face-down cards below), and with
    the demon layout the demon pile `r`."""

    def __init__(self, order: list[Card], layout: str) -> None:
        self.layout_name = layout
        self.piles: dict[str, list[Card]] = {"s": [], "w": []}
        self.hidden: dict[str, int] = {}  # how many cards at the bottom of a pile lie face down
        if layout == "klondike":
            columns: list[list[Card]] = [[] for _ in range(KLONDIKE_COLUMNS)]
            position = 0
            # PySolFC's Klondike: six face-down rows, each to the columns right of the last,
            # then one face-up row to all seven; every row dealt from right to left.
            rows = [range(first, KLONDIKE_COLUMNS) for first in range(1, KLONDIKE_COLUMNS)]
            for row in [*rows, range(KLONDIKE_COLUMNS)]:
                for index in reversed(row):
                    columns[index].append(order[position])
                    position += 1
            for index, column in enumerate(columns):
                self.piles[f"t{index + 1}"] = column
                self.hidden[f"t{index + 1}"] = len(column) - 1
        else:
            self.piles["r"] = order[:DEMON_SIZE]
            self.hidden["r"] = DEMON_SIZE - 1
            position = DEMON_SIZE
            for index in range(DEMON_COLUMNS):
                self.piles[f"t{index + 1}"] = [order[position]]
                self.hidden[f"t{index + 1}"] = 0
                position += 1
        self.piles["s"] = order[position:][::-1]  # the top is last
        self.columns = [name for name in self.piles if name.startswith("t")]

    def copy(self) -> Hand:
        """An independent hand in the same position."""
        twin = Hand.__new__(Hand)
        twin.layout_name, twin.columns = self.layout_name, self.columns
        twin.piles = {name: list(pile) for name, pile in self.piles.items()}
        twin.hidden = dict(self.hidden)
        return twin

    @property
    def cards_left(self) -> int:
        """Cards not yet on the foundations."""
        return sum(len(pile) for pile in self.piles.values())

    def face_up(self, pile: str, index: int) -> bool:
        """Whether the card at `index` of `pile` shows its face."""
        return pile != "s" and index >= self.hidden.get(pile, 0)

    def group_sizes(self, src: str) -> list[int]:
        """How many cards may move together from a pile: any face-up built run of a column."""
        pile = self.piles[src]
        if not pile:
            return []
        if not src.startswith("t"):
            return [1]
        run = 1
        while (run < len(pile) - self.hidden[src] and _builds_on(pile[-run], pile[-run - 1])):
            run += 1
        return list(range(1, run + 1))

    def fits_column(self, src: str, count: int, dst: str) -> bool:
        """Whether the top `count` cards of src may go on column dst."""
        moving, target = self.piles[src][-count], self.piles[dst]
        if target:
            return _builds_on(moving, target[-1])
        if src.startswith("t") and count == len(self.piles[src]):
            return False  # a whole column into a space is no move
        return self.layout_name == "demon" or moving.rank == KING

    def state(self) -> tuple:
        """The hand's position, hashable."""
        return tuple((name, tuple(pile), self.hidden.get(name, 0)) for name, pile in self.piles.items())

    def restore(self, state: tuple) -> None:
        """Put the hand back in a position from `state`."""
        for name, cards, hidden in state:
            self.piles[name][:] = cards
            if name in self.hidden:
                self.hidden[name] = hidden

    def take(self, src: str, count: int) -> list[Card]:
        """Remove the top `count` cards of src and turn up the card they leave on top."""
        pile = self.piles[src]
        moving = pile[-count:]
        del pile[-count:]
        if src in self.hidden and self.hidden[src] >= len(pile) > 0:
            self.hidden[src] = len(pile) - 1
        elif src in self.hidden and not pile:
            self.hidden[src] = 0
        return moving

    def draw(self) -> None:
        """Turn three cards from the stock onto the waste, or the waste over when the stock is out."""
        stock, waste = self.piles["s"], self.piles["w"]
        if not stock:
            stock.extend(reversed(waste))
            waste.clear()
            return
        for _ in range(min(DRAW_COUNT, len(stock))):
            waste.append(stock.pop())


def _builds_on(card: Card, onto: Card) -> bool:
    """Columns build down in alternate colours, without wrapping."""
    return onto.rank != ACE and card.rank == previous_rank(onto.rank) and card.is_red != onto.is_red


class RaceGame:
    """One demon race. Build it with `new_race` (or `new_race_with`, its options by name)."""

    name = "demon-race"
    title = N_("Demon race")
    # What moves look like in a race, for a player who typed something unreadable (no undo here).
    examples = Phrase("moves look like t3f, wt2, t1t3:2, 7h, 7h f, d (draw), a (all to foundations)")

    def __init__(self, deal: int, players: int, layout: str = "klondike",
                 decks: list[list[Card]] | None = None) -> None:
        check_deal(deal)
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UnknownGameError("players={value}: a race takes {least} to {most} players", value=repr(players),
                                   least=MIN_PLAYERS, most=MAX_PLAYERS)
        if layout not in RACE_LAYOUTS:
            raise UnknownGameError("layout={value}: layouts: {layouts}", value=repr(layout),
                                   layouts=", ".join(RACE_LAYOUTS))
        self.deal = deal
        self.players = players
        self.layout_name = layout
        self.deals = tuple(player_deal(deal, player) for player in range(players))
        if decks is None:
            decks = [dealing_order(shuffled_talon(number)) for number in self.deals]
        elif len(decks) != players:
            raise UnknownGameError("{count} decks for {players} players", count=len(decks), players=players)
        self.hands = [Hand(check_deck(list(deck)), layout) for deck in decks]
        self.foundations: list[list[FoundationCard]] = []
        self.history: list[tuple[int, Move]] = []
        self.demon: int | None = None  # the player who went out

    @property
    def options(self) -> dict[str, object]:
        """The race's options as plain values."""
        return {"players": self.players, "layout": self.layout_name}

    # --- what players see --------------------------------------------------------------

    def piles(self, player: int, reveal: bool = False) -> dict[str, list[str]]:
        """A player's own piles by notation name, cards bottom to top as `7H`; face-down cards
        `??` unless `reveal`."""
        hand = self._hand(player)
        return {name: [str(card) if reveal or hand.face_up(name, index) else "??" for index, card in enumerate(pile)]
                for name, pile in hand.piles.items()}

    def foundation_tops(self) -> list[FoundationCard]:
        """The top of each shared foundation, in the order they were started."""
        return [pile[-1] for pile in self.foundations]

    def cards_left(self, player: int) -> int:
        """How many of a player's cards are not on the foundations."""
        return self._hand(player).cards_left

    def on_foundations(self, player: int) -> int:
        """How many of a player's cards are on the foundations (sorted back by their backs)."""
        return sum(card.owner == player for pile in self.foundations for card in pile)

    @property
    def scores(self) -> list[int]:
        """52 + 10 for the player who went out; everyone else one point a card of theirs on the
        foundations (docs/games.md)."""
        return [DECK_SIZE + OUT_BONUS if player == self.demon else self.on_foundations(player)
                for player in range(self.players)]

    @property
    def outcome(self) -> Outcome | None:
        """WON when a player went out (`demon` says who), BLOCKED when no player can make
        progress any more, None while the race goes on."""
        if self.demon is not None:
            return Outcome.WON
        return Outcome.BLOCKED if self.finished else None

    @property
    def finished(self) -> bool:
        """Whether the race is over: someone went out, or no player can make progress."""
        return self.demon is not None or all(self.is_stuck(player) for player in range(self.players))

    # --- the rules ---------------------------------------------------------------------

    def legal_moves(self, player: int) -> list[Move]:
        """A player's legal moves: to the foundations, to the columns, then the draw."""
        return self._legal_moves(self._hand(player))

    def _legal_moves(self, hand: Hand) -> list[Move]:
        if self.demon is not None:
            return []
        sources = [name for name in ("r", "w", *hand.columns) if name in hand.piles]
        moves = [Move(src, "f") for src in sources if self._reason_foundation(hand, src) is None]
        for dst in hand.columns:
            for src in sources:
                if src != dst:
                    moves.extend(Move(src, dst, count) for count in hand.group_sizes(src)
                                 if hand.fits_column(src, count, dst))
        if hand.piles["s"] or hand.piles["w"]:
            moves.append(DRAW)
        return moves

    def can_move(self, player: int, move: Move) -> bool:
        """Whether `move` is legal for `player` now."""
        return self._reason(self._hand(player), move) is None

    def play(self, player: int, move: Move | str, *, seen: int | None = None) -> list[Move]:
        """Play a Move or text for `player`; the moves played. `seen` is how many race moves the
        player's board showed: a foundation move that someone else's later move took the place
        of raises BeatenError. IllegalMoveError (or NotationError) otherwise, nothing changed
        for the move that failed (earlier moves of the same text stand, in `error.played`)."""
        hand = self._hand(player)
        if isinstance(move, Move):
            self._check(player, hand, move, seen)
            self._do(player, hand, move)
            return [move]
        try:
            commands = notation.parse(move)
        except NotationError as error:
            raise NotationError("{problem}: {examples}", error.token, problem=error.phrase,
                                examples=self.examples) from None
        played: list[Move] = []
        for command in commands:
            try:
                played += self._carry_out(player, hand, command, seen)
            except IllegalMoveError as error:
                error.played = played
                raise
            except ValueError as error:
                if isinstance(error, NotationError) and not played:
                    raise
                # After moves that stand, a refusal of any kind is an illegal move, saying the same.
                said = error.phrase if isinstance(error, NotationError) else Phrase("{problem}", problem=str(error))
                raise IllegalMoveError.from_phrase(said, played) from None
        return played

    def is_stuck(self, player: int) -> bool:
        """True when no sequence of the player's own moves (stock cycling included) can put a
        card on a foundation or turn up a face-down card, with the foundations as they are now
        (they only grow, so a stuck player stays stuck until someone else builds). It searches
        a copy of the player's hand: the race itself is only read."""
        hand = self._hand(player).copy()
        start = hand.state()
        cards_before, hidden_before = hand.cards_left, sum(hand.hidden.values())
        frontier, seen = [start], {start}
        while frontier:
            next_frontier = []
            for state in frontier:
                hand.restore(state)
                for move in self._legal_moves(hand):
                    if move.dst == "f":
                        return False
                    self._move_in_hand(hand, move)
                    if hand.cards_left < cards_before or sum(hand.hidden.values()) < hidden_before:
                        return False
                    after = hand.state()
                    hand.restore(state)
                    if after not in seen:
                        if len(seen) > STUCK_LIMIT:
                            return False
                        seen.add(after)
                        next_frontier.append(after)
            frontier = next_frontier
        return True

    # --- carrying out ------------------------------------------------------------------

    def _carry_out(self, player: int, hand: Hand, command: notation.Command, seen: int | None) -> list[Move]:
        if isinstance(command, notation.ActionCommand):
            if command.action is notation.Action.DRAW:
                self._check(player, hand, DRAW, seen)
                self._do(player, hand, DRAW)
                return [DRAW]
            if command.action is notation.Action.AUTO:
                played = []
                while (move := next((m for m in self.legal_moves(player) if m.dst == "f"), None)) is not None:
                    self._do(player, hand, move)
                    played.append(move)
                return played
            raise IllegalMoveError("{text!r} is not legal: a race has no undo and no hints", text=command.text)
        if isinstance(command, notation.CardCommand):
            src, count = self._locate(hand, command.card, command.text)
            return [self._resolve(player, hand, src, command.dst, count, command.text, seen)]
        if command.src not in hand.piles or (command.dst not in (None, "f") and command.dst not in hand.piles):
            raise IllegalMoveError("{text!r} is not legal: your piles are {piles} and f", text=command.text,
                                   piles=", ".join(hand.piles))
        return [self._resolve(player, hand, command.src, command.dst, command.count, command.text, seen)]

    def _resolve(self, player: int, hand: Hand, src: str, dst: str | None, count: int | None, text: str,
                 seen: int | None) -> Move:
        if dst is not None and dst.startswith("f"):
            move = Move(src, "f", count or 1)
            self._check(player, hand, move, seen, text)
            self._do(player, hand, move)
            return move
        candidates = [m for m in self.legal_moves(player)
                      if m.src == src and (dst is None or m.dst == dst) and (count is None or m.count == count)]
        if dst is not None and count is None and len(candidates) > 1:
            candidates = [m for m in candidates if m.count == 1] or candidates
        if not candidates:
            if dst is None:
                reason = self._reason_foundation(hand, src) or Phrase("it has nowhere to go")
                raise self._error(hand, src, seen, Phrase("{text!r} is not legal: {reason}", text=text, reason=reason))
            self._check(player, hand, Move(src, dst, count or 1), seen, text)
            raise IllegalMoveError("{text!r} is not legal: {reason}", text=text,
                                   reason=self._alternatives(player, src))
        move = min(candidates, key=lambda m: (m.dst != "f", not hand.piles.get(m.dst, [None]), -m.count))
        self._do(player, hand, move)
        return move

    def _alternatives(self, player: int, src: str) -> Phrase:
        legal = [str(m) for m in self.legal_moves(player) if m.src == src]
        if legal:
            return Phrase("legal from {pile}: {moves}", pile=src, moves=", ".join(legal))
        return Phrase("nothing can move from {pile}", pile=src)

    def _locate(self, hand: Hand, card: Card, text: str) -> tuple[str, int]:
        for name, pile in hand.piles.items():
            if name == "s" or card not in pile:
                continue
            index = pile.index(card)
            if name.startswith("t") and hand.face_up(name, index):
                return name, len(pile) - index
            if index == len(pile) - 1 and hand.face_up(name, index):
                return name, 1
        raise IllegalMoveError("{text!r} is not legal: {card} is not one of your cards you can move now", text=text,
                               card=str(card))

    def _check(self, player: int, hand: Hand, move: Move, seen: int | None, text: str | None = None) -> None:
        reason = self._reason(hand, move)
        if reason is not None:
            message = Phrase("{text!r} is not legal: {reason}", text=text or str(move), reason=reason)
            raise self._error(hand, move.src, seen, message, move)

    def _error(self, hand: Hand, src: str, seen: int | None, message: Phrase,
               move: Move | None = None) -> IllegalMoveError:
        """BeatenError when another player's move since `seen` took the place this card wanted."""
        pile = hand.piles.get(src)
        if seen is not None and pile and (move is None or move.dst == "f"):
            card = pile[-1]
            for foundation in self.foundations:
                top = foundation[-1]
                if top.card == card and top.move_number >= seen:
                    return BeatenError("{problem}: player {player} got their {card} there first", owner=top.owner,
                                       card=card, problem=message)
        return IllegalMoveError.from_phrase(message)

    def _reason(self, hand: Hand, move: Move) -> Phrase | None:
        if self.demon is not None:
            return Phrase("the race is over")
        if move.is_draw:
            return None if hand.piles["s"] or hand.piles["w"] else Phrase("the stock and the waste are both empty")
        if move.src not in hand.piles or move.src == "s":
            return Phrase("you cannot move cards from {pile}", pile=move.src)
        if move.dst == "f":
            if move.count != 1:
                return Phrase("cards go to a foundation one at a time")
            return self._reason_foundation(hand, move.src)
        if move.dst not in hand.columns:
            return Phrase("cards cannot go to {pile}", pile=move.dst)
        pile = hand.piles[move.src]
        if not pile:
            return Phrase("{pile} is empty", pile=move.src)
        if move.count not in hand.group_sizes(move.src):
            return Phrase("the top {count} cards of {pile} are not a face-up built run", count=move.count,
                          pile=move.src)
        if not hand.fits_column(move.src, move.count, move.dst):
            target = hand.piles[move.dst]
            if not target:
                return (Phrase("only a king (or a run headed by one) fills a space") if hand.layout_name == "klondike"
                        else Phrase("moving a whole column into a space is no move"))
            return Phrase("{card} cannot go on {target} (columns build down in alternate colours)",
                          card=str(pile[-move.count]), target=str(target[-1]))
        return None

    def _reason_foundation(self, hand: Hand, src: str) -> Phrase | None:
        pile = hand.piles.get(src)
        if not pile:
            return Phrase("{pile} is empty", pile=src)
        if src != "w" and not hand.face_up(src, len(pile) - 1):
            return Phrase("the top of {pile} is face down", pile=src)
        if self._foundation_for(pile[-1]) is None:
            return Phrase("no foundation takes {card}", card=str(pile[-1]))
        return None

    def _foundation_for(self, card: Card) -> int | None:
        """The index of the foundation that takes the card (len(foundations) for an ace, which
        starts a new one), or None."""
        if card.rank == ACE:
            return len(self.foundations)
        return next((index for index, pile in enumerate(self.foundations)
                     if pile[-1].card.suit is card.suit and next_rank(pile[-1].card.rank) == card.rank
                     and pile[-1].card.rank != KING), None)

    def _move_in_hand(self, hand: Hand, move: Move) -> None:
        """A move inside one hand (draws and column moves), with no effect on the race."""
        if move.is_draw:
            hand.draw()
        else:
            hand.piles[move.dst].extend(hand.take(move.src, move.count))

    def _do(self, player: int, hand: Hand, move: Move) -> None:
        if move.dst == "f":
            card = hand.piles[move.src][-1]
            index = self._foundation_for(card)
            assert index is not None
            hand.take(move.src, 1)
            if index == len(self.foundations):
                self.foundations.append([])
            self.foundations[index].append(FoundationCard(card, player, len(self.history)))
            if hand.cards_left == 0:
                self.demon = player
        else:
            self._move_in_hand(hand, move)
        self.history.append((player, move))

    def _hand(self, player: int) -> Hand:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise IllegalMoveError("player {player} is not in this race of {count}", player=repr(player),
                                   count=self.players)
        return self.hands[player]


def new_race(deal: int | None = None, *, players: int = 2, layout: str = "klondike",
             decks: list[list[Card]] | list[list[str]] | None = None) -> RaceGame:
    """A new demon race of `players` players on race number `deal` (random when None); or with
    explicit `decks`, one a player, each first dealt first (Klondike: the face-down rows as
    PySolFC deals them, then the face-up row t1..t7, then the stock top down)."""
    cards = None if decks is None else [[c if isinstance(c, Card) else Card.parse(c) for c in deck] for deck in decks]
    return RaceGame(random_deal() if deal is None else deal, players, layout, cards)


RACE_OPTION_NAMES = ("players", "layout", "decks")


def new_race_with(deal: int | None, options: dict[str, object]) -> RaceGame:
    """`new_race` with its options given by name (as a store or a command holds them);
    UnknownGameError, quoting it, for an option a race does not take."""
    unknown = sorted(set(options) - set(RACE_OPTION_NAMES))
    if unknown:
        raise UnknownGameError("unknown option {option!r} for a race; options: {options}", option=unknown[0],
                               options=", ".join(RACE_OPTION_NAMES))
    players, layout, decks = options.get("players", 2), options.get("layout", "klondike"), options.get("decks")
    if isinstance(players, bool) or not isinstance(players, int):
        raise UnknownGameError("players={value}: a race takes {least} to {most} players", value=repr(players),
                               least=MIN_PLAYERS, most=MAX_PLAYERS)
    if not isinstance(layout, str):
        raise UnknownGameError("layout={value}: layouts: {layouts}", value=repr(layout),
                               layouts=", ".join(RACE_LAYOUTS))
    if decks is not None and not isinstance(decks, list):
        raise UnknownGameError("decks={value}: give one deck a player", value=repr(decks))
    return new_race(deal, players=players, layout=layout, decks=decks)
