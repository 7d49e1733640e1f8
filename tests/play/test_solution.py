"""/solution's play layer on a real store: which games may be asked about, the line's data,
what it costs the member."""

from __future__ import annotations

import pytest

from bot.game import DRAW, Move, Outcome, new_game
from bot.play import NoGameHere, NotYourGame, Player, SoloPlay
from bot.play.errors import DealIsLive, NoFinishedGame, NoPages, NoSolver, RateLimited, StillPlaying
from bot.play.secrecy import Sight
from bot.play.solution import LineMove, NoWinningLine, SolutionPlay, WinningLine
from bot.play.work import LIMITS, Limit, RateLimiter
from bot.store import open_store
from bot.words import SOLUTION_PAGE_MOVES, TERMINAL, solution_pages, solution_text
from tests.game.wolter import read_deals
from tests.play.test_daily import FakeClock, at

ALICE, BOB = Player(1, "alice"), Player(2, "bob")
DEALS = {deal.seed: deal for deal in read_deals()}
WINNABLE, DEAD = 92, 7  # of Wolter's deals: won (the solver's own line wanders), dead at the deal


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(at("2024-05-08 12:00"))


@pytest.fixture
async def plays(database_url, clock):
    store = await open_store(database_url, clock)
    solo = SoloPlay(store, limits=RateLimiter({**LIMITS, "solution": Limit(2, 60.0)}, clock=clock))
    yield solo, SolutionPlay(store, solo, clock=clock)
    await store.close()


async def finished(solo: SoloPlay, player: Player, seed: int, *, name: str = "canfield", kind: str = "solo") -> int:
    """A game of Wolter's deal `seed` (any group moves) for the player, resigned at once; its id."""
    if name == "canfield":
        cards = DEALS[seed].cards()
        reply = await solo.create(player, guild_id=5, channel_id=10, name=name, deal=None,
                                  options={"groups": "any"}, cards=cards, kind=kind)
        if kind == "daily":
            await solo.store.stats.claim_daily("2024-05-08", name, player.id, 5, reply.game_id)
    else:
        reply = await solo.create(player, guild_id=5, channel_id=10, name=name, deal=seed, options={})
    await solo.resign(reply.game_id, player)
    return reply.game_id


async def test_the_line_of_a_finished_game_wins_from_the_deal_and_is_worked_out_once(plays) -> None:
    solo, solutions = plays
    game_id = await finished(solo, ALICE, WINNABLE)
    line = await solutions.solution(None, ALICE)  # the game that ended last
    assert isinstance(line, WinningLine) and line.game_id == game_id and 0 < len(line.moves) <= 200
    game = new_game("canfield", cards=DEALS[WINNABLE].cards(), groups="any")
    for step in line.moves:
        for _ in range(step.draws):
            game.play(DRAW)
        assert game.piles()[step.move.src][-step.move.count] == step.card
        game.play(step.move)
    assert game.outcome is Outcome.WON
    # Kept: asking again (turning pages) costs no search and none of the member's limit of 2.
    for _ in range(5):
        assert await solutions.solution(game_id, ALICE) == line
    assert await solutions.solution(await finished(solo, ALICE, DEAD), ALICE) == NoWinningLine(
        game_id + 1, "canfield", gave_up=False)
    assert await solutions.winning_line(game_id, ALICE) == line
    with pytest.raises(NoPages):  # a page button made up for a deal that has no line
        await solutions.winning_line(game_id + 1, ALICE)
    with pytest.raises(RateLimited):
        await solutions.solution(await finished(solo, ALICE, WINNABLE), ALICE)


async def test_only_a_finished_game_of_ones_own_and_a_daily_once_its_day_is_over(plays, clock) -> None:
    solo, solutions = plays
    with pytest.raises(NoFinishedGame):
        await solutions.solution(None, ALICE)
    playing = await solo.create(ALICE, guild_id=5, channel_id=10, name="canfield", deal=1, options={})
    with pytest.raises(StillPlaying):
        await solutions.solution(playing.game_id, ALICE)
    with pytest.raises(NoGameHere):
        await solutions.solution(10**9, ALICE)
    await solo.resign(playing.game_id, ALICE)
    with pytest.raises(NotYourGame):
        await solutions.solution(playing.game_id, BOB)
    daily = await finished(solo, BOB, 6, kind="daily")  # a deal quick to solve
    with pytest.raises(DealIsLive) as waiting:
        await solutions.solution(daily, BOB)
    assert waiting.value.sight is Sight.SOLVER and waiting.value.live.until == at("2024-05-09 01:00")
    clock.advance(12 * 3600)  # midnight: its attempts may still be finished for an hour
    with pytest.raises(DealIsLive):
        await solutions.solution(daily, BOB)
    clock.advance(3600)
    assert isinstance(await solutions.solution(daily, BOB), WinningLine)


async def test_a_game_the_solver_does_not_cover_gets_a_short_answer(plays) -> None:
    solo, solutions = plays
    game_id = await finished(solo, ALICE, 3, name="demons-and-thieves")
    with pytest.raises(NoSolver) as refused:
        await solutions.solution(game_id, ALICE)
    assert refused.value.name == "demons-and-thieves"


def test_the_words_show_a_line_in_pages_with_the_draws_before_each_move() -> None:
    moves = [LineMove(2, Move("w", "t2"), "9H"), LineMove(0, Move("r", "t1"), "8C")] * 15
    line = WinningLine(4, "canfield", tuple(moves))
    assert len(line.moves) == 30 and line.draws == 30 and solution_pages(line) == 2
    first = solution_text(line, TERMINAL, 0).splitlines()
    assert first[0].startswith("Game 4 (Canfield): a winning line from the deal's start, 30 moves besides 30 draws")
    assert first[1:3] == ["  1. draw ×2, wt2 (9H)", "  2. rt1 (8C)"] and first[-1] == "Page 1 of 2"
    last = solution_text(line, TERMINAL, 5).splitlines()  # past the end: the last page
    assert last[1].startswith(f" {SOLUTION_PAGE_MOVES + 1}.") and last[-1] == "Page 2 of 2" and len(last) == 12
    assert len(solution_text(line, TERMINAL).splitlines()) == 31
