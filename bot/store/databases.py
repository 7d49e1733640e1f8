"""The two databases behind the store, SQLite and PostgreSQL, and every difference between them.

The queries and migrations are written once, in SQL both understand, with `?` placeholders.
This module is the one place that knows the dialects apart:

- PostgreSQL numbers its placeholders (`$1`, `$2`...), returns a new row's id with `RETURNING`,
  sums integers into `numeric` (Decimal here) and has no `AUTOINCREMENT`, `REAL` or `COLLATE NOCASE`:
  `postgres_sql` and `postgres_ddl` rewrite them; `_plain` turns Decimals back into numbers.
- SQLite has one connection per process, so a transaction must keep other coroutines' statements
  out of it: a lock, held for a statement or for a whole transaction.
- A unique-constraint violation is `DuplicateRow` from both.
- A PostgreSQL URL may end in `?pool_size=N`, the connections each process holds (default 10).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

from bot.store.base import StoreError

Row = tuple[Any, ...]
Parameters = Sequence[Any]

DEFAULT_POOL_SIZE = 10  # connections a process may hold; processes × this must stay below the server's max_connections
MAX_POOL_SIZE = 1000
MIGRATIONS_TABLE = ("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "applied_at REAL NOT NULL)")


class DuplicateRow(StoreError):
    """A row broke a unique constraint: someone else took that name, seat or key first."""


class Queries(Protocol):
    """Statements on a database, or inside one of its transactions."""

    async def fetch_one(self, sql: str, parameters: Parameters = ()) -> Row | None:
        """The first row, or None."""
        ...

    async def fetch_all(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        """Every row."""
        ...

    async def fetch_value(self, sql: str, parameters: Parameters = ()) -> Any:
        """The first column of the first row, or None."""
        ...

    async def execute(self, sql: str, parameters: Parameters = ()) -> int:
        """Run a statement; the number of rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Parameters]) -> None:
        """Run a statement once for each set of parameters."""
        ...

    async def insert(self, sql: str, parameters: Parameters = ()) -> int:
        """Run an INSERT into a table with an `id` column; the new row's id."""
        ...


class Database(Queries, Protocol):
    """A database: statements run on their own (each commits), or together in `transaction()`."""

    dialect: str

    async def open(self) -> None:
        """Connect."""
        ...

    async def close(self) -> None:
        """Disconnect."""
        ...

    def transaction(self) -> Any:
        """`async with db.transaction() as tx:` runs tx's statements all or none."""
        ...

    async def migrate(self, migrations: list[tuple[int, str, str]], now: Callable[[], float]) -> None:
        """Apply the migrations not applied yet, each with its record in one transaction."""
        ...


# --- SQLite -------------------------------------------------------------------------------------


class _SqliteQueries:
    """Statements on the one aiosqlite connection; the caller holds the lock."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    # execute_fetchall runs, fetches and closes in one trip to aiosqlite's thread. The statement
    # may be an UPDATE ... RETURNING: it commits (autocommit) once its rows are all read.
    async def fetch_one(self, sql: str, parameters: Parameters = ()) -> Row | None:
        rows = await self.fetch_all(sql, parameters)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        try:
            rows = await self.connection.execute_fetchall(sql, parameters)
        except sqlite3.IntegrityError as error:
            raise DuplicateRow(str(error)) from None
        return [tuple(row) for row in rows]

    async def fetch_value(self, sql: str, parameters: Parameters = ()) -> Any:
        row = await self.fetch_one(sql, parameters)
        return row[0] if row else None

    async def execute(self, sql: str, parameters: Parameters = ()) -> int:
        try:
            cursor = await self.connection.execute(sql, parameters)
        except sqlite3.IntegrityError as error:
            raise DuplicateRow(str(error)) from None
        return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Parameters]) -> None:
        try:
            await self.connection.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise DuplicateRow(str(error)) from None

    async def insert(self, sql: str, parameters: Parameters = ()) -> int:
        try:
            cursor = await self.connection.execute(sql, parameters)
        except sqlite3.IntegrityError as error:
            raise DuplicateRow(str(error)) from None
        return int(cursor.lastrowid or 0)


class SqliteDatabase:
    """One SQLite file in WAL mode, in autocommit: a statement commits on its own, a transaction
    is BEGIN IMMEDIATE ... COMMIT under the connection's lock."""

    dialect = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._connection: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        """Open the file (creating its folder) in WAL mode."""
        if sqlite3.sqlite_version_info < (3, 35):
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old: the store needs 3.35 or newer "
                             "(for RETURNING).")
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # A file that cannot be opened fails here, in a thread that reports back at once: aiosqlite's
        # own thread would report it to an event loop that may be closed by then (a traceback at exit).
        await asyncio.to_thread(_check_opens, self.path)
        self._connection = await aiosqlite.connect(self.path, isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
            await self._connection.execute(f"PRAGMA {pragma}")

    async def close(self) -> None:
        """Close the connection."""
        if self._connection is not None:
            await self._connection.close()
            self._connection = None

    @property
    def _queries(self) -> _SqliteQueries:
        if self._connection is None:
            raise StoreError("the store is not open")
        return _SqliteQueries(self._connection)

    async def fetch_one(self, sql: str, parameters: Parameters = ()) -> Row | None:
        """The first row, or None."""
        async with self._lock:
            return await self._queries.fetch_one(sql, parameters)

    async def fetch_all(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        """Every row."""
        async with self._lock:
            return await self._queries.fetch_all(sql, parameters)

    async def fetch_value(self, sql: str, parameters: Parameters = ()) -> Any:
        """The first column of the first row, or None."""
        async with self._lock:
            return await self._queries.fetch_value(sql, parameters)

    async def execute(self, sql: str, parameters: Parameters = ()) -> int:
        """Run a statement; the number of rows it changed."""
        async with self._lock:
            return await self._queries.execute(sql, parameters)

    async def execute_many(self, sql: str, rows: Iterable[Parameters]) -> None:
        """Run a statement once for each set of parameters, in one transaction."""
        async with self.transaction() as tx:
            await tx.execute_many(sql, rows)

    async def insert(self, sql: str, parameters: Parameters = ()) -> int:
        """Run an INSERT; the new row's id."""
        async with self._lock:
            return await self._queries.insert(sql, parameters)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_SqliteQueries]:
        """Statements that commit together, or not at all."""
        async with self._lock:
            queries = self._queries
            await queries.connection.execute("BEGIN IMMEDIATE")
            try:
                yield queries
            except BaseException:
                await queries.connection.rollback()
                raise
            await queries.connection.commit()

    async def migrate(self, migrations: list[tuple[int, str, str]], now: Callable[[], float]) -> None:
        """Apply pending migrations in one BEGIN IMMEDIATE transaction, which keeps a second
        process from applying them too."""
        await self.execute(MIGRATIONS_TABLE)
        async with self.transaction() as tx:
            applied = {row[0] for row in await tx.fetch_all("SELECT version FROM schema_migrations")}
            for number, name, script in migrations:
                if number in applied:
                    continue
                # One statement at a time: executescript would commit the transaction first.
                for statement in sqlite_statements(script):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                 (number, name, now()))


def sqlite_statements(script: str) -> list[str]:
    """A migration script cut into its statements."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip() and not all(part.strip().startswith("--") or not part.strip()
                                   for part in pending.splitlines()):
        statements.append(pending.strip())
    return statements


# --- PostgreSQL ---------------------------------------------------------------------------------


_QUOTED_OR_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")
_DDL_REWRITES = [
    (re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b"), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),  # Discord ids need 64 bits
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\s+COLLATE NOCASE\b"), ""),  # migration 0004's index on lower(name) does its work
]


def postgres_sql(sql: str) -> str:
    """A query with `?` placeholders in PostgreSQL's `$1, $2...` form (quoted text untouched)."""
    counter = 0

    def number(match: re.Match[str]) -> str:
        nonlocal counter
        if match.group() != "?":
            return match.group()
        counter += 1
        return f"${counter}"

    return _QUOTED_OR_PLACEHOLDER.sub(number, sql)


def postgres_ddl(script: str) -> str:
    """A migration script's SQLite types in PostgreSQL's words."""
    for pattern, replacement in _DDL_REWRITES:
        script = pattern.sub(replacement, script)
    return script


def _plain(value: Any) -> Any:
    # PostgreSQL sums and averages integers as numeric: give back an int when whole, as SQLite does.
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _row(record: Any) -> Row:
    return tuple(_plain(value) for value in record)


def _changed(status: str) -> int:
    # asyncpg answers "UPDATE 3", "INSERT 0 1", "DELETE 0": the last word is the row count.
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresQueries:
    """Statements on one asyncpg connection (or the pool, one statement at a time)."""

    def __init__(self, connection: Any, turns: asyncio.Semaphore | None = None) -> None:
        self.connection = connection
        self.turns = turns

    @asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        # asyncpg's pool lets a newcomer take a connection that a waiter was woken for, and the
        # waiter queues again at the back: under load a few answers waited 20 s. A semaphore
        # in front of it, first come first served, keeps the pool from ever being contended.
        if self.turns is None:
            async with _duplicates():
                yield
            return
        async with self.turns, _duplicates():
            yield

    async def fetch_one(self, sql: str, parameters: Parameters = ()) -> Row | None:
        async with self._turn():
            record = await self.connection.fetchrow(_translated(sql), *parameters)
        return _row(record) if record is not None else None

    async def fetch_all(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        async with self._turn():
            return [_row(record) for record in await self.connection.fetch(_translated(sql), *parameters)]

    async def fetch_value(self, sql: str, parameters: Parameters = ()) -> Any:
        async with self._turn():
            return _plain(await self.connection.fetchval(_translated(sql), *parameters))

    async def execute(self, sql: str, parameters: Parameters = ()) -> int:
        async with self._turn():
            return _changed(await self.connection.execute(_translated(sql), *parameters))

    async def execute_many(self, sql: str, rows: Iterable[Parameters]) -> None:
        async with self._turn():
            await self.connection.executemany(_translated(sql), [tuple(row) for row in rows])

    async def insert(self, sql: str, parameters: Parameters = ()) -> int:
        async with self._turn():
            return int(await self.connection.fetchval(_translated(sql + " RETURNING id"), *parameters))


_translations: dict[str, str] = {}


def _translated(sql: str) -> str:
    found = _translations.get(sql)
    if found is None:
        found = _translations[sql] = postgres_sql(sql)
    return found


@asynccontextmanager
async def _duplicates() -> AsyncIterator[None]:
    import asyncpg

    try:
        yield
    except asyncpg.UniqueViolationError as error:
        raise DuplicateRow(str(error)) from None
    except (asyncpg.PostgresError, OSError) as error:
        raise StoreError(f"PostgreSQL: {error}") from error


class PostgresDatabase(_PostgresQueries):
    """A PostgreSQL database through an asyncpg pool: a statement on its own takes any pooled
    connection and commits; a transaction holds one connection until it ends."""

    dialect = "postgresql"
    MIGRATION_LOCK = 7_106_243  # any number: the advisory lock that one migrating process holds

    def __init__(self, url: str) -> None:
        self.url, self.max_connections = pool_size(url)
        super().__init__(None, asyncio.Semaphore(self.max_connections))

    async def open(self) -> None:
        """Connect the pool; a server that does not answer is a StoreError naming the host."""
        import asyncpg

        try:
            self.connection = await asyncpg.create_pool(self.url, min_size=1, max_size=self.max_connections)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreError(f"cannot connect to PostgreSQL at {_where(self.url)}: {error}") from None

    async def close(self) -> None:
        """Close the pool."""
        if self.connection is not None:
            await self.connection.close()
            self.connection = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_PostgresQueries]:
        """Statements on one connection that commit together, or not at all."""
        if self.connection is None or self.turns is None:
            raise StoreError("the store is not open")
        async with self.turns, self.connection.acquire() as connection, connection.transaction():
            yield _PostgresQueries(connection)

    async def migrate(self, migrations: list[tuple[int, str, str]], now: Callable[[], float]) -> None:
        """Apply pending migrations; an advisory lock keeps two processes from applying one twice."""
        async with self.transaction() as tx:
            await tx.execute("SELECT pg_advisory_xact_lock(?)", (self.MIGRATION_LOCK,))
            await tx.execute(postgres_ddl(MIGRATIONS_TABLE))
            applied = {row[0] for row in await tx.fetch_all("SELECT version FROM schema_migrations")}
            for number, name, sql in migrations:
                if number in applied:
                    continue
                await tx.connection.execute(postgres_ddl(sql))
                await tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                 (number, name, float(now())))


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


def _check_opens(path: Path) -> None:
    """sqlite3.Error when SQLite cannot open `path` (a folder, a file without permission)."""
    sqlite3.connect(path).close()
