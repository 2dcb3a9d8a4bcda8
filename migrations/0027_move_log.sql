-- Turns of games played on the clock, appended in the order they were committed (issue 30).
-- No key and no index but the table's own order: an append touches the last page only, where
-- `moves`, keyed by game, dirtied one page per game in every commit. The writer folds the log
-- into `moves` (sorted by game, so that each game's page is written once for many turns) when
-- it has grown, at start-up, and game by game as each ends. Correspondence turns go straight
-- to `moves`. Readers of a game in progress read both tables.
CREATE TABLE move_log (
    game_id       TEXT NOT NULL REFERENCES games (id),
    ply           BIGINT NOT NULL,
    mv            TEXT NOT NULL,
    red_ms        BIGINT NOT NULL,
    blue_ms       BIGINT NOT NULL,
    red_timeouts  BIGINT NOT NULL,
    blue_timeouts BIGINT NOT NULL,
    played_at     BIGINT NOT NULL,
    blurred       BIGINT NOT NULL
);
