//! The browser client. Embedded in the binary at build time (`jungle-assets`: compressed
//! once, with strong ETags), so a server started from any directory serves it;
//! `--static-dir` (`JUNGLE_STATIC_DIR`) serves a directory instead, for working on the client
//! without rebuilding.
//!
//! Client routes (`/`, `/g/…`, `/r/…`, `/rules/…`) get the app's page; files get their bytes
//! with their type; anything else a real 404 page.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// Where the client's files come from.
#[derive(Clone, Debug)]
pub enum Assets {
    /// Built into the binary (`jungle-assets`): compressed, with ETags.
    Embedded,
    /// A directory read on each request, as the files stand (working on the client).
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

    /// The file at `path` below the client's root (`js/main.js`) for a request with
    /// `headers`, if it exists. Paths with empty, `.` or `..` segments are never looked up.
    pub async fn serve(&self, path: &str, headers: &HeaderMap) -> Option<Response> {
        let clean = !path.is_empty()
            && path
                .split('/')
                .all(|seg| !seg.is_empty() && seg != "." && seg != ".." && !seg.contains('\\'));
        if !clean {
            return None;
        }
        match self {
            Assets::Embedded => {
                use jungle_assets::{find, find_hashed, respond, Caching};
                find(path)
                    .map(|asset| respond(asset, headers, Caching::Revalidate))
                    .or_else(|| {
                        find_hashed(path).map(|asset| respond(asset, headers, Caching::Immutable))
                    })
            }
            Assets::Dir(root) => {
                let bytes = tokio::fs::read(root.join(path)).await.ok()?;
                let mut response = (StatusCode::OK, bytes).into_response();
                let out = response.headers_mut();
                out.insert(header::CONTENT_TYPE, jungle_assets::content_type(path));
                out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
                Some(response)
            }
        }
    }
}

impl Assets {
    /// The app's page for a request with `headers`; its cache keys on the language too.
    async fn page(&self, headers: &HeaderMap) -> Option<Response> {
        let page = match self {
            Assets::Embedded => jungle_assets::page_for(
                headers
                    .get(header::ACCEPT_LANGUAGE)
                    .and_then(|v| v.to_str().ok()),
            ),
            Assets::Dir(_) => "index.html",
        };
        let mut response = self.serve(page, headers).await?;
        response.headers_mut().insert(
            header::VARY,
            HeaderValue::from_static("Accept-Encoding, Accept-Language"),
        );
        Some(response)
    }
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        NOT_FOUND_PAGE,
    )
        .into_response()
}

/// The app's page, for every client route: built into the binary, the page for the browser's
/// language (a reader of Chinese's preloads its words).
pub async fn app_page(State(assets): State<Assets>, headers: HeaderMap) -> Response {
    match assets.page(&headers).await {
        Some(response) => response,
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
    let headers = request.headers();
    if let Some(response) = assets.serve(path, headers).await {
        return response;
    }
    let page_like =
        !path.starts_with("api/") && !path.rsplit('/').next().unwrap_or("").contains('.');
    if page_like {
        // The whole page, never a "not modified" of it: the status is the news.
        let mut asked = headers.clone();
        asked.remove(header::IF_NONE_MATCH);
        if let Some(mut response) = assets.page(&asked).await {
            *response.status_mut() = StatusCode::NOT_FOUND;
            return response;
        }
    }
    not_found()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn embedded_files_are_found_and_paths_that_climb_are_not() {
        let assets = Assets::Embedded;
        let none = HeaderMap::new();
        let hashed = jungle_assets::find("js/main.js").unwrap().hashed.unwrap();
        for path in ["index.html", "js/main.js", "favicon.ico", hashed] {
            let response = assets.serve(path, &none).await.expect(path);
            assert_eq!(response.status(), StatusCode::OK, "{path}");
        }
        assert!(assets.serve("nope", &none).await.is_none());
        let dir = Assets::new(Some(concat!(env!("CARGO_MANIFEST_DIR"), "/src")));
        assert!(dir.serve("assets.rs", &none).await.is_some());
        for bad in [
            "",
            "../Cargo.toml",
            "./assets.rs",
            "a//b",
            "..",
            "x/../assets.rs",
        ] {
            assert!(dir.serve(bad, &none).await.is_none(), "{bad}");
        }
    }
}
