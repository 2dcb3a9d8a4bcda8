//! A push message's encryption (RFC 8291) in the `aes128gcm` content coding (RFC 8188): one
//! record, keyed by an ECDH agreement between a fresh sender key and the browser's key, mixed
//! with the browser's authentication secret.
//!
//! The body is the coding's header, then the record:
//! `salt (16) || rs (u32 BE) || idlen (1) = 65 || sender public key (65) || AES-128-GCM(plaintext || 0x02)`.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Key, Nonce};
use hkdf::Hkdf;
use p256::ecdh::diffie_hellman;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use rand_core::{OsRng, RngCore};
use sha2::Sha256;

use crate::error::PushError;
use crate::subscription::{Subscription, AUTH_LEN, P256DH_LEN};

/// The record size written in the header. Push services are bound to take a 4096-byte body
/// (RFC 8030 §7.2), and a record of that size can hold it all.
pub const RECORD_SIZE: u32 = 4096;

const SALT_LEN: usize = 16;
/// salt, rs, idlen, then the sender's public key as the key id (RFC 8291 §4).
const HEADER_LEN: usize = SALT_LEN + 4 + 1 + P256DH_LEN;
const TAG_LEN: usize = 16;
/// Ends the last (here the only) record's plaintext, before any zero padding (RFC 8188 §2).
const LAST_RECORD_DELIMITER: u8 = 0x02;

/// The longest plaintext one push message carries: a 4096-byte body less the header (86), the
/// AES-GCM tag (16) and the padding delimiter (1). RFC 8291 §4 names the same 3993.
pub const MAX_PLAINTEXT_LEN: usize = RECORD_SIZE as usize - HEADER_LEN - TAG_LEN - 1;

/// Encrypts `plaintext` to the subscription's browser: a random salt and a fresh sender key
/// for each message (RFC 8291 §3.1: a key reused would tie messages together). Returns the
/// whole request body, to be sent with `Content-Encoding: aes128gcm`.
pub fn encrypt(subscription: &Subscription, plaintext: &[u8]) -> Result<Vec<u8>, PushError> {
    let mut salt = [0u8; SALT_LEN];
    OsRng.fill_bytes(&mut salt);
    let sender = SecretKey::random(&mut OsRng);
    encrypt_with(subscription, plaintext, &salt, &sender)
}

/// [`encrypt`] with its randomness given, so that RFC 8291's worked example can be reproduced.
fn encrypt_with(
    subscription: &Subscription,
    plaintext: &[u8],
    salt: &[u8; SALT_LEN],
    sender: &SecretKey,
) -> Result<Vec<u8>, PushError> {
    if plaintext.len() > MAX_PLAINTEXT_LEN {
        return Err(PushError::PayloadTooLarge {
            len: plaintext.len(),
            max: MAX_PLAINTEXT_LEN,
        });
    }
    let sender_public = uncompressed(&sender.public_key());
    let shared = diffie_hellman(
        sender.to_nonzero_scalar(),
        subscription.receiver().as_affine(),
    );
    let (cek, nonce) = derive(
        shared.raw_secret_bytes(),
        subscription.auth(),
        subscription.p256dh(),
        &sender_public,
        salt,
    );

    let mut record = Vec::with_capacity(plaintext.len() + 1);
    record.extend_from_slice(plaintext);
    record.push(LAST_RECORD_DELIMITER);
    let sealed = Aes128Gcm::new(Key::<Aes128Gcm>::from_slice(&cek))
        .encrypt(Nonce::from_slice(&nonce), record.as_slice())
        // AES-GCM refuses only inputs of gigabytes; the length was checked above.
        .map_err(|_| PushError::PayloadTooLarge {
            len: plaintext.len(),
            max: MAX_PLAINTEXT_LEN,
        })?;

    let mut body = Vec::with_capacity(HEADER_LEN + sealed.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(P256DH_LEN as u8);
    body.extend_from_slice(&sender_public);
    body.extend_from_slice(&sealed);
    Ok(body)
}

/// The browser's side: reads the header, agrees the same secret from the receiver's private key
/// and the sender's public key in the header, decrypts and strips the padding. One record
/// only, as RFC 8291 §4 has push messages be.
pub fn decrypt(
    receiver_private: &[u8; 32],
    auth: &[u8; AUTH_LEN],
    body: &[u8],
) -> Result<Vec<u8>, PushError> {
    let receiver = SecretKey::from_bytes(receiver_private.into())
        .map_err(|_| PushError::BadKey("the receiver's private key is not a P-256 scalar"))?;
    if body.len() < HEADER_LEN {
        return Err(PushError::MalformedMessage("shorter than its header"));
    }
    let (header, sealed) = body.split_at(HEADER_LEN);
    let salt: &[u8; SALT_LEN] = header[..SALT_LEN]
        .try_into()
        .map_err(|_| PushError::MalformedMessage("shorter than its header"))?;
    let rs = u32::from_be_bytes([header[16], header[17], header[18], header[19]]);
    if header[20] as usize != P256DH_LEN {
        return Err(PushError::MalformedMessage(
            "its key id is not a 65-byte public key",
        ));
    }
    let sender_public: &[u8; P256DH_LEN] = header[21..]
        .try_into()
        .map_err(|_| PushError::MalformedMessage("shorter than its header"))?;
    // A record holds at least the tag and the delimiter (RFC 8188 §2.1: rs ≥ 18).
    if rs < (TAG_LEN + 2) as u32 {
        return Err(PushError::MalformedMessage("its record size is under 18"));
    }
    if sealed.len() > rs as usize {
        return Err(PushError::MalformedMessage("it has more than one record"));
    }
    if sealed.len() < TAG_LEN + 1 {
        return Err(PushError::MalformedMessage(
            "its record is shorter than a tag",
        ));
    }
    let sender = PublicKey::from_sec1_bytes(sender_public)
        .map_err(|_| PushError::MalformedMessage("its sender key is not on P-256"))?;

    let shared = diffie_hellman(receiver.to_nonzero_scalar(), sender.as_affine());
    let (cek, nonce) = derive(
        shared.raw_secret_bytes(),
        auth,
        &uncompressed(&receiver.public_key()),
        sender_public,
        salt,
    );
    let mut record = Aes128Gcm::new(Key::<Aes128Gcm>::from_slice(&cek))
        .decrypt(Nonce::from_slice(&nonce), sealed)
        .map_err(|_| PushError::Decrypt)?;

    // Padding is zeros after the delimiter; the last record's delimiter is 0x02.
    let end = record
        .iter()
        .rposition(|&b| b != 0)
        .ok_or(PushError::MalformedMessage("its record has no delimiter"))?;
    if record[end] != LAST_RECORD_DELIMITER {
        return Err(PushError::MalformedMessage(
            "its record does not end as the last one",
        ));
    }
    record.truncate(end);
    Ok(record)
}

/// RFC 8291 §3.3–3.4 and RFC 8188 §2.2–2.3: the content-encryption key and the nonce from the
/// ECDH secret, the authentication secret, both public keys and the salt.
fn derive(
    ecdh_secret: &[u8],
    auth: &[u8; AUTH_LEN],
    receiver_public: &[u8; P256DH_LEN],
    sender_public: &[u8; P256DH_LEN],
    salt: &[u8; SALT_LEN],
) -> ([u8; 16], [u8; 12]) {
    // key_info = "WebPush: info" || 0x00 || ua_public || as_public
    let mut key_info = Vec::with_capacity(14 + 2 * P256DH_LEN);
    key_info.extend_from_slice(b"WebPush: info\0");
    key_info.extend_from_slice(receiver_public);
    key_info.extend_from_slice(sender_public);
    let ikm: [u8; 32] = expand(&Hkdf::<Sha256>::new(Some(auth), ecdh_secret), &key_info);

    let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let cek = expand(&prk, b"Content-Encoding: aes128gcm\0");
    // The nonce of record 0 is the derived nonce itself (XOR with the sequence number 0).
    let nonce = expand(&prk, b"Content-Encoding: nonce\0");
    (cek, nonce)
}

/// HKDF-Expand to a fixed length; the lengths here (12 to 32) are far below HKDF-SHA-256's
/// limit of 8160 bytes, the only thing it refuses.
fn expand<const N: usize>(prk: &Hkdf<Sha256>, info: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    prk.expand(info, &mut out)
        .expect("HKDF-SHA-256 expands to at most 8160 bytes; asked 32 at most");
    out
}

fn uncompressed(key: &PublicKey) -> [u8; P256DH_LEN] {
    let point = key.to_encoded_point(false);
    let mut out = [0u8; P256DH_LEN];
    out.copy_from_slice(point.as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base64url;

    /// RFC 8291 Appendix A, every value as printed there.
    mod rfc8291 {
        pub const PLAINTEXT: &[u8] = b"When I grow up, I want to be a watermelon";
        pub const AS_PRIVATE: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
        pub const AS_PUBLIC: &str =
            "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
        pub const UA_PRIVATE: &str = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
        pub const UA_PUBLIC: &str =
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
        pub const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
        pub const SALT: &str = "DGv6ra1nlYgDCS1FRnbzlw";
        pub const BODY: &str = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";
    }

    fn bytes<const N: usize>(b64: &str) -> [u8; N] {
        base64url::decode(b64).unwrap().try_into().unwrap()
    }

    fn rfc_subscription() -> Subscription {
        Subscription::parse(
            "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
            rfc8291::UA_PUBLIC,
            rfc8291::AUTH,
        )
        .unwrap()
    }

    #[test]
    fn reproduces_rfc_8291_appendix_a_byte_for_byte() {
        let sender = SecretKey::from_bytes(&bytes::<32>(rfc8291::AS_PRIVATE).into()).unwrap();
        assert_eq!(
            base64url::encode(&uncompressed(&sender.public_key())),
            rfc8291::AS_PUBLIC
        );
        let body = encrypt_with(
            &rfc_subscription(),
            rfc8291::PLAINTEXT,
            &bytes(rfc8291::SALT),
            &sender,
        )
        .unwrap();
        assert_eq!(base64url::encode(&body), rfc8291::BODY);
    }

    #[test]
    fn decrypts_rfc_8291_appendix_a() {
        let body = base64url::decode(rfc8291::BODY).unwrap();
        let plaintext = decrypt(&bytes(rfc8291::UA_PRIVATE), &bytes(rfc8291::AUTH), &body).unwrap();
        assert_eq!(plaintext, rfc8291::PLAINTEXT);
    }

    #[test]
    fn the_body_has_the_header_rfc_8291_asks() {
        let body = encrypt(&rfc_subscription(), b"{}").unwrap();
        assert_eq!(&body[16..20], &4096u32.to_be_bytes());
        assert_eq!(body[20], 65);
        assert_eq!(body[21], 0x04);
        assert_eq!(body.len(), HEADER_LEN + 2 + 1 + TAG_LEN);
        // A fresh salt and sender key each time.
        let again = encrypt(&rfc_subscription(), b"{}").unwrap();
        assert_ne!(body[..HEADER_LEN], again[..HEADER_LEN]);
    }

    #[test]
    fn the_largest_plaintext_fills_a_4096_byte_body_and_one_more_byte_is_refused() {
        assert_eq!(MAX_PLAINTEXT_LEN, 3993);
        let sub = rfc_subscription();
        let body = encrypt(&sub, &[b'x'; MAX_PLAINTEXT_LEN]).unwrap();
        assert_eq!(body.len(), 4096);
        assert_eq!(
            encrypt(&sub, &[b'x'; MAX_PLAINTEXT_LEN + 1]),
            Err(PushError::PayloadTooLarge {
                len: 3994,
                max: 3993
            })
        );
        let plaintext = decrypt(&bytes(rfc8291::UA_PRIVATE), sub.auth(), &body).unwrap();
        assert_eq!(plaintext, [b'x'; MAX_PLAINTEXT_LEN]);
    }

    #[test]
    fn tampering_anywhere_in_the_body_is_refused() {
        let body = base64url::decode(rfc8291::BODY).unwrap();
        let (ua_private, auth) = (bytes(rfc8291::UA_PRIVATE), bytes(rfc8291::AUTH));
        // Salt, sender key, ciphertext and tag: each changes the keys or fails the tag.
        for at in [0, 15, 30, 85, 86, 100, body.len() - 1] {
            let mut tampered = body.clone();
            tampered[at] ^= 0x01;
            assert!(
                decrypt(&ua_private, &auth, &tampered).is_err(),
                "byte {at} changed and still decrypted"
            );
        }
        let mut tampered = body.clone();
        tampered[90] ^= 0x80;
        assert_eq!(
            decrypt(&ua_private, &auth, &tampered),
            Err(PushError::Decrypt)
        );
        // Another auth secret, truncated bodies.
        assert_eq!(
            decrypt(&ua_private, &[0; 16], &body),
            Err(PushError::Decrypt)
        );
        assert!(matches!(
            decrypt(&ua_private, &auth, &body[..HEADER_LEN + 10]),
            Err(PushError::MalformedMessage(_))
        ));
        assert!(matches!(
            decrypt(&ua_private, &auth, &body[..40]),
            Err(PushError::MalformedMessage(_))
        ));
        assert_eq!(
            decrypt(&ua_private, &auth, &body[..body.len() - 1]),
            Err(PushError::Decrypt)
        );
    }

    #[test]
    fn a_record_that_does_not_end_as_the_last_is_refused() {
        // Built by hand with the RFC's keys: a record whose delimiter is 0x01 (not last).
        let sub = rfc_subscription();
        let sender = SecretKey::from_bytes(&bytes::<32>(rfc8291::AS_PRIVATE).into()).unwrap();
        let shared = diffie_hellman(sender.to_nonzero_scalar(), sub.receiver().as_affine());
        let salt = bytes(rfc8291::SALT);
        let sender_public = uncompressed(&sender.public_key());
        let (cek, nonce) = derive(
            shared.raw_secret_bytes(),
            sub.auth(),
            sub.p256dh(),
            &sender_public,
            &salt,
        );
        let sealed = Aes128Gcm::new(Key::<Aes128Gcm>::from_slice(&cek))
            .encrypt(Nonce::from_slice(&nonce), &b"hi\x01\0\0"[..])
            .unwrap();
        let mut body = base64url::decode(rfc8291::BODY).unwrap();
        body.truncate(HEADER_LEN);
        body.extend_from_slice(&sealed);
        assert!(matches!(
            decrypt(&bytes(rfc8291::UA_PRIVATE), sub.auth(), &body),
            Err(PushError::MalformedMessage(_))
        ));
    }
}
