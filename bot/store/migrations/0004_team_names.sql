-- Team names are unique on a server whatever their case, in every database: SQLite's
-- COLLATE NOCASE on the column did this alone, PostgreSQL needs the index.
CREATE UNIQUE INDEX teams_by_name ON teams (guild_id, LOWER(name));
