//! Headers on every answer that tell the browser to trust only this site: the
//! Content-Security-Policy (scripts, styles, fonts and images from here only, no inline
//! script or style but the page's import map, named by its hash, the WebSocket to this site alone, never framed), `nosniff`, no framing for
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
        "default-src 'none'; script-src 'self' 'sha256-{import_map}'; style-src 'self'; img-src 'self' data:; \
         font-src 'self'; connect-src 'self' {socket}; manifest-src 'self'; \
         frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        import_map = jungle_assets::IMPORT_MAP_SHA256,
    )
}

/// Adds the headers to `response` (those a handler set itself are kept). A content-named
/// file of the client (a module, the styles, the font: `immutable`) is never a document nor a
/// worker, so the policies, which only documents and workers read, would be a few hundred
/// bytes on each of the page's many files for nothing: it carries `nosniff` alone.
pub fn add(policy: &HeaderValue, mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers
        .entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    let subresource = headers
        .get(header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("immutable"));
    if subresource {
        return response;
    }
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert_with(|| policy.clone());
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
        let import_map = format!("'sha256-{}'", jungle_assets::IMPORT_MAP_SHA256);
        assert!(
            policy.contains(&import_map),
            "the page's import map may run"
        );
        let local = content_security_policy("http://127.0.0.1:8080");
        assert!(local.contains("ws://127.0.0.1:8080"));
    }
}
