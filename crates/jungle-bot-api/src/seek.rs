//! `POST /api/board/seek` (lichess's; berserk's `board.seek`): a person's seek in the lobby's
//! pool over the Board API, made through their open event stream as a challenge is (the game's
//! start is heard there). The answer stays open while the seek waits, an empty line every 7 s;
//! it ends when the seek is matched (the game is on the event stream) or gone, and a client
//! that closes it cancels the seek, as lichess's does. Real-time clocks only: a seek over days
//! is made in the lobby.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use jungle_game::session::RoomSettings;
use jungle_limits::Limited;
use jungle_web::client_addr::ClientAddr;

use super::challenge_body;
use super::game_stream::{player_of, Api};
use super::{ndjson, BotApiError};
use crate::BotApiState;

pub async fn seek(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, BotApiError> {
    // People seek; bots are challenged (as on lichess).
    let holder = player_of(&state, &headers, Api::Board, client).await?;
    let sought = challenge_body::read_seek(&headers, &body)?;
    sought
        .clock
        .validate()
        .map_err(|e| BotApiError::BadRequest(e.to_string()))?;
    state
        .limits
        .check(Limited::Seek, Some(holder.player.id), client)?;
    let me = holder.player.id;
    if sought.rated && !state.store.has_account(me).await? {
        return Err(BotApiError::Refused(
            "rated games are for accounts".to_owned(),
        ));
    }
    let seeker = state
        .event_streams
        .seeker(holder.token, me)
        .ok_or(BotApiError::NoEventStream)?;
    // One seek waiting per stream: a second would share the first's news and its end.
    if seeker.seeking.swap(true, Ordering::SeqCst) {
        return Err(BotApiError::AlreadySeeking);
    }
    let waiting = Waiting(seeker.seeking.clone());
    let conn = seeker.conn;
    let pool = jungle_game::rating::RatingPool::of(sought.rules, sought.clock);
    let rating = state.store.rating(me, pool).await?;
    // Listening before the seek is made: a match made at once is not missed.
    let news = seeker.news.notified_owned();
    let settings = RoomSettings {
        rules: sought.rules,
        clock: sought.clock,
        rated: sought.rated,
    };
    state
        .reach
        .seek(conn.clone(), settings, rating, None)
        .await
        .map_err(|_| BotApiError::NoAnswer)?;
    let (mut lines, response) = ndjson::answer();
    let mut shutdown = state.shutdown.clone();
    tokio::spawn(async move {
        let _waiting = waiting;
        tokio::pin!(news);
        loop {
            tokio::select! {
                _ = &mut news => break,
                _ = lines.closed() => break,
                _ = tokio::time::sleep_until(lines.keep_alive_due()) => {
                    if !lines.keep_alive().await {
                        break;
                    }
                }
                _ = shutdown.changed() => return,
            }
        }
        // Whatever ended the answer, the seek ends with it: paired, it is gone already (and
        // this changes nothing); else it would wait on with nobody told when it is taken.
        state.reach.cancel_seek(conn.id, false).await;
    });
    Ok(response)
}

/// Marks a stream's seek as waiting until dropped.
struct Waiting(Arc<AtomicBool>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}
