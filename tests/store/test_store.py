"""The store on a real SQLite file and a real PostgreSQL schema (the `database_url` fixture):
migrations from empty, games, versions, settings, concurrent writers."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest
from sqlalchemy import func, select, table, update

from bot.store import NewGame, PostgresStore, SqliteStore, StoreError, VersionConflict, open_store, store_for
from bot.store.databases import pool_size
from bot.store.migrate import head
from bot.store.tables import games
from bot.threads import Threads


def new(user_id: int = 1, channel_id: int | None = 10) -> NewGame:
    return NewGame(guild_id=5, channel_id=channel_id, user_id=user_id, name="canfield",
                   options={"draw": 3, "redeals": None, "groups": "top-or-whole", "die": "off"},
                   deal=1, cards=None, snapshot=None, score=-12)


async def test_migrations_apply_from_empty_and_only_once(database_url) -> None:
    store = await open_store(database_url)
    assert await store.schema_version() == head()
    await store.close()
    # Two processes starting at once on an empty database: one applies them, the other waits.
    first, second = store_for(database_url), store_for(database_url)
    await asyncio.gather(first.open(), second.open())
    assert await first.schema_version() == await second.schema_version() == head()
    assert await first.db.fetch_value(select(func.count()).select_from(table("alembic_version"))) == 1
    await first.close()
    await second.close()


async def test_a_sqlite_file_is_created_in_wal_mode(tmp_path) -> None:
    path = tmp_path / "sub" / "pe.sqlite3"
    store = await open_store(f"sqlite:///{path}")
    assert await store.schema_version() == head()
    await store.close()
    store = SqliteStore(path)
    await store.open()  # again: nothing to apply, nothing breaks
    assert await store.schema_version() == head()
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "players", "guild_settings", "alembic_version"} <= tables


async def test_a_sqlite_store_runs_on_one_daemon_thread_that_ends_when_it_closes(tmp_path) -> None:
    before = set(threading.enumerate())
    store = await open_store(str(tmp_path / "pe.sqlite3"))
    await store.games.create_game(new())
    started = set(threading.enumerate()) - before
    assert len(started) == 1 and all(thread.daemon for thread in started)  # aiosqlite's: the bot may exit
    await store.close()
    for thread in started:
        thread.join(5)
    assert not any(thread.is_alive() for thread in started)


async def test_games_are_stored_and_versions_guard_every_change(database_url) -> None:
    store = await open_store(database_url)
    game = await store.games.create_game(new())
    assert (game.version, game.status, game.moves, game.options["draw"]) == (0, "playing", [], 3)
    saved = await store.games.save_game(game.id, expected_version=0, moves=["d", "rt4"], snapshot="{}",
                                        status="playing", score=-11)
    assert (saved.version, saved.moves, saved.score) == (1, ["d", "rt4"], -11)
    with pytest.raises(VersionConflict):
        await store.games.save_game(game.id, expected_version=0, moves=["d"], snapshot=None, status="playing", score=0)
    assert (await store.games.get_game(game.id)).moves == ["d", "rt4"]
    assert (await store.games.running_game(1, 10)).id == game.id
    assert await store.games.running_game(1, 11) is None and await store.games.running_game(2, 10) is None
    await store.games.save_game(game.id, expected_version=1, moves=["d"], snapshot=None, status="resigned", score=-12)
    assert await store.games.running_game(1, 10) is None
    with pytest.raises(StoreError, match="'lost'"):
        await store.games.save_game(game.id, expected_version=2, moves=[], snapshot=None, status="lost", score=0)
    assert await store.games.count_games() == 1
    await store.close()


async def test_a_game_in_a_dm_has_no_channel_and_is_still_found(database_url) -> None:
    store = await open_store(database_url)
    game = await store.games.create_game(new(channel_id=None))
    assert (await store.games.running_game(1, None)).id == game.id
    await store.close()


async def test_concurrent_saves_on_one_version_land_exactly_once(database_url) -> None:
    store = await open_store(database_url)
    game = await store.games.create_game(new())
    results = await asyncio.gather(*(
        store.games.save_game(game.id, expected_version=0, moves=[f"m{i}"], snapshot=None, status="playing", score=0)
        for i in range(5)), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, VersionConflict) for r in results if isinstance(r, Exception))
    assert (await store.games.get_game(game.id)).version == 1
    await store.close()


async def test_players_and_settings(database_url) -> None:
    store = await open_store(database_url)
    await store.games.upsert_player(1, "alice")
    await store.games.upsert_player(1, "Alice")
    await store.stats.set_setting(5, "prefix", "?")
    await store.stats.set_setting(5, "prefix", "$")
    assert await store.stats.get_settings(5) == {"prefix": "$"} and await store.stats.get_settings(6) == {}
    await store.close()


async def test_a_corrupt_options_row_is_read_without_crashing(database_url) -> None:
    store = await open_store(database_url)
    game = await store.games.create_game(new())
    await store.close()
    store = await open_store(database_url)
    await store.db.execute(update(games).where(games.c.id == game.id).values(options="not json"))
    assert (await store.games.get_game(game.id)).options == {"corrupt": "not json"}
    await store.close()


def test_database_urls() -> None:
    assert str(store_for("sqlite:///data/x.sqlite3").path) == "data/x.sqlite3"
    assert str(store_for("sqlite:////tmp/x.sqlite3").path) == "/tmp/x.sqlite3"
    assert str(store_for("plain/file.db").path) == "plain/file.db"
    assert isinstance(store_for("postgresql://postgres@db.example:5432/pe"), PostgresStore)
    assert isinstance(store_for("postgres://postgres@db.example/pe"), PostgresStore)
    with pytest.raises(StoreError, match="mysql:// is not supported; use sqlite:///path/file or postgresql://"):
        store_for("mysql://localhost/db")


def test_a_postgresql_url_may_size_the_pool_and_keeps_its_other_parameters() -> None:
    assert pool_size("postgresql://pe@db/pe") == ("postgresql://pe@db/pe", 10)
    assert pool_size("postgresql://pe@db/pe?pool_size=3") == ("postgresql://pe@db/pe", 3)
    assert pool_size("postgresql://pe@db/pe?search_path=s&pool_size=40&sslmode=require") == (
        "postgresql://pe@db/pe?search_path=s&sslmode=require", 40)
    for bad in ("0", "x", "", "1001", "-2"):
        with pytest.raises(StoreError, match=f"pool_size='{bad}' in DATABASE_URL: it must be a whole number"):
            store_for(f"postgresql://pe@db/pe?pool_size={bad}")


async def test_a_process_holds_at_most_pool_size_connections(postgres_url) -> None:
    store = await open_store(f"{postgres_url}&pool_size=2")  # the URL names its schema: ?search_path=...
    try:
        assert store.db.max_connections == 2
        games = await asyncio.gather(*(store.games.create_game(new(user_id=user)) for user in range(1, 17)))
        assert len({game.id for game in games}) == 16 and store.db.engine.pool.checkedin() <= 2
    finally:
        await store.close()


async def test_a_postgresql_server_that_does_not_answer_is_one_clear_error() -> None:
    with pytest.raises(StoreError, match=r"cannot connect to PostgreSQL at 127\.0\.0\.1:9/pe") as caught:
        await open_store("postgresql://someone:secret@127.0.0.1:9/pe")
    assert "secret" not in str(caught.value)


async def test_discord_ids_need_64_bits_and_get_them(database_url) -> None:
    store = await open_store(database_url)
    big = 1_234_567_890_123_456_789
    game = await store.games.create_game(NewGame(guild_id=big, channel_id=big + 1, user_id=big + 2, name="canfield",
                                                 options={}, deal=1, cards=None, snapshot=None, score=0))
    assert (game.guild_id, game.channel_id, game.user_id) == (big, big + 1, big + 2)
    assert (await store.games.running_game(big + 2, big + 1)).id == game.id
    await store.close()


async def test_a_thread_runs_work_in_order_hands_errors_back_and_skips_work_cancelled_in_time() -> None:
    thread = Threads(1, "test")
    gate, ran = threading.Event(), []
    first = thread.call(lambda: gate.wait(5) and ran.append("first"))  # holds the thread until the gate opens
    second = thread.call(lambda: ran.append("second"))
    second.cancel()  # before its turn: it never runs
    third = thread.call(lambda: ran.append("third") or "done")
    failing = thread.call(lambda: 1 // 0)
    gate.set()
    assert await third == "done"
    with pytest.raises(ZeroDivisionError):
        await failing
    await first
    assert ran == ["first", "third"]
    thread.stop()


def test_a_thread_outlives_a_closed_event_loop_that_handed_it_work() -> None:
    thread, gate = Threads(1, "test"), threading.Event()

    async def hand_over() -> None:
        thread.call(lambda: gate.wait(5))  # still running when its loop closes

    asyncio.run(hand_over())
    gate.set()

    async def more() -> str:
        return await asyncio.wait_for(thread.call(lambda: "still there"), 5)

    assert asyncio.run(more()) == "still there"
    thread.stop()

