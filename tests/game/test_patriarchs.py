"""Patriarchs and Picture Patience (docs/games.md): golden deals, the rules on hand-made decks, scripted
wins, the end of the game and hints, and property tests over random deals and playouts.

Where our rules deliberately differ from PySolFC (pysollib/games/sultan.py, classes
PicturePatience and Patriarchs):
- Picture Patience (PySolFC game 598) has no redeal in PySolFC; the seed follows SolSuite and
  allows one by default. `redeals=0` plays PySolFC's version.
- PySolFC's Patriarchs (game 429) has no reversal code: its foundations are plain suit
  foundations. The seed's reversals (a card back and forth between a suit's ace and king
  foundations while their tops are in sequence, never a base card) are ours.
- PySolFC declares its reserve piles as row stacks with max_accept=1; here a reserve pile never
  takes a card from a player: it is refilled only at once, when it empties.
- When the waste is empty, PySolFC refills a reserve pile by dealing the stock's top card to the
  waste and moving it on; we move it straight from the stock: the same card lands there.
- A `d` on an empty stock turns the waste over and draws its first card in one move, as our
  Canfield does.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.game import DRAW, DealError, IllegalMoveError, Move, NotationError, Outcome, UnknownGameError
from bot.game.cards import Card, full_deck
from bot.game.deals import dealing_order, shuffled_talon, shuffled_talon_with_decks
from bot.game.patriarchs import (
    BASE_CARDS,
    PATRIARCHS_KINDS,
    PatriarchsGame,
    dealt_patriarchs_cards,
    new_patriarchs_game,
)
from tests.samples import level_sequence

NAMES = sorted(PATRIARCHS_KINDS)
BASES = [str(card) for card in BASE_CARDS]  # AC AS AH AD KC KS KH KD
RESERVES = [f"r{i}" for i in range(1, 10)]
FOUNDATIONS = [f"f{i}" for i in range(1, 9)]
PILES = ["s", "w", *FOUNDATIONS, *RESERVES]
TWO_DECKS = Counter({str(card): 2 for card in full_deck()})


def build_deck(first: list[str], last: list[str] | None = None) -> list[str]:
    """A `cards=` deck: `first` in dealing order, then every card not named (two of each in all),
    in suit order, then `last` (the bottom of the stock: drawn last)."""
    named = Counter(first + (last or []))
    assert not named - TWO_DECKS, f"named more than twice: {named - TWO_DECKS}"
    left = TWO_DECKS - named
    rest = [str(card) for card in full_deck() for _ in range(left[str(card)])]
    return first + rest + (last or [])


# --- helpers for the property tests ----------------------------------------------------------


def all_cards(game: PatriarchsGame) -> Counter:
    return Counter(card for pile in game.piles(reveal=True).values() for card in pile)


def position(game: PatriarchsGame) -> tuple:
    """Everything a move may change: every pile's cards (in `game.position`, as Card values: far
    cheaper to compare than `piles(reveal=True)`'s names, and the property tests compare
    positions millions of times), the redeals used, the moves and the reserve fills to undo."""
    return (game.position, list(game.moves), [(s.move, s.fills) for s in game.history])


def progress_distance(game: PatriarchsGame, limit: int = 4000) -> int | None:
    """Brute force over the engine's own moves: the fewest moves that end with a card from a
    reserve pile or the waste on a foundation (0 when none can; None when the search gave up)."""
    seen = {game.position}
    frontier = [game.copy()]
    depth = 0
    while frontier:
        depth += 1
        following = []
        for state in frontier:
            moves = state.legal_moves()
            if any(m.src in ("w", *RESERVES) for m in moves):
                return depth
            for move in moves:
                after = state.copy()
                after.play(move)
                if after.position not in seen:
                    seen.add(after.position)
                    following.append(after)
            if len(seen) > limit:
                return None
        frontier = following
    return 0


def check_outcome_and_hint(game: PatriarchsGame) -> None:
    """`outcome` and `hint` agree with a brute-force search and leave the position as it was."""
    before = position(game)
    outcome, hint = game.outcome, game.hint()
    assert position(game) == before
    if outcome is Outcome.WON:
        assert game.foundation_cards == 104 and game.score == 604 and hint is None
        return
    distance = progress_distance(game)
    if distance is None:
        return
    assert (outcome is Outcome.BLOCKED) == (distance == 0)
    if distance == 0:
        assert hint is None
        return
    last = game.moves[-1] if game.moves else None
    went_back = last is not None and last.src in FOUNDATIONS and game.can_move(Move(last.dst, last.src))
    if hint is None:  # the only way on is to take the last reversal back, which a hint never says
        assert went_back
        return
    twin = game.copy()
    for move in hint.moves:  # its draws, then its move: legal in turn
        twin.play(move)
    if hint.move.src in ("w", *RESERVES):
        assert (distance == hint.draws + 1 or went_back) and twin.foundation_cards == game.foundation_cards + 1
        return
    # Off the shortest way only to avoid taking the last reversal straight back.
    assert progress_distance(twin) == distance - hint.draws - 1 or went_back


def playout(game: PatriarchsGame, rng: random.Random, steps: int) -> None:
    """Random legal moves (foundation moves preferred, so that games get somewhere), checking the
    invariants at every step."""
    expected = Counter(TWO_DECKS)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        assert len(set(moves)) == len(moves)
        to_foundation = [m for m in moves if m.src in ("w", *RESERVES)]
        move = rng.choice(to_foundation if to_foundation and rng.random() < 0.85 else moves)
        before = position(game)
        for other in moves:
            assert game.can_move(other)
            assert game.play(str(other)) == [other]
            after_text = position(game)
            game.undo()
            assert position(game) == before
            assert game.play(other) == [other]
            assert position(game) == after_text
            game.undo()
        assert game.play(move) == [move]
        assert all_cards(game) == expected
        assert sum(len(game.piles()[name]) for name in PILES) == 104
        assert all(len(game.reserves[i]) <= 1 for i in range(9))
        if rng.random() < 0.1:
            game.undo()
            assert position(game) == before
        if rng.random() < 0.08:
            check_outcome_and_hint(game)


# --- golden deals ----------------------------------------------------------------------------

# Deal order for both games (PySolFC's startGame and dealRow, read in sultan.py): Patriarchs
# first deals the eight cards its shuffle hook moved to the top of the talon (the first deck's
# aces and kings, sorted by (rank, suit): AC AS AH AD KC KS KH KD) to f1..f8; then both games
# deal one card to each reserve pile in creation order (row by row: r1..r9), then one card to the
# waste; the rest is the stock. Written out below: r1..r9 | waste | stock from the top down.
# The Picture Patience lines are the shuffled two-deck talon read from its top; the Patriarchs
# lines are the same talon with the first deck's aces and kings taken out (for deal 1 the KH
# that Picture Patience deals to r4, one of its two KCs, the AS at the top of its stock ...).
GOLDEN = [
    ("patriarchs", 1, "3D 5H JC 5S 5H KC 8D JD AS", "8C",
     "6C 6H TC 8D 4C JS QC 4H 2H TD 8S AC 7C 2H AD 9H 8S 7D 9S 8H JH 4D 2D 6H "
     "TH 8C 2S 3S 9C 7D 4S 8H TH AH JC 4H 7H QS QC 7C 3S QH 9S 2S QH 3C 4S 6D "
     "TD 9C 9D JS 4D 5C 6C JH 6S 3C JD TC QS 2C 9H 3H 7S 5C 9D KS 5D TS QD 7S "
     "6D TS KD QD 7H 3D 2C KH 5D 3H 2D 4C 5S 6S"),
    ("patriarchs", 123456, "6H 4H 4C 5S AS 8C QC 9S 7D", "TD",
     "3C KD 8H 6C 7H TS 8D QH 7H 6S 3D 4D KC JD TC 7D 7C 9C 7C QD 6H 2C TS 4S "
     "QS 5C 2D 2S 9H 8S 6D JS AC 2C 2H 6C 4S 9C 2D TD QS 3C JD 5D 4C 5S JS 5C "
     "JC 5H 2H AH 8C 8D 9H 9S 3H 9D KS 7S TC QH JH 3S 4H 2S TH 3D 3H 3S 6S JC "
     "KH QC 8H 7S TH JH QD AD 4D 9D 5D 8S 6D 5H"),
    ("picture-patience", 1, "3D 5H JC KH 5S 5H KC KC 8D", "JD",
     "AS 8C 6C 6H TC 8D 4C JS QC 4H KD 2H TD 8S AC 7C 2H AD 9H 8S 7D 9S 8H JH "
     "4D 2D 6H TH 8C 2S 3S 9C 7D 4S 8H TH AH JC 4H 7H QS QC 7C 3S QH 9S 2S QH "
     "3C AS 4S KS 6D TD 9C 9D JS 4D 5C 6C AD JH 6S 3C JD TC AH QS 2C 9H 3H 7S "
     "5C 9D KS 5D TS QD 7S 6D TS KD QD 7H 3D 2C KH 5D 3H 2D 4C 5S 6S AC"),
    ("picture-patience", 123456, "6H 4H 4C 5S AC AS 8C AH QC", "9S",
     "7D TD 3C KD 8H 6C 7H TS 8D QH 7H 6S 3D 4D KC JD TC 7D KH 7C 9C 7C QD 6H "
     "2C TS KS 4S QS 5C 2D 2S 9H 8S 6D JS AC 2C 2H 6C 4S 9C KC 2D TD QS 3C JD "
     "5D 4C 5S JS 5C JC 5H 2H AS AH 8C 8D AD 9H 9S 3H 9D KS 7S TC QH KD JH 3S "
     "4H 2S TH 3D 3H 3S 6S JC KH QC 8H 7S TH JH QD AD 4D 9D 5D 8S 6D 5H"),
]


@pytest.mark.parametrize(("name", "deal", "reserve", "waste", "stock"), GOLDEN)
def test_golden_layouts(name: str, deal: int, reserve: str, waste: str, stock: str) -> None:
    game = new_patriarchs_game(name, deal=deal)
    layout = game.piles(reveal=True)
    bases = [[card] for card in BASES] if name == "patriarchs" else [[]] * 8
    assert [layout[f] for f in FOUNDATIONS] == bases
    assert [layout[r] for r in RESERVES] == [[card] for card in reserve.split()]
    assert layout["w"] == [waste]
    assert layout["s"][::-1] == stock.split()
    assert game.piles()["s"] == ["??"] * len(stock.split())
    assert list(layout) == PILES == list(game.pile_order)


@pytest.mark.parametrize("deal", [1, 2, 31999, 32000, 123456, 10**12])
def test_patriarchs_deals_the_talon_without_the_first_decks_aces_and_kings(deal: int) -> None:
    """PySolFC's hook picks the first deck's aces and kings; the second deck's stay where they were."""
    talon = shuffled_talon_with_decks(deal, decks=2)
    assert [card for card, _ in talon] == shuffled_talon(deal, decks=2)
    assert Counter(deck for _, deck in talon) == {0: 52, 1: 52}
    kept = [card for card, deck in talon if not (card.rank in (1, 13) and deck == 0)]
    assert dealt_patriarchs_cards("patriarchs", deal) == list(BASE_CARDS) + dealing_order(kept)
    assert dealt_patriarchs_cards("picture-patience", deal) == dealing_order(shuffled_talon(deal, decks=2))


def test_the_same_deal_number_gives_the_same_game_and_a_random_one_is_recorded() -> None:
    assert new_patriarchs_game(deal=77).piles(reveal=True) == new_patriarchs_game(deal=77).piles(reveal=True)
    game = new_patriarchs_game("picture-patience")
    assert game.deal is not None and dealt_patriarchs_cards("picture-patience", game.deal) == list(game.cards)


# --- the public face ---------------------------------------------------------------------------


def test_names_titles_options_and_a_fresh_position() -> None:
    game = new_patriarchs_game("patriarchs", deal=1)
    assert (game.name, game.title, game.options) == ("patriarchs", "Patriarchs", {"redeals": 1})
    titles = {name: kind.title for name, kind in PATRIARCHS_KINDS.items()}
    assert titles == {"patriarchs": "Patriarchs", "picture-patience": "Picture Patience"}
    assert (game.redeals_used, game.redeals_left, game.pass_number, game.draw_count) == (0, 1, 1, 1)
    assert game.die_roll is None and game.base_rank is None and game.moves == [] and not game.can_undo()
    assert game.foundation_cards == 8 and game.score == 8 - 9
    assert [str(game.foundation_base(f)) for f in FOUNDATIONS] == BASES
    assert game.top("w") == Card.parse("8C") and game.top("s") == Card.parse("6C")
    assert not game.is_face_up("s", 0) and game.is_face_up("r1", 0) and game.is_face_up("w", 0)
    picture = new_patriarchs_game("picture-patience", deal=1, redeals=0)
    assert picture.options == {"redeals": 0} and picture.redeals_left == 0
    assert picture.foundation_cards == 0 and picture.score == -9
    assert str(picture.foundation_base("f8")) == "KD"
    with pytest.raises(ValueError, match="'r1' is not a foundation"):
        picture.foundation_base("r1")


def test_the_board_picture_labels_every_pile() -> None:
    text = str(new_patriarchs_game("patriarchs", deal=1))
    assert text.startswith("Patriarchs · deal 1 · pass 1, 1 redeal left · score -1")
    for name in PILES:
        assert f"{name} " in text
    assert "r9 AS" in text and "f5 KC" in text and "[86]" in text


@pytest.mark.parametrize(("options", "quoted"), [
    ({"redeals": 2}, "redeals=2"), ({"redeals": True}, "redeals=True"), ({"redeals": None}, "redeals=None"),
    ({"draw": 3}, "'draw'"), ({"die": "game"}, "'die'"),
])
def test_bad_options_are_refused_quoting_them(options: dict, quoted: str) -> None:
    for name in NAMES:
        with pytest.raises(UnknownGameError, match=quoted):
            new_patriarchs_game(name, deal=1, **options)


def test_bad_names_and_decks_are_refused() -> None:
    with pytest.raises(UnknownGameError, match="'canfield'"):
        new_patriarchs_game("canfield", deal=1)
    with pytest.raises(DealError, match="must begin with AC AS AH AD KC KS KH KD"):
        new_patriarchs_game("patriarchs", cards=build_deck(["2C"]))
    with pytest.raises(DealError, match="not a full deck"):
        new_patriarchs_game("picture-patience", cards=[str(card) for card in full_deck()])
    with pytest.raises(DealError, match="0"):
        new_patriarchs_game("patriarchs", deal=0)
    with pytest.raises(ValueError, match="not both"):
        new_patriarchs_game("patriarchs", deal=1, cards=build_deck(BASES))


# --- the rules on hand-made decks ------------------------------------------------------------

# Patriarchs: r1..r9 = 2C..TC, waste QC, stock from the top JC 5H 6H 7H 8H 5D 6D 7D 8D 9H ...
CLUBS_DECK = build_deck([*BASES, "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC",
                         "JC", "5H", "6H", "7H", "8H", "5D", "6D", "7D", "8D", "9H"], ["2S", "9D"])
# After it: f1 AC..TC, f5 KC QC JC (tops in sequence), the reserve 5H 6H 7H 8H 5D 6D 7D 8D 9H.
CLUBS_LINE = "r1f1 r1f5 r1f5 r2f1 r3f1 r4f1 r5f1 r6f1 r7f1 r8f1 r9f1"


def test_an_emptied_reserve_pile_is_filled_from_the_waste_then_the_stock_and_undo_takes_it_back() -> None:
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK)
    fresh = position(game)
    assert game.play("r1f1") == [Move("r1", "f1")]
    assert game.piles()["r1"] == ["QC"] and game.piles()["w"] == [] and game.history[-1].fills == ("r1",)
    after_first = position(game)
    assert game.play("qc") == [Move("r1", "f5")]  # the card name finds it on r1
    assert game.piles()["r1"] == ["JC"] and game.piles()["s"] == ["??"] * 85
    game.undo()
    assert position(game) == after_first
    game.undo()
    assert position(game) == fresh
    # With a card on the waste, the refill takes it rather than the stock's top.
    game.play("d")
    assert game.piles()["w"] == ["QC", "JC"]
    game.play("r1f1")
    assert game.piles()["r1"] == ["JC"] and game.piles()["w"] == ["QC"]
    assert game.play("wf5") == [Move("w", "f5")] and game.piles()["w"] == []


def test_a_waste_move_leaves_the_reserve_alone() -> None:
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK)
    game.play("r1f1 r1f5 d")  # r1 = JC, waste = 5H
    before = game.piles()
    game.play("r1f5")
    assert game.piles()["r1"] == ["5H"] and game.piles()["w"] == []
    assert game.history[-1].fills == ("r1",) and before["r1"] == ["JC"]


def test_reserve_cards_go_to_the_foundations_only() -> None:
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK)
    before = position(game)
    for move in (Move("r1", "r2"), Move("w", "r3"), Move("f1", "r1"), Move("r1", "w"), Move("r1", "f2")):
        assert not game.can_move(move)
        with pytest.raises(IllegalMoveError, match=str(move)):
            game.play(move)
    with pytest.raises(NotationError, match="r1r2"):
        game.play("r1r2")
    with pytest.raises(IllegalMoveError, match="no pile t1"):
        game.play("r1t1")
    with pytest.raises(IllegalMoveError, match="no pile r"):
        game.play("rf")
    with pytest.raises(IllegalMoveError, match="f2 builds spades, not 3C"):
        game.play("r2f2")
    with pytest.raises(IllegalMoveError, match="f1 needs the 2C, not 3C; legal moves: r1f1, wf5, d"):
        game.play("r2f1")
    assert position(game) == before
    assert all(not move.dst.startswith("r") for move in game.legal_moves())


def test_reversals_only_between_tops_in_sequence_and_never_a_base_card() -> None:
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK)
    with pytest.raises(IllegalMoveError, match="in sequence"):
        game.play("f1f5")  # AC and KC
    game.play(CLUBS_LINE)
    assert game.piles()["f1"][-1] == "TC" and game.piles()["f5"] == ["KC", "QC", "JC"]
    assert Move("f1", "f5") in game.legal_moves() and Move("f5", "f1") in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="other foundation of its suit"):
        game.play("f1f6")
    with pytest.raises(IllegalMoveError, match="in sequence"):
        game.play("f2f6")
    assert str(game.describe(Move("f1", "f5"))) == "TC back from f1 onto f5 (a reversal)"
    # Down to the base ace: nine cards go over, the tenth (AC) may not.
    assert game.play("f1f5 " * 9) == [Move("f1", "f5")] * 9
    assert game.piles()["f1"] == ["AC"] and len(game.piles()["f5"]) == 12
    with pytest.raises(IllegalMoveError, match="never gives up its base card AC"):
        game.play("f1f5")
    # And all the way back up to the base king.
    assert game.play("f5f1 " * 11) == [Move("f5", "f1")] * 11
    assert game.piles()["f5"] == ["KC"] and game.piles()["f1"][-1] == "QC"
    with pytest.raises(IllegalMoveError, match="never gives up its base card KC"):
        game.play("f5f1")
    assert game.foundation_cards == 8 + 11 and game.score == 19 - 9


def test_a_reversal_lets_a_card_in_and_the_hint_says_so() -> None:
    for redeals in (1, 0):
        game = new_patriarchs_game("patriarchs", redeals=redeals, cards=build_deck(
            [*BASES, "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC", "JC", "9C",
             "5H", "6H", "7H", "8H", "5D", "6D", "7D", "8D", "9H", "9H"]))
        game.play("r1f1 r1f5 r1f5")  # r1 = the second 9C
        game.play("r2f1 r3f1 r4f1 r5f1 r6f1 r7f1 r8f1 r9f1")  # f1 up to TC, f5 down to JC
        assert game.piles()["r1"] == ["9C"]
        assert not any(move.src.startswith("r") for move in game.legal_moves())
        assert game.hint().moves == [Move("f1", "f5")]  # TC goes over to f5, which then takes 9C
        assert game.outcome is None
        game.play("f1f5")
        assert game.hint().moves == [Move("r1", "f5")]
        game.undo()
        game.play("f5f1")
        if redeals:
            # JC went over to f1 instead, so 9C needs f1f5 first: that merely takes the last
            # move back, which a hint never says; a longer way is left: drawing the other TC
            # (11 draws), then the reversal (no step back after a draw), then TC to f5.
            hint = game.hint()
            assert (hint.draws, hint.move, hint.redeals) == (11, Move("f1", "f5"), 0)
            for move in hint.moves:
                game.play(move)
            assert game.top("w") == Card.parse("TC") and game.hint().moves == [Move("w", "f5")]
            continue
        # Without a redeal, once the stock is drawn (down to KD) going back is the only way on.
        game.undo()
        game.play(" ".join(["d"] * len(game.stock)) + " f5f1")
        assert game.top("w") == Card.parse("KD") and game.legal_moves() == [Move("f1", "f5"), Move("f5", "f1")]
        assert game.hint() is None and game.outcome is None


def test_picture_patience_starts_empty_foundations_with_aces_and_kings_and_has_no_reversals() -> None:
    game = new_patriarchs_game("picture-patience", cards=build_deck(
        ["2C", "AC", "3C", "KC", "QC", "4C", "5C", "JC", "AS", "6C"]))
    with pytest.raises(IllegalMoveError, match="f1 is empty and starts with an ace of clubs, not 2C"):
        game.play("r1f1")
    played = game.play("a")
    assert [str(move) for move in played] == [
        "r2f1", "r1f1", "r3f1", "r4f5", "r5f5", "r5f1", "r5f1", "r2f1", "r2f1", "r8f5", "r8f1", "r9f2", "r9f1"]
    assert game.piles()["f1"] == ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
    assert game.piles()["f5"] == ["KC", "QC", "JC"] and game.piles()["f2"] == ["AS"]
    while game.top("w") != Card.parse("TC"):
        game.play("d")
    assert game.play("tc") == [Move("w", "f1")]  # TC fitted f5 too: the first foundation wins
    # f1 (TC) and f5 (JC) are in sequence, but Picture Patience has no reversals.
    assert not any(move.src.startswith("f") for move in game.legal_moves())
    with pytest.raises(IllegalMoveError, match="never leave the foundations in Picture Patience"):
        game.play("f5f1")


def test_a_card_that_fits_two_foundations_goes_to_the_first_unless_told() -> None:
    # Picture Patience: KC on r1 fits the empty f5, and f1 once it is built up to QC: not here.
    # Patriarchs: with f1 at 6C and f5 at 8C, a 7C fits both.
    first = [*BASES, "2C", "3C", "4C", "5C", "6C", "QC", "JC", "TC", "9C", "8C", "7C"]
    game = new_patriarchs_game("patriarchs", cards=build_deck(first))
    game.play("r1f1 r2f1 r3f1 r4f1 r5f1 r6f5 r7f5 r8f5 r9f5")
    assert game.piles()["f1"][-1] == "6C" and game.piles()["f5"][-1] == "9C"
    game.play("r1f5")  # the waste's 8C went to r1 at the first refill
    assert game.piles()["f5"][-1] == "8C"
    assert [str(m) for m in game.legal_moves() if m.src != "s"][:2] == ["r2f1", "r2f5"]
    assert str(game.describe(Move("r2", "f5"))) == "7C to its king foundation"
    snapshot = position(game)
    assert game.play("7c") == [Move("r2", "f1")]
    game.undo()
    assert game.play("r2f") == [Move("r2", "f1")]
    game.undo()
    assert game.play("7c f5") == [Move("r2", "f5")]
    game.undo()
    assert position(game) == snapshot


def test_card_names_say_where_the_card_is_when_it_cannot_move() -> None:
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK)
    before = position(game)
    with pytest.raises(IllegalMoveError, match="on a foundation"):
        game.play("ac")
    with pytest.raises(IllegalMoveError, match="face down in the stock"):
        game.play("5h")
    with pytest.raises(IllegalMoveError, match="3C has nowhere to go"):
        game.play("3c")
    with pytest.raises(NotationError, match="hint"):
        game.play("h")
    assert position(game) == before


def test_one_redeal_then_none_and_none_at_all_with_redeals_0() -> None:
    for redeals in (1, 0):
        game = new_patriarchs_game("patriarchs", deal=5, redeals=redeals)
        talon = game.piles(reveal=True)["w"] + game.piles(reveal=True)["s"][::-1]
        for _ in range(86):
            game.play("d")
        assert game.piles()["s"] == [] and game.piles()["w"] == talon
        if redeals:
            assert str(game.describe(DRAW)) == "turn the waste over and draw"
            game.play("d")
            assert (game.redeals_used, game.redeals_left, game.pass_number) == (1, 0, 2)
            assert game.piles(reveal=True)["w"] == talon[:1] and game.piles(reveal=True)["s"][::-1] == talon[1:]
            game.undo()
            assert game.piles()["w"] == talon and game.redeals_used == 0
            game.play("d" + " d" * 86)
        assert DRAW not in game.legal_moves()
        with pytest.raises(IllegalMoveError, match="no redeal is left"):
            game.play("d")


def test_scripted_win_of_patriarchs() -> None:
    # r1..r9 hold the first nine cards of the level sequence, the waste its last card (AD, for
    # the king foundation of diamonds), the stock the rest in order: every card fits as it comes.
    sequence = level_sequence(with_bases=False)
    game = new_patriarchs_game("patriarchs", cards=BASES + sequence[:9] + sequence[-1:] + sequence[9:-1])
    assert game.hint().moves == [Move("r1", "f1")]
    game.play("d")
    assert game.piles()["w"] == ["AD", "3S"]
    played = game.play("a")
    assert len(played) == 96 and game.outcome is Outcome.WON
    assert game.score == 8 * 50 + 100 + 104 == 604
    assert all(len(game.piles()[f]) == 13 for f in FOUNDATIONS)
    # The stock and the waste ran out first: the last reserve piles emptied and stayed empty.
    assert [game.piles()[r] for r in RESERVES] == [[]] * 9 and game.history[-1].fills == ()
    assert game.legal_moves() == [] and game.hint() is None and "WON" in str(game)
    while game.can_undo():
        game.undo()
    assert game.piles() == new_patriarchs_game("patriarchs", cards=list(game.cards)).piles()


def test_scripted_win_of_picture_patience() -> None:
    # The aces and kings first, then the level sequence: 'a' plays all 104 cards.
    game = new_patriarchs_game("picture-patience", cards=level_sequence(with_bases=True), redeals=0)
    assert game.hint().moves == [Move("r1", "f1")] and game.outcome is None
    assert len(game.play("a")) == 104
    assert game.outcome is Outcome.WON and game.score == 604 and game.foundation_cards == 104


def test_blocked_when_nothing_can_reach_a_foundation_even_with_reversals_left() -> None:
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK, redeals=0)
    game.play(CLUBS_LINE)
    for _ in range(len(game.stock) - 1):
        game.play("d")
    # The waste's top is 2S: it goes to f2. One more draw buries it under 9D.
    assert game.outcome is None and game.hint().moves == [Move("w", "f2")]
    game.play("d")
    assert game.top("w") == Card.parse("9D")
    # Every club left is buried in the waste; the reserve is hearts and diamonds that no
    # foundation takes; f1 (TC) and f5 (JC) may still reverse, which changes nothing.
    assert game.legal_moves() == [Move("f1", "f5"), Move("f5", "f1")]
    assert game.outcome is Outcome.BLOCKED and game.hint() is None
    assert "BLOCKED" in str(game)
    game.play("f1f5")
    assert game.outcome is Outcome.BLOCKED
    game.undo()
    game.undo()
    assert game.outcome is None
    # With the redeal, the buried clubs come round again.
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK)
    game.play(CLUBS_LINE)
    game.play(" ".join(["d"] * len(game.stock)))
    hint = game.hint()  # the redeal is a draw: then f5 takes AC once the clubs go back over to it
    assert game.outcome is None and (hint.draws, hint.redeals, hint.move) == (1, 1, Move("f1", "f5"))
    for move in hint.moves:
        game.play(move)
    assert game.redeals_used == 1 and game.top("w") == Card.parse("AC")


def test_undo_after_a_restored_position_replays_the_moves() -> None:
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK)
    game.play(CLUBS_LINE + " d d f1f5")
    restored = new_patriarchs_game("patriarchs", cards=list(game.cards))
    restored.resume(game.position, game.moves)
    while game.can_undo():
        assert restored.undo() == game.undo()
        assert position(restored) == position(game)
    twin = game.copy()
    twin.play("d")
    assert game.moves == [] and twin.moves == [DRAW]


def test_several_moves_stop_at_the_first_illegal_one() -> None:
    game = new_patriarchs_game("patriarchs", cards=CLUBS_DECK)
    with pytest.raises(IllegalMoveError) as caught:
        game.play("r1f1 r1f5 r2f2 r3f1")
    assert caught.value.played == [Move("r1", "f1"), Move("r1", "f5")] and game.moves == caught.value.played
    assert "'r2f2' is not legal" in str(caught.value) and "legal" in str(caught.value)
    assert game.play("u u") == [] and game.moves == []


# --- property tests --------------------------------------------------------------------------

GAME_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEALS = st.integers(1, 10**12)
REDEALS = st.sampled_from([0, 1])


@given(name=st.sampled_from(NAMES), deal=DEALS, redeals=REDEALS, seed=st.integers(0, 2**32))
@GAME_SETTINGS
def test_random_playouts_keep_every_card_and_undo_exactly(name: str, deal: int, redeals: int, seed: int) -> None:
    game = new_patriarchs_game(name, deal=deal, redeals=redeals)
    playout(game, random.Random(seed), 200)
    check_outcome_and_hint(game)


@given(name=st.sampled_from(NAMES), deal=DEALS, redeals=REDEALS, seed=st.integers(0, 2**32))
@GAME_SETTINGS
def test_moves_not_in_legal_moves_are_refused_and_change_nothing(name: str, deal: int, redeals: int,
                                                                  seed: int) -> None:
    game = new_patriarchs_game(name, deal=deal, redeals=redeals)
    rng = random.Random(seed)
    for _ in range(40):
        legal = set(game.legal_moves())
        before = position(game)  # each refused candidate must leave it so
        for _ in range(20):
            src = rng.choice(PILES[1:])
            candidate = Move(src, rng.choice([p for p in PILES if p != src]), rng.choice([1, 1, 2]))
            if candidate in legal:
                continue
            assert not game.can_move(candidate)
            with pytest.raises(IllegalMoveError) as caught:
                game.play(candidate)
            assert str(candidate) in str(caught.value)
            assert position(game) == before
        if not legal:
            break
        game.play(rng.choice(sorted(legal, key=str)))


@given(name=st.sampled_from(NAMES), deal=st.integers(1, 10**20))
@settings(max_examples=60, deadline=None)
def test_every_pysolfc_game_number_deals_both_decks(name: str, deal: int) -> None:
    game = new_patriarchs_game(name, deal=deal)
    assert all_cards(game) == TWO_DECKS
    assert len(game.stock) == (86 if name == "patriarchs" else 94) and len(game.waste) == 1
    assert game.hint() is not None and game.outcome is None
