-- Web Push (issue 52). The server's VAPID key pair, made at first start and kept here so that
-- every node signs with the same key (a browser's subscription is bound to it); the
-- subscriptions each account's browsers gave (a push service's endpoint and the keys to
-- encrypt for); what each account wants pushed; and the pushes sent, one per event, counted
-- for the daily cap and deleted after a week.
CREATE TABLE push_vapid_key (
    id          BIGINT PRIMARY KEY,
    private_key TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
-- A subscription belongs to the session that made it (a browser signed in): signing that
-- session out (or all of them, or a password change) ends its pushes, and one whose session
-- has expired is not pushed to.
CREATE TABLE push_subscriptions (
    endpoint   TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id),
    session_id TEXT,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_by_player ON push_subscriptions (player_id);
CREATE INDEX push_subscriptions_by_session ON push_subscriptions (session_id);
CREATE TABLE push_settings (
    player_id   TEXT PRIMARY KEY REFERENCES players (id),
    turns       BIGINT NOT NULL,
    challenges  BIGINT NOT NULL,
    tournaments BIGINT NOT NULL
);
CREATE TABLE pushes_sent (
    player_id TEXT NOT NULL,
    event     TEXT NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (player_id, event)
);
CREATE INDEX pushes_sent_by_time ON pushes_sent (at);
