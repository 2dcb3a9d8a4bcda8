//! The Bot API as the bridge speaks it: requests with the token, one at a time (the server
//! takes one action at a time per token), waiting out `429` as `Retry-After` asks, and the
//! newline-delimited JSON streams read a line at a time.

use std::time::Duration;

use serde_json::Value;
use tokio::sync::Mutex;

/// Attempts of one request refused with 429 before giving up.
const ATTEMPTS: u32 = 20;

pub struct Api {
    http: reqwest::Client,
    base: String,
    token: String,
    /// Held while a request is under way.
    turn: Mutex<()>,
}

/// A request's failure.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    Http(#[from] reqwest::Error),
    /// The server answered with an error: its status, code and message.
    #[error("{status} {code}: {message}")]
    Refused {
        status: u16,
        code: String,
        message: String,
    },
}

impl Api {
    pub fn new(base: &str, token: &str) -> Api {
        Api {
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(10))
                .build()
                .expect("an HTTP client"),
            base: base.trim_end_matches('/').to_owned(),
            token: token.to_owned(),
            turn: Mutex::new(()),
        }
    }

    /// POSTs to `path` (with a form, if any); the answer's JSON.
    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> Result<Value, ApiError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let response = {
                let _turn = self.turn.lock().await;
                let mut request = self
                    .http
                    .post(format!("{}{path}", self.base))
                    .bearer_auth(&self.token)
                    .timeout(Duration::from_secs(30));
                if !form.is_empty() {
                    request = request.form(form);
                }
                request.send().await?
            };
            let status = response.status().as_u16();
            if status == 429 && attempt < ATTEMPTS {
                let wait = retry_after(&response);
                tokio::time::sleep(wait).await;
                continue;
            }
            let body: Value = response.json().await.unwrap_or(Value::Null);
            if (200..300).contains(&status) {
                return Ok(body);
            }
            return Err(refused(status, &body));
        }
    }

    /// Opens the stream at `path`.
    pub async fn stream(&self, path: &str) -> Result<Lines, ApiError> {
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await?;
        let status = response.status().as_u16();
        if status != 200 {
            let body: Value = response.json().await.unwrap_or(Value::Null);
            return Err(refused(status, &body));
        }
        Ok(Lines {
            response,
            buffer: Vec::new(),
        })
    }
}

fn refused(status: u16, body: &Value) -> ApiError {
    ApiError::Refused {
        status,
        code: body["code"].as_str().unwrap_or("").to_owned(),
        message: body["message"].as_str().unwrap_or("").to_owned(),
    }
}

/// How long a `429` asks to wait (a second when it does not say).
fn retry_after(response: &reqwest::Response) -> Duration {
    let seconds = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(1);
    Duration::from_secs(seconds.clamp(1, 60))
}

/// A stream's lines as they come.
pub struct Lines {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

/// The server sends an empty line every 7 s: a stream silent for this long is gone.
const SILENCE: Duration = Duration::from_secs(30);

impl Lines {
    /// The next line that is not a keep-alive; `None` once the stream ended or broke.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match serde_json::from_slice(&line) {
                    Ok(value) => return Some(value),
                    Err(e) => {
                        eprintln!("jungle bot: a line that is not JSON ({e}); skipped");
                        continue;
                    }
                }
            }
            let chunk = tokio::time::timeout(SILENCE, self.response.chunk()).await;
            match chunk {
                Ok(Ok(Some(chunk))) => self.buffer.extend_from_slice(&chunk),
                _ => return None,
            }
            if self.buffer.len() > 1 << 20 {
                // No line is this long: the stream is not what we expect.
                return None;
            }
        }
    }
}
