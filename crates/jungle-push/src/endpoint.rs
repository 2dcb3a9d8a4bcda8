//! A push endpoint's URL, read just far enough to know its origin (the VAPID token's audience,
//! RFC 8292 §2) and whether it is on this machine. Endpoints come from browsers, which take
//! them from push services: they are plain ASCII URLs, so no URL crate is needed.

use crate::error::PushError;

/// The parts of an endpoint that matter here: scheme, host and port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Endpoint {
    https: bool,
    /// Lowercase; an IPv6 address keeps its brackets, as an origin writes it.
    host: String,
    /// `None` when absent or the scheme's default, which an origin leaves out (RFC 6454 §6.1).
    port: Option<u16>,
}

impl Endpoint {
    /// Reads an `http://` or `https://` URL with a host; refuses anything else.
    pub(crate) fn parse(url: &str) -> Result<Self, PushError> {
        if !url.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(PushError::BadEndpoint(
                "it must be ASCII without spaces or control characters",
            ));
        }
        let (scheme, rest) = url
            .split_once("://")
            .ok_or(PushError::BadEndpoint("it must be an http or https URL"))?;
        let https = if scheme.eq_ignore_ascii_case("https") {
            true
        } else if scheme.eq_ignore_ascii_case("http") {
            false
        } else {
            return Err(PushError::BadEndpoint("it must be an http or https URL"));
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.contains('@') {
            return Err(PushError::BadEndpoint("it must not carry credentials"));
        }
        let (host, port) = split_host_port(authority)?;
        let default_port = if https { 443 } else { 80 };
        Ok(Self {
            https,
            host: host.to_ascii_lowercase(),
            port: port.filter(|&p| p != default_port),
        })
    }

    /// `scheme://host[:port]`, as the VAPID token's `aud` claim names the push service.
    pub(crate) fn origin(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        match self.port {
            Some(port) => format!("{scheme}://{}:{port}", self.host),
            None => format!("{scheme}://{}", self.host),
        }
    }

    pub(crate) fn is_https(&self) -> bool {
        self.https
    }

    /// Whether the host is this machine, where plain `http://` is allowed for tests.
    pub(crate) fn is_loopback(&self) -> bool {
        matches!(self.host.as_str(), "127.0.0.1" | "[::1]" | "localhost")
    }
}

/// Splits `host[:port]` or `[ipv6][:port]`, checking the characters of each.
fn split_host_port(authority: &str) -> Result<(&str, Option<u16>), PushError> {
    let (host, port) = if authority.starts_with('[') {
        let close = authority.find(']').ok_or(PushError::BadEndpoint(
            "its IPv6 host has no closing bracket",
        ))?;
        let inner = &authority[1..close];
        if inner.is_empty()
            || !inner
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return Err(PushError::BadEndpoint("its IPv6 host is not an address"));
        }
        let after = &authority[close + 1..];
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':').ok_or(PushError::BadEndpoint(
                "only a port may follow its IPv6 host",
            ))?),
        };
        (&authority[..=close], port)
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err(PushError::BadEndpoint("it has no host"));
    }
    if !host.starts_with('[')
        && !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
    {
        return Err(PushError::BadEndpoint(
            "its host has characters no host name has",
        ));
    }
    let port = match port {
        None => None,
        Some(digits) => {
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(PushError::BadEndpoint("its port is not a number"));
            }
            Some(
                digits
                    .parse::<u16>()
                    .map_err(|_| PushError::BadEndpoint("its port is out of range"))?,
            )
        }
    };
    Ok((host, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(url: &str) -> String {
        Endpoint::parse(url).unwrap().origin()
    }

    #[test]
    fn the_origin_is_scheme_host_and_a_port_other_than_the_default() {
        assert_eq!(
            origin("https://fcm.googleapis.com/fcm/send/abc:def"),
            "https://fcm.googleapis.com"
        );
        assert_eq!(
            origin("HTTPS://Updates.Push.Services.Mozilla.com/wpush/v2/x?y#z"),
            "https://updates.push.services.mozilla.com"
        );
        assert_eq!(origin("https://push.example:443/p"), "https://push.example");
        assert_eq!(
            origin("https://push.example:8443/p"),
            "https://push.example:8443"
        );
        assert_eq!(
            origin("http://127.0.0.1:3000/push/1"),
            "http://127.0.0.1:3000"
        );
        assert_eq!(origin("http://[::1]:3000"), "http://[::1]:3000");
        assert_eq!(origin("https://push.example?x"), "https://push.example");
    }

    #[test]
    fn loopback_hosts_are_known() {
        for url in [
            "http://127.0.0.1:1/",
            "http://[::1]/",
            "http://LOCALHOST:9/",
        ] {
            assert!(Endpoint::parse(url).unwrap().is_loopback(), "{url}");
        }
        for url in [
            "http://127.0.0.2/",
            "http://localhost.example/",
            "http://10.0.0.1/",
        ] {
            assert!(!Endpoint::parse(url).unwrap().is_loopback(), "{url}");
        }
    }

    #[test]
    fn what_is_not_an_http_url_with_a_host_is_refused() {
        for url in [
            "",
            "push.example/p",
            "ftp://push.example/p",
            "javascript://push.example",
            "https://",
            "https:///path",
            "https://:443/p",
            "https://user:pw@push.example/p",
            "https://push.example:/p",
            "https://push.example:99999/p",
            "https://push.example:-1/p",
            "https://push example/p",
            "https://push.example/p q",
            "https://push\u{e9}.example/p",
            "https://[::1/p",
            "https://[]/p",
            "https://[::1]x/p",
            "https://a:b:c/p",
        ] {
            assert!(
                matches!(Endpoint::parse(url), Err(PushError::BadEndpoint(_))),
                "{url:?} accepted"
            );
        }
    }
}
