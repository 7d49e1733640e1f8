"""Games in known states, for render tests, golden images and benchmarks: fresh, mid-game,
won and blocked, for every game of the engine. Each is reached by legal play."""

from __future__ import annotations

import random

from bot.game import Outcome, new_game
from bot.game.canfield import CanfieldGame
from bot.game.cards import ACE, Card, Suit, full_deck, next_rank
from bot.game.patriarchs import BASE_CARDS, PATRIARCHS_KINDS, PatriarchsGame

STATES = ("fresh", "mid", "won", "blocked")


def sample_game(name: str, state: str, deal: int = 12345, **options: object) -> CanfieldGame:
    """A game of `name` in `state` (one of STATES)."""
    if state == "fresh":
        return new_game(name, deal=deal, **options)
    if state == "mid":
        return mid_game(name, deal, **options)
    if state == "won":
        return won_game(name, **options)
    if state == "blocked":
        return blocked_game(name, **options)
    raise ValueError(f"unknown state {state!r}")


def mid_game(name: str, deal: int = 12345, moves: int = 40, **options: object) -> CanfieldGame:
    """A seeded random playout that prefers real moves to draws, stopping short of the end."""
    game = new_game(name, deal=deal, **options)
    rng = random.Random(deal)
    for _ in range(moves):
        legal = game.legal_moves()
        real = [move for move in legal if not move.is_draw]
        game.play(rng.choice(real) if real and rng.random() < 0.75 else rng.choice(legal))
        if game.outcome is not None:  # stay in play: take back the move that ended it
            game.undo()
            break
    return game


def _base_rank(name: str) -> int:
    return 2 if name == "storehouse" else ACE


def _bases(name: str) -> list[Card]:
    rank = _base_rank(name)
    suits = list(Suit) if name == "storehouse" else [Suit.CLUBS]
    return [Card(rank, suit) for suit in suits]


def won_game(name: str, **options: object) -> CanfieldGame:
    """A deck laid so that every card goes to a foundation as it comes: the reserve holds the
    clubs, the columns the next spades, hearts and diamonds, the stock the rest in order,
    in groups turned so that each draw shows the next card wanted. Then it is played out."""
    if name in PATRIARCHS_KINDS:
        return _won_patriarchs(name, **options)
    if _decks(name) == 2:
        return _won_with_two_decks(name, **options)
    base = _base_rank(name)
    bases = _bases(name)
    order = [Card(rank, suit) for suit in Suit for rank in _ranks_from(base)]
    rest = [card for card in order if card not in bases]
    reserve_top_down, rest = rest[:13], rest[13:]
    columns, stock = rest[:4], rest[4:]
    draw = new_game(name, deal=1, **options).draw_count
    stock_top_down = [card for i in range(0, len(stock), draw) for card in reversed(stock[i:i + draw])]
    cards = [*bases, *reversed(reserve_top_down), *columns, *stock_top_down]
    game = new_game(name, cards=[str(card) for card in cards], **options)
    while game.outcome is None:
        if not game.play("a"):
            game.play("d")
    assert game.outcome is Outcome.WON
    return game


def blocked_game(name: str, **options: object) -> CanfieldGame:
    """Kings on the columns and every card that could ever move hidden in the reserve under
    an unplayable top: no stock card can go anywhere, so the game is blocked at once."""
    if name in PATRIARCHS_KINDS:
        return _blocked_patriarchs(name, **options)
    if _decks(name) == 2:
        return _blocked_with_two_decks(name, **options)
    bases = _bases(name)
    wanted = {Card(_base_rank(name), suit) for suit in Suit} - set(bases)
    wanted |= {Card(next_rank(card.rank), card.suit) for card in bases}
    queens = {Card(12, suit) for suit in Suit}
    kings = [Card(13, suit) for suit in (Suit.SPADES, Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS)]
    top = Card(5, Suit.DIAMONDS)
    hidden = sorted(wanted | queens, key=str)
    spare = [c for c in full_deck() if c not in {*hidden, *kings, top, *bases}]
    reserve = hidden + spare[: 12 - len(hidden)] + [top]
    stock = spare[12 - len(hidden):]
    game = new_game(name, cards=[str(c) for c in [*bases, *reserve, *kings, *stock]], **options)
    assert game.outcome is Outcome.BLOCKED
    return game


def _ranks_from(base: int) -> list[int]:
    ranks = [base]
    while len(ranks) < 13:
        ranks.append(next_rank(ranks[-1]))
    return ranks


def _decks(name: str) -> int:
    return new_game(name, deal=1).rules.decks


def level_sequence(with_bases: bool) -> list[str]:
    """Patriarchs cards in an order that always plays: the aces and kings (when not preplaced),
    then for each level i = 1..12 rank i+1 to the ace foundations and rank 13-i to the king
    foundations."""
    suits = "CSHD"
    ranks = "A23456789TJQK"
    cards = [f"A{s}" for s in suits] + [f"K{s}" for s in suits] if with_bases else []
    for level in range(1, 13):
        cards += [f"{ranks[level]}{s}" for s in suits] + [f"{ranks[12 - level]}{s}" for s in suits]
    return cards


def _won_patriarchs(name: str, **options: object) -> PatriarchsGame:
    """Patriarchs: the bases, the reserve and the waste from the level sequence, the stock the
    rest in order; Picture Patience: the level sequence with the aces and kings first."""
    if name == "patriarchs":
        sequence = level_sequence(with_bases=False)
        cards = [str(card) for card in BASE_CARDS] + sequence[:9] + sequence[-1:] + sequence[9:-1]
    else:
        cards = level_sequence(with_bases=True)
    game = new_game(name, cards=cards, **options)
    while game.outcome is None:
        if not game.play("a"):
            game.play("d")
    assert game.outcome is Outcome.WON
    return game


def _blocked_patriarchs(name: str, **options: object) -> PatriarchsGame:
    """Deal 1 played by the hints until nothing can help (216 moves in Patriarchs, 206 in
    Picture Patience)."""
    game = new_game(name, deal=1, **options)
    while (hint := game.hint()) is not None:
        for move in hint.moves:
            game.play(move)
    assert game.outcome is Outcome.BLOCKED
    return game


def won_two_deck_cards() -> list[str]:
    """A Demons and Thieves deck that is won by drawing and playing up (`d a` until the stock
    is out, then `a`): every card in the order the foundations want it (ace base, rank by rank,
    two of each), laid out so that each pile gives its cards in that order."""
    wanted = [str(Card(rank, suit)) for rank in range(1, 14) for suit in Suit for _ in range(2)]
    base, stock, reserve_top_down = wanted[0], wanted[1:47], wanted[47:60]
    singles, right = wanted[60:64], wanted[64:]
    columns = [[card] for card in singles] + [right[i:i + 8][::-1] for i in range(0, 40, 8)]
    return [base, *reserve_top_down[::-1], *(card for column in columns for card in column), *stock]


def _won_with_two_decks(name: str, **options: object) -> CanfieldGame:
    game = new_game(name, cards=won_two_deck_cards(), **options)
    while game.stock:
        game.play("d a")
    game.play("a")
    assert game.outcome is Outcome.WON
    return game


def _blocked_with_two_decks(name: str, **options: object) -> CanfieldGame:
    """The base KH; black fives on the left columns and red fives and 9C on the right; the
    cards any of them or a foundation could take buried under the right columns' tops."""
    card = Card.parse
    base, reserve_top = card("KH"), card("2C")
    tops = [card(text) for text in ("5C", "5S", "5C", "5S", "5H", "5D", "5H", "5D", "9C")]
    buried = [card(text) for text in ("KC", "KC", "KS", "KS", "KH", "KD", "KD", "AH", "AH",
                                      "4H", "4H", "4D", "4D", "8C", "8C")]
    rest = full_deck() * 2
    for used in (base, reserve_top, *tops, *buried):
        rest.remove(used)
    under = buried + rest[:35 - len(buried)]
    rest = rest[35 - len(buried):]
    right = [[*under[i * 7:(i + 1) * 7], top] for i, top in enumerate(tops[4:])]
    reserve = [*rest[:12], reserve_top]
    stock = rest[12:]
    cards = [base, *reserve, *tops[:4], *(c for column in right for c in column), *stock]
    game = new_game(name, cards=[str(c) for c in cards], **options)
    assert game.outcome is Outcome.BLOCKED
    return game


def long_game(name: str = "demons-and-thieves", deal: int = 1, moves: int = 1995, seed: int = 2) -> CanfieldGame:
    """A game as long as a member may make one (the move cap is 2,000): a seeded random playout
    that mostly moves the largest groups between columns, so that frame after frame much of the
    board changes and its columns grow tall (the costliest replays), drawing one move in ten.
    Its last positions may be past where the bot would have called the game blocked."""
    rng = random.Random(seed)
    game = new_game(name, deal=deal)
    while len(game.moves) < moves and (legal := game.legal_moves()):
        draws = [move for move in legal if move.is_draw]
        shifts = [move for move in legal if not move.is_draw and move.dst.startswith("t")]
        chance = rng.random()
        if draws and (chance < 0.1 or not shifts):
            game.play(draws[0])
        elif shifts:
            largest = max(move.count for move in shifts)
            game.play(rng.choice([move for move in shifts if move.count == largest] if chance < 0.7 else shifts))
        else:
            game.play(rng.choice(legal))
    return game
