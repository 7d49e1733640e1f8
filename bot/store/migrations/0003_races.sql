-- Demon races (seed 001): players racing on shared foundations in one channel.
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
