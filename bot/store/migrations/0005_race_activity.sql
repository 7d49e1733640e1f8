-- Races end after a day without a change, as matches do: when each race last changed (a join,
-- the start, a move, the end). Races from before this migration take their latest time.
ALTER TABLE races ADD COLUMN last_activity REAL;
UPDATE races SET last_activity = COALESCE(finished_at, started_at, created_at);
