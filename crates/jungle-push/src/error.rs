//! Why Web Push's cryptography refused something.

/// What went wrong, precise enough for the caller to decide: a bad subscription is dropped,
/// a payload too large is a bug of the sender, a message that fails to decrypt was tampered
/// with or sent to someone else.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PushError {
    /// The endpoint is no URL a push message may be sent to (the reason says which rule).
    #[error("bad push endpoint: {0}")]
    BadEndpoint(&'static str),
    /// A key or secret is not base64url, has the wrong length, or is not on P-256.
    #[error("bad key: {0}")]
    BadKey(&'static str),
    /// The VAPID subject is not a `mailto:` or `https:` URI, as push services require.
    #[error("bad VAPID subject: it must be a mailto: or https: URI")]
    BadSubject,
    /// The plaintext does not fit in the single record a push message is (RFC 8291 §4).
    #[error("push payload of {len} bytes is over the {max} one message holds")]
    PayloadTooLarge { len: usize, max: usize },
    /// The body is not an `aes128gcm` push message (RFC 8188 §2, RFC 8291 §4): the reason says
    /// which part.
    #[error("malformed push message: {0}")]
    MalformedMessage(&'static str),
    /// The message did not authenticate: tampered with, or not encrypted to these keys.
    #[error("push message does not decrypt with these keys")]
    Decrypt,
}
