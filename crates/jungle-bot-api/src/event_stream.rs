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

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use jungle_protocol::{ChallengeEnd, ChallengeInfo, DeclineReason, ServerFrame};
use serde_json::{json, Value};
use tokio::sync::Notify;
use uuid::Uuid;

use super::game_view::clock_json;
use super::holder::{connection, playing_holder};
use super::ndjson;
use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_rooms::{Connection, Instruction, JoinIntent, Outbound, RoomCommand, RoomHandle};
use jungle_web::client_addr::ClientAddr;

use super::heard_challenges::HeardChallenges;

const FRAMES: usize = 256;
/// Games one event stream follows at once (beyond, the oldest is let go).
const MAX_FOLLOWED: usize = 64;

/// The open event streams, by token: the connection each acts through, and how to end it.
#[derive(Clone, Default)]
pub struct EventStreams {
    by_token: Arc<Mutex<HashMap<Uuid, OpenStream>>>,
}

/// One open event stream: the connection it acts through, how to end it, and who waits for
/// the end of a seek made through it (a game started, or the seek gone).
struct OpenStream {
    conn: Connection,
    end: Arc<Notify>,
    seek_news: Arc<Notify>,
    /// Whether a Board API seek made through the stream is waiting (one at a time).
    seeking: Arc<std::sync::atomic::AtomicBool>,
    challenges: Arc<Mutex<HeardChallenges>>,
}

/// What a Board API seek made through an event stream needs of it.
pub struct Seeker {
    pub conn: Connection,
    /// Wakes when a game starts on the stream or its seek is gone.
    pub news: Arc<Notify>,
    /// Set while a seek made through the stream waits.
    pub seeking: Arc<std::sync::atomic::AtomicBool>,
}

impl EventStreams {
    /// The bots with an event stream open here (online, as lichess counts a bot), at most
    /// `most`.
    pub fn bots(&self, most: usize) -> Vec<Uuid> {
        let by_token = self.by_token.lock().expect("event streams lock");
        let mut bots: Vec<Uuid> = by_token
            .values()
            .filter(|open| open.conn.player.bot)
            .map(|open| open.conn.player.id)
            .collect();
        bots.sort();
        bots.dedup();
        bots.truncate(most);
        bots
    }

    /// The connection of `token`'s open event stream.
    pub fn connection(&self, token: Uuid) -> Option<Connection> {
        let by_token = self.by_token.lock().expect("event streams lock");
        by_token.get(&token).map(|open| open.conn.clone())
    }

    /// The connection of `token`'s event stream or, without one, of another stream of the
    /// same player (a `challenge:write` token challenges through the player's bot or board
    /// stream).
    pub fn connection_for(&self, token: Uuid, player: Uuid) -> Option<Connection> {
        let by_token = self.by_token.lock().expect("event streams lock");
        stream_of(&by_token, token, player).map(|open| open.conn.clone())
    }

    /// The connection of `token`'s event stream (or the player's other one), as
    /// [`connection_for`](Self::connection_for), with what wakes when a seek made through it
    /// ends.
    pub fn seeker(&self, token: Uuid, player: Uuid) -> Option<Seeker> {
        let by_token = self.by_token.lock().expect("event streams lock");
        stream_of(&by_token, token, player).map(|open| Seeker {
            conn: open.conn.clone(),
            news: open.seek_news.clone(),
            seeking: open.seeking.clone(),
        })
    }

    /// The challenges waiting that `token`'s event stream (or the player's other one) has
    /// heard of: (sent to the player, sent by them). `None` without a stream open.
    pub fn challenges_heard(
        &self,
        token: Uuid,
        player: Uuid,
    ) -> Option<(Vec<ChallengeInfo>, Vec<ChallengeInfo>)> {
        let by_token = self.by_token.lock().expect("event streams lock");
        let open = stream_of(&by_token, token, player)?;
        let heard = open.challenges.lock().expect("challenges heard lock");
        Some(heard.waiting(tokio::time::Instant::now()))
    }

    /// A challenge answer given to a request made through the stream of connection `conn_id`
    /// rather than sent to it (the challenges are held on this node): heard as if sent.
    pub fn hear_answer(&self, conn_id: u64, frame: &ServerFrame) {
        let by_token = self.by_token.lock().expect("event streams lock");
        if let Some(open) = by_token.values().find(|open| open.conn.id == conn_id) {
            let mut heard = open.challenges.lock().expect("challenges heard lock");
            heard.hear(frame, tokio::time::Instant::now());
        }
    }

    /// `token` was deleted: its event stream ends.
    pub fn revoke(&self, token: Uuid) {
        if let Some(open) = self
            .by_token
            .lock()
            .expect("event streams lock")
            .get(&token)
        {
            open.end.notify_one();
        }
    }

    /// Registers `conn` as `token`'s stream, ending the one before.
    fn open(&self, token: Uuid, stream: OpenStream) {
        let old = self
            .by_token
            .lock()
            .expect("event streams lock")
            .insert(token, stream);
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

/// `token`'s event stream or, without one, another of the same player's.
fn stream_of(
    by_token: &HashMap<Uuid, OpenStream>,
    token: Uuid,
    player: Uuid,
) -> Option<&OpenStream> {
    by_token
        .get(&token)
        .or_else(|| by_token.values().find(|open| open.conn.player.id == player))
}

/// A challenge as the streams write it.
pub fn challenge_json(c: &jungle_protocol::ChallengeInfo) -> Value {
    json!({
        "id": c.id,
        "challenger": { "id": c.from.id, "name": c.from.name, "title": c.from_title },
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
fn event_lines(frame: &ServerFrame, me: Uuid, started: &mut HashSet<Uuid>) -> Vec<Value> {
    match frame {
        ServerFrame::Challenged { challenge } => {
            vec![json!({ "type": "challenge", "challenge": challenge_json(challenge) })]
        }
        ServerFrame::ChallengeEnded {
            id,
            reason,
            decline_reason,
        } => match reason {
            ChallengeEnd::Declined => vec![json!({
                "type": "challengeDeclined",
                "challenge": { "id": id, "declineReason": decline_reason.unwrap_or(DeclineReason::Generic) },
            })],
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
                    // lichess names it twice; lichess-bot reads either.
                    "gameId": state.game,
                    "rules": state.rules,
                    "color": color,
                    "rated": state.rated,
                    "clock": clock_json(&state.clock),
                    "opponent": opponent.as_ref().map(|o| json!({ "id": o.id, "name": o.name, "title": o.title, "rating": o.rating })),
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
            "game": { "id": game, "gameId": game, "status": reason.name(), "winner": winner },
        })],
        _ => Vec::new(),
    }
}

pub async fn stream(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Response, BotApiError> {
    // Bots and people's own clients alike hear of their games.
    let holder = playing_holder(&state, &headers, client).await?;
    state
        .limits
        .check_player(Limited::BotRequests, holder.player.id)?;
    let me = holder.player.id;
    let games = state.store.active_game_ids(me).await?;
    let (conn, mut frames, too_slow) = connection(&holder, client, FRAMES);
    let end = Arc::new(Notify::new());
    let seek_news = Arc::new(Notify::new());
    let challenges: Arc<Mutex<HeardChallenges>> = Arc::default();
    let online = state.online.register(&conn, end.clone());
    state.event_streams.open(
        holder.token,
        OpenStream {
            conn: conn.clone(),
            end: end.clone(),
            seek_news: seek_news.clone(),
            seeking: Arc::default(),
            challenges: challenges.clone(),
        },
    );
    state.reach.tab_opened(&conn).await;
    for challenge in state.challenges.incoming(me) {
        let _ = conn.tx.try_send(Outbound::text(jungle_rooms::frame_text(
            &ServerFrame::Challenged { challenge },
        )));
    }
    let mut followed: Vec<RoomHandle> = Vec::new();
    for game in games {
        if let Some(room) = state.reach.room_in_progress(game).await {
            follow(&conn, &mut followed, room).await;
        }
    }
    let (mut lines, response) = ndjson::answer();
    let mut shutdown = state.shutdown.clone();
    let token = holder.token;
    tokio::spawn(async move {
        let _online = online;
        let mut started = HashSet::new();
        loop {
            let written = tokio::select! {
                frame = frames.recv() => match frame {
                    Some(Outbound::Text(text)) => match serde_json::from_str::<ServerFrame>(&text) {
                        Ok(frame) => {
                            if HeardChallenges::concerns(&frame) {
                                challenges
                                    .lock()
                                    .expect("challenges heard lock")
                                    .hear(&frame, tokio::time::Instant::now());
                            }
                            let games = started.len();
                            let said = event_lines(&frame, me, &mut started);
                            if started.len() > games || ends_a_seek(&frame) {
                                seek_news.notify_waiters();
                            }
                            lines.write(said).await
                        }
                        Err(_) => true,
                    },
                    Some(Outbound::Do(instruction)) => match *instruction {
                        Instruction::Enter(room) => {
                            follow(&conn, &mut followed, room).await;
                            true
                        }
                        Instruction::Refused { .. } => true,
                        Instruction::Moved { game } => {
                            followed.retain(|r| r.id != game);
                            if let Some(room) = state.reach.room_in_progress(game).await {
                                follow(&conn, &mut followed, room).await;
                            }
                            true
                        }
                    },
                    None => false,
                },
                _ = tokio::time::sleep_until(lines.keep_alive_due()) => lines.keep_alive().await,
                _ = too_slow.notified() => false,
                // The client hung up (heard as soon as the server does, not at the next line).
                _ = lines.closed() => false,
                _ = end.notified() => false,
                _ = shutdown.changed() => false,
            };
            if !written {
                break;
            }
        }
        for room in followed {
            room.send(RoomCommand::Leave { conn_id: conn.id }).await;
        }
        state.event_streams.close(token, conn.id);
        state.reach.connection_gone(conn.id).await;
    });
    Ok(response)
}

/// A frame that ends a seek made through the stream, other than its game's start.
fn ends_a_seek(frame: &ServerFrame) -> bool {
    matches!(
        frame,
        ServerFrame::SeekCancelled
            | ServerFrame::Error {
                code: jungle_protocol::ErrorCode::AlreadySeeking,
                ..
            }
    )
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
            conn: Box::new(conn.clone()),
            intent: JoinIntent::Watch,
        })
        .await
    {
        followed.push(room);
    }
}
