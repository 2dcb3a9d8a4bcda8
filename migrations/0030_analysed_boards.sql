-- Boards our engine analysed for a player while a game over days of theirs was in play
-- (issue 49): the assessor, once that game ends, counts those that resemble its positions.
-- At most the latest 500 per player are kept; the board is its text (FEN).
CREATE TABLE analysed_boards (
    player_id  TEXT NOT NULL REFERENCES players (id),
    at         BIGINT NOT NULL,
    board      TEXT NOT NULL
);
CREATE INDEX analysed_boards_by_player ON analysed_boards (player_id, at);
-- What the assessor counted, stored with the other signals.
ALTER TABLE game_assessments ADD COLUMN resembling BIGINT NOT NULL DEFAULT 0;
