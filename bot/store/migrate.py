"""Bring a database's schema up to date with Alembic (bot/store/alembic), as the store opens.

One process migrates at a time: PostgreSQL holds an advisory lock for the upgrade's transaction,
SQLite a BEGIN IMMEDIATE transaction. A database made by the hand-written SQL migrations of
before (a schema_migrations table, at any of 0001 to 0006) is brought to 0006 by those migrations
(bot/store/old_migrations.py) and stamped with the baseline revision, every row kept.
A new, empty database gets the tables as declared (bot/store/tables.py) stamped with the newest
revision, as Alembic's own guide builds one from scratch; one at the newest revision already is
left as it is. Neither needs Alembic, which is imported only to migrate.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Column, Connection, MetaData, PrimaryKeyConstraint, String, Table, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.old_migrations import bring_to_baseline
from bot.store.tables import metadata

if TYPE_CHECKING:
    from alembic.config import Config

BASELINE = "0006"  # the hand-written migrations' last number, and Alembic's first revision
HEAD = "0013_web"  # the newest revision (tests/store/test_upgrade.py checks it is Alembic's head)
MIGRATION_LOCK = 7_106_243  # any number: the PostgreSQL advisory lock that one migrating process holds
ALEMBIC = Path(__file__).parent / "alembic"
# Alembic's table of the revision a database is at, as Alembic itself makes it.
VERSION_TABLE = Table("alembic_version", MetaData(), Column("version_num", String(32), nullable=False),
                      PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the store's revisions, on `connection` when given."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(ALEMBIC))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision, as Alembic reads it from the revisions' files."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None
    return found


def sqlalchemy_url(url: str) -> tuple[str, dict[str, object]]:
    """A store DATABASE_URL (a SQLite path or `sqlite:///…`, or `postgresql://…` without its
    pool_size) as SQLAlchemy's async URL, with the driver's connect arguments (a PostgreSQL
    `search_path` becomes a server setting, as asyncpg takes it)."""
    if url.startswith(("postgresql://", "postgres://")):
        parsed = make_url(url).set(drivername="postgresql+asyncpg")
        settings = {name: str(value) for name, value in parsed.query.items() if name == "search_path"}
        parsed = parsed.difference_update_query(list(settings))
        return parsed.render_as_string(hide_password=False), {"server_settings": settings} if settings else {}
    return f"sqlite+aiosqlite:///{url}", {}


async def upgrade(engine: AsyncEngine, *, by_revisions: bool = False) -> None:
    """Apply the revisions the database lacks, on the store's engine (in autocommit: this opens
    and ends its own transaction); `by_revisions`: an empty database too, revision by revision."""
    async with engine.connect() as connection:
        await connection.run_sync(upgrade_connection, by_revisions=by_revisions)


def upgrade_connection(connection: Connection, *, by_revisions: bool = False) -> None:
    """`upgrade` on a connection in autocommit."""
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN")
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    try:
        _upgrade(connection, by_revisions)
    except BaseException:
        connection.exec_driver_sql("ROLLBACK")
        raise
    connection.exec_driver_sql("COMMIT")


def _upgrade(connection: Connection, by_revisions: bool) -> None:
    tables = set(inspect(connection).get_table_names())
    if not tables and not by_revisions:  # a new database: the tables as declared, at the newest revision
        metadata.create_all(connection)
        VERSION_TABLE.create(connection)
        connection.execute(VERSION_TABLE.insert().values(version_num=HEAD))
        return
    if "alembic_version" in tables and connection.execute(select(VERSION_TABLE.c.version_num)).scalar() == HEAD:
        return  # nothing to apply
    from alembic import command

    if "alembic_version" not in tables and "schema_migrations" in tables:
        bring_to_baseline(connection)
        command.stamp(alembic_config(connection), BASELINE)
    command.upgrade(alembic_config(connection), "head")
