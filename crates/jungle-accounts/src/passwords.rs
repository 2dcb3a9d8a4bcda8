//! Passwords: the policy, and Argon2id hashing on a bounded set of blocking threads, so that a
//! flood of sign-ins queues here instead of stalling games; the queue is fair (`fair_queue`),
//! so that it delays an owner, or another address, by little.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use super::AccountError;
use crate::fair_queue::{FairQueue, Lane};

/// The 3,000 most common passwords of 8 characters or more (from the zxcvbn project's
/// frequency list, MIT licence), one per line, lower case.
const COMMON: &str = include_str!("common-passwords.txt");

/// Long enough for any passphrase; short enough that hashing stays bounded.
const MAX_LENGTH: usize = 128;
const MIN_LENGTH: usize = 8;

fn common() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| COMMON.lines().map(str::trim).collect())
}

/// Checks a new password for `username`.
pub fn check_password(password: &str, username: &str) -> Result<(), AccountError> {
    let length = password.chars().count();
    if length < MIN_LENGTH {
        return Err(AccountError::BadPassword(format!(
            "a password has at least {MIN_LENGTH} characters"
        )));
    }
    if length > MAX_LENGTH {
        return Err(AccountError::BadPassword(format!(
            "a password has at most {MAX_LENGTH} characters"
        )));
    }
    let lower = password.to_lowercase();
    if common().contains(lower.as_str()) {
        return Err(AccountError::BadPassword(
            "this password is among the most common ones; choose another".into(),
        ));
    }
    if lower == username.to_lowercase() {
        return Err(AccountError::BadPassword(
            "the password may not be the username".into(),
        ));
    }
    Ok(())
}

/// Argon2id with the OWASP cheat sheet's parameters: 19 MiB, 2 passes, 1 lane.
fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes and verifies on at most `threads` blocking threads at once (each hash takes 19 MiB
/// and tens of milliseconds), taking turns by [`Lane`].
#[derive(Clone)]
pub struct Hasher {
    turns: FairQueue,
    /// Verified against when a username is unknown, so that the answer takes as long as for
    /// a wrong password.
    decoy: Arc<str>,
}

impl Hasher {
    pub fn new(threads: usize) -> Hasher {
        let salt = SaltString::generate(&mut OsRng);
        let decoy = argon2()
            .hash_password(b"no account has this password", &salt)
            .expect("hashing a constant")
            .to_string();
        Hasher {
            turns: FairQueue::new(threads),
            decoy: decoy.into(),
        }
    }

    /// The PHC string of `password`, with a fresh salt.
    pub async fn hash(&self, lane: Lane, password: &str) -> Result<String, AccountError> {
        let password = password.to_owned();
        self.blocking(lane, move || {
            let salt = SaltString::generate(&mut OsRng);
            argon2()
                .hash_password(password.as_bytes(), &salt)
                .map(|hash| hash.to_string())
                .map_err(|e| AccountError::Internal(format!("hashing: {e}")))
        })
        .await
    }

    /// Whether `password` matches `stored` (a PHC string); with `None`, the decoy is checked
    /// and the answer is always no.
    pub async fn verify(
        &self,
        lane: Lane,
        password: &str,
        stored: Option<&str>,
    ) -> Result<bool, AccountError> {
        let known = stored.is_some();
        let phc: String = stored.unwrap_or(&self.decoy).to_owned();
        let password = password.to_owned();
        let matches = self
            .blocking(lane, move || {
                let parsed = PasswordHash::new(&phc)
                    .map_err(|e| AccountError::Internal(format!("stored hash: {e}")))?;
                Ok(argon2()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok())
            })
            .await?;
        Ok(known && matches)
    }

    async fn blocking<T: Send + 'static>(
        &self,
        lane: Lane,
        work: impl FnOnce() -> Result<T, AccountError> + Send + 'static,
    ) -> Result<T, AccountError> {
        let _turn = self.turns.turn(lane).await;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| AccountError::Internal(format!("hashing thread: {e}")))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy() {
        assert!(check_password("correct horse battery", "ada").is_ok());
        for (bad, why) in [
            ("short", "at least 8"),
            ("password", "common"),
            ("Baseball", "common"),
            ("lovelace", "username"),
        ] {
            let error = check_password(bad, "Lovelace").unwrap_err().to_string();
            assert!(error.contains(why), "{bad}: {error}");
        }
        assert!(check_password(&"x".repeat(129), "ada").is_err());
        assert_eq!(common().len(), 3000);
    }

    #[tokio::test]
    async fn hashes_verify_and_the_decoy_never_does() {
        let hasher = Hasher::new(1);
        let stored = hasher
            .hash(Lane::Owner, "correct horse battery")
            .await
            .unwrap();
        assert!(
            stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{stored}"
        );
        assert!(!stored.contains("correct horse"));
        assert!(hasher
            .verify(Lane::Owner, "correct horse battery", Some(&stored))
            .await
            .unwrap());
        assert!(!hasher
            .verify(Lane::Owner, "wrong horse battery", Some(&stored))
            .await
            .unwrap());
        assert!(!hasher
            .verify(Lane::Owner, "no account has this password", None)
            .await
            .unwrap());
    }
}
