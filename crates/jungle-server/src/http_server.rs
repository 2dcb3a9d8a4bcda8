//! Accepting connections: a global cap below the open-file limit, a cap per address, a timeout
//! on request headers that also closes idle keep-alive connections, a watch that closes any
//! connection silent too long (`idle_watch`), a cap per address on requests half received
//! (`receiving`), and back-off when accepting fails. Each admitted connection carries a [`ConnectionSlot`]; a WebSocket keeps it for its
//! whole life, so an upgraded socket still counts. A connection over a cap is told so in one
//! short answer (429 or 503) and closed.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::connect_info::ConnectInfo;
use axum::http::{header, Request, Response, StatusCode};
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

use crate::idle_watch::{self, IdleWatched};
use crate::ip_limits::{IpLimits, IpSlot};
use crate::receiving::{self, HeadWatched, Receiving};
use jungle_web::client_addr::{ClientAddr, TrustedProxies};

/// How long a refused connection may take to send the request it is refused.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(2);
/// The longest pause after a failed accept (out of descriptors, say).
const MAX_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// One admitted connection's place under the caps; given back when the last holder drops it.
/// A connection from a trusted proxy has no place under the per-address cap (it carries many
/// clients); each WebSocket through it takes one for its client instead.
#[derive(Clone)]
pub struct ConnectionSlot(Arc<SlotParts>);

struct SlotParts {
    _permit: OwnedSemaphorePermit,
    by_address: Option<IpSlot>,
    receiving: Arc<Receiving>,
}

impl ConnectionSlot {
    fn new(
        permit: OwnedSemaphorePermit,
        by_address: Option<IpSlot>,
        receiving: Arc<Receiving>,
    ) -> ConnectionSlot {
        ConnectionSlot(Arc::new(SlotParts {
            _permit: permit,
            by_address,
            receiving,
        }))
    }

    /// Whether the connection already counts under the per-address cap.
    pub fn counted_by_address(&self) -> bool {
        self.0.by_address.is_some()
    }

    /// The connection becomes a WebSocket: no more request heads to count.
    pub fn upgrading(&self) {
        self.0.receiving.upgraded();
    }
}

pub struct ConnectionLimits {
    /// Connections at once, all addresses together.
    pub max_total: usize,
    pub per_address: IpLimits,
    /// Time to send a request's headers, counted from the connection (or the previous answer)
    /// on: an idle connection is closed after it.
    pub header_timeout: Duration,
    /// Peers whose `X-Forwarded-For` names the client.
    pub trusted_proxies: TrustedProxies,
    /// The kernel's send buffer for each connection, in bytes (0: the kernel's default).
    pub send_buffer: usize,
}

/// Serves `app` on `listener` until `shutdown` turns true, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    mut shutdown: watch::Receiver<bool>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_total));
    let heads = IpLimits::new(receiving::HEADS_PER_ADDRESS);
    let limits = Arc::new(limits);
    // Each connection task holds a receiver; once all are gone, every connection has ended.
    let (closed_tx, closed_rx) = watch::channel(());
    let mut backoff = Duration::from_millis(10);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = shutdown.wait_for(|down| *down) => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => {
                backoff = Duration::from_millis(10);
                accepted
            }
            Err(e) => {
                metrics::counter!("jungle_accept_errors_total").increment(1);
                tracing::warn!(error = %e, pause_ms = backoff.as_millis() as u64, "accept failed");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_ACCEPT_BACKOFF);
                continue;
            }
        };
        // Moves are small frames that must leave at once: Nagle's algorithm would hold one back
        // behind an unacknowledged one (up to the peer's 40 ms delayed ACK).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "could not disable Nagle's algorithm");
        }
        // A client that stops reading pins at most this much kernel memory, and its sends
        // stall (and time out) once it is full.
        if limits.send_buffer > 0 {
            if let Err(e) = socket2::SockRef::from(&stream).set_send_buffer_size(limits.send_buffer)
            {
                tracing::debug!(error = %e, "could not set the send buffer");
            }
        }
        let admitted = match permits.clone().try_acquire_owned() {
            Err(_) => Err(StatusCode::SERVICE_UNAVAILABLE),
            // A proxy sends whole heads, for many clients: its heads are not counted.
            Ok(permit) if limits.trusted_proxies.trusts(peer.ip()) => {
                Ok(ConnectionSlot::new(permit, None, Receiving::new(None)))
            }
            Ok(permit) => match limits.per_address.acquire(peer.ip()) {
                Some(ip_slot) => {
                    let receiving = Receiving::new(Some((heads.clone(), peer.ip())));
                    Ok(ConnectionSlot::new(permit, Some(ip_slot), receiving))
                }
                None => Err(StatusCode::TOO_MANY_REQUESTS),
            },
        };
        let closing = shutdown.clone();
        let closed = closed_rx.clone();
        match admitted {
            Ok(slot) => {
                let app = app.clone();
                let limits = limits.clone();
                tokio::spawn(async move {
                    serve_connection(stream, peer, app, slot, &limits, closing).await;
                    drop(closed);
                });
            }
            Err(status) => {
                metrics::counter!("jungle_connections_refused_total").increment(1);
                tokio::spawn(refuse(stream, status, app.clone()));
            }
        }
    }
    drop(closed_rx);
    drop(listener);
    let _ = tokio::time::timeout(Duration::from_secs(10), closed_tx.closed()).await;
}

/// HTTP/1 only (WebSockets upgrade from it; TLS and HTTP/2 are a reverse proxy's job): an
/// HTTP/2-or-1 server must first wait for bytes to tell which, and that wait has no timeout.
fn builder(header_timeout: Duration) -> http1::Builder {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    builder
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    slot: ConnectionSlot,
    limits: &ConnectionLimits,
    mut shutdown: watch::Receiver<bool>,
) {
    let proxies = limits.trusted_proxies.clone();
    let receiving = slot.0.receiving.clone();
    let socket = IdleWatched::new(HeadWatched::new(stream, receiving), idle_watch::SILENCE);
    let service = app.map_request(move |request: Request<Incoming>| {
        slot.0.receiving.head_arrived();
        let mut request = request.map(Body::new);
        let client = proxies.client_of(peer.ip(), request.headers());
        request.extensions_mut().insert(ClientAddr(client));
        request.extensions_mut().insert(ConnectInfo(peer));
        request.extensions_mut().insert(slot.clone());
        request
    });
    let connection = builder(limits.header_timeout)
        .serve_connection(TokioIo::new(socket), TowerToHyperService::new(service))
        .with_upgrades();
    tokio::pin!(connection);
    let stopping = async {
        let _ = shutdown.wait_for(|down| *down).await;
    };
    let finished = tokio::select! {
        result = connection.as_mut() => Some(result),
        _ = stopping => None,
    };
    let result = match finished {
        Some(result) => result,
        None => {
            // Finish the request in hand, then close.
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(e) = result {
        tracing::trace!(error = %e, "connection ended");
    }
}

/// What a connection over the per-address cap is told (behind a trusted proxy, a WebSocket's
/// client is told it at the upgrade).
pub const TOO_MANY_FROM_ADDRESS: &str = "too many connections from this address";
/// The `Retry-After` of a connection refused for a cap, in seconds.
pub const RETRY_WHEN_FULL: &str = "5";

/// Answers the connection's first request with `status` and closes it. `/healthz` is still
/// answered by the application: a full server is alive, and a health checker that saw 503
/// would restart it, dropping every game, just when an attack holds the connections.
async fn refuse(stream: TcpStream, status: StatusCode, app: Router) {
    let message = if status == StatusCode::TOO_MANY_REQUESTS {
        TOO_MANY_FROM_ADDRESS
    } else {
        "the server is full; try again in a moment"
    };
    let service = tower::service_fn(move |request: Request<Incoming>| {
        let app = app.clone();
        async move {
            if request.uri().path() == "/healthz" {
                let mut response = app
                    .oneshot(request.map(Body::new))
                    .await
                    .unwrap_or_else(|never| match never {});
                response.headers_mut().insert(
                    header::CONNECTION,
                    header::HeaderValue::from_static("close"),
                );
                return Ok::<_, Infallible>(response);
            }
            // A program asking the API reads JSON, as every refusal there.
            let (content_type, body) = if request.uri().path().starts_with("/api/") {
                let code = if status == StatusCode::TOO_MANY_REQUESTS {
                    "rate_limited"
                } else {
                    "server_full"
                };
                let error = jungle_protocol::http::ApiError::new(code, message);
                let json = serde_json::to_string(&error).expect("errors serialize");
                ("application/json", json)
            } else {
                ("text/plain; charset=utf-8", message.to_owned())
            };
            let response = Response::builder()
                .status(status)
                .header(header::CONNECTION, "close")
                .header(header::RETRY_AFTER, RETRY_WHEN_FULL)
                .header(header::CONTENT_TYPE, content_type)
                .body(Body::from(body))
                .expect("a valid response");
            Ok(response)
        }
    });
    let connection = builder(REFUSAL_TIMEOUT)
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
    let _ = tokio::time::timeout(REFUSAL_TIMEOUT * 2, connection).await;
}
