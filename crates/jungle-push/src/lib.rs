//! Web Push's cryptography, and nothing else: no I/O, no async, no network.
//!
//! A push message reaches a browser through its push service (RFC 8030): the server POSTs the
//! message to the subscription's endpoint. Two things make that POST acceptable and private:
//! - the server signs a short-lived token with its application-server key (VAPID, RFC 8292) so
//!   the push service knows who sends ([`VapidKeys::authorization`]);
//! - the message is encrypted to the browser's key (RFC 8291) in the `aes128gcm` content coding
//!   (RFC 8188), so the push service carries it unread ([`encrypt`]).
//!
//! What a browser hands over when it subscribes is checked once, on the way in
//! ([`Subscription::parse`]). [`decrypt`] and [`ReceiverKeys`] play the browser's side, for
//! tests and for a test endpoint that stands in for a push service.
//!
//! Sending the request (its `Content-Encoding: aes128gcm`, `TTL` and `Authorization` headers)
//! is the caller's business.

mod base64url;
mod encryption;
mod endpoint;
mod error;
mod receiver;
mod subscription;
mod vapid;

pub use encryption::{decrypt, encrypt, MAX_PLAINTEXT_LEN, RECORD_SIZE};
pub use error::PushError;
pub use receiver::ReceiverKeys;
pub use subscription::{Subscription, MAX_ENDPOINT_LEN};
pub use vapid::VapidKeys;
