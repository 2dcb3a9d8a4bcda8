//! One connection's session: sign-in, parsing, dispatch to the frame handlers, and the rooms
//! the connection follows. It knows nothing of sockets; the transport feeds it text.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use jungle_protocol::{ClientFrame, PlayerInfo, ServerFrame, MAX_FRAME_BYTES};
use tokio::sync::{mpsc, Notify};
use uuid::Uuid;

use crate::ws::frame_error::FrameError;
use crate::ws::WsState;
use jungle_rooms::{
    frame_text, next_connection_id, Connection, JoinIntent, Outbound, RoomCommand, RoomHandle,
};

/// What a handler answers at once, ahead of anything rooms send later.
pub type Reply = Result<Option<Utf8Bytes>, FrameError>;

pub struct Session {
    pub state: WsState,
    /// Set by a successful `hello`.
    conn: Option<Connection>,
    out_tx: mpsc::Sender<Outbound>,
    too_slow: Arc<Notify>,
    /// Rooms this connection follows; told when it goes.
    pub joined: HashMap<Uuid, RoomHandle>,
    /// Estimated one-way lag from WebSocket ping round trips.
    lag: Duration,
    /// The client's address, for the limits per address.
    pub ip: std::net::IpAddr,
    /// Notified when the account session this connection signed in with is signed out.
    signed_out: Arc<Notify>,
    /// Its place among the connections of that session, while signed in with one.
    _session: Option<jungle_accounts::open_sessions::Registration>,
    /// Its place among the player's open connections, once signed in.
    _online: Option<jungle_rooms::online::OnlineEntry>,
    /// The engine analysis this connection waits for, if any (dropping it cancels it).
    pub analysis: Option<jungle_rooms::engine_pool::SearchTicket>,
    /// The tournament whose standings this connection follows.
    pub watching: Option<Uuid>,
    /// `hello` failed on our side (the store), not for the client's token.
    sign_in_failed: bool,
}

impl Session {
    pub fn new(
        state: WsState,
        ip: std::net::IpAddr,
        out_tx: mpsc::Sender<Outbound>,
        too_slow: Arc<Notify>,
    ) -> Self {
        Session {
            ip,
            state,
            conn: None,
            out_tx,
            too_slow,
            joined: HashMap::new(),
            lag: Duration::ZERO,
            signed_out: Arc::new(Notify::new()),
            _session: None,
            _online: None,
            analysis: None,
            watching: None,
            sign_in_failed: false,
        }
    }

    /// Whether `hello` failed on our side: unsigned, the connection is of no use, so the
    /// transport closes it (1013) and the client's reconnect says hello again. Left open, a
    /// page would sit on a socket that refuses every frame, its games going on without it.
    pub fn sign_in_failed(&self) -> bool {
        self.sign_in_failed
    }

    /// Notified when this connection's account session is signed out elsewhere, or its player
    /// is banned.
    pub fn signed_out(&self) -> Arc<Notify> {
        self.signed_out.clone()
    }

    pub fn lag(&self) -> Duration {
        self.lag
    }

    /// A ping's round trip: smoothed and capped, so one slow round trip buys little time.
    pub fn record_round_trip(&mut self, rtt: Duration) {
        self.lag = ((self.lag * 3 + rtt / 2) / 4).min(Duration::from_secs(1));
    }

    /// Handles one text frame; returns an immediate reply, if any.
    pub async fn on_text(&mut self, text: &str) -> Option<Utf8Bytes> {
        match self.dispatch(text).await {
            Ok(reply) => reply,
            Err(error) => Some(error.to_frame()),
        }
    }

    async fn dispatch(&mut self, text: &str) -> Reply {
        if text.len() > MAX_FRAME_BYTES {
            return Err(FrameError::TooLarge);
        }
        let frame: ClientFrame = serde_json::from_str(text)?;
        // Each path on the heap while it runs, at its own size: inline, every frame in flight
        // would take the largest (a burst of 10,000 sign-ins held 3.2 KiB each, and the pages
        // they spread over stay resident among the sockets' long-lived blocks).
        let Some(conn) = self.conn.clone() else {
            return match frame {
                ClientFrame::Hello { token } => {
                    let signed_in = Box::pin(self.hello(&token)).await;
                    // Only the store fails it on our side (the nodes' Redis is read leniently),
                    // and only before the connection is signed in.
                    self.sign_in_failed = matches!(signed_in, Err(FrameError::Store(_)));
                    signed_in
                }
                _ => Err(FrameError::NotAuthenticated),
            };
        };
        Box::pin(self.handle(&conn, frame)).await
    }

    async fn hello(&mut self, token: &str) -> Reply {
        let store = &self.state.store;
        // A guest's token, or an account's session (whose sign-out closes this socket).
        let who = jungle_web::identity::identify(store, token)
            .await?
            .ok_or(FrameError::BadToken)?;
        if let Some(session) = who.session {
            let registry = &self.state.open_sessions;
            self._session = Some(registry.register(session, self.signed_out.clone()));
        }
        let player = who.player;
        if let Some(reason) = store.ban_reason(player.id).await? {
            self._session = None;
            return Err(FrameError::Banned(reason));
        }
        // Bots play through the Bot API only: no pools, rooms or arenas of people.
        if player.bot {
            self._session = None;
            return Err(FrameError::BotAccount);
        }
        let games = store.active_game_ids_in_one_sitting(player.id).await?;
        let conn = Connection {
            id: next_connection_id(),
            player: player.clone(),
            tx: self.out_tx.clone(),
            too_slow: self.too_slow.clone(),
            addr: self.ip,
            remote: None,
        };
        self._online = Some(self.state.online.register(&conn, self.signed_out.clone()));
        self.conn = Some(conn);
        // Challenges sent before this tab opened, after the welcome (wherever they are held).
        if let Some(conn) = &self.conn {
            self.state.reach.tab_opened(conn).await;
        }
        for challenge in self.state.challenges.incoming(player.id) {
            let _ = self
                .out_tx
                .try_send(Outbound::text(frame_text(&ServerFrame::Challenged {
                    challenge,
                })));
        }
        // Back into every unfinished game: each answers with its full state, after the welcome.
        for &game in &games {
            if let Some(room) = self.state.reach.room_in_progress(game).await {
                self.enter(room, JoinIntent::Watch).await;
            }
        }
        Ok(Some(frame_text(&ServerFrame::Welcome {
            player: PlayerInfo {
                id: player.id,
                name: player.name,
            },
            games,
            client: jungle_assets::CLIENT_VERSION.to_owned(),
        })))
    }

    /// Joins a room and follows it from now on.
    pub async fn enter(&mut self, room: RoomHandle, intent: JoinIntent) {
        let Some(conn) = self.conn.clone() else {
            return;
        };
        if room
            .send(RoomCommand::Join {
                conn: Box::new(conn),
                intent,
            })
            .await
        {
            self.joined.insert(room.id, room);
        }
    }

    /// The player this connection signed in as.
    pub(super) fn conn_player(&self) -> Option<uuid::Uuid> {
        self.conn.as_ref().map(|c| c.player.id)
    }

    /// The game's room stopped on this node because another runs the game now: followed
    /// there instead, as the same connection (the whole state comes again).
    pub async fn follow_moved(&mut self, game: uuid::Uuid) {
        if self.joined.remove(&game).is_none() {
            return;
        }
        if let Some(room) = self.state.reach.room_in_progress(game).await {
            self.enter(room, JoinIntent::Watch).await;
        }
    }

    /// A room refused this connection: it is not followed (and takes no place).
    pub fn forget(&mut self, game: uuid::Uuid) {
        self.joined.remove(&game);
    }

    /// Tells the lobby and every followed room that this connection is gone.
    pub async fn leave_all(&mut self) {
        if let Some(conn) = self.conn.clone() {
            if let Some(tournament) = self.watching {
                let _ = self.unwatch_tournament(&conn, tournament).await;
            }
            for (_, room) in self.joined.drain() {
                room.send(RoomCommand::Leave { conn_id: conn.id }).await;
            }
            // Its challenges, its seek, and whatever followed it from other nodes.
            self.state.reach.connection_gone(conn.id).await;
        }
    }
}
