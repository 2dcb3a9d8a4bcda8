-- Portable SQL: the same file runs on SQLite (embedded default) and PostgreSQL.
-- Ids are UUID text; times are Unix milliseconds.

CREATE TABLE players (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    -- SHA-256 of the bearer token, hex; the token itself is never stored.
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  BIGINT NOT NULL
);

CREATE TABLE ratings (
    player_id   TEXT NOT NULL REFERENCES players (id),
    ruleset     TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (player_id, ruleset)
);

CREATE INDEX ratings_by_ruleset ON ratings (ruleset, rating);

CREATE TABLE games (
    id              TEXT PRIMARY KEY,
    ruleset         TEXT NOT NULL,
    -- The clock settings as protocol JSON.
    clock           TEXT NOT NULL,
    rated           BIGINT NOT NULL,
    room_code       TEXT,
    red_id          TEXT NOT NULL REFERENCES players (id),
    blue_id         TEXT NOT NULL REFERENCES players (id),
    red_rating      BIGINT NOT NULL,
    blue_rating     BIGINT NOT NULL,
    start_fen       TEXT NOT NULL,
    -- active, finished or aborted.
    status          TEXT NOT NULL,
    winner          TEXT,
    reason          TEXT,
    -- Whether ratings changed (rated, and longer than 10 moves).
    rating_applied  BIGINT NOT NULL DEFAULT 0,
    red_change      BIGINT,
    blue_change     BIGINT,
    plies           BIGINT NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL,
    ended_at        BIGINT
);

CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_red ON games (red_id, created_at);
CREATE INDEX games_by_blue ON games (blue_id, created_at);

CREATE TABLE moves (
    game_id       TEXT NOT NULL REFERENCES games (id),
    ply           BIGINT NOT NULL,
    mv            TEXT NOT NULL,
    -- Both clocks and timeout counts right after this turn, for a fair resume after a restart.
    red_ms        BIGINT NOT NULL,
    blue_ms       BIGINT NOT NULL,
    red_timeouts  BIGINT NOT NULL,
    blue_timeouts BIGINT NOT NULL,
    played_at     BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
