-- Puzzles mined on a running server (issue 27): each finished game is looked at once, by the
-- node that first claims it here. A row is forgotten some days after, when its game has left
-- the window the miner looks through.
CREATE TABLE puzzle_mined_games (
    game_id  TEXT PRIMARY KEY,
    -- 'mining' while a node works on it; then what came of it ('puzzle', or why none).
    outcome  TEXT NOT NULL,
    at       BIGINT NOT NULL
);
CREATE INDEX puzzle_mined_games_by_time ON puzzle_mined_games (at);
-- The miner reads finished games by when they ended.
CREATE INDEX games_finished_by_end ON games (ended_at) WHERE status = 'finished';
