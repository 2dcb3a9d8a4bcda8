//! The challenge frames, answered where the challenges are held (this node, or with several
//! nodes the matcher's, for connections of any node).

use axum::extract::ws::Utf8Bytes;
use jungle_protocol::{ClientFrame, ClockSpecError, ErrorCode, ServerFrame};
use jungle_store::StoreError;

use super::{AcceptError, ChallengeError};
use crate::correspondence::StartRefusal;
use crate::{error_text, frame_text, Connection, RoomSettings};

/// Why a challenge frame was refused, with the code the client hears (the socket's errors
/// take these in as they are).
#[derive(Debug, thiserror::Error)]
pub enum ChallengeRefusal {
    #[error("{0}")]
    BadClock(#[from] ClockSpecError),
    #[error("rated games are for accounts: keep this player with a username and a password (your games and ratings stay), or play casual")]
    AccountRequired,
    #[error(
        "rated games are for accounts, and that player is a guest: challenge them to a casual game"
    )]
    OpponentNeedsAccount,
    #[error(transparent)]
    Challenge(#[from] ChallengeError),
    #[error(transparent)]
    Correspondence(#[from] StartRefusal),
    #[error("something went wrong on our side; please try again")]
    Store(#[from] StoreError),
}

impl From<AcceptError> for ChallengeRefusal {
    fn from(e: AcceptError) -> Self {
        match e {
            AcceptError::Challenge(e) => e.into(),
            AcceptError::Store(e) => e.into(),
            AcceptError::Correspondence(e) => e.into(),
        }
    }
}

impl ChallengeRefusal {
    pub fn code(&self) -> ErrorCode {
        match self {
            ChallengeRefusal::BadClock(_) => ErrorCode::BadRequest,
            ChallengeRefusal::AccountRequired | ChallengeRefusal::OpponentNeedsAccount => {
                ErrorCode::AccountRequired
            }
            ChallengeRefusal::Challenge(e) => e.code(),
            ChallengeRefusal::Correspondence(e) => e.code(),
            ChallengeRefusal::Store(_) => ErrorCode::Internal,
        }
    }

    /// The `error` frame the client gets (an internal failure is logged, not told).
    pub fn to_frame(&self) -> Utf8Bytes {
        if let ChallengeRefusal::Store(e) = self {
            tracing::error!(error = %e, "a challenge frame failed");
        }
        error_text(self.code(), &self.to_string(), None)
    }
}

/// The challenge frames, on the node that holds the challenges (a connection of another node
/// arrives here over the bus): the answer for the connection, if any. An accepted challenge's
/// game is entered through the connection's queue.
pub async fn handle_frame(
    store: &jungle_store::Store,
    challenges: &super::Challenges,
    ctx: &std::sync::Arc<crate::RoomContext>,
    conn: &Connection,
    frame: ClientFrame,
) -> Result<Option<Utf8Bytes>, ChallengeRefusal> {
    match frame {
        ClientFrame::Challenge {
            to,
            rules,
            clock,
            rated,
            color,
        } => {
            clock.validate()?;
            if rated && !store.has_account(conn.player.id).await? {
                return Err(ChallengeRefusal::AccountRequired);
            }
            let Some(target) = store.player(to).await? else {
                return Err(ChallengeError::Offline.into());
            };
            // The target says who may challenge them, and whom they block: read here, on the
            // node holding the challenges, so the same holds whichever node it came through.
            let refused = match store.challenge_policy(to).await?.as_str() {
                "nobody" => true,
                "accounts" => !store.has_account(conn.player.id).await?,
                _ => false,
            } || store.either_blocks(conn.player.id, to).await?;
            if refused {
                return Err(ChallengeError::Refused.into());
            }
            if rated && !store.has_account(to).await? {
                return Err(ChallengeRefusal::OpponentNeedsAccount);
            }
            let pair = ((conn.player.id, conn.player.bot), (target.id, target.bot));
            if let Err(e) = super::bot_rules::check_pair(store, pair.0, pair.1).await {
                return Err(AcceptError::from(e).into());
            }
            let settings = RoomSettings {
                rules,
                clock,
                rated,
            };
            let to = jungle_protocol::PlayerInfo {
                id: target.id,
                name: target.name,
            };
            let challenge = challenges.issue(conn, to, settings, color)?;
            Ok(Some(frame_text(&ServerFrame::ChallengeSent { challenge })))
        }
        ClientFrame::AcceptChallenge { id } => {
            let room = challenges.accept(ctx.clone(), id, conn).await?;
            let _ = conn.tx.try_send(crate::Outbound::enter(room));
            Ok(None)
        }
        ClientFrame::DeclineChallenge { id, reason } => {
            challenges.decline(id, conn, reason)?;
            Ok(None)
        }
        ClientFrame::CancelChallenge { id } => {
            challenges.cancel(id, conn)?;
            Ok(None)
        }
        _ => Ok(None),
    }
}
