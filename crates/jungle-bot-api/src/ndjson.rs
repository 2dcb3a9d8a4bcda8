//! Answers that last: newline-delimited JSON written by a task for as long as the client
//! reads, an empty line when there is nothing to say (so proxies keep the answer open), and
//! the end when the client stops reading for [`STUCK`] (nothing is buffered for it beyond a
//! few lines).

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tokio::sync::mpsc;

/// At most this long between two lines: an empty one is written when nothing else is.
pub const KEEP_ALIVE: Duration = Duration::from_secs(7);
/// A client that has not taken a line for this long is not reading: the answer ends.
const STUCK: Duration = Duration::from_secs(30);
/// Lines held for a slow reader.
const HELD: usize = 8;

/// The writing end of one answer.
pub struct Lines {
    tx: mpsc::Sender<Result<Bytes, std::io::Error>>,
}

impl Lines {
    /// Writes `values`, one a line (nothing for none); false once the reader is gone or stuck.
    pub async fn write(&self, values: Vec<Value>) -> bool {
        if values.is_empty() {
            return true;
        }
        self.send(text(&values)).await
    }

    /// The empty line that keeps the answer open.
    pub async fn keep_alive(&self) -> bool {
        self.send("\n".to_owned()).await
    }

    /// Writes `values` if there is room now (an answer written all at once, then ended).
    pub fn write_now(&self, values: Vec<Value>) {
        let _ = self.tx.try_send(Ok(Bytes::from(text(&values))));
    }

    async fn send(&self, text: String) -> bool {
        matches!(
            tokio::time::timeout(STUCK, self.tx.send(Ok(Bytes::from(text)))).await,
            Ok(Ok(()))
        )
    }
}

fn text(values: &[Value]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

/// A new answer: its writing end, and the response that reads it out.
pub fn answer() -> (Lines, Response) {
    let (tx, rx) = mpsc::channel(HELD);
    let body = Body::from_stream(futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|line| (line, rx))
    }));
    let response = ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response();
    (Lines { tx }, response)
}
