-- Fair play (issue 23).

-- Whether the mover's tab had lost focus since their previous move (the client says so with
-- the move): one of the signals of the assessment below.
ALTER TABLE moves ADD COLUMN blurred BIGINT NOT NULL DEFAULT 0;

-- "Does this player sit in a game in progress?" is asked before every engine request: only
-- the games in progress are indexed, so the question costs the same however many games a
-- player has finished.
CREATE INDEX games_active_red ON games (red_id) WHERE status = 'active';
CREATE INDEX games_active_blue ON games (blue_id) WHERE status = 'active';

-- Each player's play in each rated game, compared with our engine's (computed in the
-- background after the game, once: the key). `verdict` runs from 1 (fine) to 5 (likely an
-- engine); docs/decisions.md gives the thresholds.
CREATE TABLE game_assessments (
    game_id      TEXT NOT NULL REFERENCES games (id),
    player_id    TEXT NOT NULL REFERENCES players (id),
    -- red or blue.
    side         TEXT NOT NULL,
    -- Moves judged (the opening, forced moves and decided positions are left out).
    moves        BIGINT NOT NULL,
    -- Of those, how many were the engine's first choice.
    matched      BIGINT NOT NULL,
    -- The average loss against the engine's best, in centi-animals.
    loss_cp      DOUBLE PRECISION NOT NULL,
    -- The coefficient of variation of the move times (NULL: too few timed moves).
    time_cv      DOUBLE PRECISION,
    timed_moves  BIGINT NOT NULL,
    fast_moves   BIGINT NOT NULL,
    -- Moves before which the tab had lost focus.
    blurs        BIGINT NOT NULL,
    verdict      BIGINT NOT NULL,
    assessed_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX game_assessments_by_player ON game_assessments (player_id, assessed_at);

-- The moderators' queue: one line per player whose games or record crossed the threshold.
-- Cleared by a moderator (`admin clear`); a later game over the threshold queues them again.
CREATE TABLE mod_queue (
    player_id   TEXT PRIMARY KEY REFERENCES players (id),
    verdict     BIGINT NOT NULL,
    reason      TEXT NOT NULL,
    game_id     TEXT,
    queued_at   BIGINT NOT NULL,
    cleared_at  BIGINT
);
CREATE INDEX mod_queue_open ON mod_queue (queued_at) WHERE cleared_at IS NULL;

-- A moderator's engine mark: from then on the player's rated games change nobody's rating and
-- the player leaves the leaderboards.
ALTER TABLE players ADD COLUMN engine_marked_at BIGINT;
ALTER TABLE players ADD COLUMN engine_mark_reason TEXT;
