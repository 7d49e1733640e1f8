"""Property tests over random deals and random legal playouts, for every game and option."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.game import GAMES as ALL_GAMES
from bot.game import DealError, IllegalMoveError, Move, NotationError, Outcome, new_game
from bot.game.canfield import CANFIELD_KINDS as GAMES  # the Canfield family (Patriarchs: test_patriarchs.py)
from bot.game.canfield import CanfieldGame
from bot.game.cards import full_deck

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "draw": st.integers(1, 6),
        "redeals": st.none() | st.integers(0, 3),
        "groups": st.sampled_from(["top-or-whole", "any"]),
        "die": st.sampled_from(["off", "game", "pass"]),
    },
)
GAME_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEALS = st.integers(1, 10**12)


def all_cards(game: CanfieldGame) -> Counter:
    return Counter(card for pile in game.piles(reveal=True).values() for card in pile)


def position(game: CanfieldGame) -> tuple:
    """Everything a move may change: every pile's cards, the redeals used and the die's roll (in
    `game.position`, as Card values: far cheaper to compare than `piles(reveal=True)`'s names,
    and these tests compare positions millions of times), the cards drawn at a time and the moves."""
    return (game.position, game.draw_count, list(game.moves))


def playout(game: CanfieldGame, rng: random.Random, steps: int) -> None:
    """Random legal moves, checking the invariants at every step."""
    expected = Counter(str(card) for card in full_deck() * game.rules.decks)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        assert len(set(moves)) == len(moves)
        move = rng.choice(moves)
        before = position(game)
        assert game.can_move(move)
        assert game.play(move) == [move]
        assert all_cards(game) == expected
        after = position(game)
        game.undo()
        assert position(game) == before
        assert game.play(str(move)) == [move]
        assert position(game) == after
        if rng.random() < 0.1:
            game.undo()
            assert position(game) == before
        if rng.random() < 0.1:
            check_outcome(game)


def check_outcome(game: CanfieldGame) -> None:
    """`outcome` agrees with the position and leaves it exactly as it was."""
    before = position(game)
    outcome = game.outcome
    assert position(game) == before
    if outcome is Outcome.WON:
        assert game.foundation_cards == game.deck_size and game.score == (352 if game.rules.decks == 1 else 604)
    elif outcome is Outcome.BLOCKED:  # nothing can reach a foundation or turn up a reserve card
        for move in game.legal_moves():
            assert not move.dst.startswith("f")
            assert move.src != "r" or game.rules.reserve_face_up
    else:
        assert game.legal_moves()


@given(name=st.sampled_from(sorted(GAMES)), deal=DEALS, options=OPTIONS, seed=st.integers(0, 2**32))
@GAME_SETTINGS
def test_random_playouts_keep_every_card_and_undo_exactly(name: str, deal: int, options: dict, seed: int) -> None:
    game = new_game(name, deal=deal, **options)
    playout(game, random.Random(seed), 120)


@given(name=st.sampled_from(sorted(GAMES)), deal=DEALS, options=OPTIONS, seed=st.integers(0, 2**32))
@GAME_SETTINGS
def test_moves_not_in_legal_moves_are_refused_and_change_nothing(name: str, deal: int, options: dict,
                                                                  seed: int) -> None:
    game = new_game(name, deal=deal, **options)
    rng = random.Random(seed)
    piles = [*game.pile_order, "t9", "f8"]  # and piles this game may not have
    for _ in range(40):
        legal = set(game.legal_moves())
        before = position(game)  # each refused candidate must leave it so
        for _ in range(25):
            src = rng.choice(piles[1:])
            candidate = Move(src, rng.choice([p for p in piles[1:] if p != src]), rng.randint(1, 4))
            if candidate in legal:
                continue
            assert not game.can_move(candidate)
            try:
                game.play(candidate)
            except IllegalMoveError as error:
                assert str(candidate) in str(error)
            else:
                raise AssertionError(f"{candidate} was played though not legal")
            assert position(game) == before
        if not legal:
            break
        game.play(rng.choice(sorted(legal, key=str)))


@given(name=st.sampled_from(sorted(ALL_GAMES)), text=st.text(max_size=12), deal=DEALS)
@settings(max_examples=300, deadline=None)
def test_garbled_or_illegal_text_changes_nothing(name: str, text: str, deal: int) -> None:
    game = new_game(name, deal=deal)
    before = position(game)
    try:
        played = game.play(text)
    except (NotationError, IllegalMoveError) as error:
        assert str(error)
        played = getattr(error, "played", [])
        assert game.moves == played  # the moves before the illegal one stand, nothing else
        for _ in played:
            game.undo()
        assert position(game) == before
    else:
        assert [str(m) for m in game.moves] == [str(m) for m in played]


@given(deal=st.integers(1, 10**20))
@settings(max_examples=100, deadline=None)
def test_every_pysolfc_game_number_deals_a_full_deck(deal: int) -> None:
    for name in ("canfield", "storehouse"):
        game = new_game(name, deal=deal)
        assert sorted(Counter(all_cards(game)).values()) == [1] * 52
        assert len(game.reserve) == 13 and len(game.stock) == 34 - (3 if name == "storehouse" else 0)
    game = new_game("demons-and-thieves", deal=deal)
    assert sorted(Counter(all_cards(game)).values()) == [2] * 52
    assert len(game.reserve) == 13 and len(game.stock) == 46 and [len(c) for c in game.tableau] == [1] * 4 + [8] * 5


@given(deal=st.integers(-10, 0) | st.integers(10**20 + 1, 10**21))
@settings(deadline=None)  # no timing: a busy machine (or a parallel run) may pause any example
def test_deal_numbers_outside_pysolfc_are_refused(deal: int) -> None:
    try:
        new_game("canfield", deal=deal)
    except DealError as error:
        assert str(deal) in str(error)
    else:
        raise AssertionError(f"deal {deal} was accepted")
