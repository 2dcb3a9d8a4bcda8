//! Who a token names: the one lookup, for HTTP requests (a bearer header or the session cookie)
//! and the socket's `hello` alike. A token is a guest's own, or an account's session (which
//! lapses after [`SESSION_IDLE_MS`] unused).

use axum::http::HeaderMap;
use uuid::Uuid;

use crate::auth::{hash_token, presented_token};
use jungle_store::{PlayerRecord, Store, StoreError};

/// How long a session lives without being used (30 days).
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 3600 * 1000;

/// The player a token names, and the account session it is, if it is one.
#[derive(Clone, Debug)]
pub struct Identified {
    pub player: PlayerRecord,
    /// The session, when the token is an account's (a guest's token is none).
    pub session: Option<Uuid>,
}

/// The player `token` names: a guest's token, else an account's live session.
pub async fn identify(store: &Store, token: &str) -> Result<Option<Identified>, StoreError> {
    let token_hash = hash_token(token);
    if let Some(guest) = store.player_by_token_hash(&token_hash).await? {
        return Ok(Some(Identified {
            player: guest,
            session: None,
        }));
    }
    let session = store
        .player_by_session(&token_hash, SESSION_IDLE_MS)
        .await?;
    if session.is_none() {
        crate::token_misses::missed();
    }
    Ok(session.map(|(session, player)| Identified {
        player,
        session: Some(session),
    }))
}

/// The player a request's token names, if any (a guest too).
pub async fn player_of(
    store: &Store,
    headers: &HeaderMap,
) -> Result<Option<PlayerRecord>, StoreError> {
    let Some(token) = presented_token(headers) else {
        return Ok(None);
    };
    Ok(identify(store, &token).await?.map(|who| who.player))
}

/// The account session a request's token is, with its player: what only an account may do
/// (its settings, its tokens, signing out) asks for this; a guest's token is none.
pub async fn session_of(
    store: &Store,
    headers: &HeaderMap,
) -> Result<Option<(Uuid, PlayerRecord)>, StoreError> {
    let Some(token) = presented_token(headers) else {
        return Ok(None);
    };
    let token_hash = hash_token(&token);
    let session = store
        .player_by_session(&token_hash, SESSION_IDLE_MS)
        .await?;
    // A guest's own token is no session, but it names someone: no miss.
    if session.is_none() && store.player_by_token_hash(&token_hash).await?.is_none() {
        crate::token_misses::missed();
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_guest_token_names_its_guest_and_an_unknown_token_nobody() {
        let (store, _dir) = Store::temporary(None).await;
        let token = crate::auth::new_token();
        let guest = store
            .create_player("Ada", &hash_token(&token))
            .await
            .unwrap();
        let who = identify(&store, &token).await.unwrap().expect("the guest");
        assert_eq!(who.player.id, guest.id);
        assert_eq!(who.session, None);
        assert!(identify(&store, &crate::auth::new_token())
            .await
            .unwrap()
            .is_none());
        let mut headers = HeaderMap::new();
        headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
        let player = player_of(&store, &headers)
            .await
            .unwrap()
            .expect("the guest");
        assert_eq!(player.id, guest.id);
        // A guest's token is no account session.
        assert!(session_of(&store, &headers).await.unwrap().is_none());
    }
}
