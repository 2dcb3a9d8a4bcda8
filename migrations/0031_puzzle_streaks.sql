-- Puzzle Streak (issue 51): puzzles of rising difficulty until the first mistake. A player has
-- at most one streak running (the puzzle shown, the score so far, and the rating of the puzzle
-- it came after, from which the next is harder); the best score is kept per ruleset.
CREATE TABLE puzzle_streak_runs (
    player_id    TEXT PRIMARY KEY REFERENCES players (id),
    ruleset      TEXT NOT NULL,
    puzzle_id    TEXT NOT NULL,
    -- The puzzle shown's rating when it was picked: the next one comes after it in
    -- (rating, id) order.
    floor_rating DOUBLE PRECISION NOT NULL,
    score        BIGINT NOT NULL,
    started_at   BIGINT NOT NULL
);
CREATE TABLE puzzle_streak_bests (
    player_id TEXT NOT NULL REFERENCES players (id),
    ruleset   TEXT NOT NULL,
    best      BIGINT NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (player_id, ruleset)
);
