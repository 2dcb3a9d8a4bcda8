//! The pusher: it decides whether a push goes (the account wants it, a browser is
//! subscribed, the event was not pushed yet, the day's cap is not reached), encrypts it for
//! each of the account's browsers and hands it to their push services.

use std::sync::Arc;
use std::time::Duration;

use jungle_protocol::http::PushMessage;
use jungle_push::{Subscription, VapidKeys};
use jungle_store::{PushPreferences, Store, StoreError};
use uuid::Uuid;

use crate::texts;

/// Pushes of one kind a player gets in a day at most: each kind counted apart, so that
/// challenges from strangers cannot use up the pushes of one's own moves.
pub const DAILY_CAP: i64 = 50;
/// Challenges pushed to a player in a day at most.
const DAILY_CHALLENGES: i64 = 20;
/// Tournaments about to start pushed to a player in a day at most.
const DAILY_TOURNAMENTS: i64 = 10;
/// Browsers an account keeps subscribed at most: a new one past this replaces the oldest.
pub const MAX_SUBSCRIPTIONS: i64 = 10;
/// A push service that does not answer in this long is given up on.
const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a VAPID signature is good for (RFC 8292 allows up to a day).
const SIGNATURE_LIFETIME_S: u64 = 12 * 3600;

/// What a push is about, each with its own setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushKind {
    Turn,
    Challenge,
    Tournament,
}

impl PushKind {
    fn wanted(self, preferences: PushPreferences) -> bool {
        match self {
            PushKind::Turn => preferences.turns,
            PushKind::Challenge => preferences.challenges,
            PushKind::Tournament => preferences.tournaments,
        }
    }

    /// How long a push service keeps the message for a browser that is off: a move over days
    /// waits a day; a challenge lapses in a minute.
    fn ttl_seconds(self) -> u64 {
        match self {
            PushKind::Turn => 86_400,
            PushKind::Challenge => 60,
            PushKind::Tournament => 600,
        }
    }

    fn daily_cap(self) -> i64 {
        match self {
            PushKind::Turn => DAILY_CAP,
            PushKind::Challenge => DAILY_CHALLENGES,
            PushKind::Tournament => DAILY_TOURNAMENTS,
        }
    }
}

/// How the pusher is set up.
#[derive(Clone, Debug)]
pub struct PusherConfig {
    /// The site's address, for links and the VAPID contact.
    pub public_url: String,
    /// Push endpoints over plain HTTP to this machine are taken (tests run their own push
    /// service on loopback). Off in production: endpoints are HTTPS to a push service.
    pub allow_loopback_endpoints: bool,
}

/// Sends pushes; cheap to clone.
#[derive(Clone)]
pub struct Pusher {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    keys: VapidKeys,
    /// The VAPID `sub`: how a push service reaches the operator.
    contact: String,
    public_url: String,
    http: reqwest::Client,
    allow_loopback_endpoints: bool,
}

impl std::fmt::Debug for Pusher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pusher")
            .field("public_key", &self.public_key())
            .finish()
    }
}

impl Pusher {
    /// The pusher, with the server's VAPID key: the one kept, or one made now and kept.
    pub async fn start(store: Store, config: PusherConfig) -> Result<Pusher, StoreError> {
        let made = VapidKeys::generate().to_private_base64url();
        let kept = store.vapid_private_key(&made).await?;
        let keys = VapidKeys::from_private_base64url(&kept)
            .map_err(|e| StoreError::Corrupt(format!("the kept VAPID key: {e}")))?;
        let public_url = config.public_url.trim_end_matches('/').to_owned();
        // RFC 8292: a `mailto:` or an `https:` address; a site on plain HTTP (on a laptop)
        // names a mailbox at its host.
        let contact = if public_url.starts_with("https://") {
            public_url.clone()
        } else {
            let host = public_url
                .split("://")
                .nth(1)
                .unwrap_or("localhost")
                .split([':', '/'])
                .next()
                .unwrap_or("localhost");
            format!("mailto:jungle@{host}")
        };
        let http = reqwest::Client::builder()
            .timeout(DELIVERY_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .dns_resolver(Arc::new(PublicAddresses))
            .build()
            .map_err(|e| StoreError::Corrupt(format!("an HTTP client: {e}")))?;
        Ok(Pusher {
            inner: Arc::new(Inner {
                store,
                keys,
                contact,
                public_url,
                http,
                allow_loopback_endpoints: config.allow_loopback_endpoints,
            }),
        })
    }

    /// The server's public key, for the browser's `applicationServerKey`.
    pub fn public_key(&self) -> String {
        self.inner.keys.public_key_base64url()
    }

    /// Whether `endpoint` may be pushed to: HTTPS, or plain HTTP to this machine when the
    /// server allows it (tests). The rest of the checks are the subscription's own.
    pub fn takes_endpoint(&self, endpoint: &str) -> bool {
        if let Some(rest) = endpoint.strip_prefix("https://") {
            return names_a_public_host(rest);
        }
        self.inner.allow_loopback_endpoints && endpoint.starts_with("http://")
    }

    /// `player`'s move in `game` over days at `ply`, against `opponent`: pushed once.
    pub fn your_turn(&self, player: Uuid, game: Uuid, ply: usize, opponent: String) {
        let event = format!("turn:{game}:{ply}");
        self.send(player, PushKind::Turn, event, move |language| {
            texts::your_turn(language, &opponent, game)
        });
    }

    /// `player` is challenged by `from` (challenge `id`).
    pub fn challenged(&self, player: Uuid, id: Uuid, from: String) {
        let event = format!("challenge:{id}");
        self.send(player, PushKind::Challenge, event, move |language| {
            texts::challenged(language, &from)
        });
    }

    /// Tournament `id` (`name`), which `player` joined, starts in `minutes`.
    pub fn tournament_soon(&self, player: Uuid, id: Uuid, name: String, minutes: u32) {
        let event = format!("tournament:{id}");
        self.send(player, PushKind::Tournament, event, move |language| {
            texts::tournament_soon(language, &name, id, minutes)
        });
    }

    /// In the background: pushes the message `compose` writes in the player's language, if
    /// it goes at all.
    fn send(
        &self,
        player: Uuid,
        kind: PushKind,
        event: String,
        compose: impl FnOnce(&str) -> PushMessage + Send + 'static,
    ) {
        let inner = self.inner.clone();
        tokio::spawn(async move {
            if let Err(e) = deliver(&inner, player, kind, &event, compose).await {
                tracing::warn!(error = %e, %player, event, "a push");
            }
        });
    }
}

/// Whether the address after `https://` names a host by a dotted DNS name, as every push
/// service does: never an IP address nor a single-label name (`localhost`, a machine on the
/// operator's network), so that a subscription cannot aim the server's requests inward.
fn names_a_public_host(rest: &str) -> bool {
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') || authority.starts_with('[') {
        return false;
    }
    let (host, port) = authority.split_once(':').unwrap_or((authority, "443"));
    if port != "443" {
        return false;
    }
    let host = host.to_ascii_lowercase();
    let labels: Vec<&str> = host.split('.').collect();
    let numeric = host.parse::<std::net::Ipv4Addr>().is_ok()
        || labels
            .last()
            .is_some_and(|l| l.chars().all(|c| c.is_ascii_digit()));
    labels.len() >= 2
        && !numeric
        && labels.iter().all(|l| !l.is_empty())
        && !matches!(
            *labels.last().unwrap_or(&""),
            "localhost" | "local" | "internal"
        )
}

/// Resolves a push service's name to its public addresses only: a name that leads to this
/// machine or the operator's network (loopback, private, link-local, unique-local, shared) is
/// not connected to, whatever the name, so that a subscription cannot aim the server inward
/// even through DNS. (Loopback endpoints allowed in tests are IP addresses, never resolved.)
struct PublicAddresses;

impl reqwest::dns::Resolve for PublicAddresses {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let public: Vec<std::net::SocketAddr> = tokio::net::lookup_host((host.as_str(), 443))
                .await?
                .filter(|a| is_public(a.ip()))
                .collect();
            if public.is_empty() {
                return Err(format!("{host} has no public address").into());
            }
            Ok(Box::new(public.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// Whether `ip` is an address of the public Internet.
fn is_public(ip: std::net::IpAddr) -> bool {
    use std::net::IpAddr;
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_multicast()
                || a == 0
                || (a == 100 && (64..128).contains(&b)))
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80)
        }
    }
}

async fn deliver(
    inner: &Inner,
    player: Uuid,
    kind: PushKind,
    event: &str,
    compose: impl FnOnce(&str) -> PushMessage,
) -> Result<(), StoreError> {
    let store = &inner.store;
    if !kind.wanted(store.push_preferences(player).await?) {
        return Ok(());
    }
    let subscriptions = store.push_subscriptions(player).await?;
    // Checked before the claim: a player with no browser to push to spends no cap.
    if subscriptions.is_empty() || !store.claim_push(player, event, kind.daily_cap()).await? {
        return Ok(());
    }
    let language = texts::language_of(store, player).await;
    let mut message = compose(&language);
    message.url = format!("{}{}", inner.public_url, message.url);
    let payload = serde_json::to_vec(&message).expect("a message serialises");
    // RFC 8030's Topic (at most 32 URL-safe characters): a newer message of the same tag (the
    // same game's turn) replaces one still waiting at the push service for a phone that is off.
    let topic: String = jungle_web::auth::hash_token(&message.tag)
        .chars()
        .take(32)
        .collect();
    for stored in subscriptions {
        let subscription = match Subscription::parse(&stored.endpoint, &stored.p256dh, &stored.auth)
        {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "a kept push subscription is unusable");
                store.drop_push_endpoint(&stored.endpoint).await?;
                continue;
            }
        };
        post(inner, &subscription, kind, &topic, &payload).await?;
    }
    Ok(())
}

/// One encrypted message to one browser's push service (RFC 8030); a subscription its service
/// says is gone is forgotten.
async fn post(
    inner: &Inner,
    subscription: &Subscription,
    kind: PushKind,
    topic: &str,
    payload: &[u8],
) -> Result<(), StoreError> {
    let endpoint = subscription.endpoint();
    let body = match jungle_push::encrypt(subscription, payload) {
        Ok(body) => body,
        Err(e) => {
            tracing::warn!(error = %e, "a push could not be encrypted");
            return Ok(());
        }
    };
    let expires = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        + SIGNATURE_LIFETIME_S;
    let authorization = match inner.keys.authorization(endpoint, &inner.contact, expires) {
        Ok(value) => value,
        Err(e) => {
            tracing::warn!(error = %e, "a push could not be signed");
            return Ok(());
        }
    };
    let sent = inner
        .http
        .post(endpoint)
        .header("authorization", authorization)
        .header("content-encoding", "aes128gcm")
        .header("content-type", "application/octet-stream")
        .header("ttl", kind.ttl_seconds().to_string())
        .header("urgency", "high")
        .header("topic", topic)
        .body(body)
        .send()
        .await;
    match sent {
        Ok(answer) if answer.status().is_success() => {}
        Ok(answer) if matches!(answer.status().as_u16(), 404 | 410) => {
            inner.store.drop_push_endpoint(endpoint).await?;
        }
        Ok(answer) => {
            tracing::warn!(status = %answer.status(), "a push service refused a push");
        }
        Err(e) => tracing::warn!(error = %e, "a push service was not reached"),
    }
    Ok(())
}

/// The rooms, the challenges and the tournaments say what happened; the pusher decides
/// whether a push goes.
impl jungle_rooms::notices::PlayerNotices for Pusher {
    fn your_turn(&self, player: Uuid, game: Uuid, ply: usize, opponent: String) {
        Pusher::your_turn(self, player, game, ply, opponent)
    }

    fn challenged(&self, player: Uuid, id: Uuid, from: String) {
        Pusher::challenged(self, player, id, from)
    }

    fn tournament_soon(&self, player: Uuid, id: Uuid, name: String, minutes: u32) {
        Pusher::tournament_soon(self, player, id, name, minutes)
    }
}

#[cfg(test)]
mod tests {
    use super::{is_public, names_a_public_host};

    #[test]
    fn only_dotted_public_names_are_pushed_to() {
        for good in [
            "fcm.googleapis.com/fcm/send/abc",
            "updates.push.services.mozilla.com/wpush/v2/x",
            "web.push.apple.com:443/QGx",
        ] {
            assert!(names_a_public_host(good), "{good}");
        }
        for bad in [
            "localhost/x",
            "127.0.0.1/x",
            "10.0.0.5:8443/x",
            "[::1]/x",
            "redis/x",
            "user@fcm.googleapis.com/x",
            "printer.local/x",
            "db.internal/x",
            "a..b/x",
            "0x7f.1/x",
            "push.example.com:22/x",
            "push.example.com:8443/x",
        ] {
            assert!(!names_a_public_host(bad), "{bad}");
        }
    }

    #[test]
    fn only_public_addresses_are_connected_to() {
        for good in ["142.250.74.10", "2a00:1450:4001:82b::200a"] {
            assert!(is_public(good.parse().unwrap()), "{good}");
        }
        for bad in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(!is_public(bad.parse().unwrap()), "{bad}");
        }
    }
}
