-- The address (the rate limits' key: IPv4, or IPv6's /64) a player made a tournament from
-- (issue 23), so that public tournaments to come or running are bounded per address as well
-- as per account. NULL for the operator's scheduled arenas and those made before.
ALTER TABLE tournaments ADD COLUMN created_from TEXT;
CREATE INDEX tournaments_open_by_address ON tournaments (created_from, ends_at);
