//! Whose request this is: the TCP peer's address, or, when the peer is a reverse proxy the
//! operator named with `--trusted-proxy`, the client address that proxy put in
//! `X-Forwarded-For`. The header is never read from anyone else, since any client can write it.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;

/// The address limits are counted by (see [`TrustedProxies::client_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// A request that reached the handlers without passing through our accept loop (a unit test
/// calling the router directly) counts as coming from the unspecified address.
impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .or_else(|| {
                parts
                    .extensions
                    .get::<axum::extract::ConnectInfo<SocketAddr>>()
                    .map(|info| ClientAddr(info.0.ip()))
            })
            .unwrap_or(ClientAddr(IpAddr::from([0, 0, 0, 0]))))
    }
}

/// The reverse proxies whose `X-Forwarded-For` is believed.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Vec<IpAddr>);

impl TrustedProxies {
    pub fn new(proxies: Vec<IpAddr>) -> TrustedProxies {
        TrustedProxies(proxies.into_iter().map(canonical).collect())
    }

    pub fn trusts(&self, peer: IpAddr) -> bool {
        self.0.contains(&canonical(peer))
    }

    /// The client behind a request from `peer`. From a trusted proxy: the right-most address
    /// in `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address
    /// it saw, so entries further left were written by the client and prove nothing). If that
    /// entry is missing or not an address, the proxy's own address is used, so a malformed
    /// header buys nobody a fresh set of limits.
    pub fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect();
        for hop in hops.into_iter().rev() {
            match hop.parse::<IpAddr>() {
                Ok(ip) if self.trusts(ip) => continue,
                Ok(ip) => return canonical(ip),
                Err(_) => return peer,
            }
        }
        peer
    }
}

/// IPv4 addresses written as IPv6 (`::ffff:1.2.3.4`, from a dual-stack socket) as IPv4, so
/// one client is one key whichever way it came.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for value in values {
            map.append("x-forwarded-for", value.parse().unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_header_is_ignored_unless_the_peer_is_a_trusted_proxy() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_of(ip("127.0.0.1"), &headers(&["10.0.0.9"])),
            ip("127.0.0.1")
        );
        let proxy = TrustedProxies::new(vec![ip("127.0.0.1")]);
        assert_eq!(
            proxy.client_of(ip("192.0.2.7"), &headers(&["10.0.0.9"])),
            ip("192.0.2.7")
        );
        assert_eq!(
            proxy.client_of(ip("127.0.0.1"), &headers(&["10.0.0.9"])),
            ip("10.0.0.9")
        );
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        let proxies = TrustedProxies::new(vec![ip("127.0.0.1"), ip("10.1.1.1")]);
        // The client wrote "6.6.6.6" itself; the first proxy saw 203.0.113.5, the second the
        // first proxy.
        let forwarded = headers(&["6.6.6.6, 203.0.113.5", "10.1.1.1"]);
        assert_eq!(
            proxies.client_of(ip("127.0.0.1"), &forwarded),
            ip("203.0.113.5")
        );
        assert_eq!(
            proxies.client_of(ip("127.0.0.1"), &headers(&["2001:db8::1"])),
            ip("2001:db8::1")
        );
        assert_eq!(
            proxies.client_of(ip("::ffff:127.0.0.1"), &headers(&["::ffff:198.51.100.2"])),
            ip("198.51.100.2")
        );
    }

    #[test]
    fn a_missing_or_malformed_header_counts_as_the_proxy() {
        let proxy = TrustedProxies::new(vec![ip("127.0.0.1")]);
        for bad in [
            &[][..],
            &["not an address"],
            &["10.0.0.1, 10.0.0.2:80"],
            &[""],
        ] {
            assert_eq!(
                proxy.client_of(ip("127.0.0.1"), &headers(bad)),
                ip("127.0.0.1"),
                "{bad:?}"
            );
        }
        // Only proxies on the way: the last proxy's view is all there is.
        assert_eq!(
            proxy.client_of(ip("127.0.0.1"), &headers(&["127.0.0.1"])),
            ip("127.0.0.1")
        );
    }
}
