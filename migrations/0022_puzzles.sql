-- Puzzles (issue 27): positions where one line wins, mined from games by the engine, each
-- rated by Glicko-2 as the players who try it are; a player's puzzle rating per ruleset,
-- apart from game ratings; and each player's attempts (the latest kept, older ones folded
-- into the counts of their rating).
CREATE TABLE puzzles (
    id          TEXT PRIMARY KEY,
    ruleset     TEXT NOT NULL,
    -- The position before the opponent's last move, that move, and the solution (moves
    -- separated by spaces, the solver's first and last).
    position    TEXT NOT NULL,
    blunder     TEXT NOT NULL,
    solution    TEXT NOT NULL,
    -- Theme names between spaces, with a space at each end (' den1 endgame ').
    themes      TEXT NOT NULL,
    source_game TEXT,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       BIGINT NOT NULL DEFAULT 0,
    wins        BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL
);
CREATE INDEX puzzles_by_rating ON puzzles (ruleset, rating);
-- One puzzle per position and move: loading the starter set again adds nothing.
CREATE UNIQUE INDEX puzzles_by_line ON puzzles (ruleset, position, blunder);

CREATE TABLE puzzle_ratings (
    player_id   TEXT NOT NULL REFERENCES players (id),
    ruleset     TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    BIGINT NOT NULL,
    wins        BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (player_id, ruleset)
);

CREATE TABLE puzzle_attempts (
    player_id    TEXT NOT NULL REFERENCES players (id),
    puzzle_id    TEXT NOT NULL REFERENCES puzzles (id),
    ruleset      TEXT NOT NULL,
    win          BIGINT NOT NULL,
    -- The player's puzzle rating after it (rated attempts only).
    rating_after DOUBLE PRECISION,
    at           BIGINT NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);
CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (player_id, at);

-- The puzzle of each day (UTC), chosen at the day's first request and kept.
CREATE TABLE puzzle_days (
    day       TEXT PRIMARY KEY,
    puzzle_id TEXT NOT NULL REFERENCES puzzles (id)
);
