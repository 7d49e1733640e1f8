"""`outcome_within`: the outcome when a bounded search settles it, GaveUp when it does not."""

from __future__ import annotations

import pytest

from bot.game import Outcome, new_game
from bot.game.solver import GaveUp
from tests.samples import blocked_game

# A superior-canfield position whose outcome search looks at the solver's whole DEAD_LIMIT.
SLOW_DEAL = 103
SLOW_MOVES = ("d d d d d d d d d d d d d wt3 d d d d d d wt3 d d d wt3 d d d d d d d d d d d d d d d d d d d d d d d d "
              "d d d d d wt1 d t3t1:4 wt2 t2t3 t3t2 t1t3 d t4t1 t2t4 d t4t2 t1t4 t3t1 wt3 d d d wt3 wt3")


def test_a_bounded_search_settles_what_it_can_and_gives_up_on_the_rest() -> None:
    game = new_game("canfield", deal=1)
    assert game.outcome_within(500) is None and game.outcome is None
    assert blocked_game("canfield").outcome_within(500) is Outcome.BLOCKED
    assert blocked_game("patriarchs").outcome_within(1) is Outcome.BLOCKED  # exact: no search to bound
    slow = new_game("superior-canfield", deal=SLOW_DEAL)
    slow.play(SLOW_MOVES)
    with pytest.raises(GaveUp):
        slow.outcome_within(500)
    assert slow.outcome is None  # the full search gives the benefit of the doubt
    assert slow.outcome_within(500) is None  # known now: no search
