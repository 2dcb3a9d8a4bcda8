-- Seed 002's 断线次数: each player's disconnect count (games lost by leaving and not coming back
-- within the grace period) and abort count (games aborted because the player's first move never
-- came). Games against the computer count for neither. Updated in the transaction that records
-- the game's end, so a game counts exactly once.
ALTER TABLE players ADD COLUMN disconnects BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN aborts BIGINT NOT NULL DEFAULT 0;
