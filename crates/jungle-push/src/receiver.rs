//! The browser's keys, made here: for tests, and for a test endpoint that plays a push service
//! and reads what the server sends as the browser would.

use std::fmt;

use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::SecretKey;
use rand_core::{OsRng, RngCore};

use crate::base64url;
use crate::encryption;
use crate::error::PushError;
use crate::subscription::{Subscription, AUTH_LEN};

/// A receiver's P-256 key pair and authentication secret, as a browser makes them when it
/// subscribes.
#[derive(Clone)]
pub struct ReceiverKeys {
    secret: SecretKey,
    auth: [u8; AUTH_LEN],
}

impl ReceiverKeys {
    /// A fresh key pair and a random 16-byte authentication secret.
    pub fn generate() -> Self {
        let mut auth = [0u8; AUTH_LEN];
        OsRng.fill_bytes(&mut auth);
        Self {
            secret: SecretKey::random(&mut OsRng),
            auth,
        }
    }

    /// Known keys (a test vector's, say): the private scalar and the authentication secret.
    pub fn from_parts(private: &[u8; 32], auth: &[u8; AUTH_LEN]) -> Result<Self, PushError> {
        let secret = SecretKey::from_bytes(private.into())
            .map_err(|_| PushError::BadKey("the receiver's private key is not a P-256 scalar"))?;
        Ok(Self {
            secret,
            auth: *auth,
        })
    }

    /// The private scalar, for [`decrypt`](crate::decrypt).
    pub fn private_key(&self) -> [u8; 32] {
        self.secret.to_bytes().into()
    }

    /// The authentication secret.
    pub fn auth(&self) -> &[u8; AUTH_LEN] {
        &self.auth
    }

    /// `keys.p256dh` of a `PushSubscription`: the public key uncompressed, base64url unpadded.
    pub fn p256dh_base64url(&self) -> String {
        base64url::encode(self.secret.public_key().to_encoded_point(false).as_bytes())
    }

    /// `keys.auth` of a `PushSubscription`: base64url unpadded.
    pub fn auth_base64url(&self) -> String {
        base64url::encode(&self.auth)
    }

    /// The subscription a browser with these keys would hand over for `endpoint`.
    pub fn subscription(&self, endpoint: &str) -> Result<Subscription, PushError> {
        Subscription::parse(endpoint, &self.p256dh_base64url(), &self.auth_base64url())
    }

    /// Reads a push message sent to these keys.
    pub fn decrypt(&self, body: &[u8]) -> Result<Vec<u8>, PushError> {
        encryption::decrypt(&self.private_key(), &self.auth, body)
    }
}

/// Shows the public key only.
impl fmt::Debug for ReceiverKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReceiverKeys")
            .field("p256dh", &self.p256dh_base64url())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encryption::encrypt;

    #[test]
    fn a_message_encrypted_to_a_subscription_decrypts_with_its_keys() {
        let browser = ReceiverKeys::generate();
        let sub = browser
            .subscription("https://push.example.net/push/abc")
            .unwrap();
        for plaintext in [
            &b""[..],
            b"{\"title\":\"Your move\",\"body\":\"e2-e3\"}",
            &[0u8; 100],
        ] {
            let body = encrypt(&sub, plaintext).unwrap();
            assert_eq!(browser.decrypt(&body).unwrap(), plaintext);
            // Not with another browser's keys.
            assert_eq!(
                ReceiverKeys::generate().decrypt(&body),
                Err(PushError::Decrypt)
            );
        }
    }

    #[test]
    fn its_forms_are_a_browsers() {
        let browser = ReceiverKeys::generate();
        assert_eq!(browser.p256dh_base64url().len(), 87);
        assert_eq!(browser.auth_base64url().len(), 22);
        let again = ReceiverKeys::from_parts(&browser.private_key(), browser.auth()).unwrap();
        assert_eq!(again.p256dh_base64url(), browser.p256dh_base64url());
        assert!(ReceiverKeys::from_parts(&[0; 32], &[0; 16]).is_err());
        assert!(!format!("{browser:?}").contains(&base64url::encode(&browser.private_key())));
    }
}
