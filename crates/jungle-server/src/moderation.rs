//! Applies bans made by `jungle-server admin ban`, which writes only to the database: this
//! task polls for bans and, for each, closes the player's connections and ends their games in
//! progress as losses by `banned`. At start it applies every ban once (games resumed from the
//! database may belong to a player banned while the server was down); applying one twice
//! changes nothing.

use std::time::Duration;

use tokio::sync::watch;

use jungle_rooms::online::Online;
use jungle_rooms::{RoomCommand, Rooms};
use jungle_store::Store;

/// How often the database is asked for new bans.
pub const BAN_POLL: Duration = Duration::from_secs(2);

pub async fn apply_bans(
    store: Store,
    rooms: Rooms,
    online: Online,
    mut shutdown: watch::Receiver<bool>,
) {
    // Bans at or after this time (ms) are still to be applied; those at exactly this time
    // are applied again, harmlessly, so none made within the same millisecond is missed.
    let mut since = 0;
    let mut tick = tokio::time::interval(BAN_POLL);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => return,
        }
        let bans = match store.bans_since(since).await {
            Ok(bans) => bans,
            Err(e) => {
                tracing::warn!(error = %e, "could not read bans; trying again");
                continue;
            }
        };
        for (player, banned_at) in bans {
            online.close_all(player);
            match store.active_game_ids(player).await {
                Ok(games) => {
                    for game in games {
                        if let Some(room) = rooms.get(game) {
                            room.send(RoomCommand::Banned { player }).await;
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "could not read a banned player's games");
                    // Later bans wait, so that `since` never passes one not yet applied.
                    break;
                }
            }
            tracing::info!(%player, "ban applied");
            since = since.max(banned_at);
        }
    }
}
