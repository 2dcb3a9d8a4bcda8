//! The Bot and Board APIs' bodies (issue 26), in lichess's shape adapted to Jungle: personal
//! API tokens and their scopes. docs/bot-api.md documents them with examples.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// What a token may do: play as a bot, play one's own games from another client, challenge.
pub const SCOPES: [&str; 3] = ["bot:play", "board:play", "challenge:write"];

/// The longest description a token may carry, in characters.
pub const MAX_TOKEN_DESCRIPTION: usize = 100;

/// `POST /api/tokens`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewApiToken {
    pub description: String,
    pub scopes: Vec<String>,
}

/// The answer to `POST /api/tokens`: the token is shown this once (the server keeps its hash).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatedApiToken {
    pub id: Uuid,
    pub token: String,
}

/// A line of `GET /api/tokens` (never the token itself).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiTokenInfo {
    pub id: Uuid,
    pub description: String,
    pub scopes: Vec<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds, to the minute; `None` if never used.
    pub last_used_at: Option<i64>,
}
