//! The browser client's files, embedded in the binary at build time (build.rs): each with a
//! strong ETag (a SHA-256 of its bytes) and, for text, its brotli and gzip forms made once.
//! [`respond`] answers a request for one by what the browser accepts (`Accept-Encoding`), and
//! a revalidation that still matches (`If-None-Match`) with `304 Not Modified` and no body.
//!
//! Modules, styles and fonts also have an address named by their content
//! (`js/board.1a2b3c4d5e.js`), cached for a year as `immutable`: a returning player's browser
//! asks for nothing but the page. The page (`index.html`, revalidated on each visit) names
//! them: its import map sends each module's plain address to its content-named one (modules
//! import each other by plain address, unchanged), and a `modulepreload` link for each module
//! the first screen imports lets the browser ask for them all at once. The plain addresses
//! still answer (`no-cache`), for the service worker, the manifests and old pages.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// One file of the client.
#[derive(Debug)]
pub struct Asset {
    /// Below the client's root, with `/` between parts: `js/main.js`.
    pub path: &'static str,
    /// Its content-named address, for modules, styles and fonts: `js/main.1a2b3c4d5e.js`.
    pub hashed: Option<&'static str>,
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

/// The file whose content-named address is `path`, if there is one.
pub fn find_hashed(path: &str) -> Option<&'static Asset> {
    BY_HASHED
        .binary_search_by(|(hashed, _)| (*hashed).cmp(path))
        .ok()
        .map(|at| &ASSETS[BY_HASHED[at].1])
}

/// The page for a browser whose `Accept-Language` is `accept`: `index.zh.html` (or
/// `index.zh-Hant.html`, for Taiwan, Hong Kong and Macau) preloads the Chinese words a reader
/// of Chinese is shown, as the client chooses by the browser's first language; otherwise
/// `index.html`.
pub fn page_for(accept: Option<&str>) -> &'static str {
    let first = accept
        .and_then(|value| value.split(',').next())
        .map(|tag| {
            tag.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    if !first.starts_with("zh") {
        return "index.html";
    }
    let traditional = ["zh-hant", "zh-tw", "zh-hk", "zh-mo"]
        .iter()
        .any(|t| first == *t || first.starts_with(&format!("{t}-")));
    if traditional {
        "index.zh-Hant.html"
    } else {
        "index.zh.html"
    }
}

/// How long a browser may keep a file without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caching {
    /// Asked again on each use (the answer is a 304 while it is the same).
    Revalidate,
    /// A year, never asked again: the address names the content.
    Immutable,
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
/// still the one; kept by the browser as `caching` says.
pub fn respond(asset: &'static Asset, headers: &HeaderMap, caching: Caching) -> Response {
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
    let cache_control = match caching {
        Caching::Revalidate => "no-cache",
        Caching::Immutable => "public, max-age=31536000, immutable",
    };
    out.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
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

    fn page() -> &'static str {
        std::str::from_utf8(find("index.html").unwrap().raw).unwrap()
    }

    /// The content-named address of the file at `path`, as the page names it.
    fn address(path: &str) -> String {
        format!("/{}", find(path).unwrap().hashed.expect(path))
    }

    #[test]
    fn the_page_preloads_every_module_main_imports_at_its_content_address() {
        let page = page();
        for module in [
            "js/i18n.js",
            "js/api.js",
            "js/session.js",
            "js/components/account.js",
        ] {
            let link = format!("<link rel=\"modulepreload\" href=\"{}\">", address(module));
            assert!(page.contains(&link), "{module}");
        }
        assert!(page.contains(&format!(
            "<script type=\"module\" src=\"{}\">",
            address("js/main.js")
        )));
        assert!(
            !page.contains("modulepreload\" href=\"/js/main"),
            "main.js is loaded by its script"
        );
        let game = format!("modulepreload\" href=\"{}", address("js/views/game.js"));
        assert!(
            !page.contains(&game),
            "a page imported on demand is not preloaded"
        );
        let types = format!("modulepreload\" href=\"{}", address("js/types.js"));
        assert!(!page.contains(&types), "a JSDoc type is no import");
        assert!(page.contains(&format!("href=\"{}\"", address("css/app.css"))));
        assert!(page.contains(&format!(
            "href=\"{}\"",
            address("fonts/jungle-glyphs.woff2")
        )));
        assert!(page.contains(&format!(
            "<meta name=\"jungle-client\" content=\"{CLIENT_VERSION}\">"
        )));
    }

    #[test]
    fn the_import_map_sends_every_module_to_its_content_address_and_the_policy_knows_it() {
        use base64::Engine as _;
        use sha2::Digest as _;
        let page = page();
        let (_, rest) = page.split_once("<script type=\"importmap\">").unwrap();
        let (map, _) = rest.split_once("</script>").unwrap();
        let digest = sha2::Sha256::digest(map.as_bytes());
        assert_eq!(
            IMPORT_MAP_SHA256,
            base64::engine::general_purpose::STANDARD.encode(digest)
        );
        let modules = ASSETS
            .iter()
            .filter(|a| a.path.starts_with("js/") && a.path.ends_with(".js"));
        for module in modules {
            let entry = format!("\"/{}\":\"{}\"", module.path, address(module.path));
            assert!(map.contains(&entry), "{}", module.path);
        }
        assert!(!map.contains("sw.js"), "the worker keeps its name");
        let first = page.find("importmap").unwrap();
        let first_module = page.find("type=\"module\"").unwrap();
        assert!(first < first_module, "the map comes before any module");
    }

    #[test]
    fn content_addresses_find_their_file_and_change_with_it() {
        for asset in ASSETS.iter().filter(|a| a.hashed.is_some()) {
            let hashed = asset.hashed.unwrap();
            assert!(
                std::ptr::eq(find_hashed(hashed).unwrap(), asset),
                "{hashed}"
            );
            assert_ne!(hashed, asset.path);
        }
        assert!(
            find("index.html").unwrap().hashed.is_none(),
            "the page keeps its name"
        );
        assert!(find("sw.js").unwrap().hashed.is_none());
        assert!(find_hashed("js/main.js").is_none());
        assert!(
            find_hashed("js/main.0000000000.js").is_none(),
            "an old version is gone"
        );
        // The styles name the font by its new address, so their own address follows it.
        let css = std::str::from_utf8(find("css/app.css").unwrap().raw).unwrap();
        assert!(css.contains(&address("fonts/jungle-glyphs.woff2")));
        // The worker's cache is named by the version.
        let worker = std::str::from_utf8(find("sw.js").unwrap().raw).unwrap();
        assert!(worker.contains(&format!("const VERSION = '{CLIENT_VERSION}';")));
    }

    #[tokio::test]
    async fn a_content_address_is_kept_a_year_and_a_plain_one_is_revalidated() {
        let js = find("js/main.js").unwrap();
        let kept = respond(js, &request(&[]), Caching::Immutable);
        assert_eq!(
            kept.headers()[header::CACHE_CONTROL],
            "public, max-age=31536000, immutable"
        );
        let asked = respond(js, &request(&[]), Caching::Revalidate);
        assert_eq!(asked.headers()[header::CACHE_CONTROL], "no-cache");
    }

    #[test]
    fn a_reader_of_chinese_gets_the_page_that_preloads_its_words() {
        assert_eq!(page_for(None), "index.html");
        assert_eq!(page_for(Some("en-GB,en;q=0.9,zh;q=0.5")), "index.html");
        assert_eq!(page_for(Some("zh-CN,zh;q=0.9")), "index.zh.html");
        assert_eq!(page_for(Some("zh")), "index.zh.html");
        assert_eq!(page_for(Some("zh-TW")), "index.zh-Hant.html");
        assert_eq!(page_for(Some("zh-Hant-HK;q=1")), "index.zh-Hant.html");
        for (page, table) in [
            ("index.zh.html", "js/strings_zh.js"),
            ("index.zh-Hant.html", "js/strings_zh_hant.js"),
        ] {
            let text = std::str::from_utf8(find(page).unwrap().raw).unwrap();
            let link = format!("<link rel=\"modulepreload\" href=\"{}\">", address(table));
            assert!(text.contains(&link), "{page}");
            assert!(text.contains("<html lang=\"zh"), "{page} says its language");
            assert!(
                !text.contains("href=\"/manifest.webmanifest\""),
                "{page} links its language's manifest"
            );
        }
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
        let response = respond(
            js,
            &request(&[(header::ACCEPT_ENCODING, "br")]),
            Caching::Revalidate,
        );
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
        let response = respond(
            js,
            &request(&[(header::ACCEPT_ENCODING, "gzip")]),
            Caching::Revalidate,
        );
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
        let first = respond(
            css,
            &request(&[(header::ACCEPT_ENCODING, "br")]),
            Caching::Revalidate,
        );
        let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.ends_with("-br\""), "{etag}");
        let again = respond(
            css,
            &request(&[
                (header::ACCEPT_ENCODING, "br"),
                (header::IF_NONE_MATCH, &etag),
            ]),
            Caching::Revalidate,
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
            Caching::Revalidate,
        );
        assert_eq!(other.status(), StatusCode::OK);
        let weak = respond(
            css,
            &request(&[
                (header::ACCEPT_ENCODING, "br"),
                (header::IF_NONE_MATCH, &format!("W/{etag}")),
            ]),
            Caching::Revalidate,
        );
        assert_eq!(weak.status(), StatusCode::NOT_MODIFIED);
    }
}
