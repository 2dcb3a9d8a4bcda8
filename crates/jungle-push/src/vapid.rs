//! The server's application-server key pair (VAPID, RFC 8292): the public half is what a browser
//! subscribes with (`applicationServerKey`), the private half signs the token each push request
//! carries, so that the push service delivers only what this server sends.

use std::fmt;

use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use rand_core::OsRng;

use crate::base64url;
use crate::endpoint::Endpoint;
use crate::error::PushError;

/// `{"typ":"JWT","alg":"ES256"}`, written once: the header never changes (RFC 8292 §2).
const JWT_HEADER: &str = r#"{"typ":"JWT","alg":"ES256"}"#;

/// The server's P-256 key pair for VAPID.
#[derive(Clone)]
pub struct VapidKeys {
    signing: SigningKey,
}

impl VapidKeys {
    /// A new key pair from the operating system's randomness. The server makes one once and
    /// keeps it: browsers' subscriptions are bound to its public key.
    pub fn generate() -> Self {
        Self {
            signing: SigningKey::random(&mut OsRng),
        }
    }

    /// The key pair from its private scalar as kept: 32 bytes, base64url (padded or not).
    pub fn from_private_base64url(private: &str) -> Result<Self, PushError> {
        let scalar: [u8; 32] = base64url::decode(private)
            .ok_or(PushError::BadKey("the VAPID private key is not base64url"))?
            .try_into()
            .map_err(|_| PushError::BadKey("the VAPID private key is not 32 bytes"))?;
        let signing = SigningKey::from_bytes(&scalar.into())
            .map_err(|_| PushError::BadKey("the VAPID private key is not a P-256 scalar"))?;
        Ok(Self { signing })
    }

    /// The private scalar, 32 bytes in base64url without padding: how the server keeps it.
    pub fn to_private_base64url(&self) -> String {
        base64url::encode(&self.signing.to_bytes())
    }

    /// The public key, uncompressed SEC1 (65 bytes) in base64url without padding: what the
    /// browser's `pushManager.subscribe({ applicationServerKey })` takes, and the `k=` of
    /// [`authorization`](Self::authorization).
    pub fn public_key_base64url(&self) -> String {
        base64url::encode(self.public_key_bytes().as_bytes())
    }

    fn public_key_bytes(&self) -> p256::EncodedPoint {
        self.signing.verifying_key().to_encoded_point(false)
    }

    /// The `Authorization` header's value for a push request to `endpoint`:
    /// `vapid t=<JWT>, k=<public key>` (RFC 8292 §3). The token is ES256, its audience the
    /// endpoint's origin, its expiry `expires_at_unix` (seconds; push services refuse one more
    /// than 24 hours ahead, the caller picks it from its clock) and its subject `subject`, a
    /// `mailto:` or `https:` URI where the push service's operator can reach the server's.
    pub fn authorization(
        &self,
        endpoint: &str,
        subject: &str,
        expires_at_unix: u64,
    ) -> Result<String, PushError> {
        let audience = Endpoint::parse(endpoint)?.origin();
        let contact = subject
            .strip_prefix("mailto:")
            .or_else(|| subject.strip_prefix("https://"));
        if contact.is_none_or(str::is_empty) {
            return Err(PushError::BadSubject);
        }
        let claims = serde_json::json!({
            "aud": audience,
            "exp": expires_at_unix,
            "sub": subject,
        });
        let signing_input = format!(
            "{}.{}",
            base64url::encode(JWT_HEADER.as_bytes()),
            base64url::encode(claims.to_string().as_bytes())
        );
        // ES256 (RFC 7518 §3.4): ECDSA P-256 over SHA-256, the signature as r || s.
        let signature: Signature = self.signing.sign(signing_input.as_bytes());
        Ok(format!(
            "vapid t={signing_input}.{}, k={}",
            base64url::encode(&signature.to_bytes()),
            self.public_key_base64url()
        ))
    }
}

/// Shows the public key only: the private one must not reach a log.
impl fmt::Debug for VapidKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VapidKeys")
            .field("public", &self.public_key_base64url())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier;
    use p256::ecdsa::VerifyingKey;
    use serde_json::Value;

    const ENDPOINT: &str = "https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bHqjZxM0VImWWqDRN7U0a3AycjUf4O-byuxb_wJsKRaKvV_iKw56s16ekq6FUqoCF7k2nICUpd8fHPxVTgqLunFeVeB9lLCQZyohyAztTH8ZQL9WCxKpA6dvTG_TUIhQUFq_n";
    const SUBJECT: &str = "mailto:push@jungle.example";

    /// The token's three parts, decoded; the header's value checked.
    fn token(header_value: &str) -> (Value, Value, Vec<u8>, String, String) {
        let rest = header_value.strip_prefix("vapid t=").unwrap();
        let (jwt, k) = rest.split_once(", k=").unwrap();
        let mut parts = jwt.split('.');
        let (h, c, s) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        assert!(parts.next().is_none());
        let json = |part: &str| serde_json::from_slice(&base64url::decode(part).unwrap()).unwrap();
        (
            json(h),
            json(c),
            base64url::decode(s).unwrap(),
            format!("{h}.{c}"),
            k.to_owned(),
        )
    }

    #[test]
    fn the_token_is_es256_for_the_endpoints_origin_and_verifies_with_the_public_key() {
        let keys = VapidKeys::generate();
        let value = keys
            .authorization(ENDPOINT, SUBJECT, 1_767_225_600)
            .unwrap();
        let (header, claims, signature, signed, k) = token(&value);

        assert_eq!(header, serde_json::json!({"typ": "JWT", "alg": "ES256"}));
        assert_eq!(
            claims,
            serde_json::json!({
                "aud": "https://fcm.googleapis.com",
                "exp": 1_767_225_600u64,
                "sub": SUBJECT,
            })
        );
        assert_eq!(k, keys.public_key_base64url());

        // k is the 65-byte uncompressed point and verifies the raw r || s signature.
        let public = base64url::decode(&k).unwrap();
        assert_eq!(public.len(), 65);
        assert_eq!(public[0], 0x04);
        assert_eq!(signature.len(), 64);
        let verifying = VerifyingKey::from_sec1_bytes(&public).unwrap();
        let signature = Signature::from_slice(&signature).unwrap();
        verifying.verify(signed.as_bytes(), &signature).unwrap();
        // Over anything else it does not.
        assert!(verifying
            .verify(format!("{signed}x").as_bytes(), &signature)
            .is_err());
    }

    #[test]
    fn the_audience_keeps_a_port_other_than_the_default() {
        let keys = VapidKeys::generate();
        let value = keys
            .authorization("http://127.0.0.1:8080/test-push/7", SUBJECT, 1)
            .unwrap();
        assert_eq!(token(&value).1["aud"], "http://127.0.0.1:8080");
    }

    #[test]
    fn the_private_key_round_trips_through_its_base64url_form() {
        let keys = VapidKeys::generate();
        let kept = keys.to_private_base64url();
        assert_eq!(base64url::decode(&kept).unwrap().len(), 32);
        assert!(!kept.contains('='));
        let back = VapidKeys::from_private_base64url(&kept).unwrap();
        assert_eq!(back.public_key_base64url(), keys.public_key_base64url());
        // RFC 8291 Appendix A's sender key gives the RFC's public key.
        let rfc = VapidKeys::from_private_base64url("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")
            .unwrap();
        assert_eq!(
            rfc.public_key_base64url(),
            "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        );
        assert!(!format!("{rfc:?}").contains("yfWPiYE"));
    }

    #[test]
    fn bad_private_keys_are_refused() {
        for private in [
            "",
            "not base64url!",
            &base64url::encode(&[1; 31]),
            &base64url::encode(&[1; 33]),
            // Zero and a number past the group order are no private keys.
            &base64url::encode(&[0; 32]),
            &base64url::encode(&[0xff; 32]),
        ] {
            assert!(
                matches!(
                    VapidKeys::from_private_base64url(private),
                    Err(PushError::BadKey(_))
                ),
                "{private:?} accepted"
            );
        }
    }

    #[test]
    fn bad_endpoints_and_subjects_are_refused() {
        let keys = VapidKeys::generate();
        for endpoint in [
            "ftp://push.example/p",
            "https://",
            "push.example/p",
            "https://a b/",
        ] {
            assert!(
                matches!(
                    keys.authorization(endpoint, SUBJECT, 1),
                    Err(PushError::BadEndpoint(_))
                ),
                "{endpoint} accepted"
            );
        }
        for subject in [
            "",
            "push@jungle.example",
            "http://jungle.example",
            "https://",
        ] {
            assert_eq!(
                keys.authorization(ENDPOINT, subject, 1),
                Err(PushError::BadSubject),
                "{subject:?} accepted"
            );
        }
    }
}
