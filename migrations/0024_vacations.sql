-- Correspondence vacations (issue 28): while one lasts, the player's turns in games over days
-- do not run. At most 14 days a calendar year per player; ending one early shortens it.
CREATE TABLE vacations (
    player_id   TEXT NOT NULL REFERENCES players (id),
    starts_at   BIGINT NOT NULL,
    ends_at     BIGINT NOT NULL,
    -- When the row last changed: each node looks for new ones to tell its rooms.
    changed_at  BIGINT NOT NULL,
    PRIMARY KEY (player_id, starts_at)
);
CREATE INDEX vacations_by_change ON vacations (changed_at);
