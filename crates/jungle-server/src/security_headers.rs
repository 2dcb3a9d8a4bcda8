//! Headers on every answer that tell the browser to trust only this site: the
//! Content-Security-Policy (scripts, styles, fonts and images from here only, no inline
//! script or style, the WebSocket to this site alone, never framed), `nosniff`, no framing for
//! older browsers, and a referrer that never leaves the site (room links carry codes).

use axum::http::{header, HeaderValue};
use axum::response::Response;

/// The policy for `public_url` (the WebSocket's origin is written out as well as `'self'`,
/// which older browsers do not read as covering `ws:`).
pub fn content_security_policy(public_url: &str) -> String {
    let socket = public_url
        .trim_end_matches('/')
        .replacen("https://", "wss://", 1)
        .replacen("http://", "ws://", 1);
    format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
         font-src 'self'; connect-src 'self' {socket}; manifest-src 'self'; \
         frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    )
}

/// Adds the headers to `response` (those a handler set itself are kept).
pub fn add(policy: &HeaderValue, mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert_with(|| policy.clone());
    headers
        .entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    headers
        .entry(header::X_FRAME_OPTIONS)
        .or_insert(HeaderValue::from_static("DENY"));
    headers
        .entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("same-origin"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_socket_is_allowed_at_the_sites_own_origin() {
        let policy = content_security_policy("https://jungle.example/");
        assert!(policy.contains("connect-src 'self' wss://jungle.example;"));
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(!policy.contains("unsafe"));
        let local = content_security_policy("http://127.0.0.1:8080");
        assert!(local.contains("ws://127.0.0.1:8080"));
    }
}
