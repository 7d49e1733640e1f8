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
