-- Puzzles taken out of the shipped set (issue 53: re-mined, their line no longer holds) are
-- retired, not deleted: they keep their id, rating and attempts, so a player's history still
-- reads, but they are no longer dealt (next puzzle, the daily puzzle, Puzzle Streak).
ALTER TABLE puzzles ADD COLUMN retired BIGINT NOT NULL DEFAULT 0;
