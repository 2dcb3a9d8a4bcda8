//! What every request's body must keep to: a size (axum's [`DefaultBodyLimit`], [`SMALLEST`]
//! unless a route asks for more) and a deadline. hyper times the headers; from their arrival
//! the whole body must follow within the same time, however it trickles. A body that misses
//! it is answered `408` and its connection closed, so a stalled upload holds a connection
//! (counted under the per-address cap) for seconds, and at most a route's limit in memory.
//! And at most [`BODIES_PER_ADDRESS`] bodies of one address are on their way at once (an
//! honest one takes milliseconds; see `receiving.rs` for the heads).
//!
//! [`DefaultBodyLimit`]: axum::extract::DefaultBodyLimit

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Body as HttpBody, Frame, SizeHint};
use jungle_web::client_addr::ClientAddr;
use tokio::time::Sleep;

use crate::ip_limits::{IpLimits, IpSlot};

/// The body limit of every route that names none. Every form a visitor sends before signing
/// in (a guest's name, an account, a sign-in, a report) is a few hundred bytes; routes that
/// take games or lessons say their own.
pub const SMALLEST: usize = 4 * 1024;

/// Bodies of one address on their way at once.
pub const BODIES_PER_ADDRESS: usize = 8;

/// What a client whose body was late is told.
pub const TOO_SLOW: &str = "the request's body did not arrive in time";

/// What the middleware keeps: the deadline, and the bodies on their way by address.
#[derive(Clone)]
pub struct BodyRules {
    pub deadline: Duration,
    pub on_their_way: IpLimits,
}

impl BodyRules {
    pub fn new(deadline: Duration) -> BodyRules {
        BodyRules {
            deadline,
            on_their_way: IpLimits::new(BODIES_PER_ADDRESS),
        }
    }
}

/// Gives the request's body until the deadline after its headers, if its address has a
/// place for one more body on its way.
pub async fn deadline(State(rules): State<BodyRules>, request: Request, next: Next) -> Response {
    if request.body().is_end_stream() {
        return next.run(request).await;
    }
    let client = request
        .extensions()
        .get::<ClientAddr>()
        .map(|ClientAddr(client)| *client);
    let place = match client {
        Some(client) => match rules.on_their_way.acquire(client) {
            Some(place) => Some(place),
            None => {
                metrics::counter!("jungle_bodies_refused_total").increment(1);
                return closing(jungle_web::json_rejections::refusal(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limited",
                    "too many requests being sent from this address at once".to_owned(),
                    None,
                ));
            }
        },
        None => None,
    };
    let late = Arc::new(AtomicBool::new(false));
    let request = request.map(|body| {
        Body::new(DeadlineBody {
            inner: body,
            timer: Box::pin(tokio::time::sleep(rules.deadline)),
            late: late.clone(),
            place,
        })
    });
    let response = next.run(request).await;
    if !late.load(Ordering::Relaxed) {
        return response;
    }
    metrics::counter!("jungle_bodies_too_slow_total").increment(1);
    closing(jungle_web::json_rejections::refusal(
        StatusCode::REQUEST_TIMEOUT,
        "too_slow",
        TOO_SLOW.to_owned(),
        None,
    ))
}

/// The body, or the rest of it, may still come: the connection cannot be read past it.
fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A body that fails once its deadline passes, and says so to the middleware.
struct DeadlineBody {
    inner: Body,
    timer: Pin<Box<Sleep>>,
    late: Arc<AtomicBool>,
    /// The body's place on its way, given back once it is all here.
    place: Option<IpSlot>,
}

#[derive(Debug, thiserror::Error)]
#[error("{TOO_SLOW}")]
struct Late;

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            if frame.is_none() || this.inner.is_end_stream() {
                this.place = None;
            }
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        match this.timer.as_mut().poll(cx) {
            Poll::Ready(()) => {
                this.late.store(true, Ordering::Relaxed);
                Poll::Ready(Some(Err(Late.into())))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
