-- Arenas for bots only (issue 26): engine authors hold tournaments among their programs. A
-- bots' arena takes bot accounts only (they join over the Bot API); every other arena takes
-- people only, as before.
ALTER TABLE tournaments ADD COLUMN bots BIGINT NOT NULL DEFAULT 0;
