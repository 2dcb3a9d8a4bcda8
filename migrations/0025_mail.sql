-- E-mail when it is your turn in a correspondence game (issue 28). An address is unconfirmed
-- until its link is followed (only the confirmation is ever sent before); tokens are kept as
-- SHA-256 hashes. `turn_mails` is 0 once the player unsubscribed.
CREATE TABLE mail_addresses (
    player_id     TEXT PRIMARY KEY REFERENCES players (id),
    address       TEXT NOT NULL,
    confirm_hash  TEXT,
    confirmed_at  BIGINT,
    turn_mails    BIGINT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX mail_addresses_by_confirm ON mail_addresses (confirm_hash);
-- One row per mail about a turn: at most one per game and turn, counted for the daily cap;
-- its unsubscribe link's token, hashed. Kept 30 days.
CREATE TABLE turn_mails (
    player_id         TEXT NOT NULL REFERENCES players (id),
    game_id           TEXT NOT NULL,
    ply               BIGINT NOT NULL,
    unsubscribe_hash  TEXT NOT NULL,
    at                BIGINT NOT NULL,
    PRIMARY KEY (player_id, game_id, ply)
);
CREATE INDEX turn_mails_by_time ON turn_mails (player_id, at);
CREATE INDEX turn_mails_by_unsubscribe ON turn_mails (unsubscribe_hash);
