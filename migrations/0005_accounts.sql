-- Accounts (issue 12). A guest becomes an account by choosing a username and a password; the
-- player row, its games and ratings stay. Two keys, each unique, so that neither "Ada"/"ada"
-- (`username_folded`: NFKC, case-folded) nor "AdaI"/"Adal" or Cyrillic "Аda"
-- (`username_skeleton`: the UTS #39 skeleton, case-folded) can both be taken. Passwords are
-- stored only as Argon2id PHC strings.
ALTER TABLE players ADD COLUMN username TEXT;
ALTER TABLE players ADD COLUMN username_folded TEXT;
ALTER TABLE players ADD COLUMN username_skeleton TEXT;
ALTER TABLE players ADD COLUMN password_hash TEXT;
-- A deleted account keeps its games under an anonymous name and leaves the leaderboards.
ALTER TABLE players ADD COLUMN deleted_at BIGINT;
CREATE UNIQUE INDEX players_username_folded ON players (username_folded);
CREATE UNIQUE INDEX players_username_skeleton ON players (username_skeleton);

-- A signed-in device. The token is stored only as its SHA-256. An account's credentials are all
-- sessions: a claimed guest's browser token becomes its first session.
CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    player_id    TEXT NOT NULL REFERENCES players (id),
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    device       TEXT NOT NULL,
    address      TEXT NOT NULL
);
CREATE INDEX sessions_player ON sessions (player_id);
