-- Takebacks (issue 14): a casual game's last turns undone by agreement. The undone turns are
-- deleted from `moves` in the same transaction as this record of them.
CREATE TABLE takebacks (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- Turns kept: the game went on from the position after this many.
    kept    BIGINT NOT NULL,
    -- The turns undone, space-separated, as played.
    undone  TEXT NOT NULL,
    at      BIGINT NOT NULL
);
CREATE INDEX takebacks_by_game ON takebacks (game_id);
