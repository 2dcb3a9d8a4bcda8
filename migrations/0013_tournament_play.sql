-- Tournament play (issue 15): when each pairing was made (to rebuild recent opponents and
-- colours after a restart), the points each side scored, and the key that makes a scheduled
-- arena unique (one row per schedule and start, however many times the scheduler looks).
ALTER TABLE tournament_games ADD COLUMN paired_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_games ADD COLUMN red_points BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_games ADD COLUMN blue_points BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN schedule_key TEXT;
CREATE UNIQUE INDEX tournaments_by_schedule_key ON tournaments (schedule_key);
CREATE INDEX tournament_entries_by_player ON tournament_entries (player_id);
