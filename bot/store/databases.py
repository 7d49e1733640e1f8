"""The two databases behind the store, SQLite and PostgreSQL, through SQLAlchemy (aiosqlite for
SQLite, the asyncio engine of the asyncpg driver for PostgreSQL). Queries are SQLAlchemy Core
expressions on the tables of bot/store/tables.py, written once for both, their values bound as
parameters (given in the expression, or by name with `bindparam` to a statement built once) so
that each statement's shape is compiled once and cached; this module is the one place that knows
the databases apart:

- SQLite has one connection per process, aiosqlite's (a thread of its own), so statements take
  turns on it; a transaction is BEGIN IMMEDIATE ... COMMIT, so that a second writer waits for the
  first instead of failing. A statement on its own is first tried on the event loop, on a second
  connection that never waits (`SqliteDatabase.run`): a move's statements take some 40 to 60 us
  there (a save's 99th percentile under 0.2 ms), where each trip to aiosqlite's thread cost the
  bot's process some 0.4 ms of CPU in a burst, the thread and the event loop taking turns with the
  GIL (benchmarks/load.py). Each
  statement is compiled here with SQLite's dialect (each shape once: `SqliteDatabase.shape`) and
  handed to aiosqlite as SQL and values, one trip to its thread
  (SQLAlchemy's aiosqlite engine makes four: cursor, execute, fetch, close, each waking a thread
  and the event loop; benchmarks/load.py). That engine, on the same connection, opens it (with
  its pragmas), migrates it and closes it.
- INSERT ... ON CONFLICT is each dialect's own construct: `Database.upsert` picks it.
- PostgreSQL sums BIGINTs into `numeric`: `total` and `mean` cast sums and averages to
  BIGINT and DOUBLE PRECISION, so that both give ints and floats.
- A unique-constraint violation is `DuplicateRow` from both.
- Rows are SQLAlchemy's `Row` from both: read by column name (`row.name`).
- A PostgreSQL URL may end in `?pool_size=N`, the connections each process holds (default 10).
- `Database.timer`, when set, is told each statement's seconds (the bot's metrics, bot/metrics.py).
"""

from __future__ import annotations

import asyncio
import math
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Hashable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import aiosqlite
from sqlalchemy import (
    BigInteger,
    ClauseElement,
    ColumnElement,
    CursorResult,
    Double,
    Engine,
    Executable,
    Insert,
    Select,
    Table,
    cast,
    event,
    func,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Row as SqlRow
from sqlalchemy.engine import RowMapping
from sqlalchemy.engine.result import result_tuple
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.compiler import SQLCompiler

from bot.store.base import StoreError
from bot.store.migrate import sqlalchemy_url, upgrade

Row: TypeAlias = "SqlRow[*tuple[Any, ...]]"  # a row of any columns, read by name (`row.name`) or position
AnySelect: TypeAlias = "Select[*tuple[Any, ...]]"  # a SELECT of any columns
Parameters = Mapping[str, Any]
Timer: TypeAlias = Callable[[float], None]  # told a statement's seconds

DEFAULT_POOL_SIZE = 10  # connections a process may hold; processes × this must stay below the server's max_connections
MAX_POOL_SIZE = 1000
UNIQUE_VIOLATION = "23505"  # PostgreSQL's SQLSTATE
SHAPES = 500  # statement shapes a SQLite database keeps compiled (SQLAlchemy's own cache holds as many)
QUICK_SECONDS = 0.002  # a SQLite statement tried on the event loop is given this long, then run in the thread
QUICK_STEPS = 2_000  # SQLite's virtual machine steps between two looks at the clock
CHECKPOINT_WRITES = 1_000  # writes on the event loop's connection between two checkpoints in the thread
SQLITE_PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000")


class DuplicateRow(StoreError):
    """A row broke a unique constraint: someone else took that name, seat or key first."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a statement gave: its rows (none for a statement that returns none), and the rows it changed."""

    rows: list[Row]
    rowcount: int


class Statements:
    """What the store asks of a database, each built on `run`: a `Database` runs each statement
    on its own (it commits), `Queries` on one connection (inside a transaction, say)."""

    async def run(self, statement: Executable, parameters: Parameters | Sequence[Parameters] | None) -> Outcome:
        """Run a statement (once for each set of parameters in a sequence): its rows and rowcount."""
        raise NotImplementedError

    async def fetch_all(self, statement: Executable, parameters: Parameters | None = None) -> list[Row]:
        """Every row (`parameters`: the values of the statement's `bindparam`s by name, if it has any)."""
        return (await self.run(statement, parameters)).rows

    async def fetch_mappings(self, statement: Executable, parameters: Parameters | None = None
                             ) -> list[RowMapping]:
        """Every row as a mapping of its columns by name: the cheap way to read a row's columns by
        name (a Row's mapping takes some 0.8 us to make, then 0.05 a column; its attribute, 0.6)."""
        return [row._mapping for row in (await self.run(statement, parameters)).rows]

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
        table = statement.table
        assert isinstance(table, Table)
        return int(await self.fetch_value(statement.returning(table.c.id)))


class Queries(Statements):
    """Statements on one connection: on their own (each commits), or inside a transaction."""

    async def driver_sql(self, sql: str) -> None:
        """Run SQL as the driver takes it (BEGIN, COMMIT, ROLLBACK)."""
        raise NotImplementedError

    async def execute_many(self, statement: Executable, rows: Iterable[Parameters]) -> None:
        """Run a statement once for each set of parameters (its `bindparam`s, or an INSERT's columns)."""
        rows = [dict(row) for row in rows]
        if rows:
            await self.run(statement, rows)


class EngineQueries(Queries):
    """Statements on a connection of SQLAlchemy's engine (PostgreSQL's)."""

    def __init__(self, connection: AsyncConnection, timer: Timer | None = None) -> None:
        self.connection = connection
        self.timer = timer

    async def run(self, statement: Executable, parameters: Parameters | Sequence[Parameters] | None) -> Outcome:
        """Run a statement (once for each set of parameters in a sequence): its rows and rowcount."""
        if self.timer is None:
            return await self._run(statement, parameters)
        start = time.perf_counter()
        try:
            return await self._run(statement, parameters)
        finally:
            self.timer(time.perf_counter() - start)

    async def _run(self, statement: Executable, parameters: Parameters | Sequence[Parameters] | None) -> Outcome:
        with _errors:
            return _outcome(await self.connection.execute(statement, parameters))

    async def driver_sql(self, sql: str) -> None:
        """Run SQL as the driver takes it."""
        with _errors:
            await self.connection.exec_driver_sql(sql)


def _outcome(result: CursorResult[Any]) -> Outcome:
    """A statement's result read whole."""
    return Outcome(list(result.fetchall()) if result.returns_rows else [], result.rowcount)


class SqliteQueries(Queries):
    """Statements on SQLite's aiosqlite connection, each compiled by its database and run in one trip."""

    def __init__(self, database: SqliteDatabase, connection: aiosqlite.Connection) -> None:
        self.database = database
        self.connection = connection

    async def run(self, statement: Executable, parameters: Parameters | Sequence[Parameters] | None) -> Outcome:
        """Run a statement (once for each set of parameters in a sequence): its rows and rowcount."""
        return await self.database.run_on(self.connection, statement, parameters)

    async def driver_sql(self, sql: str) -> None:
        """Run SQL as the driver takes it."""
        with _errors:
            await self.connection.execute(sql)


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
        self.timer: Timer | None = None  # told each statement's seconds, from its start to its rows read

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
            yield EngineQueries(connection, self.timer)

    async def upgrade(self) -> None:
        """Apply the migrations the database lacks (bot/store/migrate.py)."""
        assert self.engine is not None
        await upgrade(self.engine)

    @property
    def sync_engine(self) -> Engine:
        """The synchronous engine under the statements, whose events see each of them (SQLite's
        sees its opening and migrations alone: its statements go to aiosqlite directly)."""
        assert self.engine is not None, "the store is not open"
        return self.engine.sync_engine

    async def run(self, statement: Executable, parameters: Parameters | Sequence[Parameters] | None = None
                  ) -> Outcome:
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


@dataclass(frozen=True, slots=True)
class Shape:
    """A statement's shape compiled for SQLite, with what running it takes beyond its SQL."""

    compiled: SQLCompiler
    expanding: bool  # it has parameters rendered at each run (an IN list's values, one `?` each)
    processors: dict[str, Callable[[Any], Any]]  # the values' bind processors by parameter name (rare in SQLite)
    row: Callable[[Sequence[Any]], Row] | None  # makes a row of its result (None: it returns no rows)
    changes: bool  # an INSERT, UPDATE or DELETE: its rows are the rows it changed


class SqliteDatabase(Database):
    """One SQLite file in WAL mode, on one aiosqlite connection (a thread of its own, aiosqlite's),
    and a second connection for the event loop (`quick`).

    SQLAlchemy's engine for aiosqlite (a StaticPool: that one connection) opens it, running the
    pragmas, migrates it, and closes it; every statement of the store goes to the connection
    itself, as SQL and values (`run_on`), except a statement on its own, which is tried on the
    event loop first (`run`): on `quick`, which never waits for a lock (another process writing)
    and is stopped after QUICK_SECONDS, either of which hands the statement to the thread, where
    it runs as before (a shape once stopped for its time always goes there). Its writes are
    checkpointed in the thread, not on the event loop."""

    def __init__(self, path: Path) -> None:
        if sqlite3.sqlite_version_info < (3, 35):
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old: the store needs 3.35 or newer "
                             "(for RETURNING).")
        self.path = path
        super().__init__(str(path), "sqlite", 1)
        self.connection: aiosqlite.Connection | None = None
        self.sqlite = sqlite.dialect(paramstyle="qmark")  # what statements are compiled for (aiosqlite's paramstyle)
        self.shapes: dict[Hashable, Shape] = {}
        self.compiled = 0  # shapes compiled so far (each once, unless more than SHAPES come and go)
        self.quick: sqlite3.Connection | None = None  # the event loop's connection (none for ":memory:")
        self.on_loop = 0  # statements answered on the event loop
        self.handed_over = 0  # statements tried there and handed to the thread (locked, or too long)
        self._writes = 0  # written on `quick` since its last checkpoint
        self._deadline = 0.0  # when the statement on `quick` is stopped
        self._slow: set[int] = set()  # the shapes (their ids) once stopped for taking too long: run in the thread

    async def open(self) -> None:
        """Open the file (creating its folder) in WAL mode."""
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # A file that cannot be opened is said here, before aiosqlite's thread starts: after a
            # failed connect that thread answers its stop on a loop that may have closed already
            # (the bot exits at once), and prints a traceback instead of the bot's one line. (Once, at
            # the start, before the bot serves anyone: a file opened and closed, no thread of its own.)
            _can_open(self.path)
        engine = create_async_engine(f"sqlite+aiosqlite:///{self.path}", poolclass=StaticPool,
                                     isolation_level="AUTOCOMMIT", pool_reset_on_return=None)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        try:
            async with engine.connect() as connection:
                driver = (await connection.get_raw_connection()).driver_connection
        except DBAPIError as error:
            await engine.dispose()
            raise error.orig or error from None  # sqlite3's own error, as the bot reports it at start
        assert isinstance(driver, aiosqlite.Connection)
        self.engine, self.connection = engine, driver
        if str(self.path) != ":memory:":  # a second connection to ":memory:" would be another database
            self.quick = self._quick_connection()

    def _quick_connection(self) -> sqlite3.Connection:
        """The event loop's connection: autocommit, with the other's pragmas (WAL, synchronous
        NORMAL: a commit does not wait for the disk) but that it never waits for a lock and never
        checkpoints (the thread does); it stops a statement at `_deadline`."""
        quick = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
        for pragma in (*[p for p in SQLITE_PRAGMAS if not p.startswith("busy_timeout")], "busy_timeout=0",
                       "wal_autocheckpoint=0"):
            quick.execute(f"PRAGMA {pragma}")
        quick.set_progress_handler(self._too_long, QUICK_STEPS)
        return quick

    def _too_long(self) -> int:
        return int(time.perf_counter() > self._deadline)  # not 0: SQLite stops the statement

    async def close(self) -> None:
        """Close the connections (once the statements handed to them are done); the thread ends."""
        self.connection = None
        if self.quick is not None:
            self.quick.close()
            self.quick = None
        await super().close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Queries]:
        connection = self.connection
        if connection is None:
            raise StoreError("the store is not open")
        async with self.turns:
            yield SqliteQueries(self, connection)

    async def run(self, statement: Executable, parameters: Parameters | Sequence[Parameters] | None = None
                  ) -> Outcome:
        """Run a statement on its own (it commits): its rows and rowcount. Tried on the event loop
        first (`quick`), then, if it had to wait for a lock or ran too long, in the thread."""
        connection = self.connection
        if connection is None:
            raise StoreError("the store is not open")
        async with self.turns:
            if self.quick is not None and (parameters is None or isinstance(parameters, Mapping)):
                outcome = self._run_quick(self.quick, statement, parameters)
                if outcome is not None:
                    if self._writes >= CHECKPOINT_WRITES:
                        self._writes = 0
                        with _errors:
                            await connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    return outcome
            return await self.run_on(connection, statement, parameters)

    def _run_quick(self, quick: sqlite3.Connection, statement: Executable, parameters: Parameters | None
                   ) -> Outcome | None:
        """The statement run on the event loop's connection, or None when it is for the thread:
        it met a lock or its time was up, or it writes without giving rows back.

        Only its first step may be stopped if it writes: SQLite makes a write's changes in the
        first step of a statement that gives rows back (RETURNING), and commits them in the last;
        a statement stopped in its first step has changed nothing, but one stopped at its end may
        have committed and still say it was stopped (tests/store/test_queries.py), so a write is
        never stopped after its first step, and a write without rows (one step) never on the loop."""
        start = time.perf_counter()
        handed_over = False
        try:
            with _errors:
                sql, values, shape = self.sql(statement, parameters)
                if shape.row is None:
                    handed_over = True  # not tried: the thread runs and times it
                    return None
                if id(shape) in self._slow:
                    handed_over = True
                    self.handed_over += 1
                    return None
                self._deadline = start + QUICK_SECONDS
                committing = False  # a write's first step is done: what is left commits it, never stopped
                try:
                    cursor = quick.execute(sql, values)
                    if shape.changes:
                        self._deadline, committing = math.inf, True
                    rows = [shape.row(row) for row in cursor.fetchall()]
                except sqlite3.OperationalError as error:
                    code = error.sqlite_errorcode & 0xFF  # the primary code (BUSY_SNAPSHOT is a BUSY)
                    if committing or code not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_INTERRUPT):
                        raise
                    if code == sqlite3.SQLITE_INTERRUPT and len(self._slow) < SHAPES:
                        self._slow.add(id(shape))
                    handed_over = True
                    self.handed_over += 1
                    return None
        finally:
            if self.timer is not None and not handed_over:  # the thread times a statement handed to it
                self.timer(time.perf_counter() - start)
        self.on_loop += 1
        if shape.changes:
            self._writes += 1
        return Outcome(rows, len(rows) if shape.changes else -1)

    async def run_on(self, connection: aiosqlite.Connection, statement: Executable,
                     parameters: Parameters | Sequence[Parameters] | None) -> Outcome:
        """Run a statement on the connection (once for each set of parameters in a sequence), its
        SQL and values handed to aiosqlite in one trip: its rows and rowcount."""
        if self.timer is None:
            return await self._run_on(connection, statement, parameters)
        start = time.perf_counter()
        try:
            return await self._run_on(connection, statement, parameters)
        finally:
            self.timer(time.perf_counter() - start)

    async def _run_on(self, connection: aiosqlite.Connection, statement: Executable,
                      parameters: Parameters | Sequence[Parameters] | None) -> Outcome:
        with _errors:
            if parameters is None or isinstance(parameters, Mapping) or not parameters:
                sql, values, shape = self.sql(statement, parameters if isinstance(parameters, Mapping) else None)
                if shape.row is None:
                    return Outcome([], (await connection.execute(sql, values)).rowcount)
                rows = [shape.row(row) for row in await connection.execute_fetchall(sql, values)]
                return Outcome(rows, len(rows) if shape.changes else -1)
            many = [self.sql(statement, each, many=True) for each in parameters]
            cursor = await connection.executemany(many[0][0], [values for _, values, _ in many])
            return Outcome([], cursor.rowcount)

    def sql(self, statement: Executable, parameters: Parameters | None, *, many: bool = False
            ) -> tuple[str, list[Any], Shape]:
        """A statement's SQL and values, as aiosqlite takes them, and its shape (`many`: for
        `executemany`, every set of parameters naming the same columns)."""
        assert isinstance(statement, ClauseElement)
        key = statement._generate_cache_key()  # its shape, and the values it holds in that order
        columns = tuple(sorted(parameters)) if parameters else ()
        shape = None if key is None else self.shapes.get((key.key, columns, many))
        if shape is None:
            shape = self.shape(statement, key, columns, many)
        compiled = shape.compiled
        values = compiled.construct_params(parameters, extracted_parameters=key and key.bindparams,
                                           escape_names=False)
        if shape.expanding:
            expanded = compiled.construct_expanded_state(values)
            sql, order, values = expanded.statement, expanded.positiontup, expanded.parameters
            processors = {**shape.processors, **expanded.processors}
        else:
            sql, order, processors = compiled.string, compiled.positiontup, shape.processors
        assert order is not None  # qmark is positional
        if processors:
            return sql, [processors[name](values[name]) if name in processors else values[name]
                         for name in order], shape
        return sql, [values[name] for name in order], shape

    def shape(self, statement: ClauseElement, key: Any, columns: tuple[str, ...], many: bool) -> Shape:
        """Compile a statement's shape (as SQLAlchemy's engine does, for the same cache key,
        parameter names and executemany), and keep it unless it cannot be cached."""
        compiled = statement.compile(dialect=self.sqlite, cache_key=key, column_keys=list(columns),
                                     for_executemany=many)
        assert isinstance(compiled, SQLCompiler)
        if compiled.isplaintext:
            raise StoreError("a textual statement is not run here: write it as an expression (or use driver_sql)")
        if compiled.insert_prefetch or compiled.update_prefetch:
            raise StoreError("a column default worked out in Python is not supported: declare it on the server")
        dialect = self.sqlite
        processors = {name: processor for name, bind in compiled.binds.items()
                      if (processor := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None}
        row = None
        columns_read = compiled._result_columns  # the names and types SQLAlchemy's own rows would have
        if columns_read:
            make = result_tuple([column[0] for column in columns_read])
            converters = [column[3].dialect_impl(dialect).result_processor(dialect, None) for column in columns_read]
            row = make if not any(converters) else _converting(make, converters)
        shape = Shape(compiled, bool(compiled.post_compile_params or compiled.literal_execute_params), processors,
                      row, compiled.isinsert or compiled.isupdate or compiled.isdelete)
        self.compiled += 1
        if key is not None:
            if len(self.shapes) >= SHAPES:
                self.shapes.clear()
                self._slow.clear()
            self.shapes[key.key, columns, many] = shape
        return shape


def _converting(make: Callable[[Sequence[Any]], Row], converters: Sequence[Callable[[Any], Any] | None]
                ) -> Callable[[Sequence[Any]], Row]:
    """Rows made by `make` of values first converted, each by its column's converter (if any)."""
    return lambda values: make([value if convert is None else convert(value)
                                for convert, value in zip(converters, values, strict=True)])


class PostgresDatabase(Database):
    """A PostgreSQL database through a pool of asyncpg connections."""

    def __init__(self, url: str) -> None:
        url, connections = pool_size(url)
        super().__init__(url, "postgresql", connections)


def _can_open(path: Path) -> None:
    """Open the SQLite file at `path` (creating it) and read its header: sqlite3's error if it cannot
    be opened or is not a database."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA schema_version")
    finally:
        connection.close()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


class _Errors:
    """Turns the drivers' errors into the store's (a plain context manager: it is on every statement's path)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _traceback: Any) -> None:
        if isinstance(error, sqlite3.IntegrityError):  # every integrity error, as ever
            raise DuplicateRow(str(error)) from None
        if isinstance(error, sqlite3.Error):
            raise StoreError(f"database: {error}") from error
        if isinstance(error, IntegrityError):
            code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
            if code is None or code == UNIQUE_VIOLATION:
                raise DuplicateRow(str(error.orig)) from None
            raise StoreError(f"PostgreSQL: {error.orig}") from error
        if isinstance(error, DBAPIError):
            raise StoreError(f"database: {error.orig}") from error
        if isinstance(error, OSError):
            raise StoreError(f"database: {error}") from error


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
