-- Moderation (issue 12): bans, players' reports, one-time password-reset links, the operator's
-- audit log, and each account's display settings.

-- A banned player cannot sign in or connect, and leaves the leaderboards; a running server
-- notices `banned_at` (it polls) and ends the player's games as losses by `banned`.
ALTER TABLE players ADD COLUMN banned_at BIGINT;
ALTER TABLE players ADD COLUMN ban_reason TEXT;
-- An account's display settings as a small JSON object of known keys (checked on write).
ALTER TABLE players ADD COLUMN settings TEXT;
CREATE INDEX players_banned_at ON players (banned_at);

-- A player's report of another, for `jungle-server admin reports`. One open report per
-- reporter and reported player (the partial index), so repeating one adds nothing.
CREATE TABLE reports (
    id          TEXT PRIMARY KEY,
    reporter_id TEXT NOT NULL REFERENCES players (id),
    reported_id TEXT NOT NULL REFERENCES players (id),
    game_id     TEXT,
    reason      TEXT NOT NULL,
    details     TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    resolved_at BIGINT
);
CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, reported_id) WHERE resolved_at IS NULL;
CREATE INDEX reports_by_time ON reports (created_at);

-- A one-time password-reset link made by `admin reset-password`: the token only as its hash.
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id),
    expires_at BIGINT NOT NULL
);

-- Every admin action, in order: who ran it (the OS user), on whom, and what it changed.
CREATE TABLE admin_actions (
    id        TEXT PRIMARY KEY,
    at        BIGINT NOT NULL,
    operator  TEXT NOT NULL,
    action    TEXT NOT NULL,
    player_id TEXT,
    detail    TEXT NOT NULL
);
CREATE INDEX admin_actions_by_time ON admin_actions (at);
