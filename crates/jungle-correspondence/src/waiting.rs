//! `GET /api/account/games/waiting`: the reader's correspondence games waiting for their move,
//! most urgent first, with how many they have in progress (for the lobby's list and the
//! header's badge, which asks about once a minute).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use jungle_protocol::http::WaitingGames;

use crate::CorrespondenceState;
use jungle_accounts::api::AccountApiError;
use jungle_limits::Limited;
use jungle_web::client_addr::ClientAddr;

pub async fn waiting(
    State(state): State<CorrespondenceState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<WaitingGames>, AccountApiError> {
    let player = jungle_web::identity::player_of(&state.store, &headers)
        .await?
        .ok_or(AccountApiError::NotSignedIn)?;
    state
        .limits
        .check(Limited::CorrespondenceReads, Some(player.id), client)?;
    let now = state.room_ctx.time.wall_ms();
    let (games, opponents_turn) = state.store.correspondence_waiting(player.id, now).await?;
    let in_progress = state.store.correspondence_in_progress(player.id).await?;
    Ok(Json(WaitingGames {
        games,
        in_progress: in_progress.max(0) as u32,
        opponents_turn,
    }))
}
