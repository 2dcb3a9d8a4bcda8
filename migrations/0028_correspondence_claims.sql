-- A place under the cap of correspondence games (issue 49), claimed for each player of a game
-- over days in the same transaction that counts their games, before the game starts. Claims
-- for the same player wait on each other (the player's row is locked first), so starts at once
-- cannot pass the cap together. A claim counts until its game is stored (which deletes it) or
-- for a minute, if the start never happens.
CREATE TABLE correspondence_claims (
    game_id     TEXT NOT NULL,
    player_id   TEXT NOT NULL REFERENCES players (id),
    claimed_at  BIGINT NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX correspondence_claims_by_game ON correspondence_claims (game_id);
