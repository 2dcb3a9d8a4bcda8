-- Whole-game analysis (issue 13): each finished game's evaluation after every turn, computed
-- once on request and kept, as a JSON array of scores from Red's point of view.
CREATE TABLE game_evals (
    game_id    TEXT PRIMARY KEY,
    evals      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
