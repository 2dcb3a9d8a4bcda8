-- Private rooms still waiting for their second player, so that a shared link survives a
-- restart. A row goes when the game starts (in the same transaction) or the room expires.
CREATE TABLE waiting_rooms (
    code        TEXT PRIMARY KEY,
    game_id     TEXT NOT NULL,
    host_id     TEXT NOT NULL REFERENCES players (id),
    ruleset     TEXT NOT NULL,
    -- The clock settings as protocol JSON.
    clock       TEXT NOT NULL,
    rated       BIGINT NOT NULL,
    -- red, blue or random: the colour the host asked for.
    color       TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
