"""Races in the play layer, on a real database (SQLite, then PostgreSQL): the lobby, moves stored in the order
received, a race for one foundation, the end, the leaderboards, and a restart."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import update

from bot.game import Card, Move
from bot.game.moves import DRAW
from bot.play import Player
from bot.play.errors import (
    AlreadyRacing,
    DamagedRace,
    NoRaceHere,
    NotInRace,
    NotRaceHost,
    RaceFull,
    RaceNotRunning,
    TooFewRacers,
)
from bot.play.events import Beaten, Moved, NothingToDo, RaceEnded, Refused, SeriesGoesOn, SeriesWon
from bot.play.matches import EXPIRE_AFTER
from bot.play.race import RaceListener, RacePlay, RaceStatus
from bot.store import open_store
from bot.store.tables import races as races_table
from tests.game.test_race import stuck_deck, won_deck
from tests.play.test_matches import Clock

ALICE, BOB, CAROL = Player(1, "Alice"), Player(2, "Bob"), Player(3, "Carol")
CHANNEL = 10
# Race 1395, three players: Alice has AH on t1, Bob and Carol each a 2H on top (t6 and t3).
RACE_DEAL = 1395


class Heard(RaceListener):
    def __init__(self) -> None:
        self.changed: list[int] = []
        self.finished: list[int] = []
        self.summaries: list[tuple[object, ...]] = []

    async def race_changed(self, race_id: int) -> None:
        self.changed.append(race_id)

    async def race_finished(self, race, game, summary) -> None:
        self.finished.append(race.id)
        self.summaries.append(summary)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def world(database_url, clock):
    store = await open_store(database_url, clock)
    races = RacePlay(store, clock)
    heard = Heard()
    races.listeners.append(heard)
    yield store, races, heard
    await store.close()


async def started(races: RacePlay, deal: int = RACE_DEAL) -> int:
    race_id = (await races.open(ALICE, guild_id=5, channel_id=CHANNEL, deal=deal)).race.id
    await races.join(race_id, BOB)
    await races.join(race_id, CAROL)
    await races.start(race_id, ALICE)
    return race_id


async def test_the_lobby_seats_players_in_order_and_only_the_host_starts(world) -> None:
    store, races, heard = world
    reply = await races.open(ALICE, guild_id=5, channel_id=CHANNEL, deal=RACE_DEAL)
    race_id = reply.race.id
    with pytest.raises(AlreadyRacing):
        await races.open(ALICE, guild_id=5, channel_id=CHANNEL)
    with pytest.raises(TooFewRacers) as too_few:
        await races.start(race_id, ALICE)
    assert too_few.value.least == 2
    await races.join(race_id, BOB)
    assert (await races.join(race_id, BOB)).seat == 1  # joining twice changes nothing
    with pytest.raises(NotRaceHost):
        await races.start(race_id, BOB)
    board = await races.start(race_id, ALICE)
    assert board.seat == 0 and board.game is not None and board.game.players == 2
    with pytest.raises(RaceFull) as full:
        await races.join(race_id, CAROL)
    assert not full.value.full  # not taking players any more: it has started
    with pytest.raises(NotInRace):
        await races.move(race_id, CAROL, "d")
    assert (await store.races.get_race(race_id)).status == "running" and heard.changed


async def test_a_player_races_once_at_a_time_in_a_channel(world) -> None:
    store, races, _ = world
    first = (await races.open(ALICE, guild_id=5, channel_id=CHANNEL, deal=RACE_DEAL)).race.id
    await races.join(first, BOB)
    second = (await races.open(CAROL, guild_id=5, channel_id=CHANNEL, deal=RACE_DEAL)).race.id
    with pytest.raises(AlreadyRacing) as racing:
        await races.join(second, BOB)
    assert racing.value.race_id == first
    assert (await store.races.get_race(second)).players == [CAROL.id]
    await races.start(first, ALICE)
    with pytest.raises(AlreadyRacing) as racing:  # running: still one at a time
        await races.join(second, BOB)
    assert racing.value.race_id == first
    elsewhere = (await races.open(CAROL, guild_id=5, channel_id=CHANNEL + 1, deal=RACE_DEAL)).race.id
    assert (await races.join(elsewhere, BOB)).seat == 1  # another channel is another table
    assert (await races.running(BOB, CHANNEL)).race.id == first


async def test_a_refused_or_unreadable_move_leaves_the_public_board_alone(world) -> None:
    _, races, heard = world
    race_id = await started(races)
    heard.changed.clear()
    for text in ("zz9", "t2t9", "t6f"):  # unreadable; not a pile; no foundation for a 2 yet
        reply = await races.move(race_id, BOB, text)
        assert not reply.ok and isinstance(reply.events[-1], Refused)
    assert heard.changed == []
    assert (await races.move(race_id, ALICE, "t1f")).ok
    assert heard.changed == [race_id]


async def test_every_move_is_stored_before_the_answer_and_survives_a_restart(world, database_url) -> None:
    store, races, _ = world
    race_id = await started(races)
    reply = await races.move(race_id, ALICE, "t1f d")
    assert reply.ok and reply.events == (Moved(played=(Move("t1", "f"), DRAW)),)
    stored = await store.races.get_race(race_id)
    assert stored.moves == ["0:t1f", "0:d"] and stored.version == reply.race.version
    bad = await races.move(race_id, BOB, "t2t9")
    assert not bad.ok and "t2t9" in str(bad.events[-1].error)
    assert (await store.races.get_race(race_id)).moves == stored.moves
    fresh = RacePlay(store, lambda: 1_800_000_000.0)  # another process, or after a restart
    board = await fresh.board(race_id, BOB)
    assert board.game.foundation_tops()[0].card == reply.game.foundation_tops()[0].card
    assert board.game.piles(0) == reply.game.piles(0)


async def test_two_players_racing_for_one_place_the_first_received_takes_it(world) -> None:
    store, races, _ = world
    race_id = await started(races)
    await races.move(race_id, ALICE, "t1f")  # AH starts a foundation
    seen = len((await store.races.get_race(race_id)).moves)
    bob, carol = await asyncio.gather(races.move(race_id, BOB, "t6f", seen=seen),
                                      races.move(race_id, CAROL, "t3f", seen=seen))
    assert bob.ok and bob.events == (Moved(played=(Move("t6", "f"),)),)
    assert not carol.ok and carol.beaten and carol.events == (Beaten(Card.parse("2H"), "Bob"),)
    assert carol.game.piles(2)["t3"][-1] == "2H"  # Carol's card stays where it was
    assert (await store.races.get_race(race_id)).moves == ["0:t1f", "1:t6f"]


async def test_the_end_is_stored_with_the_scores_and_reaches_the_leaderboards(database_url) -> None:
    store = await open_store(database_url)
    # Alice's deck goes out by drawing and playing up; Bob's and Carol's never move.
    races = RacePlay(store, lambda: 1_800_000_000.0,
                     decks=lambda race: [won_deck(), stuck_deck(), stuck_deck()] if race.deal == 77 else None)
    heard = Heard()
    races.listeners.append(heard)
    race_id = await started(races, deal=77)
    reply = await races.board(race_id, ALICE)
    while reply.race.status == "running":
        reply = await races.move(race_id, ALICE, "a")
        if reply.events == (NothingToDo(),):
            reply = await races.move(race_id, ALICE, "d")
    assert reply.events[-1] == RaceEnded(ALICE.id, ((ALICE.id, 62), (BOB.id, 0), (CAROL.id, 0)))
    assert reply.game.demon == 0
    race = await store.races.get_race(race_id)
    assert race.status == "finished" and race.demon_user_id == ALICE.id and heard.finished == [race_id]
    assert race.scores == [62, 0, 0]
    standings = {row.user_id: row for row in await store.stats.player_standings(None, None)}
    assert [(standings[u].points, standings[u].wins) for u in race.players] == [(62, 1), (0, 0), (0, 0)]
    with pytest.raises(RaceNotRunning) as over:
        await races.move(race_id, BOB, "d")
    assert over.value.status == "finished"
    await store.close()


async def test_a_race_with_no_change_for_a_day_ends_and_its_players_can_race_again(world, clock) -> None:
    store, races, heard = world
    lobby = (await races.open(CAROL, guild_id=5, channel_id=CHANNEL)).race.id
    race_id = (await races.open(ALICE, guild_id=5, channel_id=CHANNEL, deal=RACE_DEAL)).race.id
    await races.join(race_id, BOB)
    await races.start(race_id, ALICE)
    await races.move(race_id, ALICE, "t1f")
    clock.now += EXPIRE_AFTER - 60
    await races.move(race_id, BOB, "d")  # a move keeps the race going
    assert await races.expire_idle() == []
    clock.now += 120  # the lobby has waited a day, the running race not
    assert [(race.id, race.status) for race in await races.expire_idle()] == [(lobby, "cancelled")]
    assert heard.finished == [] and (await store.races.get_race(race_id)).status == "running"

    clock.now += EXPIRE_AFTER
    [idle] = await store.races.idle_races(clock.now - EXPIRE_AFTER)
    await races.move(race_id, BOB, "d")  # a move between "found idle" and "ended", in any process
    assert not await store.races.finish_race(race_id, demon_user_id=None, scores=[0, 0], version=idle.version)
    assert await races.expire_idle() == []

    clock.now += EXPIRE_AFTER + 1
    [ended] = await races.expire_idle()
    assert ended.id == race_id and ended.status == "finished" and ended.demon_user_id is None
    assert ended.scores == [1, 0] and heard.finished == [race_id]  # Alice's ace: a point, as they stood
    assert heard.summaries == [(RaceEnded(None, ((ALICE.id, 1), (BOB.id, 0)), expired=True),)]
    with pytest.raises(RaceNotRunning):
        await races.move(race_id, BOB, "d")
    assert (await races.open(ALICE, guild_id=5, channel_id=CHANNEL)).race.id > race_id  # free to race again
    assert await races.expire_idle() == []


async def test_a_series_of_hands_runs_to_its_target_with_the_same_seats(database_url) -> None:
    store = await open_store(database_url)
    # Every hand: Alice's deck goes out (62 points a hand), Bob's never moves.
    races = RacePlay(store, lambda: 1_800_000_000.0, decks=lambda race: [won_deck(), stuck_deck()])
    heard = Heard()
    races.listeners.append(heard)
    first = (await races.open(ALICE, guild_id=5, channel_id=CHANNEL, deal=9, target=100)).race
    await races.join(first.id, BOB)
    await races.start(first.id, ALICE)
    await store.races.set_race_message(first.id, 4242)

    async def go_out(race_id: int) -> tuple[object, ...]:
        reply = await races.board(race_id, ALICE)
        while reply.race.status == "running":
            reply = await races.move(race_id, ALICE, "a")
            if reply.events == (NothingToDo(),):
                reply = await races.move(race_id, ALICE, "d")
        return reply.events

    said = await go_out(first.id)
    assert said[-1] == SeriesGoesOn(hand=1, totals=((ALICE.id, 62), (BOB.id, 0)), target=100, next_hand=2)
    second = await races.running(BOB, CHANNEL)
    assert second.race.hand == 2 and second.race.series_id == first.id and second.race.players == [ALICE.id, BOB.id]
    assert second.race.status == "running" and second.race.message_id == 4242 and heard.changed[-1] == second.race.id
    said = await go_out(second.race.id)
    assert said[-1] == SeriesWon(winner=ALICE.id, points=124, target=100, totals=((ALICE.id, 124), (BOB.id, 0)))
    assert heard.finished == [first.id, second.race.id]
    with pytest.raises(NoRaceHere):
        await races.running(ALICE, CHANNEL)
    await store.close()


async def test_a_race_nobody_can_move_in_at_the_deal_ends_at_the_start(database_url) -> None:
    store = await open_store(database_url)
    races = RacePlay(store, lambda: 1_800_000_000.0, decks=lambda race: [stuck_deck(), stuck_deck()])
    race_id = (await races.open(ALICE, guild_id=5, channel_id=CHANNEL, deal=3)).race.id
    await races.join(race_id, BOB)
    reply = await races.start(race_id, ALICE)
    assert reply.events[-1] == RaceEnded(None, ((ALICE.id, 0), (BOB.id, 0))) and reply.race.status == "finished"
    assert reply.race.scores == [0, 0]
    await store.close()


async def test_moves_through_two_processes_at_once_are_each_stored_once(world, database_url) -> None:
    # Bob's moves reach this process and Carol's another one on the same database (as during a
    # rolling restart): a move that meets the other process's move is replayed and stored after it.
    store, races, _ = world
    race_id = await started(races)
    other_store = await open_store(database_url)
    other = RacePlay(other_store, lambda: 1_800_000_000.0)
    replies = await asyncio.gather(*(play.move(race_id, who, "d")
                                     for _ in range(8) for play, who in ((races, BOB), (other, CAROL))))
    assert all(reply.ok for reply in replies), [reply.events for reply in replies if not reply.ok]
    stored = (await store.races.get_race(race_id)).moves
    assert sorted(stored) == ["1:d"] * 8 + ["2:d"] * 8
    assert len((await other.board(race_id, CAROL)).game.history) == 16
    await other_store.close()


async def test_a_race_with_a_damaged_move_hurts_only_itself(world, clock) -> None:
    store, races, _ = world
    damaged = await started(races)
    await races.move(damaged, ALICE, "t1f")
    healthy = (await races.open(ALICE, guild_id=5, channel_id=CHANNEL + 1)).race.id
    await store.db.execute(update(races_table).where(races_table.c.id == damaged).values(moves="0:t1f 1:zz9"))
    fresh = RacePlay(store, clock)  # a process that has not got the race in memory
    for action in (fresh.board(damaged, BOB), fresh.move(damaged, BOB, "d"), fresh.running(ALICE, CHANNEL)):
        with pytest.raises(DamagedRace) as broken:
            await action
        assert (broken.value.race_id, broken.value.entry) == (damaged, "1:zz9")

    clock.now += EXPIRE_AFTER + 1
    ended = await fresh.expire_idle()  # the damaged race does not stop the round
    assert sorted((race.id, race.status) for race in ended) == [(damaged, "finished"), (healthy, "cancelled")]
    assert [race.scores for race in ended if race.id == damaged] == [[0, 0, 0]]
    assert (await fresh.open(BOB, guild_id=5, channel_id=CHANNEL)).race.id > healthy  # Bob is free again


def test_race_statuses_are_the_strings_the_store_keeps() -> None:
    assert [status.value for status in RaceStatus] == ["lobby", "running", "finished", "cancelled"]
    assert RaceStatus.RUNNING == "running"
