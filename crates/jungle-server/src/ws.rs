//! One task per WebSocket connection: it authenticates, rate-limits and parses frames, forwards
//! intentions to rooms and the lobby, and writes what they send back.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use jungle_protocol::{ClientFrame, ErrorCode, PlayerInfo, ServerFrame, Uuid, MAX_FRAME_BYTES};
use tokio::sync::{mpsc, Notify};
use tokio::time::Instant;

use crate::api::hash_token;
use crate::persist::Write;
use crate::rooms::{
    error_text, frame_text, Action, Connection, JoinIntent, Outbound, Room, RoomCommand,
    RoomHandle, RoomSettings, SeatPlayer,
};
use crate::state::AppState;
use crate::store::{PlayerRecord, WaitingRoom};

/// Frames a connection may queue before it counts as too slow and is closed.
const OUTBOUND_QUEUE: usize = 256;
/// The flood limit: at most this many frames in any `FLOOD_WINDOW`.
const FLOOD_FRAMES: f64 = 100.0;
const FLOOD_WINDOW: Duration = Duration::from_secs(20);
/// Anything larger is cut off by the WebSocket layer itself; frames between `MAX_FRAME_BYTES`
/// and this get a `frame_too_large` error and the connection lives on.
const TRANSPORT_LIMIT: usize = 16 * 1024;

static NEXT_CONNECTION: AtomicU64 = AtomicU64::new(1);

/// Close codes (RFC 6455).
const CLOSE_POLICY: u16 = 1008;
const CLOSE_TOO_BIG: u16 = 1009;
const CLOSE_GOING_AWAY: u16 = 1001;
const CLOSE_RESTART: u16 = 1012;
const CLOSE_TRY_LATER: u16 = 1013;
/// How long a closing connection waits for the client's Close in reply.
const CLOSE_HANDSHAKE: Duration = Duration::from_secs(2);

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    if let Some(origin) = headers.get("origin").and_then(|o| o.to_str().ok()) {
        if !state.origins.allows(origin) {
            tracing::info!(%origin, "websocket refused: origin not allowed");
            return (StatusCode::FORBIDDEN, "origin not allowed").into_response();
        }
    }
    let Some(slot) = state.ip_limits.acquire(peer.ip()) else {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            "too many connections from this address",
        )
            .into_response();
    };
    ws.max_message_size(TRANSPORT_LIMIT)
        .max_frame_size(TRANSPORT_LIMIT)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            run(socket, state, peer.ip()).await;
        })
}

/// Tokens refill at the flood limit's rate, so bursts up to the limit pass.
struct FloodGuard {
    tokens: f64,
    last: Instant,
}

impl FloodGuard {
    fn new() -> FloodGuard {
        FloodGuard {
            tokens: FLOOD_FRAMES,
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill =
            now.duration_since(self.last).as_secs_f64() * FLOOD_FRAMES / FLOOD_WINDOW.as_secs_f64();
        self.tokens = (self.tokens + refill).min(FLOOD_FRAMES);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

struct Session {
    state: AppState,
    /// Set by a successful `hello`.
    conn: Option<Connection>,
    out_tx: mpsc::Sender<Outbound>,
    too_slow: Arc<Notify>,
    /// Rooms this connection follows; told when it goes.
    joined: HashMap<Uuid, RoomHandle>,
    /// Estimated one-way lag from WebSocket ping round trips.
    lag: Duration,
    ping_sent: Option<Instant>,
}

/// Why the loop ends.
enum Stop {
    Gone,
    Close(u16, &'static str),
}

async fn run(mut socket: WebSocket, state: AppState, ip: IpAddr) {
    metrics::gauge!("jungle_connections").increment(1.0);
    let (out_tx, mut out_rx) = mpsc::channel(OUTBOUND_QUEUE);
    let too_slow = Arc::new(Notify::new());
    let mut session = Session {
        state: state.clone(),
        conn: None,
        out_tx,
        too_slow: too_slow.clone(),
        joined: HashMap::new(),
        lag: Duration::ZERO,
        ping_sent: None,
    };
    let interval = state.config.ping_interval();
    let mut ping = tokio::time::interval_at(Instant::now() + interval, interval);
    let mut last_heard = Instant::now();
    let mut flood = FloodGuard::new();
    let mut shutdown = state.shutdown.clone();
    let stop = loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(message)) = incoming else {
                    break match incoming {
                        Some(Err(e)) if e.to_string().contains("too long") || e.to_string().contains("Space limit") => {
                            Stop::Close(CLOSE_TOO_BIG, "frame too large")
                        }
                        _ => Stop::Gone,
                    };
                };
                last_heard = Instant::now();
                match message {
                    Message::Text(text) => {
                        if !flood.allow() {
                            tracing::info!(%ip, "closing a flooding connection");
                            break Stop::Close(CLOSE_POLICY, "too many frames");
                        }
                        metrics::counter!("jungle_frames_received_total").increment(1);
                        if let Some(reply) = session.on_text(&text).await {
                            if socket.send(Message::Text(reply)).await.is_err() {
                                break Stop::Gone;
                            }
                        }
                    }
                    Message::Binary(_) => {
                        if !flood.allow() {
                            break Stop::Close(CLOSE_POLICY, "too many frames");
                        }
                        let reply = error_text(ErrorCode::BinaryFrame, "this protocol uses text frames of JSON", None);
                        if socket.send(Message::Text(reply)).await.is_err() {
                            break Stop::Gone;
                        }
                    }
                    Message::Pong(_) => {
                        if let Some(sent) = session.ping_sent.take() {
                            let rtt = sent.elapsed();
                            // Smoothed, capped: one slow round trip should not buy much time.
                            session.lag = ((session.lag * 3 + rtt / 2) / 4).min(Duration::from_secs(1));
                        }
                    }
                    Message::Ping(_) => {}
                    Message::Close(_) => break Stop::Gone,
                }
            }
            outbound = out_rx.recv() => match outbound {
                Some(Outbound::Text(text)) => {
                    if socket.send(Message::Text(text)).await.is_err() {
                        break Stop::Gone;
                    }
                }
                Some(Outbound::Enter(room)) => session.enter(room, JoinIntent::Watch).await,
                None => break Stop::Gone,
            },
            _ = ping.tick() => {
                if last_heard.elapsed() > interval * 2 {
                    break Stop::Close(CLOSE_GOING_AWAY, "no answer to pings");
                }
                session.ping_sent = Some(Instant::now());
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break Stop::Gone;
                }
            }
            _ = too_slow.notified() => break Stop::Close(CLOSE_TRY_LATER, "too slow to keep up"),
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Text(frame_text(&ServerFrame::Shutdown))).await;
                break Stop::Close(CLOSE_RESTART, "server restarting");
            }
        }
    };
    if let Stop::Close(code, reason) = stop {
        let _ = socket
            .send(Message::Close(Some(CloseFrame {
                code,
                reason: Utf8Bytes::from_static(reason),
            })))
            .await;
        // Finish the closing handshake: drop what the client still sends until its Close.
        // Closing with unread data would reset the connection, and a reset can discard our
        // Close frame before the client reads why it was cut off (a flooder's frames are
        // exactly such data). Bounded, so nobody can hold the connection open; skipped when
        // the server stops, which should not wait on every client.
        let wait = if code == CLOSE_RESTART {
            Duration::ZERO
        } else {
            CLOSE_HANDSHAKE
        };
        let _ = tokio::time::timeout(wait, async {
            while let Some(Ok(message)) = socket.recv().await {
                if matches!(message, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    session.leave_all().await;
    metrics::gauge!("jungle_connections").decrement(1.0);
}

impl Session {
    /// Handles one text frame; returns an immediate reply, if any.
    async fn on_text(&mut self, text: &str) -> Option<Utf8Bytes> {
        if text.len() > MAX_FRAME_BYTES {
            return Some(error_text(
                ErrorCode::FrameTooLarge,
                &format!("frames are limited to {MAX_FRAME_BYTES} bytes"),
                None,
            ));
        }
        let frame: ClientFrame = match serde_json::from_str(text) {
            Ok(frame) => frame,
            Err(e) => {
                return Some(error_text(
                    ErrorCode::BadFrame,
                    &format!("unreadable frame: {e}"),
                    None,
                ))
            }
        };
        let Some(conn) = self.conn.clone() else {
            return match frame {
                ClientFrame::Hello { token } => self.hello(&token).await,
                _ => Some(error_text(
                    ErrorCode::NotAuthenticated,
                    "send hello with your token first",
                    None,
                )),
            };
        };
        match frame {
            ClientFrame::Hello { .. } => Some(error_text(
                ErrorCode::AlreadyAuthenticated,
                "this connection is already signed in",
                None,
            )),
            ClientFrame::Ping => Some(frame_text(&ServerFrame::Pong)),
            ClientFrame::Seek {
                rules,
                clock,
                rated,
                computer_after_s,
            } => {
                let rating = match self.rating_for_new_game(&conn, rules, clock).await {
                    Ok(rating) => rating,
                    Err(reply) => return Some(reply),
                };
                let settings = RoomSettings {
                    rules,
                    clock,
                    rated,
                };
                let computer_after = computer_after_s.map(|s| Duration::from_secs(s.into()));
                self.state
                    .lobby
                    .seek(conn, settings, rating, computer_after)
                    .await;
                None
            }
            ClientFrame::PlayComputer {
                rules,
                clock,
                level,
                color,
            } => {
                if !(1..=8).contains(&level) {
                    return Some(error_text(
                        ErrorCode::BadRequest,
                        "level must be from 1 to 8",
                        None,
                    ));
                }
                let rating = match self.rating_for_new_game(&conn, rules, clock).await {
                    Ok(rating) => rating,
                    Err(reply) => return Some(reply),
                };
                // Computer games are casual.
                let settings = RoomSettings {
                    rules,
                    clock,
                    rated: false,
                };
                let (room, _code) = self.open_room(&conn, settings, rating, color).await;
                self.enter(room.clone(), JoinIntent::Watch).await;
                let command = RoomCommand::Act {
                    conn_id: conn.id,
                    player: conn.player.id,
                    action: Action::AddComputer(level),
                    lag: Duration::ZERO,
                };
                room.send(command).await;
                None
            }
            ClientFrame::AddComputer { game, level } => {
                if !(1..=8).contains(&level) {
                    return Some(error_text(
                        ErrorCode::BadRequest,
                        "level must be from 1 to 8",
                        Some(game),
                    ));
                }
                self.act(&conn, game, Action::AddComputer(level)).await
            }
            ClientFrame::CancelSeek => {
                self.state.lobby.cancel(conn.id, true).await;
                None
            }
            ClientFrame::CreateRoom {
                rules,
                clock,
                rated,
                color,
            } => {
                let rating = match self.rating_for_new_game(&conn, rules, clock).await {
                    Ok(rating) => rating,
                    Err(reply) => return Some(reply),
                };
                let settings = RoomSettings {
                    rules,
                    clock,
                    rated,
                };
                let (room, code) = self.open_room(&conn, settings, rating, color).await;
                // Stored before the link is handed out, so that the link outlives a restart.
                let saved = WaitingRoom {
                    code: code.clone(),
                    game: room.id,
                    host: conn.player.id,
                    ruleset: rules,
                    clock,
                    rated,
                    color,
                    created_at: crate::store::now_ms(),
                };
                if let Err(e) = self
                    .state
                    .room_ctx
                    .persister
                    .write(Write::OpenRoom(saved))
                    .await
                {
                    tracing::error!(room = %code, error = %e, "could not store a private room");
                }
                let reply = frame_text(&ServerFrame::Room {
                    url: format!("{}/r/{code}", self.state.public_url),
                    code,
                    game: room.id,
                });
                let _ = self.out_tx.send(Outbound::Text(reply)).await;
                self.enter(room, JoinIntent::Watch).await;
                None
            }
            ClientFrame::JoinRoom { code } => {
                let code = code.trim().to_ascii_uppercase();
                match self.state.rooms.by_code(&code) {
                    Some(room) => {
                        self.enter(room, JoinIntent::TakeSeat).await;
                        None
                    }
                    None => Some(error_text(
                        ErrorCode::RoomNotFound,
                        &format!("no open room has the code {code}"),
                        None,
                    )),
                }
            }
            ClientFrame::Watch { game } => self.watch(game).await,
            ClientFrame::Unwatch { game } => {
                if let Some(room) = self.joined.remove(&game) {
                    room.send(RoomCommand::Leave { conn_id: conn.id }).await;
                }
                None
            }
            ClientFrame::Move { game, mv } => self.act(&conn, game, Action::Move(mv)).await,
            ClientFrame::Resign { game } => self.act(&conn, game, Action::Resign).await,
            ClientFrame::OfferDraw { game } => self.act(&conn, game, Action::OfferDraw).await,
            ClientFrame::AcceptDraw { game } => self.act(&conn, game, Action::AcceptDraw).await,
            ClientFrame::DeclineDraw { game } => self.act(&conn, game, Action::DeclineDraw).await,
            ClientFrame::Rematch { game } => self.act(&conn, game, Action::Rematch).await,
        }
    }

    /// Checks a new game's clock and looks up the player's rating in its ruleset; the error
    /// reply is ready to send.
    async fn rating_for_new_game(
        &self,
        conn: &Connection,
        rules: jungle_rules::Ruleset,
        clock: jungle_protocol::ClockSpec,
    ) -> Result<crate::store::RatingRecord, Utf8Bytes> {
        clock
            .validate()
            .map_err(|e| error_text(ErrorCode::BadRequest, &e.to_string(), None))?;
        self.state
            .store
            .rating(conn.player.id, rules)
            .await
            .map_err(internal)
    }

    /// Opens a private room with this player as its seated host (the caller then enters it).
    async fn open_room(
        &mut self,
        conn: &Connection,
        settings: RoomSettings,
        rating: crate::store::RatingRecord,
        color: jungle_protocol::ColorChoice,
    ) -> (RoomHandle, String) {
        let code = self.state.new_room_code();
        let host = SeatPlayer {
            player: conn.player.clone(),
            rating,
            computer: None,
        };
        let room = Room::spawn_private(
            self.state.room_ctx.clone(),
            settings,
            host,
            color,
            code.clone(),
        );
        (room, code)
    }

    async fn hello(&mut self, token: &str) -> Option<Utf8Bytes> {
        let player = match self
            .state
            .store
            .player_by_token_hash(&hash_token(token))
            .await
        {
            Ok(Some(player)) => player,
            Ok(None) => {
                return Some(error_text(
                    ErrorCode::BadToken,
                    "unknown token: create a player first",
                    None,
                ))
            }
            Err(e) => return Some(internal(e)),
        };
        let games = match self.state.store.active_game_ids(player.id).await {
            Ok(games) => games,
            Err(e) => return Some(internal(e)),
        };
        let conn = Connection {
            id: NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed),
            player: PlayerRecord {
                id: player.id,
                name: player.name.clone(),
            },
            tx: self.out_tx.clone(),
            too_slow: self.too_slow.clone(),
        };
        self.conn = Some(conn);
        let welcome = frame_text(&ServerFrame::Welcome {
            player: PlayerInfo {
                id: player.id,
                name: player.name,
            },
            games: games.clone(),
        });
        let _ = self.out_tx.send(Outbound::Text(welcome)).await;
        // Back into every unfinished game: each answers with its full state.
        for game in games {
            if let Some(room) = self.state.rooms.get(game) {
                self.enter(room, JoinIntent::Watch).await;
            }
        }
        None
    }

    async fn enter(&mut self, room: RoomHandle, intent: JoinIntent) {
        let Some(conn) = self.conn.clone() else {
            return;
        };
        if room.send(RoomCommand::Join { conn, intent }).await {
            self.joined.insert(room.id, room);
        }
    }

    async fn watch(&mut self, game: Uuid) -> Option<Utf8Bytes> {
        if let Some(room) = self.state.rooms.get(game) {
            self.enter(room, JoinIntent::Watch).await;
            return None;
        }
        match self.state.store.game(game).await {
            Ok(Some(record)) => Some(frame_text(&ServerFrame::Game(Box::new(
                crate::api::archived_state(&record),
            )))),
            Ok(None) => Some(error_text(
                ErrorCode::UnknownGame,
                "no such game",
                Some(game),
            )),
            Err(e) => Some(internal(e)),
        }
    }

    async fn act(&mut self, conn: &Connection, game: Uuid, action: Action) -> Option<Utf8Bytes> {
        let room = match self.joined.get(&game) {
            Some(room) if !room.is_closed() => room.clone(),
            _ => {
                return Some(match self.state.rooms.get(game) {
                    Some(_) => error_text(
                        ErrorCode::NotYourGame,
                        "you do not play in this game",
                        Some(game),
                    ),
                    None => match self.state.store.game(game).await {
                        Ok(Some(_)) => {
                            error_text(ErrorCode::GameOver, "the game is over", Some(game))
                        }
                        _ => error_text(ErrorCode::UnknownGame, "no such game", Some(game)),
                    },
                });
            }
        };
        let command = RoomCommand::Act {
            conn_id: conn.id,
            player: conn.player.id,
            action,
            lag: self.lag,
        };
        if !room.send(command).await {
            self.joined.remove(&game);
            return Some(error_text(
                ErrorCode::GameOver,
                "the game is over",
                Some(game),
            ));
        }
        None
    }

    async fn leave_all(&mut self) {
        if let Some(conn) = &self.conn {
            self.state.lobby.cancel(conn.id, false).await;
            for (_, room) in self.joined.drain() {
                room.send(RoomCommand::Leave { conn_id: conn.id }).await;
            }
        }
    }
}

fn internal(e: impl std::fmt::Display) -> Utf8Bytes {
    tracing::error!(error = %e, "request failed");
    error_text(
        ErrorCode::Internal,
        "something went wrong on our side; please try again",
        None,
    )
}
