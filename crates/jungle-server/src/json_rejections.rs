//! Every `/api/` answer is JSON, refusals included. axum's own refusals of a request it could
//! not read (a path segment that is no id, a query that does not parse, a missing body) are
//! plain text; here they become the API's `{"error", "message"}`.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

/// Longest refusal text read back (axum's are a line).
const MOST: usize = 4 * 1024;

pub async fn middleware(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let response = next.run(request).await;
    let plain = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/plain"));
    if !api || !plain || !response.status().is_client_error() {
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
    let body = serde_json::to_vec(&jungle_protocol::http::AccountError {
        error: code.to_owned(),
        message: text.trim().to_owned(),
    })
    .expect("errors serialize");
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}
