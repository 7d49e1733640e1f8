"""The two databases behind the store, SQLite and PostgreSQL, through SQLAlchemy (Python's sqlite3
in a thread, and the asyncio engine of the asyncpg driver). Queries are SQLAlchemy Core expressions on the tables of
bot/store/tables.py, written once for both, their values bound as parameters (given in the
expression, or by name with `bindparam` to a statement built once) so that each statement's
shape is compiled once and cached; this module is the one place that knows the databases apart:

- SQLite has one connection per process, so statements take turns on it; a transaction is
  BEGIN IMMEDIATE ... COMMIT, so that a second writer waits for the first instead of failing.
  It is a synchronous connection kept open in a thread of its own, each statement run there
  whole: one trip to that thread a statement (aiosqlite's engine made four: cursor, execute,
  fetch, close, each waking a thread and the event loop; benchmarks/load.py).
- INSERT ... ON CONFLICT is each dialect's own construct: `Database.upsert` picks it.
- PostgreSQL sums BIGINTs into `numeric`: `total` and `mean` cast sums and averages to
  BIGINT and DOUBLE PRECISION, so that both give ints and floats.
- A unique-constraint violation is `DuplicateRow` from both.
- A PostgreSQL URL may end in `?pool_size=N`, the connections each process holds (default 10).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    CursorResult,
    Double,
    Engine,
    Executable,
    Insert,
    Table,
    cast,
    create_engine,
    event,
    func,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from bot.store.base import StoreError
from bot.store.migrate import sqlalchemy_url, upgrade, upgrade_connection
from bot.threads import Threads

Row = tuple[Any, ...]
T = TypeVar("T")
Parameters = Mapping[str, Any]

DEFAULT_POOL_SIZE = 10  # connections a process may hold; processes × this must stay below the server's max_connections
MAX_POOL_SIZE = 1000
UNIQUE_VIOLATION = "23505"  # PostgreSQL's SQLSTATE


class DuplicateRow(StoreError):
    """A row broke a unique constraint: someone else took that name, seat or key first."""


class Statements:
    """What the store asks of a database, each built on `run`: a `Database` runs each statement
    on its own (it commits), `Queries` on one connection (inside a transaction, say)."""

    async def run(self, statement: Executable, parameters: Parameters | list[Parameters] | None) -> Outcome:
        """Run a statement (once for each set of parameters in a list): its rows and rowcount."""
        raise NotImplementedError

    async def fetch_all(self, statement: Executable, parameters: Parameters | None = None) -> list[Row]:
        """Every row (`parameters`: the values of the statement's `bindparam`s by name, if it has any)."""
        return (await self.run(statement, parameters)).rows

    async def fetch_one(self, statement: Executable, parameters: Parameters | None = None) -> Row | None:
        """The first row, or None."""
        rows = await self.fetch_all(statement, parameters)
        return rows[0] if rows else None

    async def fetch_value(self, statement: Executable, parameters: Parameters | None = None) -> Any:
        """The first column of the first row, or None."""
        row = await self.fetch_one(statement, parameters)
        return row[0] if row else None

    async def execute(self, statement: Executable, parameters: Parameters | None = None) -> int:
        """Run a statement; the number of rows it changed."""
        return (await self.run(statement, parameters)).rowcount

    async def insert(self, statement: Insert) -> int:
        """Run an INSERT into a table with an `id` column; the new row's id."""
        return int(await self.fetch_value(statement.returning(statement.table.c.id)))


class Queries(Statements):
    """Statements on one connection: on their own (each commits), or inside a transaction."""

    def __init__(self, connection: AsyncConnection) -> None:
        self.connection = connection

    async def run(self, statement: Executable, parameters: Parameters | list[Parameters] | None) -> Outcome:
        """Run a statement (once for each set of parameters in a list): its rows and rowcount."""
        with _errors:
            return outcome(await self.connection.execute(statement, parameters))

    async def driver_sql(self, sql: str) -> None:
        """Run SQL as the driver takes it (BEGIN, COMMIT, ROLLBACK)."""
        with _errors:
            await self.connection.exec_driver_sql(sql)

    async def execute_many(self, statement: Executable, rows: Iterable[Parameters]) -> None:
        """Run a statement once for each set of parameters (its `bindparam`s, or an INSERT's columns)."""
        rows = [dict(row) for row in rows]
        if rows:
            await self.run(statement, rows)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a statement gave: its rows (none for a statement that returns none), and the rows it changed."""

    rows: list[Row]
    rowcount: int


def outcome(result: CursorResult[Any] | Any) -> Outcome:
    """A statement's result read whole."""
    return Outcome([tuple(row) for row in result.fetchall()] if result.returns_rows else [], result.rowcount)


class SqliteQueries(Queries):
    """Statements on SQLite's one synchronous connection, each run whole in the database's thread."""

    def __init__(self, database: SqliteDatabase, connection: Connection) -> None:
        self.database = database
        self.sync = connection

    async def run(self, statement: Executable, parameters: Parameters | list[Parameters] | None) -> Outcome:
        """Run a statement in the database's thread: its rows and rowcount."""
        with _errors:
            return await self.database.in_thread(lambda: outcome(self.sync.execute(statement, parameters)))

    async def driver_sql(self, sql: str) -> None:
        """Run SQL as the driver takes it, in the database's thread."""
        with _errors:
            await self.database.in_thread(partial(self.sync.exec_driver_sql, sql))


class Database(Statements):
    """A database behind a SQLAlchemy engine in autocommit: a statement on its own commits; a
    transaction holds one connection from BEGIN to COMMIT. `turns` keeps the engine's pool from
    ever being contended: waiters are served first come, first served."""

    def __init__(self, url: str, dialect: str, connections: int) -> None:
        self.url = url
        self.dialect = dialect
        self.max_connections = connections
        self.engine: AsyncEngine | None = None
        self.turns = asyncio.Semaphore(connections)

    async def open(self) -> None:
        """Create the engine and connect once, so that a database out of reach fails here."""
        address, connect_args = sqlalchemy_url(self.url)
        # AUTOCOMMIT: transactions are begun and ended here (`transaction`), so the driver's own
        # rollback when a connection is given back has nothing to undo; skipped, it saves a round
        # trip to the database for every statement.
        engine = create_async_engine(address, connect_args=connect_args, isolation_level="AUTOCOMMIT",
                                     pool_reset_on_return=None, skip_autocommit_rollback=True,
                                     pool_size=self.max_connections, max_overflow=0)
        try:
            async with engine.connect():
                pass
        except (OSError, DBAPIError) as error:
            await engine.dispose()
            raise StoreError(f"cannot connect to PostgreSQL at {_where(self.url)}: {error.__cause__ or error}"
                             ) from None
        self.engine = engine

    async def close(self) -> None:
        """Close every connection."""
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Queries]:
        if self.engine is None:
            raise StoreError("the store is not open")
        async with self.turns, self.engine.connect() as connection:
            yield Queries(connection)

    async def upgrade(self) -> None:
        """Apply the migrations the database lacks (bot/store/migrate.py)."""
        assert self.engine is not None
        await upgrade(self.engine)

    @property
    def sync_engine(self) -> Engine:
        """The synchronous engine under the statements, whose events see each of them."""
        assert self.engine is not None, "the store is not open"
        return self.engine.sync_engine

    async def run(self, statement: Executable, parameters: Parameters | list[Parameters] | None = None) -> Outcome:
        """Run a statement on its own (it commits): its rows and rowcount."""
        async with self._connection() as queries:
            return await queries.run(statement, parameters)

    async def execute_many(self, statement: Executable, rows: Iterable[Parameters]) -> None:
        """Run a statement once for each set of parameters, in one transaction."""
        async with self.transaction() as tx:
            await tx.execute_many(statement, rows)

    def upsert(self, table: Table) -> sqlite.Insert | postgresql.Insert:
        """An INSERT into `table` in this database's dialect, which has `on_conflict_do_update`
        and `on_conflict_do_nothing` (the same in both)."""
        return sqlite.insert(table) if self.dialect == "sqlite" else postgresql.insert(table)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Queries]:
        """Statements on one connection that commit together, or not at all."""
        async with self._connection() as queries:
            await queries.driver_sql("BEGIN IMMEDIATE" if self.dialect == "sqlite" else "BEGIN")
            try:
                yield queries
            except BaseException:
                await queries.driver_sql("ROLLBACK")
                raise
            await queries.driver_sql("COMMIT")


class SqliteDatabase(Database):
    """One SQLite file in WAL mode, on one synchronous connection that lives in a thread of its own."""

    def __init__(self, path: Path) -> None:
        if sqlite3.sqlite_version_info < (3, 35):
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old: the store needs 3.35 or newer "
                             "(for RETURNING).")
        self.path = path
        super().__init__(str(path), "sqlite", 1)
        self._sync_engine: Engine | None = None
        self.connection: Connection | None = None
        self.thread: Threads | None = None

    async def open(self) -> None:
        """Open the file (creating its folder) in WAL mode."""
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.thread = Threads(1, "sqlite")
        try:
            await self.in_thread(self._connect)
        except BaseException:
            self.thread.stop()
            self.thread = None
            raise

    def _connect(self) -> None:
        engine = create_engine(f"sqlite:///{self.path}", isolation_level="AUTOCOMMIT", poolclass=StaticPool,
                               pool_reset_on_return=None)
        event.listen(engine, "connect", _sqlite_pragmas)
        try:
            self.connection = engine.connect()
        except DBAPIError as error:
            engine.dispose()
            raise error.orig from None  # sqlite3's own error, as the bot reports it at start
        self._sync_engine = engine

    async def in_thread(self, work: Callable[[], T]) -> T:
        """`work()` in the database's thread, where its connection lives."""
        if self.thread is None:
            raise StoreError("the store is not open")
        return await self.thread.call(work)

    async def run(self, statement: Executable, parameters: Parameters | list[Parameters] | None = None) -> Outcome:
        """Run a statement on its own in the database's thread (it commits): its rows and rowcount."""
        connection = self.connection
        if connection is None:
            raise StoreError("the store is not open")
        async with self.turns:
            with _errors:
                return await self.in_thread(lambda: outcome(connection.execute(statement, parameters)))

    async def close(self) -> None:
        """Close the connection and let the thread go."""
        if self.thread is not None:
            await self.in_thread(self._disconnect)
            self.thread.stop()  # it has nothing left to do: it ends at once
            self.thread = None

    def _disconnect(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None
        if self._sync_engine is not None:
            self._sync_engine.dispose()
            self._sync_engine = None

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Queries]:
        if self.connection is None:
            raise StoreError("the store is not open")
        async with self.turns:
            yield SqliteQueries(self, self.connection)

    @property
    def sync_engine(self) -> Engine:
        """The engine of the connection, whose events see each statement."""
        assert self._sync_engine is not None, "the store is not open"
        return self._sync_engine

    async def upgrade(self) -> None:
        """Apply the migrations the database lacks, in the database's thread."""
        connection = self.connection
        assert connection is not None
        await self.in_thread(lambda: upgrade_connection(connection))


class PostgresDatabase(Database):
    """A PostgreSQL database through a pool of asyncpg connections."""

    def __init__(self, url: str) -> None:
        url, connections = pool_size(url)
        super().__init__(url, "postgresql", connections)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


class _Errors:
    """Turns the drivers' errors into the store's (a plain context manager: it is on every statement's path)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _traceback: Any) -> None:
        if isinstance(error, IntegrityError):
            code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
            if code is None or code == UNIQUE_VIOLATION:  # SQLite: every integrity error, as before
                raise DuplicateRow(str(error.orig)) from None
            raise StoreError(f"PostgreSQL: {error.orig}") from error
        if isinstance(error, (DBAPIError, OSError)):
            raise StoreError(f"database: {getattr(error, 'orig', error)}") from error


_errors = _Errors()


def total(column: ColumnElement[Any]) -> ColumnElement[int]:
    """SUM of an integer column as an integer in both databases (PostgreSQL sums BIGINTs into numeric)."""
    return cast(func.sum(column), BigInteger)


def mean(column: ColumnElement[Any]) -> ColumnElement[float]:
    """AVG of a column as a float in both databases (PostgreSQL averages integers into numeric)."""
    return cast(func.avg(column), Double)


def pool_size(url: str, default: int = DEFAULT_POOL_SIZE) -> tuple[str, int]:
    """The URL without its `pool_size` parameter (this store's, not PostgreSQL's), and the most
    connections a process may hold: that parameter, else `default`. StoreError for a bad one."""
    base, _, query = url.partition("?")
    kept, size = [], default
    for pair in query.split("&") if query else []:
        name, _, value = pair.partition("=")
        if name != "pool_size":
            kept.append(pair)
        elif value.isdigit() and 1 <= int(value) <= MAX_POOL_SIZE:
            size = int(value)
        else:
            raise StoreError(f"pool_size={value!r} in DATABASE_URL: it must be a whole number from 1 "
                             f"to {MAX_POOL_SIZE}")
    return base + ("?" + "&".join(kept) if kept else ""), size


def _where(url: str) -> str:
    """host:port/database of a URL, without the user or password."""
    rest = url.split("://", 1)[-1]
    return rest.rsplit("@", 1)[-1].split("?", 1)[0]
