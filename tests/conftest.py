"""Fixtures for every test: `database_url`, which runs a test once on SQLite and once on PostgreSQL.

PostgreSQL is used when TEST_POSTGRES_URL names a server (CI sets it to
postgresql://postgres@127.0.0.1:5432/test). Where it is unset, as on a fresh clone, the
PostgreSQL runs are skipped with that reason; where it is set and the server does not
answer, they fail. Each PostgreSQL test gets a schema of its own, dropped afterwards.
"""

from __future__ import annotations

import gc
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite
import pytest

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "").strip()
NO_POSTGRES = "TEST_POSTGRES_URL is not set: the PostgreSQL store is not tested (CI sets it)"


@asynccontextmanager
async def fresh_postgres_schema(url: str) -> AsyncIterator[str]:
    """A new, empty schema on the server at `url`; yields a URL whose connections use it."""
    import asyncpg

    schema = f"test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)  # a server that does not answer fails the test here
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        separator = "&" if "?" in url else "?"
        yield f"{url}{separator}search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database: a SQLite file, then a PostgreSQL schema (when TEST_POSTGRES_URL is set).
    Opening the same URL twice reaches the same data, as two processes would."""
    if request.param == "sqlite":
        yield str(tmp_path / "pe.sqlite3")
        return
    if not POSTGRES_URL:
        pytest.skip(NO_POSTGRES)
    async with fresh_postgres_schema(POSTGRES_URL) as url:
        yield url


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL schema, for a test of PostgreSQL alone (skipped, as above, where
    TEST_POSTGRES_URL is unset)."""
    if not POSTGRES_URL:
        pytest.skip(NO_POSTGRES)
    async with fresh_postgres_schema(POSTGRES_URL) as url:
        yield url


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` (pyproject's addopts): a worker process for each core this run may use; none
    on one core, where the tests run in pytest's own process, as a lone worker would only add
    its start-up. PYTEST_XDIST_AUTO_NUM_WORKERS, where set, decides instead."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores if cores > 1 else 0


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say at the end of the run whether the PostgreSQL half of the store tests ran."""
    skipped = sum(1 for report in terminalreporter.stats.get("skipped", [])
                  if NO_POSTGRES in str(getattr(report, "longrepr", "")))
    if POSTGRES_URL:
        terminalreporter.write_line(f"PostgreSQL store tests: on, at {POSTGRES_URL.rsplit('@', 1)[-1]}")
    elif skipped:
        terminalreporter.write_line(f"PostgreSQL store tests: {skipped} skipped: {NO_POSTGRES}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the worker thread of every SQLite connection still open: a test that failed before
    closing its store leaves one, and as it is not a daemon thread, Python would wait for it
    at exit for ever, so that one failure would hang the whole run instead of reporting it."""
    for thing in gc.get_objects():
        if isinstance(thing, aiosqlite.Connection):
            thing.stop()
