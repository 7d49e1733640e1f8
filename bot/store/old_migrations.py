"""The hand-written SQL migrations 0001 to 0006 that made the store's schema before Alembic, as the
releases of the time applied them: how a database made by one of those releases reaches 0006,
Alembic's baseline revision (bot/store/migrate.py), every row kept.

Why these steps run here, before Alembic, rather than as Alembic revisions before the baseline:

- A database those releases took to 0006 is what the baseline revision is stamped on, untouched.
  Replaying the very SQL they ran, on the same terms (as written on SQLite; on PostgreSQL with the
  same rewriting of SQLite's words), makes that same schema again from any earlier migration, so
  the stamp holds for these databases too (tests/store/test_upgrade.py compares the schemas, on
  both databases). Revisions written anew would have to reproduce that schema exactly, on both,
  and the baseline revision would have to shrink to migration 0006's one column, changing how an
  empty database is built.
- A new, empty database keeps getting its tables in one step (the declared tables, or the
  baseline revision); these steps run only on a database with a schema_migrations table and no
  alembic_version, which is how those releases' databases are known.

Each step runs in the caller's transaction (migrate.py: BEGIN IMMEDIATE on SQLite, an advisory
lock on PostgreSQL, where DDL is transactional too), a statement at a time, and is recorded in
schema_migrations as those releases recorded it: a failure leaves the database as it was.
"""

from __future__ import annotations

import re
import sqlite3
import time

from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import DBAPIError

from bot.store.base import StoreError

# Each migration as it last stood in the releases (bot/store/migrations/*.sql, last at commit fadf4c9).
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "0001_initial.sql", """\
-- Games, players and per-server settings.
CREATE TABLE players (
    user_id     INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    updated_at  REAL NOT NULL
);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER,                  -- NULL outside a server (a DM, the terminal)
    channel_id  INTEGER,
    user_id     INTEGER NOT NULL,
    name        TEXT NOT NULL,            -- the game, such as 'canfield'
    options     TEXT NOT NULL,            -- JSON: draw, redeals, groups, die
    deal        INTEGER,                  -- a PySolFC game number, or NULL with cards
    cards       TEXT,                     -- an explicit deck, two characters a card
    moves       TEXT NOT NULL DEFAULT '', -- canonical moves, space-separated
    snapshot    TEXT,                     -- the position after the moves, to rebuild fast
    version     INTEGER NOT NULL DEFAULT 0, -- one more at every change: buttons carry it
    status      TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'won', 'blocked', 'resigned')),
    score       INTEGER NOT NULL DEFAULT 0,
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL
);

CREATE INDEX games_running ON games (user_id, channel_id, status);

CREATE TABLE guild_settings (
    guild_id    INTEGER NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    PRIMARY KEY (guild_id, key)
);
"""),
    (2, "0002_competition.sql", """\
-- Group play: matches to a target, teams, daily challenges; games know what they belong to.
CREATE TABLE teams (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    name        TEXT NOT NULL COLLATE NOCASE,
    created_by  INTEGER NOT NULL,
    created_at  REAL NOT NULL,
    UNIQUE (guild_id, name)
);

CREATE TABLE team_members (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    team_id     INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    joined_at   REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)  -- at most one team per member per server
);

CREATE TABLE matches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    host_id         INTEGER NOT NULL,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,     -- JSON: the engine options of every round (die included)
    target          INTEGER NOT NULL,  -- points to reach: a player's, or in a team match a team's
    teams           INTEGER NOT NULL DEFAULT 0,
    undo            INTEGER NOT NULL DEFAULT 0,
    seed            INTEGER NOT NULL,  -- drawn at opening: round k's deal is derived from it
    status          TEXT NOT NULL DEFAULT 'lobby'
                    CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'expired')),
    message_id      INTEGER,           -- the lobby, then scoreboard, message in the channel
    winner_user_id  INTEGER,
    winner_team_id  INTEGER REFERENCES teams(id),
    created_at      REAL NOT NULL,
    started_at      REAL,
    finished_at     REAL,
    last_activity   REAL NOT NULL
);

CREATE INDEX matches_by_status ON matches (status, last_activity);

CREATE TABLE match_players (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    user_id     INTEGER NOT NULL,
    team_id     INTEGER REFERENCES teams(id),
    joined_at   REAL NOT NULL,
    left_at     REAL,
    PRIMARY KEY (match_id, user_id)
);

CREATE TABLE daily_attempts (
    day         TEXT NOT NULL,     -- the UTC date the game began, YYYY-MM-DD
    game        TEXT NOT NULL,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER,           -- the server it was played on (NULL in a DM)
    game_id     INTEGER NOT NULL REFERENCES games(id),
    PRIMARY KEY (day, game, user_id)  -- one attempt per player per game per day
);

CREATE INDEX daily_by_user ON daily_attempts (user_id, day);

ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'solo' CHECK (kind IN ('solo', 'match', 'daily'));
ALTER TABLE games ADD COLUMN match_id INTEGER REFERENCES matches(id);
ALTER TABLE games ADD COLUMN round INTEGER;
ALTER TABLE games ADD COLUMN undo_allowed INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN finished_at REAL;  -- set when the status leaves 'playing'

CREATE INDEX games_finished ON games (guild_id, status, finished_at);
CREATE INDEX games_by_match ON games (match_id, user_id);
"""),
    (3, "0003_races.sql", """\
-- Demon races (docs/games.md): players racing on shared foundations in one channel.
CREATE TABLE races (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    host_id         INTEGER NOT NULL,
    layout          TEXT NOT NULL DEFAULT 'klondike' CHECK (layout IN ('klondike', 'demon')),
    deal            INTEGER NOT NULL,  -- the race's number: player k's deck is derived from it
    status          TEXT NOT NULL DEFAULT 'lobby' CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    moves           TEXT NOT NULL DEFAULT '',  -- '<seat>:<move>' space-separated, in the order received
    version         INTEGER NOT NULL DEFAULT 0,  -- one more at every change
    message_id      INTEGER,           -- the public board in the channel
    demon_user_id   INTEGER,           -- who went out, if anyone
    target          INTEGER,           -- a series of hands to this many points; NULL: one hand
    series_id       INTEGER,           -- the first hand's id: every hand of a series shares it
    hand            INTEGER NOT NULL DEFAULT 1,
    created_at      REAL NOT NULL,
    started_at      REAL,
    finished_at     REAL
);

CREATE TABLE race_players (
    race_id     INTEGER NOT NULL REFERENCES races(id),
    seat        INTEGER NOT NULL,      -- 0..7, in the order they joined: the engine's player
    user_id     INTEGER NOT NULL,
    joined_at   REAL NOT NULL,
    score       INTEGER,               -- set when the race ends
    PRIMARY KEY (race_id, seat),
    UNIQUE (race_id, user_id)
);
"""),
    (4, "0004_team_names.sql", """\
-- Team names are unique on a server whatever their case, in every database: SQLite's
-- COLLATE NOCASE on the column did this alone, PostgreSQL needs the index.
CREATE UNIQUE INDEX teams_by_name ON teams (guild_id, LOWER(name));
"""),
    (5, "0005_race_activity.sql", """\
-- Races end after a day without a change, as matches do: when each race last changed (a join,
-- the start, a move, the end). Races from before this migration take their latest time.
ALTER TABLE races ADD COLUMN last_activity REAL;
UPDATE races SET last_activity = COALESCE(finished_at, started_at, created_at);
"""),
    (6, "0006_closed_rounds.sql", """\
-- A match's rounds still in play when it ends (won, cancelled or expired) end with it: resigned,
-- and marked closed, so that their scores count neither in the match nor in players' records.
ALTER TABLE games ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;
"""),
)

# Migration 0003 was edited in place (commit 4468ccf) to add a race's series: a database made by
# the release before that edit (commit 1f23c89) is at 0003 or later without these columns, which
# no release ever added to it.
RACE_SERIES = ("ALTER TABLE races ADD COLUMN target INTEGER",
               "ALTER TABLE races ADD COLUMN series_id INTEGER",
               "ALTER TABLE races ADD COLUMN hand INTEGER NOT NULL DEFAULT 1")

# SQLite's words in PostgreSQL's, as those releases rewrote the migrations for PostgreSQL.
POSTGRES_DDL = (
    (re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b"), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),  # Discord ids need 64 bits
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\s+COLLATE NOCASE\b"), ""),  # migration 0004's index on lower(name) does its work
)


def statements(script: str) -> list[str]:
    """A migration script cut into its statements (each with the comments before it)."""
    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    return found


def postgres_ddl(statement: str) -> str:
    """A statement of the migrations in PostgreSQL's words."""
    for pattern, replacement in POSTGRES_DDL:
        statement = pattern.sub(replacement, statement)
    return statement


def bring_to_baseline(connection: Connection) -> None:
    """Apply the migrations up to 0006 that a database made before Alembic lacks, in the caller's
    transaction; StoreError for a migration this code does not know, or one that fails."""
    applied = connection.execute(text("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")).scalar_one()
    last = MIGRATIONS[-1][0]
    if not 0 <= applied <= last:
        raise StoreError(f"this database is at the old migration {applied}, which no release had: the last was "
                         f"{last}")
    for number, name, script in MIGRATIONS:
        if number > applied:
            run(connection, name, statements(script))
            connection.execute(text("INSERT INTO schema_migrations (version, name, applied_at) "
                                    "VALUES (:number, :name, :now)"),
                               {"number": number, "name": name, "now": time.time()})
    if "target" not in {column["name"] for column in inspect(connection).get_columns("races")}:
        run(connection, "0003_races.sql (a race's series)", RACE_SERIES)


def run(connection: Connection, name: str, script: tuple[str, ...] | list[str]) -> None:
    """Run a migration's statements, in PostgreSQL's words there."""
    postgres = connection.dialect.name == "postgresql"
    try:
        for statement in script:
            connection.exec_driver_sql(postgres_ddl(statement) if postgres else statement)
    except DBAPIError as error:
        raise StoreError(f"the old migration {name} failed on this database: {error.orig}") from error
