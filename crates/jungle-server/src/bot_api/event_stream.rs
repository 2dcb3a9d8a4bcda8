//! `GET /api/stream/event`: what happens to an API player outside a game, as NDJSON for as long
//! as the client reads — `challenge`, `challengeCanceled`, `challengeDeclined`, `gameStart` and
//! `gameFinish` — with an empty line every 7 s. On connect it first says `gameStart` for each
//! game in progress, so that a restarted bot picks its games up.
//!
//! The stream is the player's presence, as a browser tab is: it is registered as one of the
//! player's connections (so the player is online, can be challenged, and a game started for
//! them is entered here, on any node), and it follows each of its games' rooms to hear them
//! start and end. One stream per token: a second replaces the first. The HTTP challenge
//! actions act through it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use jungle_protocol::{ChallengeEnd, ServerFrame};
use serde_json::{json, Value};
use tokio::sync::{mpsc, Notify};
use uuid::Uuid;

use super::game_view::clock_json;
use super::holder::holder;
use super::BotApiError;
use crate::client_addr::ClientAddr;
use crate::limits::Limited;
use crate::rooms::{next_connection_id, Connection, JoinIntent, Outbound, RoomCommand, RoomHandle};
use crate::state::AppState;

const KEEP_ALIVE: Duration = Duration::from_secs(7);
const STUCK: Duration = Duration::from_secs(30);
const FRAMES: usize = 256;
/// Games one event stream follows at once (beyond, the oldest is let go).
const MAX_FOLLOWED: usize = 64;

/// The open event streams, by token: the connection each acts through, and how to end it.
#[derive(Clone, Default)]
pub struct EventStreams {
    by_token: Arc<Mutex<HashMap<Uuid, OpenStream>>>,
}

/// One open event stream: the connection it acts through, and how to end it.
struct OpenStream {
    conn: Connection,
    end: Arc<Notify>,
}

impl EventStreams {
    /// The connection of `token`'s open event stream.
    pub fn connection(&self, token: Uuid) -> Option<Connection> {
        let by_token = self.by_token.lock().expect("event streams lock");
        by_token.get(&token).map(|open| open.conn.clone())
    }

    /// Registers `conn` as `token`'s stream, ending the one before.
    fn open(&self, token: Uuid, conn: Connection, end: Arc<Notify>) {
        let old = self
            .by_token
            .lock()
            .expect("event streams lock")
            .insert(token, OpenStream { conn, end });
        if let Some(old) = old {
            old.end.notify_one();
        }
    }

    fn close(&self, token: Uuid, conn_id: u64) {
        let mut by_token = self.by_token.lock().expect("event streams lock");
        if by_token
            .get(&token)
            .is_some_and(|open| open.conn.id == conn_id)
        {
            by_token.remove(&token);
        }
    }
}

/// A challenge as the streams write it.
pub fn challenge_json(c: &jungle_protocol::ChallengeInfo) -> Value {
    json!({
        "id": c.id,
        "challenger": { "id": c.from.id, "name": c.from.name },
        "destUser": { "id": c.to.id, "name": c.to.name },
        "rules": c.rules,
        "clock": clock_json(&c.clock),
        "rated": c.rated,
        "color": c.color,
        "expiresInMs": c.expires_in_ms,
    })
}

/// The lines one frame from a room or from the challenges adds to the stream; `started`
/// holds the games already announced.
fn lines(frame: &ServerFrame, me: Uuid, started: &mut HashSet<Uuid>) -> Vec<Value> {
    match frame {
        ServerFrame::Challenged { challenge } => {
            vec![json!({ "type": "challenge", "challenge": challenge_json(challenge) })]
        }
        ServerFrame::ChallengeEnded { id, reason } => match reason {
            ChallengeEnd::Declined => {
                vec![json!({ "type": "challengeDeclined", "challenge": { "id": id } })]
            }
            ChallengeEnd::Cancelled | ChallengeEnd::Expired => {
                vec![json!({ "type": "challengeCanceled", "challenge": { "id": id } })]
            }
            ChallengeEnd::Accepted => Vec::new(),
        },
        ServerFrame::Game(state) => {
            let color = match (&state.red, &state.blue) {
                (Some(red), _) if red.id == me => "red",
                (_, Some(blue)) if blue.id == me => "blue",
                _ => return Vec::new(),
            };
            let over = state.result.is_some();
            if over || !started.insert(state.game) {
                return Vec::new();
            }
            let opponent = if color == "red" {
                &state.blue
            } else {
                &state.red
            };
            vec![json!({
                "type": "gameStart",
                "game": {
                    "id": state.game,
                    "rules": state.rules,
                    "color": color,
                    "rated": state.rated,
                    "clock": clock_json(&state.clock),
                    "opponent": opponent.as_ref().map(|o| json!({ "id": o.id, "name": o.name, "rating": o.rating })),
                },
            })]
        }
        ServerFrame::GameOver {
            game,
            winner,
            reason,
            ..
        } if started.remove(game) => vec![json!({
            "type": "gameFinish",
            "game": { "id": game, "status": reason.name(), "winner": winner },
        })],
        _ => Vec::new(),
    }
}

pub async fn stream(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Response, BotApiError> {
    // Any play scope: bots and people's own clients alike hear of their games.
    let holder = match holder(&state, &headers, "bot:play").await {
        Err(BotApiError::MissingScope(_)) => holder(&state, &headers, "board:play").await?,
        other => other?,
    };
    state
        .limits
        .check(Limited::BotRequests, Some(holder.player.id), client)?;
    let me = holder.player.id;
    let games = state.store.active_game_ids(me).await?;
    let (tx, mut frames) = mpsc::channel(FRAMES);
    let too_slow = Arc::new(Notify::new());
    let conn = Connection {
        id: next_connection_id(),
        player: holder.player.clone(),
        tx,
        too_slow: too_slow.clone(),
        addr: client,
        remote: None,
    };
    let end = Arc::new(Notify::new());
    let online = state.online.register(&conn, end.clone());
    state
        .event_streams
        .open(holder.token, conn.clone(), end.clone());
    state.reach.tab_opened(&conn).await;
    for challenge in state.challenges.incoming(me) {
        let _ = conn.tx.try_send(Outbound::Text(crate::rooms::frame_text(
            &ServerFrame::Challenged { challenge },
        )));
    }
    let mut followed: Vec<RoomHandle> = Vec::new();
    for game in games {
        if let Some(room) = state.reach.room_in_progress(game).await {
            follow(&conn, &mut followed, room).await;
        }
    }
    let (lines_tx, body) = mpsc::channel::<Result<Bytes, std::io::Error>>(8);
    let mut shutdown = state.shutdown.clone();
    let token = holder.token;
    tokio::spawn(async move {
        let _online = online;
        let mut started = HashSet::new();
        loop {
            let said = tokio::select! {
                frame = frames.recv() => match frame {
                    Some(Outbound::Text(text)) => match serde_json::from_str::<ServerFrame>(&text) {
                        Ok(frame) => lines(&frame, me, &mut started)
                            .into_iter()
                            .map(|line| format!("{line}\n"))
                            .collect::<String>(),
                        Err(_) => continue,
                    },
                    Some(Outbound::Enter(room)) => {
                        follow(&conn, &mut followed, room).await;
                        continue;
                    }
                    Some(Outbound::Refused { .. }) => continue,
                    None => break,
                },
                _ = tokio::time::sleep(KEEP_ALIVE) => "\n".to_owned(),
                _ = too_slow.notified() => break,
                _ = end.notified() => break,
                _ = shutdown.changed() => break,
            };
            if said.is_empty() {
                continue;
            }
            match tokio::time::timeout(STUCK, lines_tx.send(Ok(Bytes::from(said)))).await {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
        for room in followed {
            room.send(RoomCommand::Leave { conn_id: conn.id }).await;
        }
        state.event_streams.close(token, conn.id);
        state.reach.connection_gone(conn.id).await;
    });
    let body = Body::from_stream(futures_util::stream::unfold(body, |mut rx| async move {
        rx.recv().await.map(|line| (line, rx))
    }));
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// Follows a game's room: its start and end are heard here.
async fn follow(conn: &Connection, followed: &mut Vec<RoomHandle>, room: RoomHandle) {
    followed.retain(|r| !r.is_closed());
    if followed.iter().any(|r| r.id == room.id) {
        return;
    }
    if followed.len() >= MAX_FOLLOWED {
        let oldest = followed.remove(0);
        oldest.send(RoomCommand::Leave { conn_id: conn.id }).await;
    }
    if room
        .send(RoomCommand::Join {
            conn: conn.clone(),
            intent: JoinIntent::Watch,
        })
        .await
    {
        followed.push(room);
    }
}
