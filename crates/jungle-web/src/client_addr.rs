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

/// An address or a block of them, as `--trusted-proxy` takes it: `127.0.0.1`, `172.16.0.0/12`
/// (Docker's bridge networks), `fd00::/8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressBlock {
    network: IpAddr,
    prefix: u8,
}

impl std::str::FromStr for AddressBlock {
    type Err = String;

    fn from_str(text: &str) -> Result<AddressBlock, String> {
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let network = canonical(
            address
                .trim()
                .parse::<IpAddr>()
                .map_err(|e| format!("{address:?} is not an IP address: {e}"))?,
        );
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(prefix) => prefix
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|&p| p <= bits)
                .ok_or_else(|| format!("{prefix:?} is not a prefix length of 0-{bits}"))?,
        };
        Ok(AddressBlock { network, prefix })
    }
}

impl AddressBlock {
    fn contains(&self, ip: IpAddr) -> bool {
        let keep = |bits: u32| self.prefix as u32 >= bits;
        match (self.network, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = if keep(32) {
                    u32::MAX
                } else {
                    !(u32::MAX >> self.prefix)
                };
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = if keep(128) {
                    u128::MAX
                } else {
                    !(u128::MAX >> self.prefix)
                };
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// The reverse proxies whose `X-Forwarded-For` is believed.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Vec<AddressBlock>);

impl TrustedProxies {
    pub fn new(proxies: Vec<AddressBlock>) -> TrustedProxies {
        TrustedProxies(proxies)
    }

    pub fn trusts(&self, peer: IpAddr) -> bool {
        self.0.iter().any(|block| block.contains(peer))
    }

    /// The client behind a request from `peer`. From a trusted proxy: the right-most address
    /// in `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address
    /// it saw, so entries further left were written by the client and prove nothing). If that
    /// entry is missing or not an address, the proxy's own address is used, so a malformed
    /// header buys nobody a fresh set of limits.
    pub fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
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

    fn proxies(blocks: &[&str]) -> TrustedProxies {
        TrustedProxies::new(blocks.iter().map(|b| b.parse().unwrap()).collect())
    }

    #[test]
    fn blocks_parse_and_contain() {
        let docker = proxies(&["172.16.0.0/12"]);
        assert!(docker.trusts(ip("172.18.0.1")));
        assert!(docker.trusts(ip("::ffff:172.31.255.255")));
        assert!(!docker.trusts(ip("172.32.0.1")));
        let v6 = proxies(&["fd00::/8", "::1"]);
        assert!(v6.trusts(ip("fd12::7")) && v6.trusts(ip("::1")));
        assert!(!v6.trusts(ip("fe80::1")) && !v6.trusts(ip("127.0.0.1")));
        assert!(proxies(&["0.0.0.0/0"]).trusts(ip("203.0.113.9")));
        for bad in ["", "10.0.0.1/33", "10.0.0.0/x", "example.com", "::/129"] {
            assert!(bad.parse::<AddressBlock>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_header_is_ignored_unless_the_peer_is_a_trusted_proxy() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_of(ip("127.0.0.1"), &headers(&["10.0.0.9"])),
            ip("127.0.0.1")
        );
        let proxy = proxies(&["127.0.0.1"]);
        assert_eq!(
            proxy.client_of(ip("192.0.2.7"), &headers(&["10.0.0.9"])),
            ip("192.0.2.7")
        );
        assert_eq!(
            proxy.client_of(ip("127.0.0.1"), &headers(&["10.0.0.9"])),
            ip("10.0.0.9")
        );
    }

    /// A dual-stack listener sees IPv4 peers as `::ffff:a.b.c.d`: they are their IPv4
    /// address, as a proxy and as a client.
    #[test]
    fn an_ipv4_peer_on_a_dual_stack_listener_is_its_ipv4_address() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_of(ip("::ffff:192.0.2.7"), &headers(&[])),
            ip("192.0.2.7")
        );
        let proxy = proxies(&["127.0.0.1"]);
        assert_eq!(
            proxy.client_of(ip("::ffff:127.0.0.1"), &headers(&["10.0.0.9"])),
            ip("10.0.0.9")
        );
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        let proxies = proxies(&["127.0.0.1", "10.1.1.1"]);
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
        let proxy = proxies(&["127.0.0.1"]);
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
