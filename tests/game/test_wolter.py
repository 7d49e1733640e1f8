"""Replay Jan Wolter's published Canfield solutions (tests/data/wolter-canfield-sample100.txt)
in our engine: an independent check of the rules, with draw 3, unlimited redeals and any
built group movable (`groups="any"`), as his solver plays them."""

from __future__ import annotations

import pytest

from bot.game import DRAW, Card, IllegalMoveError, Move, Outcome, new_game
from bot.game.canfield import CanfieldGame
from tests.game.wolter import WolterDeal, WolterMove, read_deals

DEALS = read_deals()
WON = [deal for deal in DEALS if deal.verdict == "won"]
STUCK = [deal for deal in DEALS if deal.verdict == "stuck"]
COLUMNS = {"T02": "t1", "T03": "t2", "T04": "t3", "T05": "t4"}
MAX_DRAWS = 200  # far more than two passes through a 34-card stock
WINNING_SCORE = 352


def seed_id(deal: WolterDeal) -> str:
    """The test id of a deal: its seed."""
    return f"seed{deal.seed}"


def foundation(card: str) -> str:
    """Our foundation for a card: f1 clubs, f2 spades, f3 hearts, f4 diamonds."""
    return f"f{Card.parse(card).suit.index + 1}"


def draw_to(game: CanfieldGame, card: str, where: str) -> None:
    """Draw (redealing as needed) until `card` is on top of the waste."""
    for _ in range(MAX_DRAWS):
        top = game.top("w")
        if top is not None and str(top) == card:
            return
        game.play(DRAW)
    pytest.fail(f"{where}: {card} did not reach the top of the waste in {MAX_DRAWS} draws")


def our_move(game: CanfieldGame, move: WolterMove, where: str) -> Move:
    """Our Move for Wolter's move, after checking that the cards he lists are the ones that move
    (drawing first for a move from B01)."""
    count = len(move.cards)
    dst = foundation(move.cards[0]) if move.dst.startswith("F") else COLUMNS[move.dst]
    if move.src == "B01":
        assert count == 1, f"{where}: several cards from the waste"
        draw_to(game, move.cards[0], where)
        return Move("w", dst)
    src = "r" if move.src == "T01" else COLUMNS[move.src]
    pile = game.piles()[src]
    assert pile[-count:] == list(move.cards), f"{where}: {src} ends {pile[-count:]}, not {list(move.cards)}"
    return Move(src, dst, count)


def replay(deal: WolterDeal) -> CanfieldGame:
    """Play the deal's listed moves in a fresh game and return it; fail the test, naming the
    move, at the first move that our engine refuses or that does not match.

    Our engine fills an emptied column from the reserve as part of the move that emptied it;
    Wolter prints that fill as the next move, `[card] T01 -> T0x`, which is checked and skipped.
    The game must not be called over while a later move of the line still makes progress (puts a
    card on a foundation or takes one from the reserve); a stuck deal's line may end with moves
    that lead nowhere, and by then our engine rightly calls the game blocked.
    """
    game = new_game("canfield", cards=deal.cards(), groups="any")
    fill: tuple[str, str] | None = None  # (column, card) our engine just filled from the reserve
    for index, move in enumerate(deal.moves):
        where = f"seed {deal.seed}, move {move}"
        if fill is not None:
            column, card = fill
            fill = None
            assert move.src == "T01" and COLUMNS.get(move.dst) == column and move.cards == (card,), (
                f"{where}: our engine filled {column} from the reserve with {card} after the previous move, "
                "but this move is not that fill"
            )
            assert game.piles()[column] == [card], f"{where}: {column} holds {game.piles()[column]}"
            continue
        progress_left = any(m.dst.startswith("F") or m.src == "T01" for m in deal.moves[index:])
        if progress_left or deal.verdict == "won":
            assert game.outcome is None, f"{where}: our engine calls the game over ({game.outcome}) before this move"
        ours = our_move(game, move, where)
        before = game.piles(reveal=True)
        try:
            game.play(ours)
        except IllegalMoveError as error:
            pytest.fail(f"{where}: our engine refuses {ours}: {error}\n{game}")
        if ours.src in COLUMNS.values() and ours.count == len(before[ours.src]) and before["r"]:
            fill = (ours.src, before["r"][-1])
    return game


def end_layout(game: CanfieldGame) -> dict[str, list[str]]:
    """Our position in Wolter's layout form: foundations keyed by suit letter, T01..T05, and B01
    as the stock and waste in dealing order (waste bottom to top, then the stock top down)."""
    ours = game.piles(reveal=True)
    layout = {name: ours[column] for name, column in COLUMNS.items()}
    layout["T01"] = ours["r"]
    layout["B01"] = ours["w"] + ours["s"][::-1]
    for index, suit in enumerate("CSHD", start=1):
        layout[suit] = ours[f"f{index}"]
    return layout


def wolter_end_layout(deal: WolterDeal) -> dict[str, list[str]]:
    """The layout printed after a stuck deal's partial line, in `end_layout`'s form."""
    assert deal.end is not None
    layout = {name: deal.end[name] for name in ("T01", "B01", *COLUMNS)}
    for suit in "CSHD":
        layout[suit] = next(
            (cards for name, cards in deal.end.items() if name.startswith("F") and cards and cards[0][1] == suit), []
        )
    return layout


def test_the_file_has_100_deals_70_won_and_30_stuck() -> None:
    assert [deal.seed for deal in DEALS] == list(range(100))
    assert len(WON) == 70
    assert len(STUCK) == 30
    assert all(deal.moves for deal in WON)


def test_the_parser_reads_the_first_deal() -> None:
    deal = DEALS[0]
    assert deal.verdict == "stuck"
    assert deal.cards()[:14] == ["QC", "TC", "QS", "4H", "JS", "2H", "7H", "7D", "5D", "AH", "2C", "9D", "6S", "4D"]
    assert deal.cards()[14:19] == ["6D", "JC", "KS", "2D", "KD"]
    assert deal.cards()[-1] == "QD"
    assert deal.moves == [WolterMove(1, ("QD",), "B01", "F04")]
    assert deal.end is not None and deal.end["F04"] == ["QD"] and len(deal.end["B01"]) == 33
    assert deal.maxoff == 2


@pytest.mark.parametrize("deal", WON, ids=seed_id)
def test_winning_line_replays_and_wins(deal: WolterDeal) -> None:
    game = replay(deal)
    assert game.outcome is Outcome.WON
    assert game.score == WINNING_SCORE
    assert game.foundation_cards == deal.maxoff == 52


@pytest.mark.parametrize("deal", STUCK, ids=seed_id)
def test_partial_line_of_a_stuck_deal_replays(deal: WolterDeal) -> None:
    game = replay(deal)
    assert game.foundation_cards == deal.maxoff
    if deal.end is not None:
        assert end_layout(game) == wolter_end_layout(deal)
