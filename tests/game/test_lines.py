"""Short winning lines against Jan Wolter's, on deals where the solver's own line wanders."""

from __future__ import annotations

import pytest

from bot.game import Outcome, new_game
from bot.game.lines import non_draw_count, short_line, steps_of
from bot.game.solver import expand, solve
from tests.game.wolter import read_deals
from tests.samples import won_game

DEALS = {deal.seed: deal for deal in read_deals()}
# Deals (quick to solve) whose depth-first lines are 77,514, 8,936 and 19,983 moves besides
# draws, and 348: the shortening has much to do.
WANDERING = [92, 90, 25, 58]


def reference_game(seed: int):
    return new_game("canfield", cards=DEALS[seed].cards(), groups="any")


@pytest.mark.parametrize("seed", WANDERING)
def test_short_lines_replay_to_a_win_and_are_about_as_short_as_wolters(seed: int) -> None:
    game = reference_game(seed)
    wandering = non_draw_count(solve(game, limit=3_000_000).moves)
    line = short_line(game, limit=3_000_000)
    assert line.status == "winnable"
    length = non_draw_count(line.moves)
    assert length <= 1.2 * len(DEALS[seed].moves) and length <= 200 and length < wandering
    for move in line.moves:
        game.play(move)
    assert game.outcome is Outcome.WON


def test_a_line_from_the_middle_of_a_game_starts_where_the_game_is() -> None:
    game = reference_game(92)
    for move in short_line(game).moves[:30]:
        game.play(move)
    rest = short_line(game)
    assert rest.status == "winnable"
    for move in rest.moves:
        game.play(move)
    assert game.outcome is Outcome.WON


def test_steps_of_reads_back_what_expand_writes() -> None:
    moves = solve(reference_game(92)).moves[:200]
    assert expand(steps_of(moves)) == moves[:max(i for i, move in enumerate(moves) if not move.is_draw) + 1]


def test_a_dead_deal_has_no_line_and_the_two_deck_games_are_not_covered() -> None:
    dead = short_line(reference_game(7))
    assert dead.status == "unwinnable" and dead.moves == []
    assert short_line(reference_game(92), limit=10).status == "gave-up"
    with pytest.raises(ValueError, match="does not cover"):
        short_line(won_game("demons-and-thieves"))


@pytest.mark.parametrize("name", ["superior-canfield", "rainbow-canfield", "storehouse", "canfield-draw1",
                                  "canfield-one-pass"])
def test_every_game_the_solver_covers_gets_a_line_that_wins(name: str) -> None:
    game = won_game(name)
    while game.moves:  # back to the deal
        game.undo()
    line = short_line(game)
    assert line.status == "winnable"
    for move in line.moves:
        game.play(move)
    assert game.outcome is Outcome.WON
