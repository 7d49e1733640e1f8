"""Where a game was lost, through the play layer on a real store: the rule of which games may be
looked back on, the analysis that starts by itself when a game is lost, and its stored result."""

from __future__ import annotations

import pytest

from bot.game import DRAW
from bot.game.analysis import Analysis, Verdict
from bot.play import GameOver, NoGameHere, NotYourGame, Player, SoloPlay
from bot.play.days import utc_day
from bot.play.errors import DealIsLive, NoFinishedGame, NoSolver, RateLimited, StillPlaying
from bot.play.events import Analysing
from bot.play.review import ReviewPlay, finished_game_for_review
from bot.play.secrecy import LiveRound, Sight
from bot.play.work import LIMITS, Limit, RateLimiter
from bot.store import open_store
from bot.store.base import NewMatch
from tests.game.test_analysis import LOSING, NEVER, PREFIX, WINNABLE, reference_game, winning_line
from tests.samples import won_game

ALICE, BOB = Player(1, "alice"), Player(2, "bob")
HERE = {"guild_id": 5, "channel_id": 10}
DAY = 86_400.0


class Clock:
    """A clock the test moves on."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def review(database_url):
    store = await open_store(database_url)
    clock = Clock()
    solo = SoloPlay(store, limits=RateLimiter({**LIMITS, "analysis": Limit(2, 300.0)}))
    yield solo, ReviewPlay(store, solo, clock=clock)
    await store.close()


async def dealt(solo: SoloPlay, seed: int, player: Player = ALICE, **details: object) -> int:
    """A game of Wolter's deal `seed` for the player; its id."""
    cards = [str(card) for card in reference_game(seed).cards]
    reply = await solo.create(player, **HERE, name="canfield", deal=None, options={"groups": "any"}, cards=cards,
                              **details)
    return reply.game_id


async def test_a_lost_game_is_analysed_by_itself_and_stored_so_that_asking_again_is_free(review) -> None:
    solo, review = review
    game_id = await dealt(solo, WINNABLE)
    line = winning_line()
    moved = await solo.move(game_id, ALICE, " ".join(map(str, [*line[:PREFIX], LOSING, DRAW, DRAW])))
    assert moved.ok
    ended = await solo.resign(game_id, ALICE)
    assert Analysing(game_id) in ended.events  # the answer does not wait for it
    analysed = await review.analyse(game_id, ALICE)
    assert analysed.analysis == Analysis(Verdict.LOST, PREFIX + 1, LOSING, DRAW)
    assert analysed.moves == PREFIX + 3
    assert analysed.board is not None and analysed.board.moves == line[:PREFIX]  # the board before the move
    stored = await review.store.games.get_analysis(game_id)
    assert (stored.verdict, stored.lost_after, stored.losing_move, stored.better_move) == ("lost", 11, "wf2", "d")
    # The automatic analysis counted once; asking again, twice more, reads the store: no limit is hit.
    for _ in range(2):
        assert (await review.analyse(None, ALICE)).analysis == analysed.analysis


async def test_a_deal_never_winnable_and_a_won_game(review) -> None:
    solo, review = review
    never = await dealt(solo, NEVER)
    await solo.move(never, ALICE, "d d d")
    await solo.resign(never, ALICE)
    assert (await review.analyse(never, ALICE)).analysis == Analysis(Verdict.NEVER)
    solved = won_game("canfield")
    reply = await solo.create(ALICE, **HERE, name="canfield", deal=None, options=solved.options,
                              cards=[str(card) for card in solved.cards])
    won = await solo.move(reply.game_id, ALICE, " ".join(map(str, solved.moves)))
    assert won.finished and not any(isinstance(event, Analysing) for event in won.events)
    analysed = await review.analyse(reply.game_id, ALICE)
    assert analysed.analysis == Analysis(Verdict.WON) and analysed.board is None


async def test_only_your_own_finished_games_and_dailies_and_rounds_once_they_are_over(review) -> None:
    solo, review = review
    store = review.store
    with pytest.raises(NoFinishedGame):
        await review.analyse(None, ALICE)
    playing = await dealt(solo, WINNABLE)
    with pytest.raises(StillPlaying):
        await review.analyse(playing, ALICE)
    await solo.resign(playing, ALICE)
    with pytest.raises(NotYourGame):
        await review.analyse(playing, BOB)
    with pytest.raises(NoGameHere):
        await review.analyse(10**12, ALICE)
    # A daily: once its day (UTC) and the hour after it are over.
    store.games.clock = review.clock
    daily = await dealt(solo, NEVER, kind="daily", undo_allowed=False)
    await store.stats.claim_daily(utc_day(review.clock()), "canfield", ALICE.id, 5, daily)
    await solo.resign(daily, ALICE)
    with pytest.raises(DealIsLive) as live:
        await finished_game_for_review(store, review.secrecy, daily, ALICE)
    assert live.value.sight is Sight.SOLVER
    review.clock.now += DAY
    assert (await finished_game_for_review(store, review.secrecy, daily, ALICE))[0].id == daily
    # A match's round: once the match is over.
    match = await store.matches.create_match(NewMatch(guild_id=5, channel_id=10, host_id=ALICE.id, game="canfield",
                                                      options={}, target=500, teams=False, undo=False, seed=7),
                                             review.clock())
    round_id = await dealt(solo, NEVER, kind="match", match_id=match.id, round=1)
    await solo.resign(round_id, ALICE)
    with pytest.raises(DealIsLive) as live:
        await review.analyse(round_id, ALICE)
    assert live.value.live == LiveRound(match.id, 1)
    await store.matches.change_match_status(match.id, "lobby", "finished", review.clock())
    assert (await finished_game_for_review(store, review.secrecy, round_id, ALICE))[0].id == round_id
    # A game the solver does not cover.
    reply = await solo.create(ALICE, **HERE, name="patriarchs", deal=3, options={})
    await solo.resign(reply.game_id, ALICE)
    with pytest.raises(NoSolver):
        await review.analyse(reply.game_id, ALICE)
    # Nothing was changed by any of that: the games are as they ended.
    with pytest.raises(GameOver):
        await solo.move(playing, ALICE, "d")


async def test_analyses_count_against_the_members_limits(review) -> None:
    solo, review = review
    games = []
    for _ in range(3):
        game_id = await dealt(solo, NEVER)
        await solo.move(game_id, ALICE, "d")
        games.append(game_id)
    # Each analysis asked for counts: the limit (two) lets the third wait.
    for game_id in games[:2]:
        await solo.resign(game_id, ALICE)
        await review.analyse(game_id, ALICE)
    ended = await solo.resign(games[2], ALICE)
    assert not any(isinstance(event, Analysing) for event in ended.events)  # none started by itself
    with pytest.raises(RateLimited) as refused:
        await review.analyse(games[2], ALICE)
    assert refused.value.action == "analysis"
    assert await review.store.games.get_analysis(games[2]) is None
