//! The browser client's files, embedded in the binary at build time (build.rs): each with a
//! strong ETag (a SHA-256 of its bytes) and, for text, its brotli and gzip forms made once.
//! [`respond`] answers a request for one by what the browser accepts (`Accept-Encoding`), and
//! a revalidation that still matches (`If-None-Match`) with `304 Not Modified` and no body.
//!
//! The page (`index.html`) is given a `modulepreload` link for each module the client
//! imports, found at build time, so the browser asks for them all at once.
//!
//! Addresses are not hashed yet, so every file is revalidated on each use (`no-cache`): a
//! returning player's browser asks, and gets a few hundred bytes back instead of the file.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// One file of the client.
#[derive(Debug)]
pub struct Asset {
    /// Below the client's root, with `/` between parts: `js/main.js`.
    pub path: &'static str,
    /// The strong ETag of its bytes, quoted: `"0a1b…"`.
    pub etag: &'static str,
    pub raw: &'static [u8],
    /// Brotli and gzip forms, where they are smaller than the file.
    pub br: Option<&'static [u8]>,
    pub gz: Option<&'static [u8]>,
}

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The file at `path` below the client's root, if there is one.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS
        .binary_search_by(|asset| asset.path.cmp(path))
        .ok()
        .map(|index| &ASSETS[index])
}

/// How a file is sent: as is, or compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Identity,
    Brotli,
    Gzip,
}

impl Encoding {
    fn token(self) -> Option<&'static str> {
        match self {
            Encoding::Identity => None,
            Encoding::Brotli => Some("br"),
            Encoding::Gzip => Some("gzip"),
        }
    }
}

/// The encoding to send `asset` in for a request that accepts `accept` (an `Accept-Encoding`
/// value): brotli over gzip over none, each only when accepted (a `q` of 0 refuses it) and
/// when the file has that form.
pub fn choose(asset: &Asset, accept: Option<&str>) -> Encoding {
    let accepted = |name: &str| {
        accept.is_some_and(|value| {
            value.split(',').any(|part| {
                let mut pieces = part.split(';');
                let token = pieces.next().unwrap_or("").trim();
                let refused = pieces.any(|p| {
                    let p = p.trim();
                    p.strip_prefix("q=")
                        .and_then(|q| q.trim().parse::<f32>().ok())
                        .is_some_and(|q| q <= 0.0)
                });
                (token.eq_ignore_ascii_case(name) || token == "*") && !refused
            })
        })
    };
    if asset.br.is_some() && accepted("br") {
        Encoding::Brotli
    } else if asset.gz.is_some() && accepted("gzip") {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

/// The ETag of `asset` sent in `encoding`: each form its own (they are other bytes).
fn etag_of(asset: &Asset, encoding: Encoding) -> String {
    match encoding.token() {
        None => asset.etag.to_owned(),
        Some(token) => format!("{}-{token}\"", asset.etag.trim_end_matches('"')),
    }
}

/// Whether `if_none_match` names the form about to be sent (or `*`).
fn still_fresh(if_none_match: Option<&str>, etag: &str) -> bool {
    if_none_match.is_some_and(|value| {
        value
            .split(',')
            .map(|tag| tag.trim().trim_start_matches("W/"))
            .any(|tag| tag == "*" || tag == etag)
    })
}

/// `asset` for a request with `headers`: compressed as it accepts, or `304` when its copy is
/// still the one.
pub fn respond(asset: &'static Asset, headers: &HeaderMap) -> Response {
    let accept = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok());
    let encoding = choose(asset, accept);
    let etag = etag_of(asset, encoding);
    let if_none_match = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    let mut response = if still_fresh(if_none_match, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let body: &'static [u8] = match encoding {
            Encoding::Brotli => asset.br.unwrap_or(asset.raw),
            Encoding::Gzip => asset.gz.unwrap_or(asset.raw),
            Encoding::Identity => asset.raw,
        };
        let mut response = (StatusCode::OK, body).into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, content_type(asset.path));
        if let Some(token) = encoding.token() {
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static(token));
        }
        response
    };
    let out = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, value);
    }
    out.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// The `Content-Type` of a file by its name; text says its charset.
pub fn content_type(path: &str) -> HeaderValue {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let text = mime.type_() == "text" || mime.essence_str() == "application/javascript";
    let value = if text {
        format!("{}; charset=utf-8", mime.essence_str())
    } else {
        mime.essence_str().to_owned()
    };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    async fn body(response: Response) -> Vec<u8> {
        use http_body_util::BodyExt;
        response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec()
    }

    #[test]
    fn every_file_is_found_by_its_path() {
        assert!(find("index.html").is_some());
        assert!(find("js/main.js").is_some());
        assert!(find("fonts/jungle-glyphs.woff2").is_some());
        assert!(find("nope.js").is_none());
        assert!(
            ASSETS.windows(2).all(|w| w[0].path < w[1].path),
            "sorted for the search"
        );
    }

    #[test]
    fn the_page_preloads_every_module_main_imports() {
        let page = std::str::from_utf8(find("index.html").unwrap().raw).unwrap();
        for module in [
            "/js/i18n.js",
            "/js/board.js",
            "/js/animals.js",
            "/js/views/game/panels.js",
        ] {
            assert!(
                page.contains(&format!("<link rel=\"modulepreload\" href=\"{module}\">")),
                "{module}"
            );
        }
        assert!(
            !page.contains("modulepreload\" href=\"/js/main.js"),
            "main.js is loaded by its script"
        );
        assert!(!page.contains("types.js"), "a JSDoc type is no import");
    }

    #[test]
    fn the_best_accepted_encoding_is_chosen() {
        let js = find("js/main.js").unwrap();
        assert!(js.br.is_some() && js.gz.is_some(), "text is compressed");
        assert_eq!(
            choose(js, Some("gzip, deflate, br, zstd")),
            Encoding::Brotli
        );
        assert_eq!(choose(js, Some("gzip")), Encoding::Gzip);
        assert_eq!(choose(js, Some("br;q=0, gzip;q=0.5")), Encoding::Gzip);
        assert_eq!(choose(js, Some("identity")), Encoding::Identity);
        assert_eq!(choose(js, None), Encoding::Identity);
        assert_eq!(choose(js, Some("*")), Encoding::Brotli);
        let font = find("fonts/jungle-glyphs.woff2").unwrap();
        assert_eq!(
            choose(font, Some("br, gzip")),
            Encoding::Identity,
            "woff2 is packed already"
        );
    }

    #[tokio::test]
    async fn a_compressed_file_unpacks_to_the_file() {
        let js = find("js/main.js").unwrap();
        let response = respond(js, &request(&[(header::ACCEPT_ENCODING, "br")]));
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[header::CONTENT_ENCODING], "br");
        assert_eq!(response.headers()[header::VARY], "Accept-Encoding");
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
        let packed = body(response).await;
        assert!(
            packed.len() < js.raw.len() / 2,
            "{} of {}",
            packed.len(),
            js.raw.len()
        );
        let mut unpacked = Vec::new();
        brotli::BrotliDecompress(&mut &packed[..], &mut unpacked).unwrap();
        assert_eq!(unpacked, js.raw);
        let response = respond(js, &request(&[(header::ACCEPT_ENCODING, "gzip")]));
        let packed = body(response).await;
        let mut unpacked = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(&packed[..]),
            &mut unpacked,
        )
        .unwrap();
        assert_eq!(unpacked, js.raw);
    }

    #[tokio::test]
    async fn a_copy_still_current_is_not_sent_again() {
        let css = find("css/app.css").unwrap();
        let first = respond(css, &request(&[(header::ACCEPT_ENCODING, "br")]));
        let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.ends_with("-br\""), "{etag}");
        let again = respond(
            css,
            &request(&[
                (header::ACCEPT_ENCODING, "br"),
                (header::IF_NONE_MATCH, &etag),
            ]),
        );
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(again.headers()[header::ETAG], etag.as_str());
        assert!(body(again).await.is_empty());
        // The tag of another form (or of another file) does not stand for this one.
        let other = respond(
            css,
            &request(&[
                (header::ACCEPT_ENCODING, "gzip"),
                (header::IF_NONE_MATCH, &etag),
            ]),
        );
        assert_eq!(other.status(), StatusCode::OK);
        let weak = respond(
            css,
            &request(&[
                (header::ACCEPT_ENCODING, "br"),
                (header::IF_NONE_MATCH, &format!("W/{etag}")),
            ]),
        );
        assert_eq!(weak.status(), StatusCode::NOT_MODIFIED);
    }
}
