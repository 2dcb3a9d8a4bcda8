-- The devices and addresses that signed in to each account (issue 23): an attempt from one of
-- them is never slowed by others' failed sign-ins, so strangers cannot lock the owner out.
-- A device is the SHA-256 of its `jungle_device` cookie; an address is IPv4, or IPv6's /64.
-- The latest 20 of each kind are kept; deleting the account deletes them.
CREATE TABLE sign_in_origins (
    player_id  TEXT NOT NULL REFERENCES players (id),
    -- device or address.
    kind       TEXT NOT NULL,
    origin     TEXT NOT NULL,
    last_at    BIGINT NOT NULL,
    PRIMARY KEY (player_id, kind, origin)
);
