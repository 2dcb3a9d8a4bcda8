//! Tournament frames from connections of other nodes, answered on the node directing the
//! tournament.

use crate::frame_error::FrameError;
use crate::rooms::Connection;

use super::director::JoinError;

/// A tournament frame from a connection of another node, on the node directing the
/// tournament: what the connection is answered, if anything.
pub async fn handle_remote(
    ctx: &std::sync::Arc<crate::rooms::RoomContext>,
    conn: &Connection,
    has_account: bool,
    frame: jungle_protocol::ClientFrame,
) -> Option<axum::extract::ws::Utf8Bytes> {
    use jungle_protocol::ClientFrame;
    let directors = &ctx.tournaments;
    match frame {
        ClientFrame::JoinTournament { id, code } => {
            match directors.join(id, conn.clone(), code, has_account).await {
                Some(Ok(())) => None,
                Some(Err(e)) => Some(FrameError::from(e).to_frame()),
                None => Some(FrameError::from(JoinError::Over).to_frame()),
            }
        }
        ClientFrame::Withdraw { id } => {
            directors.withdraw(id, conn.player.id).await;
            None
        }
        ClientFrame::WatchTournament { id } => {
            directors.watch(id, conn.clone()).await;
            None
        }
        ClientFrame::UnwatchTournament { id } => {
            directors.unwatch(id, conn.id).await;
            None
        }
        _ => None,
    }
}
