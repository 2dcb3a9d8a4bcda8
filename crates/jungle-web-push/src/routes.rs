//! The push endpoints, for accounts: read what is pushed (`GET /api/push`), subscribe or
//! unsubscribe a browser (`POST`, `DELETE /api/push/subscriptions`), choose what is pushed
//! (`PUT /api/push/settings`). Each answers with the account's [`PushView`].

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use jungle_accounts::api::AccountApiError;
use jungle_limits::Limited;
use jungle_protocol::http::{
    GonePushSubscription, NewPushSubscription, PushSettingsChange, PushView,
};
use jungle_push::Subscription;
use jungle_store::{PlayerRecord, PushPreferences, StoredPushSubscription};
use jungle_web::client_addr::ClientAddr;

use crate::{PushState, MAX_SUBSCRIPTIONS};

/// The largest body taken: a subscription is an endpoint (at most 1 KiB) and two short keys.
pub const MAX_BODY: usize = 4 * 1024;

async fn account(
    state: &PushState,
    headers: &HeaderMap,
    client: std::net::IpAddr,
) -> Result<PlayerRecord, AccountApiError> {
    jungle_accounts::manage::account_within(
        &state.store,
        &state.limits,
        headers,
        client,
        Limited::Push,
        "pushes",
    )
    .await
}

async fn view(state: &PushState, player: &PlayerRecord) -> Result<PushView, AccountApiError> {
    let preferences = state.store.push_preferences(player.id).await?;
    let subscriptions = state.store.push_subscriptions(player.id).await?.len();
    Ok(PushView {
        public_key: state.pusher.public_key(),
        subscriptions,
        turns: preferences.turns,
        challenges: preferences.challenges,
        tournaments: preferences.tournaments,
    })
}

/// `GET /api/push`.
pub async fn show(
    State(state): State<PushState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<PushView>, AccountApiError> {
    let player = account(&state, &headers, client).await?;
    Ok(Json(view(&state, &player).await?))
}

/// `POST /api/push/subscriptions`: the browser's subscription, checked (an HTTPS push
/// service, keys of the right lengths on the right curve) and kept; past
/// [`MAX_SUBSCRIPTIONS`] the account's oldest goes.
pub async fn subscribe(
    State(state): State<PushState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<NewPushSubscription>, JsonRejection>,
) -> Result<(StatusCode, Json<PushView>), AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers, client).await?;
    let Json(asked) = body.map_err(AccountApiError::unreadable)?;
    let refused = |why: String| AccountApiError::BadBody(format!("not a push subscription: {why}"));
    if !state.pusher.takes_endpoint(&asked.endpoint) {
        return Err(refused("the endpoint must be an HTTPS push service".into()));
    }
    let subscription = Subscription::parse(&asked.endpoint, &asked.keys.p256dh, &asked.keys.auth)
        .map_err(|e| refused(e.to_string()))?;
    let stored = StoredPushSubscription {
        endpoint: subscription.endpoint().to_owned(),
        p256dh: subscription.p256dh_base64url(),
        auth: subscription.auth_base64url(),
    };
    // The session it is made in: signing that browser out ends its pushes.
    let session = jungle_web::identity::session_of(&state.store, &headers)
        .await?
        .map(|(session, _)| session);
    state
        .store
        .add_push_subscription(player.id, session, &stored, MAX_SUBSCRIPTIONS)
        .await?;
    Ok((StatusCode::CREATED, Json(view(&state, &player).await?)))
}

/// `DELETE /api/push/subscriptions {"endpoint"}`: only the account's own.
pub async fn unsubscribe(
    State(state): State<PushState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<GonePushSubscription>, JsonRejection>,
) -> Result<Json<PushView>, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers, client).await?;
    let Json(gone) = body.map_err(AccountApiError::unreadable)?;
    state
        .store
        .remove_push_subscription(player.id, &gone.endpoint)
        .await?;
    Ok(Json(view(&state, &player).await?))
}

/// `PUT /api/push/settings`: what the account wants pushed.
pub async fn change_settings(
    State(state): State<PushState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<PushSettingsChange>, JsonRejection>,
) -> Result<Json<PushView>, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers, client).await?;
    let Json(change) = body.map_err(AccountApiError::unreadable)?;
    let old = state.store.push_preferences(player.id).await?;
    let new = PushPreferences {
        turns: change.turns.unwrap_or(old.turns),
        challenges: change.challenges.unwrap_or(old.challenges),
        tournaments: change.tournaments.unwrap_or(old.tournaments),
    };
    state.store.set_push_preferences(player.id, new).await?;
    Ok(Json(view(&state, &player).await?))
}
