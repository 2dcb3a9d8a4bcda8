//! What every request's body must keep to: a size (axum's [`DefaultBodyLimit`], [`SMALLEST`]
//! unless a route asks for more) and a deadline. hyper times the headers; from their arrival
//! the whole body must follow within the same time, however it trickles. A body that misses
//! it is answered `408` and its connection closed, so a stalled upload holds a connection
//! (counted under the per-address cap) for seconds, and at most a route's limit in memory.
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
use tokio::time::Sleep;

/// The body limit of every route that names none. Every form a visitor sends before signing
/// in (a guest's name, an account, a sign-in, a report) is a few hundred bytes; routes that
/// take games or lessons say their own.
pub const SMALLEST: usize = 4 * 1024;

/// What a client whose body was late is told.
pub const TOO_SLOW: &str = "the request's body did not arrive in time";

/// Gives the request's body until `deadline` after its headers.
pub async fn deadline(State(deadline): State<Duration>, request: Request, next: Next) -> Response {
    if request.body().is_end_stream() {
        return next.run(request).await;
    }
    let late = Arc::new(AtomicBool::new(false));
    let request = request.map(|body| {
        Body::new(DeadlineBody {
            inner: body,
            timer: Box::pin(tokio::time::sleep(deadline)),
            late: late.clone(),
        })
    });
    let response = next.run(request).await;
    if !late.load(Ordering::Relaxed) {
        return response;
    }
    metrics::counter!("jungle_bodies_too_slow_total").increment(1);
    let mut response = jungle_web::json_rejections::refusal(
        StatusCode::REQUEST_TIMEOUT,
        "too_slow",
        TOO_SLOW.to_owned(),
        None,
    );
    // The rest of the body may still come: the connection cannot be read past it.
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
