//! Every `/api/` answer is JSON, refusals included. axum's own refusals of a request it could
//! not read (a path segment that is no id, a query that does not parse, a missing body, a
//! method no route takes) are plain text or empty; here they become the API's
//! `{"error", "code", "message"}`, as every refusal of ours. A path under `/api` that names nothing is a JSON 404 ([`unknown`]),
//! not the client's page. A page we answer on purpose (a mail's link, followed in a browser,
//! that is used or unknown) stays a page.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Longest refusal text read back (axum's are a line).
const MOST: usize = 4 * 1024;

pub async fn middleware(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let response = next.run(request).await;
    // axum's own refusals are plain text, or nothing at all (a method no route takes).
    let ours = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/html"));
    if !api || ours || !response.status().is_client_error() {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, MOST).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => String::new(),
    };
    let code = match parts.status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "bad_request",
        StatusCode::TOO_MANY_REQUESTS => "rate_limited",
        _ => "bad_request",
    };
    // Said in our words where axum's are about itself; else its line (which names the
    // field or path segment that did not read).
    let message = match (parts.status, text.trim()) {
        (StatusCode::PAYLOAD_TOO_LARGE, _) => "the body is too large".to_owned(),
        (StatusCode::METHOD_NOT_ALLOWED, _) => "this path does not take that method".to_owned(),
        (status, "") => status.canonical_reason().unwrap_or("refused").to_owned(),
        (_, text) => text.to_owned(),
    };
    let body = serde_json::to_vec(&jungle_protocol::http::ApiError::new(code, message))
        .expect("errors serialize");
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}

/// Any `/api` path no route takes.
pub async fn unknown() -> Response {
    let body = jungle_protocol::http::ApiError::new("not_found", "no such API request");
    let mut response = axum::Json(body).into_response();
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

/// A refusal of one of our own handlers as the API's JSON: `status`, its `code` and `message`,
/// with `Retry-After` when it was a rate limit.
pub fn refusal(
    status: StatusCode,
    code: &str,
    message: String,
    limited: Option<&jungle_limits::RateLimited>,
) -> Response {
    let body = axum::Json(jungle_protocol::http::ApiError::new(code, message));
    match limited {
        Some(limited) => {
            let wait = limited.seconds().to_string();
            (status, [(header::RETRY_AFTER, wait)], body).into_response()
        }
        None => (status, body).into_response(),
    }
}

/// What a client is told of a failure of ours: nothing of it (it is logged here).
pub fn internal(what: &str, error: &dyn std::fmt::Display) -> String {
    tracing::error!(error = %error, "{what} failed");
    "something went wrong on our side".to_owned()
}
