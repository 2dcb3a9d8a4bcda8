-- Personal API tokens (issue 26): an account's keys to the Bot and Board APIs, each with its
-- scopes, stored only as a hash. A token never signs in to the web client, and a session never
-- works on the bot endpoints. `title` marks a bot account ('BOT'), which is for good.
CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    player_id    TEXT NOT NULL REFERENCES players (id),
    token_hash   TEXT NOT NULL UNIQUE,
    description  TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE INDEX api_tokens_player ON api_tokens (player_id);
ALTER TABLE players ADD COLUMN title TEXT;
