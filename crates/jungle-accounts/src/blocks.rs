//! An account's blocks: `GET /api/account/blocks`, `PUT` and `DELETE
//! /api/account/blocks/{player}`. A blocked player cannot challenge the account, their chat
//! lines do not reach it, and matchmaking never pairs the two (docs/decisions.md).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use jungle_protocol::http;
use uuid::Uuid;

use super::api::AccountApiError;
use super::manage::signed_in;
use crate::AccountsState;
use jungle_limits::Limited;
use jungle_web::client_addr::ClientAddr;

/// `GET /api/account/blocks`: the players this account blocks, the latest first.
pub async fn list(
    State(state): State<AccountsState>,
    headers: HeaderMap,
) -> Result<Json<Vec<http::Blocked>>, AccountApiError> {
    let (_, me) = signed_in(&state, &headers).await?;
    let blocks = state.store.blocks(me.id).await?;
    Ok(Json(
        blocks
            .into_iter()
            .map(|(id, name)| http::Blocked { id, name })
            .collect(),
    ))
}

/// `PUT /api/account/blocks/{player}`.
pub async fn block(
    State(state): State<AccountsState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(player): Path<Uuid>,
) -> Result<StatusCode, AccountApiError> {
    change(&state, client, &headers, player, true).await
}

/// `DELETE /api/account/blocks/{player}`.
pub async fn unblock(
    State(state): State<AccountsState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(player): Path<Uuid>,
) -> Result<StatusCode, AccountApiError> {
    change(&state, client, &headers, player, false).await
}

async fn change(
    state: &AccountsState,
    client: std::net::IpAddr,
    headers: &HeaderMap,
    player: Uuid,
    blocked: bool,
) -> Result<StatusCode, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, headers)?;
    let (_, me) = signed_in(state, headers).await?;
    state.limits.check(Limited::Blocks, Some(me.id), client)?;
    if blocked {
        state.store.block(me.id, player).await?;
    } else {
        state.store.unblock(me.id, player).await?;
    }
    Ok(StatusCode::NO_CONTENT)
}
