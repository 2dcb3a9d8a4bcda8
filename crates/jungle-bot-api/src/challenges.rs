//! Challenges over HTTP (issue 26), one mechanism with the socket's: `POST
//! /api/challenge/{username}` sends one, `POST /api/challenge/{id}/accept`, `/decline` and
//! `/cancel` answer or take it back. Each is the socket's challenge frame, sent through the
//! player's open event stream (which hears the answer, and the game's start); without one the
//! request is refused, as the game would start with nobody to hear of it.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use jungle_protocol::{ClientFrame, DeclineReason, ServerFrame};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::event_stream::challenge_json;
use super::holder::{holder, playing_holder};
use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_rooms::challenges::{ChallengeError, ChallengeRefusal};
use jungle_rooms::Connection;
use jungle_web::client_addr::ClientAddr;

/// The connection of the holder's event stream: the challenge's news go there.
async fn through(
    state: &BotApiState,
    headers: &HeaderMap,
    client: std::net::IpAddr,
    scope: &'static str,
) -> Result<Connection, BotApiError> {
    let holder = holder(state, headers, scope, client).await?;
    state
        .limits
        .check(Limited::Challenge, Some(holder.player.id), client)?;
    state
        .event_streams
        .connection_for(holder.token, holder.player.id)
        .ok_or(BotApiError::NoEventStream)
}

/// Sends a challenge frame where the challenges are held; the local answer, if any.
async fn send(
    state: &BotApiState,
    conn: &Connection,
    frame: ClientFrame,
) -> Result<Option<ServerFrame>, BotApiError> {
    if state
        .reach
        .challenge_elsewhere(conn, frame.clone())
        .await
        .map_err(|_| BotApiError::NoAnswer)?
    {
        return Ok(None);
    }
    let answer = jungle_rooms::challenges::handle_frame(
        &state.store,
        &state.challenges,
        &state.room_ctx,
        conn,
        frame,
    )
    .await
    .map_err(refusal)?;
    let answer: Option<ServerFrame> = answer.and_then(|text| serde_json::from_str(&text).ok());
    if let Some(frame) = &answer {
        state.event_streams.hear_answer(conn.id, frame);
    }
    Ok(answer)
}

/// A refused challenge frame, as the API says it.
fn refusal(e: ChallengeRefusal) -> BotApiError {
    match e {
        ChallengeRefusal::Store(e) => BotApiError::Store(e),
        // A wait, said as every wait is: 429 with Retry-After (a bot may sleep and send again).
        ChallengeRefusal::Challenge(ChallengeError::RecentlyDeclined(wait)) => {
            BotApiError::RateLimited(jungle_limits::RateLimited { retry_after: wait })
        }
        other => BotApiError::Refused(other.to_string()),
    }
}

pub async fn create(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(username): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, BotApiError> {
    // Read first: a body that does not read spends nothing of the challenge budget.
    let asked = super::challenge_body::read(&headers, &body)?;
    let conn = through(&state, &headers, client, "challenge:write").await?;
    if username.len() > 20 {
        return Err(BotApiError::NotFound("player"));
    }
    let to = state
        .store
        .player_by_username(&username)
        .await?
        .ok_or(BotApiError::NotFound("player"))?;
    let frame = ClientFrame::Challenge {
        to,
        rules: asked.rules,
        clock: asked.clock,
        rated: asked.rated,
        color: asked.color,
    };
    match send(&state, &conn, frame).await? {
        Some(ServerFrame::ChallengeSent { challenge }) => Ok(Json(challenge_json(&challenge))),
        // Held on another node: its answer reaches the event stream.
        _ => Ok(Json(json!({ "ok": true }))),
    }
}

#[derive(Deserialize, Default)]
pub struct DeclineBody {
    reason: Option<String>,
}

async fn answer(
    state: BotApiState,
    client: std::net::IpAddr,
    headers: HeaderMap,
    frame: ClientFrame,
) -> Result<Json<Value>, BotApiError> {
    // Answering needs no challenge:write: a bot answers with its play scope.
    let holder = playing_holder(&state, &headers, client).await?;
    state
        .limits
        .check_player(Limited::BotRequests, holder.player.id)?;
    let conn = state
        .event_streams
        .connection(holder.token)
        .ok_or(BotApiError::NoEventStream)?;
    send(&state, &conn, frame).await?;
    Ok(Json(json!({ "ok": true })))
}

pub async fn accept(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> Result<Json<Value>, BotApiError> {
    answer(state, client, headers, ClientFrame::AcceptChallenge { id }).await
}

pub async fn decline(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, BotApiError> {
    let body: DeclineBody = super::optional_body(&headers, &body)?;
    let reason = body.reason.as_deref().map(decline_reason);
    let frame = ClientFrame::DeclineChallenge { id, reason };
    answer(state, client, headers, frame).await
}

/// `GET /api/challenge`: the challenges waiting, sent to the token's holder (`in`) and by it
/// (`out`), as lichess lists them (berserk's `challenges.get_mine`), on any node.
pub async fn mine(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<Value>, BotApiError> {
    let holder = super::holder::any_holder(&state, &headers, client).await?;
    state
        .limits
        .check_player(Limited::BotRequests, holder.player.id)?;
    let me = holder.player.id;
    let list = |challenges: Vec<jungle_protocol::ChallengeInfo>| {
        challenges.iter().map(challenge_json).collect::<Vec<_>>()
    };
    // What the player's event stream heard, wherever the challenges are held; without one
    // open, this node's own book.
    let (incoming, outgoing) = state
        .event_streams
        .challenges_heard(holder.token, me)
        .unwrap_or_else(|| (state.challenges.incoming(me), state.challenges.outgoing(me)));
    Ok(Json(json!({ "in": list(incoming), "out": list(outgoing) })))
}

/// A decline reason as lichess reads one: any case, `variant` as "not this ruleset" (ours are
/// rulesets), and anything else as `generic` (a bot written for lichess may send a reason we
/// have not heard of; its decline still goes through).
fn decline_reason(name: &str) -> DeclineReason {
    let key = name.trim().to_ascii_lowercase();
    let known = [
        DeclineReason::Generic,
        DeclineReason::Later,
        DeclineReason::TooFast,
        DeclineReason::TooSlow,
        DeclineReason::TimeControl,
        DeclineReason::Rated,
        DeclineReason::Casual,
        DeclineReason::Standard,
        DeclineReason::NoBot,
        DeclineReason::OnlyBot,
    ];
    if key == "variant" {
        return DeclineReason::Standard;
    }
    known
        .into_iter()
        .find(|reason| {
            serde_json::to_value(reason)
                .ok()
                .and_then(|v| v.as_str().map(str::to_ascii_lowercase))
                .as_deref()
                == Some(key.as_str())
        })
        .unwrap_or(DeclineReason::Generic)
}

pub async fn cancel(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> Result<Json<Value>, BotApiError> {
    answer(state, client, headers, ClientFrame::CancelChallenge { id }).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decline_reasons_read_as_lichess_reads_them() {
        assert_eq!(decline_reason("tooFast"), DeclineReason::TooFast);
        assert_eq!(decline_reason("toofast"), DeclineReason::TooFast);
        assert_eq!(decline_reason("NOBOT"), DeclineReason::NoBot);
        assert_eq!(decline_reason("variant"), DeclineReason::Standard);
        assert_eq!(decline_reason("something new"), DeclineReason::Generic);
    }
}
