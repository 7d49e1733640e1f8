"""A database made by the code of each release before Alembic, at each of the old migrations 0001
to 0006 (tests/data, made by tests/data/make_old_database.py), opens with today's code: every row
kept, and the bot plays on in it."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.play import Player, SoloPlay
from bot.store import StoreError, open_store
from bot.store.migrate import BASELINE, HEAD, head, sqlalchemy_url
from bot.store.old_migrations import MIGRATIONS, bring_to_baseline
from tests.conftest import POSTGRES_URL, fresh_postgres_schema
from tests.data.make_old_database import ALICE, BOB, CAROL, GUILD

DATA = Path(__file__).parent.parent / "data"
# The old databases (tests/data/README.md): file names, and the migration each is at.
SQLITE_FILES = ("old-0001", "old-0002", "old-0003-without-series", "old-0003", "old-0004", "old-0005", "old-0006")
POSTGRES_DUMPS = ("old-0004", "old-0005", "old-0006")
# The tables each migration brought, and the rows make_old_database.py put in them.
TABLES = {1: {"players": 2, "games": 2, "guild_settings": 2},
          2: {"games": 8, "teams": 2, "team_members": 3, "matches": 2, "match_players": 3, "daily_attempts": 2},
          3: {"races": 2, "race_players": 4}}
# Columns added since migration 0001, with the value an older row gets.
ADDED = {"games": {"kind": "solo", "match_id": None, "round": None, "undo_allowed": 1, "finished_at": None,
                   "closed": 0, "hints": 0, "undos": 0, "foundation_cards": None},
         "daily_attempts": {"shared": 0},
         "races": {"target": None, "series_id": None, "hand": 1}}


def migration(name: str) -> int:
    """The old migration a test database is at."""
    return int(name.split("-")[1])


def row_counts(name: str) -> dict[str, int]:
    """The tables of that database's schema, with the rows each holds."""
    counts: dict[str, int] = {}
    for number, tables in TABLES.items():
        if number <= migration(name):
            counts.update(tables)
    return counts


def sqlite_rows(path: Path, tables: dict[str, int]) -> dict[str, list[dict[str, Any]]]:
    """Every row of these tables, each as its columns' values."""
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        return {table: [dict(row) for row in db.execute(f"SELECT * FROM {table}")] for table in tables}


async def postgres_rows(url: str, tables: dict[str, int]) -> dict[str, list[dict[str, Any]]]:
    """Every row of these tables, each as its columns' values."""
    import asyncpg

    base, _, schema = url.partition("?search_path=")
    connection = await asyncpg.connect(base, server_settings={"search_path": schema})
    try:
        return {table: [dict(row) for row in await connection.fetch(f"SELECT * FROM {table}")] for table in tables}
    finally:
        await connection.close()


def assert_kept(before: dict[str, list[dict[str, Any]]], after: dict[str, list[dict[str, Any]]]) -> None:
    """Every row before is there after, value for value; the columns added since hold what an old
    row gets (a race's last change: its latest time, as migration 0005 set it)."""
    def stable(rows: list[dict[str, Any]]) -> list[str]:
        return sorted(repr(sorted(row.items())) for row in rows)

    for table, rows in before.items():
        old = set(rows[0]) if rows else set()
        assert stable([{name: row[name] for name in old} for row in after[table]]) == stable(rows), table
        for row in after[table]:
            for name in set(row) - old:
                expected = (next(value for value in (row["finished_at"], row["started_at"], row["created_at"])
                                 if value is not None) if name == "last_activity" else ADDED[table][name])
                assert row[name] == expected, (table, name, row)


async def load_postgres_dump(url: str, name: str) -> None:
    """Load tests/data/<name>-postgres.sql into the (empty) schema that `url` names."""
    import asyncpg

    base, _, schema = url.partition("?search_path=")
    dumped = name.replace("-", "_")  # the schema it was dumped from
    script = (DATA / f"{name}-postgres.sql").read_text(encoding="utf-8")
    script = script.replace(f"CREATE SCHEMA {dumped};", "").replace(dumped, schema)
    connection = await asyncpg.connect(base)
    try:
        await connection.execute(script)
    finally:
        await connection.close()


async def check_the_bot_works_on(url: str, name: str) -> None:
    """The old rows read back through the store, and play goes on: a move in the old game in
    play, a move in the race running, a new game."""
    at = migration(name)
    store = await open_store(url)
    try:
        assert await store.schema_version() == head()
        game = await store.games.get_game(1)
        assert (game.user_id, game.name, game.deal, game.moves, game.status) == (ALICE.id, "canfield", 12345,
                                                                                  ["d", "d", "d"], "playing")
        assert await store.stats.get_settings(GUILD) == {"locale": "en", "target": "250"}
        if at >= 2:
            assert [(team.name, team.members) for team in await store.matches.list_teams(GUILD)] == [
                ("Blue", (CAROL.id,)), ("Red", (ALICE.id, BOB.id))]
            match = await store.matches.get_match(1)
            assert (match.status, match.teams, match.message_id, match.winner_team_id) == ("finished", True, 9001, 1)
            # Carol's second round was still in play when the match ended, until 0006 closed it.
            in_play = None if at >= 6 else 6
            assert [(p.user_id, p.points, p.rounds, p.left, p.game_id)
                    for p in await store.matches.match_players(1)] == [
                (ALICE.id, 120, 1, False, None), (BOB.id, 90, 1, False, None), (CAROL.id, 60, 1, True, in_play)]
            assert [(r.user_id, r.status, r.score)
                    for r in await store.stats.daily_results("canfield", GUILD, None, "2023-11-14")] == [
                (ALICE.id, "won", 352), (BOB.id, "playing", 0)]
        if at >= 3:
            race = await store.races.get_race(1)
            assert (race.status, race.players, race.scores, race.moves, race.demon_user_id) == (
                "finished", [ALICE.id, BOB.id], [62, 3], ["0:d", "1:d"], ALICE.id)
            running = await store.races.get_race(2)
            assert (running.status, running.players, running.moves, running.target, running.hand) == (
                "running", [CAROL.id, BOB.id], ["0:d"], None if name.endswith("without-series") else 100, 1)
            await store.races.save_race_moves(2, expected_version=running.version, moves=["0:d", "1:d"])
            assert (await store.races.get_race(2)).version == running.version + 1
        solo = SoloPlay(store)
        reply = await solo.move(1, ALICE, "d")
        assert reply.game_id == 1 and (await store.games.get_game(1)).version == game.version + 1
        # New rows take new ids after the old ones.
        fresh = await solo.start(Player(104, "dave"), guild_id=GUILD, channel_id=700, deal=3)
        assert fresh.game_id == row_counts(name)["games"] + 1
    finally:
        await store.close()


@pytest.mark.parametrize("name", SQLITE_FILES)
async def test_a_sqlite_file_from_an_old_migration_keeps_every_row(tmp_path: Path, name: str) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / f"{name}.sqlite3", path)
    tables = row_counts(name)
    before = sqlite_rows(path, tables)
    assert {table: len(rows) for table, rows in before.items()} == tables
    store = await open_store(f"sqlite:///{path}")
    await store.close()
    assert_kept(before, sqlite_rows(path, tables))
    await check_the_bot_works_on(str(path), name)


@pytest.mark.parametrize("name", POSTGRES_DUMPS)
async def test_a_postgres_schema_from_an_old_migration_keeps_every_row(name: str) -> None:
    if not POSTGRES_URL:
        pytest.skip("TEST_POSTGRES_URL is not set: the PostgreSQL store is not tested (CI sets it)")
    async with fresh_postgres_schema(POSTGRES_URL) as url:
        await load_postgres_dump(url, name)
        tables = row_counts(name)
        before = await postgres_rows(url, tables)
        assert {table: len(rows) for table, rows in before.items()} == tables
        store = await open_store(url)
        await store.close()
        assert_kept(before, await postgres_rows(url, tables))
        await check_the_bot_works_on(url, name)


def sqlite_schema(path: Path) -> dict[str, object]:
    """Each table's columns (by name: a column added later stands last), indexes and foreign keys."""
    with sqlite3.connect(path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                "AND name NOT IN ('schema_migrations', 'sqlite_sequence')")]
        return {table: (sorted(row[1:] for row in db.execute(f"PRAGMA table_info({table})")),
                        sorted(row[1:] for row in db.execute(f"PRAGMA index_list({table})")),
                        sorted(row[2:] for row in db.execute(f"PRAGMA foreign_key_list({table})")))
                for table in tables}


async def postgres_schema(url: str) -> dict[str, object]:
    """The schema's columns (by name), indexes and constraints, its name left out."""
    import asyncpg

    base, _, schema = url.partition("?search_path=")
    connection = await asyncpg.connect(base)
    try:
        columns = await connection.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity "
            "FROM information_schema.columns WHERE table_schema = $1 AND table_name <> 'schema_migrations'", schema)
        indexes = await connection.fetch("SELECT tablename, indexname, indexdef FROM pg_indexes "
                                         "WHERE schemaname = $1 AND tablename <> 'schema_migrations'", schema)
        constraints = await connection.fetch(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE connamespace = $1::regnamespace AND conrelid <> ($1 || '.schema_migrations')::regclass", schema)
    finally:
        await connection.close()
    return {kind: sorted(tuple(str(value).replace(schema, "S") for value in row) for row in rows)
            for kind, rows in (("columns", columns), ("indexes", indexes), ("constraints", constraints))}


@pytest.mark.parametrize("name", [name for name in SQLITE_FILES if name != "old-0006"])
def test_the_old_migrations_make_the_schema_of_0006_on_sqlite(tmp_path: Path, name: str) -> None:
    """From each old migration, the steps to 0006 make the tables that the release at 0006 made
    (on which the baseline revision is stamped)."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / f"{name}.sqlite3", path)
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        bring_to_baseline(connection)
    engine.dispose()
    assert sqlite_schema(path) == sqlite_schema(DATA / "old-0006.sqlite3")
    with sqlite3.connect(path) as db:
        assert [row[0] for row in db.execute("SELECT version FROM schema_migrations ORDER BY version")] == [
            1, 2, 3, 4, 5, 6]


async def test_the_old_migrations_make_the_schema_of_0006_on_postgres() -> None:
    if not POSTGRES_URL:
        pytest.skip("TEST_POSTGRES_URL is not set: the PostgreSQL store is not tested (CI sets it)")
    async with fresh_postgres_schema(POSTGRES_URL) as reference:
        await load_postgres_dump(reference, "old-0006")
        for name in POSTGRES_DUMPS[:-1]:
            async with fresh_postgres_schema(POSTGRES_URL) as url:
                await load_postgres_dump(url, name)
                address, connect_args = sqlalchemy_url(url)
                engine = create_async_engine(address, connect_args=connect_args)
                try:
                    async with engine.begin() as connection:
                        await connection.run_sync(bring_to_baseline)
                finally:
                    await engine.dispose()
                assert await postgres_schema(url) == await postgres_schema(reference), name


async def test_an_old_migration_that_fails_leaves_the_database_untouched(tmp_path: Path) -> None:
    """Migrations 0005 and 0006 go together or not at all: 0006 fails here (its column is there
    already), and 0005, applied before it, is undone with it."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "old-0004.sqlite3", path)
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE games ADD COLUMN closed INTEGER NOT NULL DEFAULT 0")
        schema = db.execute("SELECT * FROM sqlite_master ORDER BY name").fetchall()
    tables = {**row_counts("old-0004"), "schema_migrations": 4}
    before = sqlite_rows(path, tables)
    with pytest.raises(StoreError, match=r"old migration 0006_closed_rounds\.sql failed"):
        await open_store(str(path))
    assert sqlite_rows(path, tables) == before
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT * FROM sqlite_master ORDER BY name").fetchall() == schema


async def test_a_database_at_an_old_migration_no_release_had_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "old-0006.sqlite3", path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_migrations VALUES (7, '0007_elsewhere.sql', 0)")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="old migration 7, which no release had"):
        await open_store(str(path))
    assert path.read_bytes() == before


def test_the_old_migrations_end_at_the_baseline() -> None:
    assert [number for number, _, _ in MIGRATIONS] == list(range(1, int(BASELINE) + 1))


# SQLite cannot reflect the expression index teams_by_name, so the comparison skips it there.
@pytest.mark.filterwarnings("ignore:.*expression-based index")
async def test_the_baseline_revision_makes_the_tables_as_declared(database_url) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy.ext.asyncio import create_async_engine

    from bot.store.migrate import sqlalchemy_url, upgrade
    from bot.store.tables import metadata

    # The revisions, one by one from an empty database, make the tables that a new database gets
    # at once (metadata.create_all, stamped with the newest revision).
    address, connect_args = sqlalchemy_url(database_url)
    engine = create_async_engine(address, connect_args=connect_args)
    try:
        await upgrade(engine, by_revisions=True)
        async with engine.connect() as connection:
            differences = await connection.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), metadata))
            version = (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalar()
    finally:
        await engine.dispose()
    assert differences == [] and version == head()
    store = await open_store(database_url)  # at the newest revision already: nothing to apply
    assert await store.schema_version() == head()
    await store.close()


def test_the_newest_revision_is_the_one_a_new_database_is_stamped_with() -> None:
    assert head() == HEAD


def test_a_new_or_up_to_date_database_opens_without_alembic(tmp_path: Path) -> None:
    """Alembic (some 0.2 s to import) is needed only to migrate: a bot starting on a new database
    or one at the newest revision does without it."""
    script = ("import asyncio, sys\n"
              "from bot.store import open_store\n"
              "async def main():\n"
              f"    store = await open_store({str(tmp_path / 'pe.sqlite3')!r})\n"
              "    print(await store.schema_version())\n"
              "    await store.close()\n"
              "asyncio.run(main())\n"
              "print('alembic' in sys.modules)\n")
    for _ in ("new", "up to date"):
        ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
        assert ran.stdout.split() == [head(), "False"], ran.stderr
