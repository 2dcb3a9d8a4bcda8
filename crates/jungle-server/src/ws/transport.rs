//! The transport: one task per WebSocket. It checks the origin and the per-address limits,
//! bounds frame sizes, enforces the flood limit, pings and measures lag, writes what rooms
//! send, and finishes the closing handshake. Text frames go to the [`Session`].

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use futures_util::SinkExt;
use jungle_protocol::ServerFrame;
use jungle_web::client_addr::ClientAddr;
use tokio::sync::{mpsc, Notify};
use tokio::time::Instant;

use super::session::Session;
use crate::http_server::{ConnectionSlot, RETRY_WHEN_FULL, TOO_MANY_FROM_ADDRESS};
use crate::ws::frame_error::FrameError;
use crate::ws::WsState;
use jungle_limits::Limited;
use jungle_rooms::{frame_text, Instruction, JoinIntent, Outbound};
use jungle_web::json_rejections::refusal;

/// Frames a connection may queue before it counts as too slow and is closed.
const OUTBOUND_QUEUE: usize = 256;
/// The flood limit: at most this many frames in any `FLOOD_WINDOW`.
const FLOOD_FRAMES: f64 = 100.0;
const FLOOD_WINDOW: Duration = Duration::from_secs(20);
/// Anything larger is cut off by the WebSocket layer itself; frames between `MAX_FRAME_BYTES`
/// and this get a `frame_too_large` error and the connection lives on.
const TRANSPORT_LIMIT: usize = 16 * 1024;

/// The read buffer a connection starts with.
const READ_BUFFER: usize = 512;

/// Close codes (RFC 6455).
const CLOSE_POLICY: u16 = 1008;
const CLOSE_TOO_BIG: u16 = 1009;
const CLOSE_GOING_AWAY: u16 = 1001;
const CLOSE_RESTART: u16 = 1012;
const CLOSE_TRY_LATER: u16 = 1013;
/// The account session this connection signed in with was signed out (an application code).
const CLOSE_SIGNED_OUT: u16 = 4001;
/// How long a closing connection waits for the client's Close in reply.
const CLOSE_HANDSHAKE: Duration = Duration::from_secs(2);

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<WsState>,
    ClientAddr(client): ClientAddr,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
) -> Response {
    if let Some(origin) = headers.get("origin") {
        // An Origin that is not plain text is no allowed origin (it must not count as absent,
        // which programs without one are allowed to be).
        let allowed = origin.to_str().is_ok_and(|o| state.origins.allows(o));
        if !allowed {
            tracing::info!(origin = ?origin, "websocket refused: origin not allowed");
            return (StatusCode::FORBIDDEN, "origin not allowed").into_response();
        }
    }
    // The connection's place under the caps (taken when it was accepted) stays with the socket.
    let slot = slot.map(|Extension(slot)| slot);
    // Through a trusted proxy, the client's own place under the per-address cap.
    let client_slot = match &slot {
        Some(slot) if !slot.counted_by_address() => match state.per_address.acquire(client) {
            Some(client_slot) => Some(client_slot),
            // As a connection over the cap is answered at accept.
            None => {
                metrics::counter!("jungle_connections_refused_total").increment(1);
                return (
                    StatusCode::TOO_MANY_REQUESTS,
                    [
                        (header::RETRY_AFTER, RETRY_WHEN_FULL),
                        (header::CONNECTION, "close"),
                    ],
                    TOO_MANY_FROM_ADDRESS,
                )
                    .into_response();
            }
        },
        _ => None,
    };
    // Counted before the upgrade, and after the cap (a client refused by it spends nothing,
    // as one refused at accept does not): the flood limit below is per connection, and a
    // reconnect must not buy a fresh one as often as a client likes.
    if let Err(limited) = state.limits.check(Limited::SocketOpens, None, client) {
        return refusal(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            limited.to_string(),
            Some(&limited),
        );
    }
    if let Some(slot) = &slot {
        slot.upgrading();
    }
    ws.max_message_size(TRANSPORT_LIMIT)
        .max_frame_size(TRANSPORT_LIMIT)
        // A client's frames are tens to a few hundred bytes (a move about 70); a larger one
        // grows the buffer for itself.
        // Every idle socket holds this buffer, filled (so resident) at its first read.
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(4 * 1024)
        // The connection's task is `run`'s future itself: wrapped in another async block, the
        // socket would be held twice in it.
        .on_upgrade(move |socket| run(socket, state, client, (slot, client_slot)))
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

/// Why the loop ends.
enum Stop {
    Gone,
    Close(u16, &'static str),
    /// A send did not complete in time: the client stopped reading and the buffers are full.
    /// Nothing more can be written, so the socket is dropped without a Close frame.
    Stuck,
}

/// A send that does not complete within this time closes the connection: a client that never
/// reads must not pin its connection (and its seat's presence) once the kernel's buffers fill.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);

async fn send(socket: &mut WebSocket, message: Message) -> Result<(), Stop> {
    timed(socket.send(message)).await
}

/// Frames written before one flush at most, when more wait in the queue.
const WRITE_BATCH: usize = 32;

/// Carries out what the rooms queued for this connection, in order: `first`, then whatever
/// else is queued already, the frames written with one flush (a burst costs one system call
/// and one wake-up of the peer, not one per frame).
async fn write_out(
    socket: &mut WebSocket,
    session: &mut Session,
    queue: &mut mpsc::Receiver<Outbound>,
    first: Outbound,
) -> Result<(), Stop> {
    let mut next = Some(first);
    let mut written = 0;
    while let Some(outbound) = next.take() {
        match outbound {
            Outbound::Text(text) => {
                feed(socket, Message::Text(*text)).await?;
                written += 1;
            }
            // Rare, and boxed: inline, their steps would be part of every connection's task.
            Outbound::Do(instruction) => match *instruction {
                Instruction::Enter(room) => Box::pin(session.enter(room, JoinIntent::Watch)).await,
                Instruction::Moved { game } => Box::pin(session.follow_moved(game)).await,
                Instruction::Refused { game, text } => {
                    session.forget(game);
                    feed(socket, Message::Text(text)).await?;
                    written += 1;
                }
            },
        }
        if written < WRITE_BATCH {
            next = queue.try_recv().ok();
        }
    }
    if written == 0 {
        return Ok(());
    }
    timed(socket.flush()).await
}

/// Queues a frame in the socket's write buffer (written when it fills, or at the flush).
async fn feed(socket: &mut WebSocket, message: Message) -> Result<(), Stop> {
    timed(socket.feed(message)).await
}

async fn timed<E>(write: impl std::future::Future<Output = Result<(), E>>) -> Result<(), Stop> {
    match tokio::time::timeout(SEND_TIMEOUT, write).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(Stop::Gone),
        Err(_) => {
            metrics::counter!("jungle_connections_stuck_total").increment(1);
            Err(Stop::Stuck)
        }
    }
}

/// The connection's task, as long as its socket lives. Not an `async fn`: one holds its
/// arguments twice (as given and as moved into its body), and the socket is a third of an idle
/// connection's task. `slots`: its places under the connection caps, given back when it ends.
#[allow(clippy::manual_async_fn)]
fn run(
    mut socket: WebSocket,
    state: WsState,
    ip: IpAddr,
    slots: (Option<ConnectionSlot>, Option<crate::ip_limits::IpSlot>),
) -> impl std::future::Future<Output = ()> + Send {
    async move {
        metrics::gauge!("jungle_connections").increment(1.0);
        let (out_tx, mut out_rx) = mpsc::channel(OUTBOUND_QUEUE);
        let too_slow = Arc::new(Notify::new());
        let mut session = Session::new(state.clone(), ip, out_tx, too_slow.clone());
        let signed_out = session.signed_out();
        let mut ping_sent: Option<Instant> = None;
        let interval = state.config.ping_interval();
        let mut ping = tokio::time::interval_at(Instant::now() + interval, interval);
        let mut last_heard = Instant::now();
        let mut flood = FloodGuard::new();
        let mut shutdown = state.shutdown.clone();
        // Made once, not at every turn of the loop: each would register with its `Notify` (a
        // lock) when polled and unregister when dropped, for every frame in or out.
        let mut too_slow = std::pin::pin!(too_slow.notified());
        let mut signed_out = std::pin::pin!(signed_out.notified());
        let mut shutdown_seen = std::pin::pin!(shutdown.changed());
        let stop = loop {
            tokio::select! {
                incoming = socket.recv() => {
                    let message = match incoming {
                        Some(Ok(message)) => message,
                        Some(Err(e)) => break if is_over_capacity(e) {
                            Stop::Close(CLOSE_TOO_BIG, "frame too large")
                        } else {
                            Stop::Gone
                        },
                        None => break Stop::Gone,
                    };
                    last_heard = Instant::now();
                    match message {
                        Message::Text(text) => {
                            if !flood.allow() {
                                tracing::info!(%ip, "closing a flooding connection");
                                break Stop::Close(CLOSE_POLICY, "too many frames");
                            }
                            metrics::counter!("jungle_frames_received_total").increment(1);
                            // On the heap while it runs: inline, the largest handler's state
                            // would be part of every idle connection's task.
                            if let Some(reply) = Box::pin(session.on_text(&text)).await {
                                if let Err(stop) = send(&mut socket, Message::Text(reply)).await {
                                    break stop;
                                }
                            }
                            if session.sign_in_failed() {
                                break Stop::Close(CLOSE_TRY_LATER, "could not sign in; try again");
                            }
                        }
                        Message::Binary(_) => {
                            if !flood.allow() {
                                break Stop::Close(CLOSE_POLICY, "too many frames");
                            }
                            let reply = FrameError::Binary.to_frame();
                            if let Err(stop) = send(&mut socket, Message::Text(reply)).await {
                                break stop;
                            }
                        }
                        Message::Pong(_) => {
                            if let Some(sent) = ping_sent.take() {
                                session.record_round_trip(sent.elapsed());
                            }
                        }
                        // Answered by the WebSocket layer, so counted like any frame: a ping
                        // flood would otherwise make us write without limit.
                        Message::Ping(_) => {
                            if !flood.allow() {
                                break Stop::Close(CLOSE_POLICY, "too many frames");
                            }
                        }
                        Message::Close(_) => break Stop::Gone,
                    }
                }
                outbound = out_rx.recv() => match outbound {
                    Some(first) => {
                        if let Err(stop) = write_out(&mut socket, &mut session, &mut out_rx, first).await {
                            break stop;
                        }
                    }
                    None => break Stop::Gone,
                },
                _ = ping.tick() => {
                    if last_heard.elapsed() > interval * 2 {
                        break Stop::Close(CLOSE_GOING_AWAY, "no answer to pings");
                    }
                    ping_sent = Some(Instant::now());
                    if let Err(stop) = send(&mut socket, Message::Ping(Default::default())).await {
                        break stop;
                    }
                }
                _ = &mut too_slow => break Stop::Close(CLOSE_TRY_LATER, "too slow to keep up"),
                _ = &mut signed_out => break Stop::Close(CLOSE_SIGNED_OUT, "signed out"),
                _ = &mut shutdown_seen => {
                    if let Err(stop) = send(&mut socket, Message::Text(frame_text(&ServerFrame::Shutdown))).await {
                        break stop;
                    }
                    break Stop::Close(CLOSE_RESTART, "server restarting");
                }
            }
        };
        if let Stop::Stuck = stop {
            tracing::info!(%ip, "closing a connection that stopped reading");
        }
        if let Stop::Close(code, reason) = stop {
            close(&mut socket, code, reason).await;
        }
        Box::pin(session.leave_all()).await;
        metrics::gauge!("jungle_connections").decrement(1.0);
        // The places under the caps go with the socket, not before it.
        drop(socket);
        drop(slots);
    }
}

/// Sends a Close frame, then finishes the closing handshake: drops what the client still sends
/// until its Close. Closing with unread data would reset the connection, and a reset can discard
/// our Close frame before the client reads why it was cut off (a flooder's frames are exactly
/// such data). Bounded, so nobody can hold the connection open; skipped when the server stops,
/// which should not wait on every client.
async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }));
    if send(socket, frame).await.is_err() {
        return;
    }
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

/// Whether the WebSocket layer refused a frame for its size, told by the error's type.
fn is_over_capacity(error: axum::Error) -> bool {
    matches!(
        error.into_inner().downcast_ref::<tungstenite::Error>(),
        Some(tungstenite::Error::Capacity(_))
    )
}
