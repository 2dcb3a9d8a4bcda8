//! The challenge frames, answered where the challenges are held (this node, or with several
//! nodes the matcher's, for connections of any node).

use jungle_protocol::{ClientFrame, ServerFrame};

use crate::frame_error::FrameError;
use jungle_rooms::{frame_text, Connection, RoomSettings};

/// The challenge frames, on the node that holds the challenges (a connection of another node
/// arrives here over the bus): the answer for the connection, if any. An accepted challenge's
/// game is entered through the connection's queue.
pub async fn handle_frame(
    store: &jungle_store::Store,
    challenges: &crate::challenges::Challenges,
    ctx: &std::sync::Arc<jungle_rooms::RoomContext>,
    conn: &Connection,
    frame: ClientFrame,
) -> Result<Option<axum::extract::ws::Utf8Bytes>, FrameError> {
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
                return Err(FrameError::AccountRequired);
            }
            let Some(target) = store.player(to).await? else {
                return Err(crate::challenges::ChallengeError::Offline.into());
            };
            // The target says who may challenge them, and whom they block: read here, on the
            // node holding the challenges, so the same holds whichever node it came through.
            let refused = match store.challenge_policy(to).await?.as_str() {
                "nobody" => true,
                "accounts" => !store.has_account(conn.player.id).await?,
                _ => false,
            } || store.either_blocks(conn.player.id, to).await?;
            if refused {
                return Err(crate::challenges::ChallengeError::Refused.into());
            }
            if rated && !store.has_account(to).await? {
                return Err(FrameError::OpponentNeedsAccount);
            }
            let pair = ((conn.player.id, conn.player.bot), (target.id, target.bot));
            if let Err(e) = crate::challenges::bot_rules::check_pair(store, pair.0, pair.1).await {
                return Err(crate::challenges::AcceptError::from(e).into());
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
            let _ = conn.tx.try_send(jungle_rooms::Outbound::enter(room));
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
