"""Where a game was lost, on Wolter's deals with known answers."""

from __future__ import annotations

from bot.game import DRAW, Move, new_game
from bot.game.analysis import Analysis, Verdict, analyse, position_after
from bot.game.solver import solve
from tests.game.wolter import read_deals

DEALS = {deal.seed: deal for deal in read_deals()}
LIMIT = 1_500_000
WINNABLE = 4  # Wolter won it
NEVER = 3  # Wolter's solver and ours: stuck
# On deal 4, after the first 10 moves of our winning line (which goes on with a draw), putting
# the waste's card on foundation 2 leaves a deal that can no longer be won.
PREFIX = 10
LOSING = Move("w", "f2")


def reference_game(seed: int):
    return new_game("canfield", cards=DEALS[seed].cards(), groups="any")


def played(seed: int, moves: list[Move]):
    game = reference_game(seed)
    for move in moves:
        game.play(move)
    return game


def winning_line() -> list[Move]:
    solution = solve(reference_game(WINNABLE), limit=LIMIT)
    assert solution.status == "winnable"
    return solution.moves


class CountingSolver:
    """The solver, counting its searches."""

    def __init__(self) -> None:
        self.searches = 0

    def __call__(self, game, *, limit: int):
        self.searches += 1
        return solve(game, limit=limit)


def test_a_deal_lost_by_a_known_move_is_found_with_the_move_and_a_better_one() -> None:
    line = winning_line()
    assert line[PREFIX] == DRAW
    game = played(WINNABLE, [*line[:PREFIX], LOSING, *[DRAW] * 40])
    # The premise, by the solver: winnable before the move, not after it.
    assert solve(position_after(game, PREFIX), limit=LIMIT).status == "winnable"
    assert solve(position_after(game, PREFIX + 1), limit=LIMIT).status == "unwinnable"
    solver = CountingSolver()
    analysis = analyse(game, limit=LIMIT, search=solver)
    assert analysis == Analysis(Verdict.LOST, lost_after=PREFIX + 1, losing_move=LOSING, better_move=DRAW)
    # The start, the end, then a bisection of 51 moves: at most 2 + 6 searches.
    assert solver.searches <= 8
    # The better move does still win from there.
    better = position_after(game, PREFIX)
    better.play(analysis.better_move)
    assert solve(better, limit=LIMIT).status == "winnable"


def test_a_deal_never_winnable_says_so_after_one_search() -> None:
    game = played(NEVER, [DRAW] * 12)
    solver = CountingSolver()
    assert analyse(game, limit=LIMIT, search=solver) == Analysis(Verdict.NEVER)
    assert solver.searches == 1


def test_a_won_game_needs_no_search() -> None:
    game = played(WINNABLE, winning_line())
    solver = CountingSolver()
    assert analyse(game, limit=LIMIT, search=solver) == Analysis(Verdict.WON)
    assert solver.searches == 0


def test_resigning_while_the_deal_could_still_be_won_is_where_it_was_lost() -> None:
    line = winning_line()
    game = played(WINNABLE, line[:PREFIX])
    assert analyse(game, limit=LIMIT) == Analysis(Verdict.LOST, lost_after=PREFIX, losing_move=None,
                                                  better_move=line[PREFIX])


def test_resigning_at_the_deal_takes_one_search() -> None:
    solver = CountingSolver()
    assert analyse(reference_game(WINNABLE), limit=LIMIT, search=solver) == Analysis(
        Verdict.LOST, lost_after=0, losing_move=None, better_move=winning_line()[0])
    assert solver.searches == 1


def test_when_the_solver_gives_up_the_analysis_says_unknown_not_a_guess() -> None:
    line = winning_line()
    game = played(WINNABLE, [*line[:PREFIX], LOSING])
    assert analyse(game, limit=10) == Analysis(Verdict.UNKNOWN)


def test_a_position_after_many_redeals_is_searched_as_well() -> None:
    # Unlimited redeals: past the solver's MAX_PASSES passes the position is searched all the same.
    never = reference_game(NEVER)
    while never.redeals_used <= 70:
        never.play(DRAW)
    winnable = reference_game(WINNABLE)
    while winnable.redeals_used <= 70:
        winnable.play(DRAW)
    for native in (True, False):
        assert solve(never, limit=LIMIT, native=native).status == "unwinnable"
        assert solve(winnable, limit=LIMIT, native=native).status == "winnable"


def test_the_board_of_a_position_in_the_line_names_its_deal() -> None:
    game = new_game("canfield", deal=8)
    game.play("d d wf2")
    before = position_after(game, 2)
    assert before.deal == 8 and before.cards == game.cards and [str(move) for move in before.moves] == ["d", "d"]
