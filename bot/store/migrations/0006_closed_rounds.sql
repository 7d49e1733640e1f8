-- A match's rounds still in play when it ends (won, cancelled or expired) end with it: resigned,
-- and marked closed, so that their scores count neither in the match nor in players' records.
ALTER TABLE games ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;
