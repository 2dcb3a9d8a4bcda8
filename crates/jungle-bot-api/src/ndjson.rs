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
    /// When a line last went out: the next empty one is due [`KEEP_ALIVE`] after it, however
    /// much else the writer handled meanwhile that made no line (a game's moves on the event
    /// stream make none: a stream once went silent for as long as a game moved).
    last_line: tokio::time::Instant,
}

impl Lines {
    /// Writes `values`, one a line (nothing for none); false once the reader is gone or stuck.
    pub async fn write(&mut self, values: Vec<Value>) -> bool {
        if values.is_empty() {
            return true;
        }
        self.send(text(&values)).await
    }

    /// When the empty line that keeps the answer open is due.
    pub fn keep_alive_due(&self) -> tokio::time::Instant {
        self.last_line + KEEP_ALIVE
    }

    /// The empty line that keeps the answer open.
    pub async fn keep_alive(&mut self) -> bool {
        self.send("\n".to_owned()).await
    }

    /// Resolves when the reader has gone (the client closed the answer).
    pub async fn closed(&self) {
        self.tx.closed().await
    }

    /// Writes `values` if there is room now (an answer written all at once, then ended).
    pub fn write_now(&self, values: Vec<Value>) {
        let _ = self.tx.try_send(Ok(Bytes::from(text(&values))));
    }

    async fn send(&mut self, text: String) -> bool {
        self.last_line = tokio::time::Instant::now();
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
    let lines = Lines {
        tx,
        last_line: tokio::time::Instant::now(),
    };
    (lines, response)
}
