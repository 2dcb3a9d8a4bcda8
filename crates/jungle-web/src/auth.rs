//! Who a request is, and whether to believe it came from our pages: tokens (made, hashed,
//! found on a request), the cookie they may ride in, and the origins a browser may act from.
//! Secrets are stored only as their SHA-256.

use axum::http::{header, HeaderMap};
use sha2::{Digest, Sha256};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "jungle_session";

/// A token's stored form: its SHA-256, in hex.
pub fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new secret: 32 random bytes, in hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("system randomness");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token a request carries: `Authorization: Bearer …`, else the session cookie.
pub fn presented_token(headers: &HeaderMap) -> Option<String> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    if let Some(token) = bearer {
        return Some(token.to_owned());
    }
    cookie(headers, SESSION_COOKIE)
}

/// The value of the cookie `name`, if the request carries it.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(cookie, value)| *cookie == name && !value.is_empty())
        .map(|(_, value)| value.to_owned())
}

/// The origins a browser may connect from.
#[derive(Debug)]
pub struct Origins(Vec<String>);

impl Origins {
    pub fn new(configured: &[String], own: &str) -> Origins {
        let mut list: Vec<String> = configured
            .iter()
            .map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase())
            .filter(|o| !o.is_empty())
            .collect();
        if list.is_empty() {
            list.push(own.trim_end_matches('/').to_ascii_lowercase());
            if let Some(rest) = own.strip_prefix("http://127.0.0.1:") {
                list.push(format!("http://localhost:{rest}"));
            }
        }
        Origins(list)
    }

    pub fn allows(&self, origin: &str) -> bool {
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        self.0.iter().any(|o| o == "*" || *o == origin)
    }
}

/// A browser's request from a page not ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("requests from another site are not accepted")]
pub struct ForeignOrigin;

/// A browser's state-changing request must come from one of our pages. Programs send no
/// `Origin` and are let through: they hold their tokens themselves.
pub fn same_origin(origins: &Origins, headers: &HeaderMap) -> Result<(), ForeignOrigin> {
    match headers.get(header::ORIGIN) {
        None => Ok(()),
        Some(origin) if origin.to_str().is_ok_and(|o| origins.allows(o)) => Ok(()),
        Some(_) => Err(ForeignOrigin),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_hashed() {
        let token = new_token();
        assert_eq!(token.len(), 64);
        assert_ne!(token, new_token());
        assert_eq!(hash_token(&token).len(), 64);
        assert_ne!(hash_token(&token), token);
    }

    #[test]
    fn tokens_come_from_the_header_or_the_cookie() {
        let mut headers = HeaderMap::new();
        assert_eq!(presented_token(&headers), None);
        headers.insert(
            header::COOKIE,
            "a=1; jungle_session=abc; b=2".parse().unwrap(),
        );
        assert_eq!(presented_token(&headers).as_deref(), Some("abc"));
        headers.insert(header::AUTHORIZATION, "Bearer xyz".parse().unwrap());
        assert_eq!(presented_token(&headers).as_deref(), Some("xyz"));
    }

    #[test]
    fn a_foreign_origin_is_refused_and_none_is_a_program() {
        let origins = Origins::new(&[], "https://jungle.example");
        let mut headers = HeaderMap::new();
        assert_eq!(same_origin(&origins, &headers), Ok(()));
        headers.insert(header::ORIGIN, "https://Jungle.example/".parse().unwrap());
        assert_eq!(same_origin(&origins, &headers), Ok(()));
        headers.insert(header::ORIGIN, "https://evil.example".parse().unwrap());
        assert_eq!(same_origin(&origins, &headers), Err(ForeignOrigin));
    }
}
