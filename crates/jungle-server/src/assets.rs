//! The browser client. Embedded in the binary at build time, so a server started from any
//! directory serves it; `--static-dir` (`JUNGLE_STATIC_DIR`) serves a directory instead, for
//! working on the client without rebuilding.
//!
//! Client routes (`/`, `/g/…`, `/r/…`, `/rules/…`) get the app's page; files get their bytes
//! with their type; anything else a real 404 page.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::RustEmbed)]
#[folder = "../../static/"]
struct Embedded;

/// Where the client's files come from.
#[derive(Clone, Debug)]
pub enum Assets {
    Embedded,
    Dir(Arc<PathBuf>),
}

const NOT_FOUND_PAGE: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Not found · Jungle Arena</title></head>\
<body style=\"font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem\">\
<h1>Not found · 页面不存在</h1><p>There is nothing at this address.</p><p><a href=\"/\">Jungle Arena · 斗兽棋</a></p></body></html>";

impl Assets {
    pub fn new(dir: Option<&str>) -> Assets {
        match dir {
            Some(dir) => Assets::Dir(Arc::new(PathBuf::from(dir))),
            None => Assets::Embedded,
        }
    }

    /// A file's bytes by its path below the client's root (`js/main.js`), if it exists.
    /// Paths with empty, `.` or `..` segments are never looked up.
    pub async fn get(&self, path: &str) -> Option<Cow<'static, [u8]>> {
        let clean = !path.is_empty()
            && path
                .split('/')
                .all(|seg| !seg.is_empty() && seg != "." && seg != ".." && !seg.contains('\\'));
        if !clean {
            return None;
        }
        match self {
            Assets::Embedded => Embedded::get(path).map(|file| file.data),
            Assets::Dir(root) => tokio::fs::read(root.join(path)).await.ok().map(Cow::Owned),
        }
    }
}

fn respond(path: &str, bytes: Cow<'static, [u8]>) -> Response {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let mut response = (StatusCode::OK, bytes.into_owned()).into_response();
    if let Ok(value) = HeaderValue::from_str(mime.essence_str()) {
        response.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    // Plain ES modules without a build step have no hashed names: revalidate each load.
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        NOT_FOUND_PAGE,
    )
        .into_response()
}

/// The app's page, for every client route.
pub async fn app_page(State(assets): State<Assets>) -> Response {
    match assets.get("index.html").await {
        Some(bytes) => respond("index.html", bytes),
        None => {
            tracing::error!("the client's index.html is missing");
            not_found()
        }
    }
}

/// A file of the client, or a 404: for an address a person might type (no file extension,
/// not the API), the app's own page in its style and their language, with status 404; for
/// anything else the plain page.
pub async fn file(State(assets): State<Assets>, request: Request) -> Response {
    let path = request.uri().path().trim_start_matches('/');
    if let Some(bytes) = assets.get(path).await {
        return respond(path, bytes);
    }
    let page_like =
        !path.starts_with("api/") && !path.rsplit('/').next().unwrap_or("").contains('.');
    match assets.get("index.html").await {
        Some(bytes) if page_like => {
            let mut response = respond("index.html", bytes);
            *response.status_mut() = StatusCode::NOT_FOUND;
            response
        }
        _ => not_found(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn embedded_files_are_found_and_paths_that_climb_are_not() {
        let assets = Assets::Embedded;
        assert!(assets.get("index.html").await.is_some());
        assert!(assets.get("js/main.js").await.is_some());
        assert!(assets.get("favicon.ico").await.is_some());
        assert!(assets.get("nope").await.is_none());
        let dir = Assets::new(Some(concat!(env!("CARGO_MANIFEST_DIR"), "/src")));
        assert!(dir.get("assets.rs").await.is_some());
        for bad in [
            "",
            "../Cargo.toml",
            "./assets.rs",
            "a//b",
            "..",
            "x/../assets.rs",
        ] {
            assert!(dir.get(bad).await.is_none(), "{bad}");
        }
    }
}
