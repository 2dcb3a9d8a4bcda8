//! Tokens that name nobody, on every route (issue 49). Each is a guess at someone's token,
//! and a database lookup: an address whose tokens named nobody too often
//! ([`Limited::TokenMisses`](jungle_limits::Limited::TokenMisses)) is refused `429`, its
//! tokens not looked up, until it has a miss to spend again. A token that names a player, or
//! a request that presents none, costs nothing.
//!
//! The lookup itself says when it missed ([`missed`], from [`crate::identity`]), into a flag
//! this layer sets up around the request's handler: the handlers need not know.

use std::cell::Cell;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::client_addr::ClientAddr;
use jungle_limits::Limits;

tokio::task_local! {
    /// Set while a request's handler runs: whether a token it looked up named nobody.
    static MISSED: Cell<bool>;
}

/// A token looked up for the request being handled named nobody (outside a request, as for
/// a socket's `hello`, nothing is counted: those are limited by the sockets' own limits).
pub(crate) fn missed() {
    let _ = MISSED.try_with(|missed| missed.set(true));
}

/// The layer: `axum::middleware::from_fn_with_state(limits, token_misses::guard)`.
pub async fn guard(
    State(limits): State<Arc<Limits>>,
    ClientAddr(client): ClientAddr,
    request: Request,
    next: Next,
) -> Response {
    if crate::auth::presented_token(request.headers()).is_none() {
        return next.run(request).await;
    }
    if let Err(limited) = limits.token_lookup(client) {
        let body = axum::Json(jungle_protocol::http::ApiError::new(
            "rate_limited",
            "too many tokens that name nobody from this address; try again shortly",
        ));
        let wait = limited.seconds().to_string();
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, wait)],
            body,
        )
            .into_response();
    }
    let (missed, response) = MISSED
        .scope(Cell::new(false), async {
            let response = next.run(request).await;
            (MISSED.with(Cell::get), response)
        })
        .await;
    if missed {
        limits.token_missed(client);
    }
    response
}
