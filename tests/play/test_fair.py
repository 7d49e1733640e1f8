"""One member cannot slow the others: searches off the event loop, each member's work in turn,
a bounded place for verdicts, rate limits, one lobby per host and channel, move caps, and a
cache bounded in bytes. On a real database (SQLite, then PostgreSQL)."""

from __future__ import annotations

import asyncio
import operator
import os
import signal
import threading
import time

import pytest

from bot.game import solver
from bot.game.moves import DRAW, Move
from bot.play import Player, SoloPlay
from bot.play.errors import AlreadyHosting, MoveCapReached, RateLimited
from bot.play.events import Ended, Hinted, NoVerdict, Verdict
from bot.play.matches import MatchPlay
from bot.play.race import RacePlay
from bot.play.replies import GameStatus
from bot.play.solo import GAME_BYTES, MOVE_BYTES, MOVE_CAP, QUICK_SEARCH
from bot.play.work import LIMITS, NICENESS, Busy, Limit, RateLimiter, Work
from bot.store import open_store
from tests.game.test_outcome_within import SLOW_DEAL, SLOW_MOVES
from tests.play.test_matches import Clock
from tests.samples import blocked_game

ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")
HERE = {"guild_id": 5, "channel_id": 10}


def limiter(clock: Clock, **changes: Limit) -> RateLimiter:
    """The real limits, some changed, on a clock the test moves."""
    return RateLimiter({**LIMITS, **{action.replace("_", "-"): limit for action, limit in changes.items()}}, clock)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(database_url, clock):
    store = await open_store(database_url, clock)
    yield store
    await store.close()


# --- where the work runs ---------------------------------------------------------------------


async def test_a_members_work_runs_one_piece_at_a_time_while_others_get_through() -> None:
    work = Work(engine_threads=2)
    gate = threading.Event()
    running: list[str] = []
    most = [0]

    def slow(tag: str) -> str:
        running.append(tag)
        most[0] = max(most[0], sum(1 for t in running if t.startswith("spam")))
        gate.wait(10)
        running.remove(tag)
        return tag

    spam = [asyncio.create_task(work.engine(ALICE.id, slow, f"spam{i}")) for i in range(4)]
    await asyncio.sleep(0.05)
    # Alice's four pieces hold one engine thread between them: Bob's work takes the other at once.
    assert await asyncio.wait_for(work.engine(BOB.id, str.upper, "bob"), 5) == "BOB"
    assert not any(task.done() for task in spam)
    gate.set()
    assert await asyncio.gather(*spam) == ["spam0", "spam1", "spam2", "spam3"]  # in the order asked
    assert most[0] == 1
    work.stop()


async def test_verdicts_have_one_process_and_a_short_waiting_line_beyond_which_they_are_skipped() -> None:
    work = Work(verdict_waiting=1)
    first = asyncio.create_task(work.verdict(ALICE.id, time.sleep, 1.0))
    second = asyncio.create_task(work.verdict(BOB.id, operator.add, 1, 2))
    await asyncio.sleep(0.05)
    with pytest.raises(Busy):
        await work.verdict(CAROL.id, operator.add, 3, 4)
    assert await first is None and await second == 3
    assert await work.verdict(CAROL.id, os.getpid) != os.getpid()  # the line is free again; a process
    work.stop()


async def test_a_search_process_that_dies_is_replaced_and_the_search_still_answers() -> None:
    work = Work()
    worker = await work.search(ALICE.id, os.getpid)
    assert worker != os.getpid()
    assert await work.search(ALICE.id, os.nice, 0) == min(19, os.nice(0) + NICENESS)  # the bot goes first
    os.kill(worker, signal.SIGKILL)
    await asyncio.sleep(0.2)
    assert await work.search(ALICE.id, operator.add, 2, 3) == 5  # in a thread, while new processes start
    assert await work.search(ALICE.id, os.getpid) not in (worker, os.getpid())
    work.stop()


async def test_no_search_runs_on_the_event_loop_and_long_ones_run_in_a_search_process(store, monkeypatch) -> None:
    """A move's outcome is searched for QUICK_SEARCH positions in an engine thread, and on in a
    search process when that is not enough; a hint is searched in a search process. In this
    process, nothing longer, and nothing on the event loop."""
    blocked_cards = [str(card) for card in blocked_game("canfield").cards]  # found blocked here, before the watch
    searched: list[tuple[threading.Thread, int, bool]] = []  # (where, limit, whether it gave up)
    search = solver.progress_path

    def watched(game, limit=solver.DEAD_LIMIT):
        line = search(game, limit)
        searched.append((threading.current_thread(), limit, line is None))
        return line

    monkeypatch.setattr(solver, "progress_path", watched)
    play = SoloPlay(store)
    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    assert (await play.move(game_id, ALICE, "d")).ok  # its outcome is a search
    assert (await play.hint(game_id, ALICE)).highlight is not None
    blocked = await play.create(BOB, **HERE, name="canfield", deal=None, options={}, cards=blocked_cards)
    assert (await play.move(blocked.game_id, BOB, "d")).status == "blocked"
    slow = await play.start(CAROL, **HERE, name="superior-canfield", deal=SLOW_DEAL)
    # An outcome the quick search cannot settle: worked out in a search process.
    assert (await play.move(slow.game_id, CAROL, SLOW_MOVES)).status == "playing"
    assert searched and searched[-1][2]
    assert all(thread is not threading.main_thread() and limit <= QUICK_SEARCH for thread, limit, _ in searched)


# --- rate limits -----------------------------------------------------------------------------


def test_the_rate_limiter_counts_each_member_and_action_in_a_sliding_window(clock) -> None:
    limits = limiter(clock, hint=Limit(2, 60))
    assert limits.check(ALICE.id, "hint") == 0
    clock.now += 30
    assert limits.check(ALICE.id, "hint") == 0
    clock.now += 10
    assert limits.check(ALICE.id, "hint") == pytest.approx(20)  # the first one leaves the window then
    assert limits.check(BOB.id, "hint") == 0 and limits.check(ALICE.id, "new-game") == 0
    clock.now += 20
    assert limits.check(ALICE.id, "hint") == 0  # a refused one was not counted


async def test_too_many_new_games_are_refused_with_the_wait_and_nothing_is_stored(store, clock) -> None:
    play = SoloPlay(store, limits=limiter(clock, new_game=Limit(2, 60)))
    for _ in range(2):
        reply = await play.start(ALICE, **HERE, deal=1)
        await play.resign(reply.game_id, ALICE)
    stored = len(await store.games.all_games())
    with pytest.raises(RateLimited) as refused:
        await play.start(ALICE, **HERE, deal=1)
    assert refused.value.action == "new-game" and refused.value.retry_after == pytest.approx(60)
    assert len(await store.games.all_games()) == stored
    assert (await play.start(BOB, **HERE, deal=1)).started  # others are not limited
    clock.now += 61
    assert (await play.start(ALICE, **HERE, deal=1)).started


async def test_a_hint_is_searched_and_counted_once_and_its_draws_followed_cost_nothing_more(store, clock) -> None:
    play = SoloPlay(store, limits=limiter(clock, hint=Limit(1, 60)))
    game_id = (await play.start(ALICE, **HERE, name="canfield-draw1", deal=1)).game_id

    async def hinted() -> tuple[int, Move, Move | None, int]:
        """The hint's draws, its move, what the board outlines, and the hints stored."""
        reply = await play.hint(game_id, ALICE)
        (event,) = reply.events
        assert isinstance(event, Hinted) and event.hint is not None
        return event.hint.draws, event.hint.move, reply.highlight, (await store.games.get_game(game_id)).hints

    assert await hinted() == (2, Move("w", "f4"), DRAW, 1)  # draw twice, then QD up
    assert await hinted() == (2, Move("w", "f4"), DRAW, 1)  # the same board: the same hint
    await play.move(game_id, ALICE, "d")  # by text
    assert await hinted() == (1, Move("w", "f4"), DRAW, 1)  # the rest of it: no search, no count
    await play.play(game_id, ALICE, DRAW)  # by button
    assert await hinted() == (0, Move("w", "f4"), Move("w", "f4"), 1)
    await play.undo(game_id, ALICE)
    assert await hinted() == (1, Move("w", "f4"), DRAW, 1)  # still on its way
    await play.move(game_id, ALICE, "d wf4")
    with pytest.raises(RateLimited) as refused:  # followed to its end: the next one is searched
        await hinted()
    assert refused.value.action == "hint" and (await store.games.get_game(game_id)).hints == 1
    clock.now += 61
    _, move, _, stored = await hinted()
    assert stored == 2
    await play.move(game_id, ALICE, next(str(m) for m in (await play.board(game_id, ALICE)).game.legal_moves()
                                         if m != move and not m.is_draw))  # a move of one's own
    clock.now += 61
    assert (await hinted())[3] == 3  # off its way: a new hint, searched and counted


async def test_a_lone_player_following_the_hints_to_a_win_is_never_told_to_slow_down(store, clock) -> None:
    """The real limits and the real search, a brisk player: each of their actions (a hint, a
    draw, a move) a second after the last. Canfield draw 1, deal 1, is won by following the hints."""
    play = SoloPlay(store, limits=limiter(clock))
    reply = await play.start(ALICE, **HERE, name="canfield-draw1", deal=1)
    game_id, searched = reply.game_id, 0
    while not reply.finished:
        clock.now += 1
        reply = await play.hint(game_id, ALICE)
        (event,) = reply.events
        hint = event.hint
        assert isinstance(event, Hinted) and hint is not None and reply.highlight == hint.next_move
        searched += 1
        for done in range(hint.draws):
            clock.now += 1
            if done % 2:
                await play.move(game_id, ALICE, "d")
            else:
                await play.play(game_id, ALICE, DRAW)
            if done == 0:  # a look at the hint on the way: its rest
                clock.now += 1
                rest = await play.hint(game_id, ALICE)
                (event,) = rest.events
                assert (event.hint.draws, event.hint.move) == (hint.draws - 1, hint.move)
                assert rest.highlight == event.hint.next_move
        clock.now += 1
        reply = await play.play(game_id, ALICE, hint.move)
        assert reply.played == [hint.move]
    assert reply.status == GameStatus.WON and len(reply.game.moves) == 194
    assert (await store.games.get_game(game_id)).hints == searched == 51  # one each


async def test_verdicts_are_kept_per_deal_and_rate_limited_and_the_resign_stands(store, clock) -> None:
    play = SoloPlay(store, limits=limiter(clock, verdict=Limit(1, 60)))
    said = []
    for deal in (2, 2, 4):  # both winnable; the second game of deal 2 gets the kept verdict
        game_id = (await play.start(ALICE, **HERE, deal=deal)).game_id
        reply = await play.resign(game_id, ALICE)
        assert reply.status == "resigned" and (await store.games.get_game(game_id)).status == "resigned"
        said.append(reply.events)
    resigned = Ended(GameStatus.RESIGNED, -12)
    assert said[0] == said[1] == (resigned, Verdict(winnable=True))
    assert said[2] == (resigned, NoVerdict())


# --- one lobby per host and channel ----------------------------------------------------------


async def test_a_host_has_one_match_lobby_per_channel_and_lobbies_are_rate_limited(store, clock) -> None:
    solo = SoloPlay(store, limits=limiter(clock, lobby=Limit(3, 300)))
    matches = MatchPlay(store, solo, clock)
    results = await asyncio.gather(*(matches.open(ALICE, guild_id=5, channel_id=10) for _ in range(5)),
                                   return_exceptions=True)
    opened = [result for result in results if not isinstance(result, Exception)]
    assert len(opened) == 1 and all(isinstance(result, AlreadyHosting) for result in results if result not in opened)
    with pytest.raises(AlreadyHosting) as refused:
        await matches.open(ALICE, guild_id=5, channel_id=10)
    assert refused.value.match_id == opened[0].match.id
    assert len(await store.matches.idle_matches(before=clock() + 10**9)) == 1  # every match open: one
    await matches.open(ALICE, guild_id=5, channel_id=11)  # another channel
    await matches.open(BOB, guild_id=5, channel_id=10)  # another host
    await matches.cancel(opened[0].match.id, ALICE)
    await matches.open(ALICE, guild_id=5, channel_id=10)  # the lobby here is gone: a new one
    await matches.cancel((await store.matches.lobby_of(10, ALICE.id)).id, ALICE)
    with pytest.raises(RateLimited) as limited:
        await matches.open(ALICE, guild_id=5, channel_id=10)
    assert limited.value.action == "lobby"


async def test_race_lobbies_are_rate_limited(store, clock) -> None:
    races = RacePlay(store, clock, limits=limiter(clock, lobby=Limit(2, 300)))
    for _ in range(2):
        race = (await races.open(ALICE, guild_id=5, channel_id=10)).race
        await races.cancel(race.id, ALICE)
    with pytest.raises(RateLimited):
        await races.open(ALICE, guild_id=5, channel_id=10)
    assert await store.races.running_race(10, ALICE.id) is None
    clock.now += 301
    assert (await races.open(ALICE, guild_id=5, channel_id=10)).race.status == "lobby"


# --- move caps and the cache -------------------------------------------------------------------


async def test_a_game_takes_at_most_move_cap_moves_and_past_it_nothing_is_played(store) -> None:
    play = SoloPlay(store)
    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    with pytest.raises(MoveCapReached) as refused:
        await play.move(game_id, ALICE, "d " * (MOVE_CAP + 1))
    assert refused.value.cap == MOVE_CAP
    assert (await store.games.get_game(game_id)).moves == [] and (await play.board(game_id, ALICE)).game.moves == []
    assert (await play.move(game_id, ALICE, "d " * MOVE_CAP)).version == 1
    with pytest.raises(MoveCapReached):
        await play.move(game_id, ALICE, "d")
    with pytest.raises(MoveCapReached):
        await play.play(game_id, ALICE, DRAW)  # a button's move
    assert len((await store.games.get_game(game_id)).moves) == MOVE_CAP
    assert len((await play.move(game_id, ALICE, "u u d")).game.moves) == MOVE_CAP - 1  # take-backs make room
    assert (await play.undo(game_id, ALICE)).ok  # undo and resign still work
    assert (await play.resign(game_id, ALICE)).status == "resigned"


async def test_a_race_takes_at_most_move_cap_moves_of_each_player(store, clock, monkeypatch) -> None:
    monkeypatch.setattr("bot.play.race.MOVE_CAP", 3)
    races = RacePlay(store, clock)
    race_id = (await races.open(ALICE, guild_id=5, channel_id=10)).race.id
    await races.join(race_id, BOB)
    await races.start(race_id, ALICE)
    assert (await races.move(race_id, ALICE, "d d")).ok
    with pytest.raises(MoveCapReached):
        await races.move(race_id, ALICE, "d d")
    assert len((await store.races.get_race(race_id)).moves) == 2
    assert (await races.move(race_id, ALICE, "d")).ok
    with pytest.raises(MoveCapReached):
        await races.move(race_id, ALICE, "d")
    assert (await races.move(race_id, BOB, "d")).ok  # the cap is each player's
    assert len((await store.races.get_race(race_id)).moves) == 4


async def test_the_cache_holds_at_most_cache_bytes(store) -> None:
    play = SoloPlay(store, cache_bytes=3 * GAME_BYTES + 20 * MOVE_BYTES)
    ids = [(await play.start(player, **HERE, deal=1)).game_id for player in (ALICE, BOB, CAROL)]
    assert list(play._tables) == ids  # three games without moves fit
    await play.move(ids[0], ALICE, "d " * 30)  # Alice's game grows past what is left: the oldest others go
    assert list(play._tables) == [ids[0]]
    assert (await play.board(ids[1], BOB)).game.moves == []  # read again from the store when wanted
    assert list(play._tables) == [ids[1]]  # Bob's and Alice's games do not fit together
    assert (await play.board(ids[0], ALICE)).version == 1
