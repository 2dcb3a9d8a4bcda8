//! The lease keeper: every beat it renews this node's leases (games in progress and private
//! rooms waiting for their guest) and adopts those no node holds.
//!
//! A game counts as an orphan only when it is seen without a lease at two beats in a row: a
//! game's owner takes its lease as its room starts and renews it every beat, so a live owner
//! always renews before anyone adopts. The database is searched for orphans when a node has
//! just left (its key of games in progress is gone), while candidates wait for their second
//! look, and every [`SEARCH_EVERY`] beats besides. And a node adopts nothing until Redis has answered it
//! for [`SETTLED_BEATS`] beats, counted again from when it finds Redis emptied: after an
//! outage or a restart of Redis (seen or not) every owner has had time to reconnect and take
//! its leases again.

use std::collections::HashSet;
use std::sync::Arc;

use tokio::sync::watch;
use uuid::Uuid;

use super::adopting::Adopting;
use super::proxy::Proxies;
use super::Cluster;
use jungle_rooms::{open, RoomCommand, RoomContext};

/// Beats Redis must have answered in a row before this node adopts anything.
pub const SETTLED_BEATS: u32 = 4;
/// After a node left (its games' leases lapse with its own), the database is searched for
/// orphans at every beat for this many beats: long enough for its last leases to run out and
/// be seen free twice.
const SEARCH_AFTER_A_DEPARTURE: u32 = 6;
/// Otherwise the database is searched every this many beats, for whatever else lost its lease
/// (a room stopped on a live node). Each search reads every game in progress, so it is not
/// made every beat while nothing changes.
const SEARCH_EVERY: u32 = 10;

pub async fn keep(
    cluster: Cluster,
    ctx: Arc<RoomContext>,
    directors: jungle_tournaments::Directors,
    online: jungle_rooms::online::Online,
    proxies: Proxies,
    adopting: Adopting,
    shutdown: watch::Receiver<bool>,
) {
    let mut beats = super::Beats::new(shutdown);
    let mut seen_free = HashSet::new();
    let mut answered = 0u32;
    let mut nodes_before: HashSet<String> = HashSet::new();
    let mut search_until = 0u32;
    let mut live_published = super::Published::default();
    while beats.next().await {
        let ours = ctx.rooms.leased_ids();
        metrics::gauge!("jungle_games_owned").set(ctx.rooms.live_count() as f64);
        if let Err(e) = publish_live(&cluster, &ctx.rooms, &mut live_published).await {
            live_published.failed();
            tracing::warn!(error = %e, "publishing the games in progress");
        }
        match cluster.renew(&ours).await {
            Ok(lost) => {
                for game in lost {
                    tracing::warn!(%game, "another node took this game's lease; stopping here");
                    if let Some(room) = ctx.rooms.relinquish(game) {
                        room.send(RoomCommand::Relinquish).await;
                    }
                }
            }
            Err(e) => {
                // Games go on (their moves are in PostgreSQL); nothing is adopted meanwhile.
                metrics::counter!("jungle_cluster_errors_total").increment(1);
                tracing::warn!(error = %e, "Redis unreachable: leases not renewed");
                seen_free.clear();
                answered = 0;
                continue;
            }
        }
        // Redis came back empty (a restart between two beats goes unseen otherwise: a command
        // in flight waits for the reconnection rather than failing). Every owner lost its
        // leases with it and takes them again at its next answered beat, which may come late
        // (its connection is being made again): nothing is adopted here until the usual
        // settling beats have passed, or live games would be taken from live owners. And the
        // codes of this node's rooms are named again.
        if matches!(cluster.found_empty().await, Ok(true)) {
            answered = 0;
            seen_free.clear();
            if let Err(e) = cluster.share_codes(&ctx.rooms.codes()).await {
                tracing::warn!(error = %e, "room codes not shared again");
            }
        }
        answered = answered.saturating_add(1);
        // Which nodes are here, from the first beat: one that leaves before this node has
        // settled is looked for as soon as it has.
        match cluster.live_nodes().await {
            Ok(nodes) => {
                let nodes: HashSet<String> = nodes.into_iter().collect();
                if nodes_before.difference(&nodes).next().is_some() {
                    search_until = answered + SEARCH_AFTER_A_DEPARTURE;
                }
                nodes_before = nodes;
            }
            Err(_) => search_until = answered + SEARCH_AFTER_A_DEPARTURE,
        }
        if answered < SETTLED_BEATS {
            continue;
        }
        if answered.is_multiple_of(3) {
            direct_orphaned_tournaments(&cluster, &ctx, &directors, &online).await;
        }
        // Settling, every node that held a lease before may have gone meanwhile.
        let search = answered <= SETTLED_BEATS + SEARCH_AFTER_A_DEPARTURE
            || answered <= search_until
            || !seen_free.is_empty()
            || answered.is_multiple_of(SEARCH_EVERY);
        if !search {
            continue;
        }
        seen_free = match orphans(&cluster, &ctx).await {
            Ok(free) => {
                let mut renewed = tokio::time::Instant::now();
                for &game in free.intersection(&seen_free) {
                    adopt(&cluster, &ctx, &proxies, &adopting, &nodes_before, game).await;
                    // Each takeover reads the database: taking over many games must not let
                    // this node's own leases, and those just taken, lapse meanwhile.
                    if renewed.elapsed() >= super::BEAT {
                        let _ = cluster.renew(&ctx.rooms.leased_ids()).await;
                        renewed = tokio::time::Instant::now();
                    }
                }
                free
            }
            Err(e) => {
                metrics::counter!("jungle_cluster_errors_total").increment(1);
                tracing::warn!(error = %e, "looking for orphaned games");
                HashSet::new()
            }
        };
    }
}

/// This node's games in progress for the others: whole when they changed since last
/// published (see [`super::Published`]), else only renewed.
async fn publish_live(
    cluster: &Cluster,
    rooms: &jungle_rooms::Rooms,
    published: &mut super::Published,
) -> Result<(), super::ClusterError> {
    let (version, games) = match rooms.live_games_since(published.seen()) {
        Some(changed) => changed,
        None if cluster.publish_live(None).await? => return Ok(()),
        None => rooms
            .live_games_since(None)
            .expect("a version is never None"),
    };
    cluster.publish_live(Some(&games)).await?;
    published.published(version);
    Ok(())
}

/// Games in progress and waiting rooms in the database that no node holds and that are not
/// running here.
async fn orphans(cluster: &Cluster, ctx: &RoomContext) -> Result<HashSet<Uuid>, String> {
    let mut active = ctx
        .store
        .active_game_ids_all()
        .await
        .map_err(|e| e.to_string())?;
    let waiting = ctx.store.waiting_room_games().await;
    active.extend(waiting.map_err(|e| e.to_string())?);
    let elsewhere: Vec<Uuid> = active
        .into_iter()
        .filter(|game| !ctx.rooms.contains(*game))
        .collect();
    let free = cluster
        .unowned(&elsewhere)
        .await
        .map_err(|e| e.to_string())?;
    Ok(free.into_iter().collect())
}

/// Takes an orphaned game's lease and resumes it here from the database; its followers here
/// and on the other `nodes` join it at once.
async fn adopt(
    cluster: &Cluster,
    ctx: &Arc<RoomContext>,
    proxies: &Proxies,
    adopting: &Adopting,
    nodes: &HashSet<String>,
    game: Uuid,
) {
    match cluster.claim(game).await {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => {
            tracing::warn!(%game, error = %e, "claiming an orphaned game");
            return;
        }
    }
    // The other nodes may learn from the lease that the game is here before its room runs:
    // what they send it meanwhile waits for the room (until this is dropped, on every path).
    let _takeover = adopting.begin(game);
    let record = match ctx.store.game(game).await {
        Ok(Some(record)) if record.status == jungle_protocol::GameStatus::Active => record,
        // No game yet: a private room still waiting for its guest.
        Ok(None) => return adopt_waiting_room(cluster, ctx, proxies, nodes, game).await,
        Ok(_) => {
            // It ended meanwhile: nothing to run.
            let _ = cluster.release(&[game]).await;
            return;
        }
        Err(e) => {
            tracing::error!(%game, error = %e, "reading an orphaned game");
            let _ = cluster.release(&[game]).await;
            return;
        }
    };
    match open::resume_record(ctx, record).await {
        Ok(Some(_)) => {
            proxies.adopted_here(game, nodes);
            metrics::counter!("jungle_games_adopted_total").increment(1);
            tracing::info!(%game, node = cluster.node(), "adopted a game");
        }
        Ok(None) => {}
        Err(e) => tracing::error!(%game, error = %e, "resuming an orphaned game"),
    }
}

/// Reopens an orphaned waiting room here, under its code, whose lease this node took.
async fn adopt_waiting_room(
    cluster: &Cluster,
    ctx: &Arc<RoomContext>,
    proxies: &Proxies,
    nodes: &HashSet<String>,
    game: Uuid,
) {
    let restored = match ctx.store.waiting_room(game).await {
        Ok(Some(saved)) => open::restore_waiting(ctx, &saved).await.map(Some),
        Ok(None) => Ok(None),
        Err(e) => Err(e),
    };
    match restored {
        Ok(Some(_)) => {
            proxies.adopted_here(game, nodes);
            metrics::counter!("jungle_rooms_adopted_total").increment(1);
            tracing::info!(%game, node = cluster.node(), "adopted a waiting private room");
        }
        // It started or expired meanwhile: nothing to run.
        Ok(None) => {
            let _ = cluster.release(&[game]).await;
        }
        Err(e) => {
            tracing::error!(%game, error = %e, "reopening an orphaned waiting room");
            let _ = cluster.release(&[game]).await;
        }
    }
}

/// Tournaments not over that no node directs (their node died, or none has started since a
/// restart): this node takes them on.
async fn direct_orphaned_tournaments(
    cluster: &Cluster,
    ctx: &Arc<RoomContext>,
    directors: &jungle_tournaments::Directors,
    online: &jungle_rooms::online::Online,
) {
    let records = match ctx
        .store
        .tournaments_to_direct(jungle_store::now_ms())
        .await
    {
        Ok(records) => records,
        Err(e) => {
            tracing::error!(error = %e, "tournaments to direct");
            return;
        }
    };
    for record in records {
        let id = record.id;
        if directors.is_directed(id) || !matches!(cluster.director(id).await, Ok(None)) {
            continue;
        }
        if !matches!(cluster.direct(id).await, Ok(true)) {
            continue;
        }
        match jungle_tournaments::director::load(&ctx.store, record).await {
            Ok(loaded) => {
                tracing::info!(tournament = %id, "directing a tournament no node directed");
                jungle_tournaments::director::start(
                    ctx.clone(),
                    directors.clone(),
                    online.clone(),
                    loaded,
                );
            }
            Err(e) => tracing::error!(tournament = %id, error = %e, "loading a tournament"),
        }
    }
}
