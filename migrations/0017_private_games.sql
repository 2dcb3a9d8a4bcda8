-- Whether a game is a private room's (issue 23): until it is over, only its players and those
-- who came in with its code see it (games against the computer have a code too, so friends
-- can watch by link, but anyone may watch them by id).
ALTER TABLE games ADD COLUMN private BIGINT NOT NULL DEFAULT 0;
