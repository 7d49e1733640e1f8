"""The store's queries as SQLAlchemy Core expressions, on a real SQLite file and a real PostgreSQL
schema: what they give back is plain ints and floats in both, and each statement's shape is
compiled once, then taken from a cache whatever its values (SQLAlchemy's; on SQLite, the store's own)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import random
import sqlite3
import time
from typing import Any

import pytest
from sqlalchemy import event, func, insert, literal, select
from sqlalchemy.engine.interfaces import CacheStats

from bot.store import NewGame, Store, databases, open_store, tables
from bot.store.base import NewMatch, NewRace
from bot.store.databases import QUICK_SECONDS, DuplicateRow, SqliteDatabase
from bot.store.tables import players


@pytest.fixture
async def store(database_url):
    """A fresh database (SQLite, then PostgreSQL)."""
    store = await open_store(database_url, itertools.count(1_715_000_000, 60).__next__)
    yield store
    await store.close()


async def a_bit_of_everything(store: Store, n: int) -> dict[str, Any]:
    """Call every query of the store once or twice, with values that differ with `n` (the same
    shapes for every `n`); what the sums, counts and averages gave back."""
    guild, channel, alice, bob = 100 + n, 200 + n, 300 + n, 400 + n
    await store.games.upsert_player(alice, f"Alice {n}")
    await store.games.upsert_player(alice, f"Alice {n}!")  # the ON CONFLICT branch
    await store.games.player_names([alice, bob])
    team = await store.matches.create_team(guild, f"team {n}", alice)
    await store.matches.join_team(guild, f"TEAM {n}", bob)
    await store.matches.team_of(guild, bob)
    await store.matches.list_teams(guild)
    match = await store.matches.create_match(NewMatch(guild_id=guild, channel_id=channel, host_id=alice,
                                                      game="canfield", options={"draw": 3}, target=2, teams=True,
                                                      undo=False, seed=n), now=1_715_000_000.0 + n)
    await store.matches.set_match_message(match.id, 500 + n)
    for user in (alice, bob):
        await store.matches.add_match_player(match.id, user, team.id, 1_715_000_001.0)
    await store.matches.add_match_player(match.id, bob, team.id, 1_715_000_002.0)  # again: ON CONFLICT
    await store.matches.change_match_status(match.id, "lobby", "running", 1_715_000_003.0)
    await store.matches.lobby_of(channel, alice)
    for user, score in ((alice, 7 + n), (bob, 3)):
        game = await store.games.create_game(NewGame(
            guild_id=guild, channel_id=channel, user_id=user, name="canfield", options={}, deal=n, cards=None,
            snapshot=None, score=0, kind="match", match_id=match.id, round=1, undo_allowed=False))
        moved = await store.games.save_game(game.id, expected_version=0, moves=["d"], snapshot="s",
                                            status="playing", score=score)
        await store.games.get_game(game.id)
        await store.games.running_game(user, channel)
        await store.games.running_game(user, None, kind="solo")
        await store.games.save_game(game.id, expected_version=moved.version, moves=["d", "rt4"], snapshot=None,
                                    status="won", score=score)
    await store.matches.touch_match(match.id, 1_715_000_004.0)
    points = [player.points for player in await store.matches.match_players(match.id)]
    await store.matches.idle_matches(1_600_000_000.0)
    await store.matches.expire_match(match.id, 1_600_000_000.0, 1_715_000_005.0)
    await store.matches.close_match_rounds(match.id, 1_715_000_006.0)
    await store.matches.change_match_status(match.id, "running", "finished", 1_715_000_007.0,
                                            winner_team_id=team.id)
    await store.matches.leave_match(match.id, bob, 1_715_000_008.0)
    await store.matches.leave_team(guild, bob)

    race = await store.races.create_race(NewRace(guild_id=guild, channel_id=channel, host_id=alice,
                                                 layout="demon", deal=n, target=50))
    await store.races.join_race(race.id, bob)
    await store.races.set_race_message(race.id, 600 + n)
    await store.races.start_race(race.id)
    version = await store.races.save_race_moves(race.id, expected_version=2, moves=["0:d"])
    await store.races.finish_race(race.id, demon_user_id=alice, scores=[40 + n, 5], version=version)
    hand = await store.races.next_hand(await store.races.get_race(race.id), deal=n + 1)
    await store.races.finish_race(hand.id, demon_user_id=None, scores=[1, 2])
    series = await store.races.series_totals(race.series_id)
    await store.races.running_race(channel, alice)
    await store.races.idle_races(1_600_000_000.0)
    lobby = await store.races.create_race(NewRace(guild_id=guild, channel_id=channel, host_id=bob, layout="demon",
                                                  deal=n))
    await store.races.cancel_race(lobby.id, version=0)
    await store.races.cancel_race(lobby.id)

    daily = await store.games.create_game(NewGame(guild_id=guild, channel_id=channel, user_id=bob, name="canfield",
                                                  options={}, deal=n, cards=None, snapshot=None, score=-12,
                                                  kind="daily", undo_allowed=False))
    day = f"2024-05-{10 + n:02}"
    await store.stats.claim_daily(day, "canfield", bob, guild, daily.id)
    await store.stats.daily_attempt(day, "canfield", bob)
    await store.stats.daily_results("canfield", guild, day, day)
    await store.stats.daily_results("canfield", None, None, day)
    await store.stats.daily_days(guild_id=guild)
    await store.stats.daily_days(user_id=bob)
    await store.stats.set_setting(guild, "prefix", f"p{n}")
    await store.stats.set_setting(guild, "prefix", f"q{n}")
    await store.stats.get_settings(guild)
    standings = await store.stats.player_standings(guild, None)
    await store.stats.player_standings(None, 1_600_000_000.0)
    teams = await store.stats.team_standings(guild, None)
    await store.stats.team_standings(None, 1_600_000_000.0)
    totals = await store.stats.player_totals(alice, guild)
    await store.stats.player_totals(alice, None)
    await store.games.count_games()
    await store.games.all_games()
    await store.schema_version()
    return {"match points": points, "series": list(series.values()),
            "standings": [(s.games, s.wins, s.points, s.matches_won) for s in standings],
            "teams": [(t.matches_won, t.points) for t in teams],
            "totals": (totals.games, totals.wins, totals.best_score, totals.matches_played, totals.matches_won),
            "average": totals.average_score}


async def test_sums_counts_and_averages_are_plain_ints_and_floats_in_both_databases(store) -> None:
    found = await a_bit_of_everything(store, 1)
    assert found == {"match points": [8, 3], "series": [42, 7],
                     "standings": [(3, 2, 50, 1), (3, 1, 10, 1)], "teams": [(1, 11)],
                     "totals": (3, 2, 41, 1, 1), "average": pytest.approx(50 / 3)}
    numbers = [*found["match points"], *found["series"], *itertools.chain(*found["standings"]), *found["teams"][0],
               *found["totals"]]
    assert {type(number) for number in numbers} == {int}  # PostgreSQL's sums are numeric unless cast
    assert type(found["average"]) is float


async def test_every_statement_is_compiled_once_then_cached_whatever_its_values(store) -> None:
    if store.dialect == "sqlite":  # the store compiles SQLite's statements itself, and counts what it compiles
        await a_bit_of_everything(store, 1)
        shapes, ran = store.db.compiled, []
        await store.db.connection.set_trace_callback(ran.append)  # every statement SQLite runs,
        store.db.quick.set_trace_callback(ran.append)  # in the thread and on the event loop
        await a_bit_of_everything(store, 2)
        await store.db.connection.set_trace_callback(None)
        store.db.quick.set_trace_callback(None)
        assert len([sql for sql in ran if not sql.startswith(("BEGIN", "COMMIT", "ROLLBACK"))]) > 80
        assert store.db.compiled == shapes
        return
    compiled: list[tuple[str, CacheStats]] = []

    def note(_connection, _cursor, statement, _parameters, context, _many) -> None:
        if context.compiled is not None:
            compiled.append((statement, context.cache_hit))

    await a_bit_of_everything(store, 1)
    event.listen(store.db.sync_engine, "before_cursor_execute", note)
    await a_bit_of_everything(store, 2)
    event.remove(store.db.sync_engine, "before_cursor_execute", note)
    assert len(compiled) > 80
    assert [statement for statement, hit in compiled if hit != CacheStats.CACHE_HIT] == []


async def test_the_timer_is_told_each_statements_seconds_on_its_own_and_in_a_transaction(store: Store) -> None:
    """What the bot's metrics time the store by (bot/metrics.py): every statement, once, with
    its seconds; and nothing when no timer is set."""
    told: list[float] = []
    await store.games.upsert_player(1, "Alice")
    assert told == []
    store.db.timer = told.append
    await store.games.upsert_player(1, "Alice!")
    await store.games.player_names([1])
    assert len(told) == 2
    async with store.db.transaction() as tx:
        await tx.fetch_value(select(literal(1)))
    assert len(told) == 3 and all(0 <= seconds < 5 for seconds in told)
    with pytest.raises(DuplicateRow):
        await store.db.execute(insert(players).values(user_id=1, name="again", updated_at=0))
    assert len(told) == 4  # a statement that failed took its time too


# --- SQLite: statements on their own are answered on the event loop, unless they would hold it ---


class Ticker:
    """A task that wakes every millisecond and notes the longest the event loop kept it waiting."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.task = asyncio.get_running_loop().create_task(self._tick())

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.longest, last = max(self.longest, now - last), now

    async def stop(self) -> float:
        """Stop ticking: the longest wait, in seconds."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        return self.longest


@pytest.fixture
async def sqlite_store(tmp_path):
    """A fresh SQLite file's store."""
    store = await open_store(f"sqlite:///{tmp_path / 'pe.sqlite3'}", itertools.count(1_715_000_000, 60).__next__)
    yield store
    await store.close()


def new_game(user_id: int = 1) -> NewGame:
    """A game to store."""
    return NewGame(guild_id=1, channel_id=2, user_id=user_id, name="canfield", options={}, deal=5, cards=None,
                   snapshot=None, score=-12)


async def test_a_statement_on_its_own_is_answered_on_the_event_loop(sqlite_store: Store) -> None:
    db = sqlite_store.db
    assert isinstance(db, SqliteDatabase)
    before = db.on_loop
    game = await sqlite_store.games.create_game(new_game())  # INSERT ... RETURNING
    saved = await sqlite_store.games.save_game(game.id, expected_version=0, moves=["d"], snapshot=None,
                                               status="playing", score=-12)  # UPDATE ... RETURNING
    assert (await sqlite_store.games.get_game(game.id)) == saved  # SELECT
    assert db.on_loop == before + 3 and db.handed_over == 0
    assert db.quick is not None  # as durable as the thread's: WAL, commits not waiting for the disk, keys checked
    assert [db.quick.execute(f"PRAGMA {name}").fetchone()[0] for name in ("journal_mode", "synchronous", "foreign_keys")
            ] == ["wal", 1, 1]
    await sqlite_store.games.upsert_player(1, "Alice")  # a write that gives no rows back: in the thread
    assert db.on_loop == before + 3 and await sqlite_store.games.player_names([1]) == {1: "Alice"}
    with pytest.raises(DuplicateRow):  # the store's errors, as from the thread
        await db.fetch_one(insert(players).values(user_id=1, name="again", updated_at=0).returning(players.c.name))
    async with db.transaction() as tx:  # a transaction stays on aiosqlite's connection
        await tx.execute(insert(players).values(user_id=2, name="Bob", updated_at=0))
    assert await sqlite_store.games.player_names([2]) == {2: "Bob"}
    assert db.handed_over == 0


async def test_a_statement_that_would_wait_for_a_lock_waits_in_the_thread(sqlite_store: Store, tmp_path) -> None:
    db = sqlite_store.db
    assert isinstance(db, SqliteDatabase)
    game = await sqlite_store.games.create_game(new_game())
    other = sqlite3.connect(tmp_path / "pe.sqlite3", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process writing: the write lock is taken
    other.execute("INSERT INTO players (user_id, name, updated_at) VALUES (7, 'Other', 0)")
    asyncio.get_running_loop().call_later(0.3, other.execute, "COMMIT")
    ticker = Ticker()
    start = time.perf_counter()
    saved = await sqlite_store.games.save_game(game.id, expected_version=0, moves=["d"], snapshot=None,
                                               status="playing", score=-12)
    waited = time.perf_counter() - start
    assert await ticker.stop() < 0.1  # the event loop went on meanwhile
    assert waited >= 0.25 and db.handed_over == 1 and saved.version == 1
    assert await sqlite_store.games.player_names([7]) == {7: "Other"}
    other.close()


async def test_a_long_statement_is_stopped_on_the_event_loop_and_run_in_the_thread(sqlite_store: Store) -> None:
    db = sqlite_store.db
    assert isinstance(db, SqliteDatabase)
    numbers = select(literal(1).label("n")).cte("numbers", recursive=True)
    numbers = numbers.union_all(select(numbers.c.n + 1).where(numbers.c.n < 500_000))
    on_loop = db.on_loop
    ticker = Ticker()
    assert await db.fetch_value(select(func.count()).select_from(numbers)) == 500_000
    assert await ticker.stop() < QUICK_SECONDS + 0.05  # held the event loop no longer than it was given
    assert db.on_loop == on_loop and db.handed_over == 1
    calls = []
    db.quick.set_trace_callback(calls.append)
    assert await db.fetch_value(select(func.count()).select_from(numbers)) == 500_000
    assert calls == [] and db.handed_over == 2  # its shape goes to the thread at once from now on


async def test_writes_stopped_at_any_point_are_made_exactly_once(sqlite_store: Store) -> None:
    """SQLite can say a statement was stopped once it has committed: a write stopped at random
    points of its run (its first step only is ever stopped) is made once, in one place or the other."""
    db = sqlite_store.db
    assert isinstance(db, SqliteDatabase) and db.quick is not None
    rng = random.Random(30)
    # Stopped at random, wherever the store would let its time run out (never once the deadline is lifted).
    db.quick.set_progress_handler(lambda: int(db._deadline != math.inf and (
        time.perf_counter() > db._deadline or rng.random() < 0.01)), 1)
    games = []
    for user_id in range(60):
        db._slow.clear()  # each time tried on the event loop again
        games.append(await sqlite_store.games.create_game(new_game(user_id)))
    assert len({game.id for game in games}) == 60
    assert await db.fetch_value(select(func.count()).select_from(tables.games)) == 60
    version = 0
    for move in range(150):
        db._slow.clear()
        saved = await sqlite_store.games.save_game(games[0].id, expected_version=version, moves=["d"] * (move + 1),
                                                   snapshot=None, status="playing", score=-12)
        version = saved.version
    assert version == 150 and (await sqlite_store.games.get_game(games[0].id)).moves == ["d"] * 150
    assert db.handed_over > 20 and db.on_loop > 20  # both ways were taken


async def test_the_event_loops_writes_are_checkpointed_in_the_thread(sqlite_store: Store, tmp_path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(databases, "CHECKPOINT_WRITES", 50)
    wal = tmp_path / "pe.sqlite3-wal"
    for user_id in range(49):
        await sqlite_store.games.create_game(new_game(user_id))
    assert wal.stat().st_size > 0
    checkpointed: list[str] = []
    await sqlite_store.db.connection.set_trace_callback(checkpointed.append)
    await sqlite_store.games.create_game(new_game(49))  # the 50th write: then a checkpoint, in the thread
    assert checkpointed == ["PRAGMA wal_checkpoint(PASSIVE)"]
