-- Whether each player's rating was still provisional when the game began, so that a game's
-- history shows "1500?" as the board did (issue 25). Games stored before read as established.
ALTER TABLE games ADD COLUMN red_provisional BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN blue_provisional BIGINT NOT NULL DEFAULT 0;
