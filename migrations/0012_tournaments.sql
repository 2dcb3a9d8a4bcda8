-- Tournaments (issue 15): arenas with a start, a length, one ruleset and clock; public or
-- private (a join code). Entries keep each player's score; pairings tie games to them.
CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    -- The clock as protocol JSON.
    clock       TEXT NOT NULL,
    rated       BIGINT NOT NULL,
    starts_at   BIGINT NOT NULL,
    ends_at     BIGINT NOT NULL,
    -- The join code of a private tournament; NULL for a public one.
    code        TEXT UNIQUE,
    created_by  TEXT NOT NULL REFERENCES players (id),
    created_at  BIGINT NOT NULL
);
CREATE INDEX tournaments_by_end ON tournaments (ends_at);

CREATE TABLE tournament_entries (
    tournament_id    TEXT NOT NULL REFERENCES tournaments (id),
    player_id        TEXT NOT NULL REFERENCES players (id),
    points           BIGINT NOT NULL DEFAULT 0,
    streak           BIGINT NOT NULL DEFAULT 0,
    games            BIGINT NOT NULL DEFAULT 0,
    wins             BIGINT NOT NULL DEFAULT 0,
    losses           BIGINT NOT NULL DEFAULT 0,
    opponents_rating BIGINT NOT NULL DEFAULT 0,
    -- Set while the player has withdrawn (paused); they may come back.
    withdrawn        BIGINT NOT NULL DEFAULT 0,
    joined_at        BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

-- Each pairing's game, scored once (`scored` set in the transaction that adds the points).
CREATE TABLE tournament_games (
    game_id       TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    red_id        TEXT NOT NULL,
    blue_id       TEXT NOT NULL,
    scored        BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX tournament_games_by_tournament ON tournament_games (tournament_id);
