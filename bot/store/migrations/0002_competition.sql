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
