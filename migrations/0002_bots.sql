-- Computer players: one row per engine level, marked so records show who was a bot.
ALTER TABLE players ADD COLUMN bot_level BIGINT;
