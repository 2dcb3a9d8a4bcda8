-- Game chat (issue 14): each line said in a game, on the players' channel or the spectators',
-- as a preset phrase's key or free text (at most 140 characters).
CREATE TABLE chat_lines (
    game_id   TEXT NOT NULL,
    channel   TEXT NOT NULL,
    player_id TEXT NOT NULL,
    preset    TEXT,
    text      TEXT,
    at        BIGINT NOT NULL
);
CREATE INDEX chat_lines_by_game ON chat_lines (game_id, at);
