//! Arenas over the Bot API (issue 26): `POST /api/tournament/{id}/join` (a private arena's
//! code as `password`, as lichess names it) and `/withdraw`. Each is the socket's tournament
//! frame, sent through the player's open event stream, which then hears each pairing as a
//! `gameStart`; the director (on whichever node runs the arena) decides, as for anyone. An
//! arena for bots takes bots only, and any other takes people only.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use jungle_protocol::ClientFrame;
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::holder::playing_holder;
use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_rooms::Connection;
use jungle_tournaments::director::JoinError;
use jungle_web::client_addr::ClientAddr;

#[derive(Deserialize, Default)]
pub struct JoinBody {
    #[serde(default)]
    password: Option<String>,
}

/// The holder's event stream connection, once the limits allow the request.
async fn entrant(
    state: &BotApiState,
    headers: &HeaderMap,
    client: std::net::IpAddr,
) -> Result<Connection, BotApiError> {
    let holder = playing_holder(state, headers, client).await?;
    state
        .limits
        .check(Limited::TournamentEntry, Some(holder.player.id), client)?;
    state
        .event_streams
        .connection(holder.token)
        .ok_or(BotApiError::NoEventStream)
}

pub async fn join(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, BotApiError> {
    let conn = entrant(&state, &headers, client).await?;
    let body: JoinBody = super::optional_body(&headers, &body)?;
    let has_account = state.store.has_account(conn.player.id).await?;
    let directors = &state.directors;
    if !directors.is_directed(id) {
        let frame = ClientFrame::JoinTournament {
            id,
            code: body.password.clone(),
        };
        // Another node directs it: its answer reaches the event stream.
        if state
            .reach
            .director_elsewhere(&conn, id, has_account, frame)
            .await
            .map_err(|_| BotApiError::NoAnswer)?
        {
            return Ok(Json(json!({ "ok": true })));
        }
    }
    match directors
        .join(id, conn.clone(), body.password, has_account)
        .await
    {
        Some(Ok(())) => Ok(Json(json!({ "ok": true }))),
        Some(Err(JoinError::Store(e))) => Err(BotApiError::Store(e)),
        Some(Err(JoinError::Code)) => {
            state.limits.charge_miss(client);
            Err(BotApiError::Refused(JoinError::Code.to_string()))
        }
        Some(Err(e)) => Err(BotApiError::Refused(e.to_string())),
        None => Err(BotApiError::NotFound("tournament in progress")),
    }
}

pub async fn withdraw(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> Result<Json<Value>, BotApiError> {
    let conn = entrant(&state, &headers, client).await?;
    let directors = &state.directors;
    if directors.is_directed(id) {
        directors.withdraw(id, conn.player.id).await;
        return Ok(Json(json!({ "ok": true })));
    }
    let has_account = state.store.has_account(conn.player.id).await?;
    let went = state
        .reach
        .director_elsewhere(&conn, id, has_account, ClientFrame::Withdraw { id })
        .await
        .map_err(|_| BotApiError::NoAnswer)?;
    if went {
        Ok(Json(json!({ "ok": true })))
    } else {
        Err(BotApiError::NotFound("tournament in progress"))
    }
}
