//! Tournament frames from connections of other nodes, answered on the node directing the
//! tournament.

use axum::extract::ws::Utf8Bytes;

use jungle_rooms::Connection;

use super::director::JoinError;

/// What a connection of another node is answered about a tournament frame.
pub enum RemoteAnswer {
    /// Nothing (what follows comes as the tournament's frames).
    Nothing,
    /// This refusal.
    Refused(Utf8Bytes),
    /// A wrong private code: the guess is charged to the address on the connection's own node
    /// (whose limits answer its next lookups), then this refusal is shown.
    WrongCode(Utf8Bytes),
}

/// A tournament frame from a connection of another node, on the node directing the
/// tournament.
pub async fn handle_remote(
    directors: &super::Directors,
    conn: &Connection,
    has_account: bool,
    frame: jungle_protocol::ClientFrame,
) -> RemoteAnswer {
    use jungle_protocol::ClientFrame;
    match frame {
        ClientFrame::JoinTournament { id, code } => {
            match directors.join(id, conn.clone(), code, has_account).await {
                Some(Ok(())) => RemoteAnswer::Nothing,
                Some(Err(JoinError::Code)) => RemoteAnswer::WrongCode(JoinError::Code.to_frame()),
                Some(Err(e)) => RemoteAnswer::Refused(e.to_frame()),
                None => RemoteAnswer::Refused(JoinError::Over.to_frame()),
            }
        }
        ClientFrame::Withdraw { id } => {
            directors.withdraw(id, conn.player.id).await;
            RemoteAnswer::Nothing
        }
        ClientFrame::WatchTournament { id } => {
            directors.watch(id, conn.clone()).await;
            RemoteAnswer::Nothing
        }
        ClientFrame::UnwatchTournament { id } => {
            directors.unwatch(id, conn.id).await;
            RemoteAnswer::Nothing
        }
        _ => RemoteAnswer::Nothing,
    }
}
