-- Players can say no (issue 23): an account's blocks. A blocked player cannot challenge the
-- blocker, their chat lines do not reach the blocker, and matchmaking never pairs the two
-- (tournaments still may). At most 500 per account (checked on write).
CREATE TABLE blocks (
    player_id   TEXT NOT NULL REFERENCES players (id),
    blocked_id  TEXT NOT NULL REFERENCES players (id),
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (player_id, blocked_id)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked_id);
