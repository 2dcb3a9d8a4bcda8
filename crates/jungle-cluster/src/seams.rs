//! The cluster's answers to what the rooms ask of the other nodes: the traits of
//! `jungle_rooms::reach`, implemented here so that the rooms never name the cluster.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use uuid::Uuid;

use jungle_rooms::fair_play::{Among, EngineClosed, OtherNodes, PositionsElsewhere, Standing};
use jungle_rooms::online::Online;
use jungle_rooms::reach::{Claims, ClaimsElsewhere, Held, Players, PlayersElsewhere};

use super::positions::Peers;
use super::presence::Presence;
use super::Cluster;

impl PlayersElsewhere for Presence {
    fn is_online_elsewhere(&self, player: Uuid) -> bool {
        Presence::is_online_elsewhere(self, player)
    }

    fn send_elsewhere(&self, player: Uuid, text: &Utf8Bytes, except: Option<u64>) {
        Presence::send_elsewhere(self, player, text, except)
    }

    fn enter_elsewhere(&self, player: Uuid, game: Uuid) {
        Presence::enter_elsewhere(self, player, game)
    }
}

impl ClaimsElsewhere for Cluster {
    fn hold_game(&self, game: Uuid) -> BoxFuture<'_, Held> {
        async move {
            match self.renew(&[game]).await {
                Ok(lost) if lost.is_empty() => Held::Here,
                Ok(_) => Held::Elsewhere,
                Err(e) => {
                    tracing::warn!(%game, error = %e, "game lease not taken");
                    Held::Unknown
                }
            }
        }
        .boxed()
    }

    fn share_code<'a>(&'a self, code: &'a str, game: Uuid, open: bool) -> BoxFuture<'a, ()> {
        async move {
            let shared = match open {
                true => self.set_code(code, game).await,
                false => self.forget_code(code, game).await,
            };
            if let Err(e) = shared {
                tracing::warn!(%game, error = %e, "room code not shared");
            }
        }
        .boxed()
    }

    fn direct(&self, tournament: Uuid) -> BoxFuture<'_, bool> {
        // Redis away: direct on (a lease nobody renews lapses, and is taken back).
        async move { !matches!(Cluster::direct(self, tournament).await, Ok(false)) }.boxed()
    }
}

impl PositionsElsewhere for Peers {
    fn standings<'a>(
        &'a self,
        positions: &'a [jungle_rules::Position],
        among: Among,
    ) -> BoxFuture<'a, Result<Vec<Standing>, EngineClosed>> {
        Peers::standings(self, positions, among).boxed()
    }
}

/// Reaching players: this node's tabs, and the other nodes' when there are any.
pub fn players(online: Online, presence: Option<Presence>) -> Players {
    Players::new(
        online,
        presence.map(|p| Arc::new(p) as Arc<dyn PlayersElsewhere>),
    )
}

/// What this node holds: nothing to hold without a cluster.
pub fn claims(cluster: Option<Cluster>) -> Claims {
    Claims::new(cluster.map(|c| Arc::new(c) as Arc<dyn ClaimsElsewhere>))
}

/// Fair play's other nodes: none without a cluster.
pub fn other_nodes(peers: Option<Peers>) -> OtherNodes {
    OtherNodes::new(peers.map(|p| Arc::new(p) as Arc<dyn PositionsElsewhere>))
}
