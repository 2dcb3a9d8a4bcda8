-- Each player's rating after each rated game, for the profile's chart. Written in the
-- transaction that records the game's end, once per player and game (the key), so a replayed
-- finish adds nothing.
CREATE TABLE rating_history (
    player_id TEXT NOT NULL REFERENCES players (id),
    game_id   TEXT NOT NULL,
    ruleset   TEXT NOT NULL,
    rating    DOUBLE PRECISION NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX rating_history_by_player ON rating_history (player_id, ruleset, at);
