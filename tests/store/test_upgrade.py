"""A database made by the code at migration 0006 (tests/data, made by tests/data/make_old_database.py)
opens with today's code: every row kept, and the bot plays on in it."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.play import Player, SoloPlay
from bot.store import StoreError, open_store
from bot.store.migrate import HEAD, head
from tests.conftest import POSTGRES_URL, fresh_postgres_schema
from tests.data.make_old_database import ALICE, BOB, CAROL, GUILD

DATA = Path(__file__).parent.parent / "data"
TABLES = ("players", "games", "guild_settings", "teams", "team_members", "matches", "match_players",
          "daily_attempts", "races", "race_players")
ROWS = {"players": 2, "games": 8, "guild_settings": 2, "teams": 2, "team_members": 3, "matches": 2,
        "match_players": 3, "daily_attempts": 2, "races": 2, "race_players": 4}


# Columns that revisions after the baseline added, with the value an old row gets.
ADDED = {"games": {"hints": 0, "undos": 0, "foundation_cards": None}, "daily_attempts": {"shared": 0}}


def old_columns(table: str, names: list[str], rows: list[tuple]) -> list[tuple]:
    """The rows' values in the old schema's columns, in a stable order; the columns added since
    must hold their defaults."""
    added = ADDED.get(table, {})
    for row in rows:
        assert {name: value for name, value in zip(names, row, strict=True) if name in added} in ({}, added)
    return sorted((tuple(value for name, value in zip(names, row, strict=True) if name not in added)
                   for row in rows), key=repr)


def sqlite_rows(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table of the old schema, in a stable order."""
    rows = {}
    with sqlite3.connect(path) as db:
        for table in TABLES:
            cursor = db.execute(f"SELECT * FROM {table}")
            rows[table] = old_columns(table, [column[0] for column in cursor.description], cursor.fetchall())
    return rows


async def postgres_rows(url: str) -> dict[str, list[tuple]]:
    """Every row of every table of the old schema, in a stable order."""
    import asyncpg

    base, _, schema = url.partition("?search_path=")
    connection = await asyncpg.connect(base, server_settings={"search_path": schema})
    try:
        rows = {}
        for table in TABLES:
            fetched = await connection.fetch(f"SELECT * FROM {table}")
            names = list(fetched[0].keys()) if fetched else []
            rows[table] = old_columns(table, names, [tuple(row) for row in fetched])
        return rows
    finally:
        await connection.close()


async def load_postgres_dump(url: str) -> None:
    """Load tests/data/old-0006-postgres.sql into the (empty) schema that `url` names."""
    import asyncpg

    base, _, schema = url.partition("?search_path=")
    script = (DATA / "old-0006-postgres.sql").read_text(encoding="utf-8")
    script = script.replace("CREATE SCHEMA old_0006;", "").replace("old_0006", schema)
    connection = await asyncpg.connect(base)
    try:
        await connection.execute(script)
    finally:
        await connection.close()


async def check_the_bot_works_on(url: str) -> None:
    """The old rows read back through the store, and a move on the old game in play."""
    store = await open_store(url)
    try:
        assert await store.schema_version() == head()
        game = await store.games.get_game(1)
        assert (game.user_id, game.name, game.deal, game.moves, game.status) == (ALICE.id, "canfield", 12345,
                                                                                  ["d", "d", "d"], "playing")
        assert await store.stats.get_settings(GUILD) == {"locale": "en", "target": "250"}
        assert [(team.name, team.members) for team in await store.matches.list_teams(GUILD)] == [
            ("Blue", (CAROL.id,)), ("Red", (ALICE.id, BOB.id))]
        match = await store.matches.get_match(1)
        assert (match.status, match.teams, match.message_id, match.winner_team_id) == ("finished", True, 9001, 1)
        assert [(p.user_id, p.points, p.rounds, p.left) for p in await store.matches.match_players(1)] == [
            (ALICE.id, 120, 1, False), (BOB.id, 90, 1, False), (CAROL.id, 60, 1, True)]
        assert [(r.user_id, r.status, r.score) for r in await store.stats.daily_results("canfield", GUILD, None,
                                                                                   "2023-11-14")] == [
            (ALICE.id, "won", 352), (BOB.id, "playing", 0)]
        race = await store.races.get_race(1)
        assert (race.status, race.players, race.scores, race.moves, race.demon_user_id) == (
            "finished", [ALICE.id, BOB.id], [62, 3], ["0:d", "1:d"], ALICE.id)
        assert (await store.races.get_race(2)).status == "running"
        solo = SoloPlay(store)
        reply = await solo.move(1, ALICE, "d")
        assert reply.game_id == 1 and (await store.games.get_game(1)).version == game.version + 1
        # New rows take new ids after the old ones.
        fresh = await solo.start(Player(104, "dave"), guild_id=GUILD, channel_id=700, deal=3)
        assert fresh.game_id == 9
    finally:
        await store.close()


async def test_a_sqlite_file_from_migration_0006_keeps_every_row(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "old-0006.sqlite3", path)
    before = sqlite_rows(path)
    assert {table: len(rows) for table, rows in before.items()} == ROWS
    store = await open_store(f"sqlite:///{path}")
    await store.close()
    assert sqlite_rows(path) == before
    await check_the_bot_works_on(str(path))


async def test_a_postgres_schema_from_migration_0006_keeps_every_row() -> None:
    if not POSTGRES_URL:
        pytest.skip("TEST_POSTGRES_URL is not set: the PostgreSQL store is not tested (CI sets it)")
    async with fresh_postgres_schema(POSTGRES_URL) as url:
        await load_postgres_dump(url)
        before = await postgres_rows(url)
        assert {table: len(rows) for table, rows in before.items()} == ROWS
        store = await open_store(url)
        await store.close()
        assert await postgres_rows(url) == before
        await check_the_bot_works_on(url)


async def test_an_old_migration_that_fails_leaves_the_database_untouched(tmp_path) -> None:
    path = tmp_path / "older.sqlite3"
    shutil.copy(DATA / "old-0006.sqlite3", path)
    with sqlite3.connect(path) as db:  # migration 0006 again: its column is there already
        db.execute("DELETE FROM schema_migrations WHERE version = 6")
    before = sqlite_rows(path)
    with pytest.raises(StoreError, match="old migration 0006_closed_rounds.sql failed"):
        await open_store(str(path))
    assert sqlite_rows(path) == before


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
