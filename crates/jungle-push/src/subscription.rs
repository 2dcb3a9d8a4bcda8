//! A browser's push subscription (`PushSubscription.toJSON()`): where to send and the keys to
//! encrypt to, checked once when the browser hands them over so that sending never meets a
//! bad one.

use p256::PublicKey;

use crate::base64url;
use crate::endpoint::Endpoint;
use crate::error::PushError;

/// The longest endpoint accepted: push services' URLs are a few hundred bytes; a longer one is
/// not from a push service, and the server keeps every endpoint it accepts.
pub const MAX_ENDPOINT_LEN: usize = 1024;

/// An uncompressed SEC1 P-256 point: 0x04, then x and y of 32 bytes each.
pub(crate) const P256DH_LEN: usize = 65;

/// The authentication secret's length (RFC 8291 §3.2).
pub(crate) const AUTH_LEN: usize = 16;

/// A checked subscription: an https endpoint (or http on loopback), the browser's P-256 public
/// key (`keys.p256dh`) and its authentication secret (`keys.auth`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    endpoint: String,
    p256dh: [u8; P256DH_LEN],
    auth: [u8; AUTH_LEN],
    /// `p256dh` as a point, known to be on the curve.
    receiver: PublicKey,
}

impl Subscription {
    /// Checks what a browser sent: the endpoint at most [`MAX_ENDPOINT_LEN`] bytes and
    /// `https://` (`http://` only to 127.0.0.1, [::1] or localhost, for tests on loopback);
    /// `p256dh` 65 bytes and a point of P-256; `auth` 16 bytes; both base64url, padded or not
    /// (browsers send them unpadded).
    pub fn parse(
        endpoint: &str,
        p256dh_b64url: &str,
        auth_b64url: &str,
    ) -> Result<Self, PushError> {
        if endpoint.len() > MAX_ENDPOINT_LEN {
            return Err(PushError::BadEndpoint("it is longer than 1024 bytes"));
        }
        let parsed = Endpoint::parse(endpoint)?;
        if !parsed.is_https() && !parsed.is_loopback() {
            return Err(PushError::BadEndpoint(
                "it must be https (http only on loopback)",
            ));
        }
        let p256dh: [u8; P256DH_LEN] = base64url::decode(p256dh_b64url)
            .ok_or(PushError::BadKey("p256dh is not base64url"))?
            .try_into()
            .map_err(|_| PushError::BadKey("p256dh is not 65 bytes"))?;
        let auth: [u8; AUTH_LEN] = base64url::decode(auth_b64url)
            .ok_or(PushError::BadKey("auth is not base64url"))?
            .try_into()
            .map_err(|_| PushError::BadKey("auth is not 16 bytes"))?;
        let receiver = receiver_key(&p256dh)?;
        Ok(Self {
            endpoint: endpoint.to_owned(),
            p256dh,
            auth,
            receiver,
        })
    }

    /// Where the push message is POSTed.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The browser's public key, uncompressed SEC1.
    pub fn p256dh(&self) -> &[u8; P256DH_LEN] {
        &self.p256dh
    }

    /// The browser's authentication secret.
    pub fn auth(&self) -> &[u8; AUTH_LEN] {
        &self.auth
    }

    /// `p256dh` as the browser writes it (base64url, no padding), for keeping it.
    pub fn p256dh_base64url(&self) -> String {
        base64url::encode(&self.p256dh)
    }

    /// `auth` as the browser writes it (base64url, no padding), for keeping it.
    pub fn auth_base64url(&self) -> String {
        base64url::encode(&self.auth)
    }

    pub(crate) fn receiver(&self) -> &PublicKey {
        &self.receiver
    }
}

/// The browser's key as a point: uncompressed (the key derivation hashes these very 65 bytes)
/// and on the curve (an off-curve point would leak the sender's key bits).
pub(crate) fn receiver_key(p256dh: &[u8; P256DH_LEN]) -> Result<PublicKey, PushError> {
    if p256dh[0] != 0x04 {
        return Err(PushError::BadKey("p256dh is not an uncompressed point"));
    }
    PublicKey::from_sec1_bytes(p256dh).map_err(|_| PushError::BadKey("p256dh is not on P-256"))
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 8291 Appendix A's receiver.
    const P256DH: &str =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
    const ENDPOINT: &str = "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV";

    #[test]
    fn a_browsers_subscription_is_accepted_padded_or_not() {
        let sub = Subscription::parse(ENDPOINT, P256DH, AUTH).unwrap();
        assert_eq!(sub.endpoint(), ENDPOINT);
        assert_eq!(sub.p256dh()[0], 0x04);
        assert_eq!(sub.p256dh_base64url(), P256DH);
        assert_eq!(sub.auth_base64url(), AUTH);
        let padded =
            Subscription::parse(ENDPOINT, &format!("{P256DH}="), &format!("{AUTH}==")).unwrap();
        assert_eq!(padded, sub);
    }

    #[test]
    fn http_is_accepted_on_loopback_only() {
        for endpoint in [
            "http://127.0.0.1:8080/test-push/1",
            "http://[::1]:8080/test-push/1",
            "http://localhost/test-push/1",
        ] {
            assert!(
                Subscription::parse(endpoint, P256DH, AUTH).is_ok(),
                "{endpoint}"
            );
        }
        assert!(matches!(
            Subscription::parse("http://push.example.net/p", P256DH, AUTH),
            Err(PushError::BadEndpoint(_))
        ));
    }

    #[test]
    fn bad_endpoints_are_refused() {
        let too_long = format!("https://push.example.net/{}", "a".repeat(MAX_ENDPOINT_LEN));
        let longest = format!(
            "https://push.example.net/{}",
            "a".repeat(MAX_ENDPOINT_LEN - 25)
        );
        assert_eq!(longest.len(), MAX_ENDPOINT_LEN);
        assert!(Subscription::parse(&longest, P256DH, AUTH).is_ok());
        for endpoint in [
            "ftp://push.example.net/p",
            "http://push.example.net/p",
            "http://127.0.0.2/p",
            "https:///p",
            "push.example.net/p",
            too_long.as_str(),
        ] {
            assert!(
                matches!(
                    Subscription::parse(endpoint, P256DH, AUTH),
                    Err(PushError::BadEndpoint(_))
                ),
                "{endpoint} accepted"
            );
        }
    }

    #[test]
    fn keys_of_the_wrong_length_or_off_the_curve_are_refused() {
        let refused = |p256dh: &str, auth: &str| {
            matches!(
                Subscription::parse(ENDPOINT, p256dh, auth),
                Err(PushError::BadKey(_))
            )
        };
        // 64 and 66 bytes; the compressed form (33 bytes).
        assert!(refused(&base64url::encode(&[4; 64]), AUTH));
        assert!(refused(&base64url::encode(&[4; 66]), AUTH));
        let compressed = p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(
            &receiver_key(&base64url::decode(P256DH).unwrap().try_into().unwrap()).unwrap(),
            true,
        );
        assert!(refused(&base64url::encode(compressed.as_bytes()), AUTH));
        // 65 bytes but not a point of the curve, or not uncompressed.
        let mut off_curve = base64url::decode(P256DH).unwrap();
        off_curve[64] ^= 1;
        assert!(refused(&base64url::encode(&off_curve), AUTH));
        let mut hybrid = base64url::decode(P256DH).unwrap();
        hybrid[0] = 0x06;
        assert!(refused(&base64url::encode(&hybrid), AUTH));
        // auth of 15 and 17 bytes; text that is not base64url.
        assert!(refused(P256DH, &base64url::encode(&[1; 15])));
        assert!(refused(P256DH, &base64url::encode(&[1; 17])));
        assert!(refused("not base64url!", AUTH));
        assert!(refused(P256DH, "BTBZMqHH6r4Tts7J/aSIgg"));
    }
}
