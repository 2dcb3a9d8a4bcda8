//! `POST /api/bot/account/upgrade`: an account that has played no game becomes a bot, for good.
//! A bot carries the title BOT wherever its name shows, plays only through the Bot API, and is
//! ranked apart from people.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};

use super::holder::holder;
use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_web::client_addr::ClientAddr;

pub async fn upgrade(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<Value>, BotApiError> {
    let holder = holder(&state, &headers, "bot:play", client).await?;
    state
        .limits
        .check(Limited::ApiTokens, Some(holder.player.id), client)?;
    if holder.bot || state.store.make_bot(holder.player.id).await? {
        return Ok(Json(json!({ "ok": true })));
    }
    Err(BotApiError::UpgradeRefused)
}
