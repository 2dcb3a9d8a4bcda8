//! Games over days sleep. A correspondence game may wait days for its next move; its room
//! (the task, the session, the queue: about 8 KiB) would stay in memory all that while. So a
//! game over days that has had nobody in it for a while, and has nothing pending that only
//! memory holds (a draw or takeback offer), stops its task and leaves in the registry only
//! what must stay:
//!
//! - its positions, still closed to the engine (fair play must not open them because the
//!   game sleeps);
//! - when its clock runs out: an alarm wakes it then, and the woken game ends by its clock;
//! - its place in the registry: its lease is still this node's, its code still finds it.
//!
//! Anything that reaches it goes through [`Rooms::get`], which wakes it: a new queue is
//! handed out at once and its room is read back from the database behind it, as after a
//! restart (its clock charged with the time it slept, its chat recalled). A room sleeps only
//! when its handle in the registry is the last one and its queue is empty, under the
//! registry's lock, so no command sent to it can be lost.

use std::sync::Arc;
use std::time::Duration;

use jungle_protocol::GameStatus;
use tokio::sync::{mpsc, watch};

use crate::registry::{Asleep, SleepPolicy};
use crate::time_source::TimeSource;
use crate::{open, Room, RoomCommand, RoomContext, RoomHandle, Rooms};

/// How long a game woken while the database did not answer sleeps before it tries again.
const RETRY_WAKE: Duration = Duration::from_secs(10);

/// From now on, games over days sleep after `after` with nobody in them, and an alarm wakes
/// each when its clock runs out. Called once, where the server is assembled.
pub fn let_games_sleep(ctx: &Arc<RoomContext>, after: Duration) {
    let context = Arc::downgrade(ctx);
    ctx.rooms.let_sleep(SleepPolicy {
        after,
        wake: Box::new(move |handle, queue, asleep| {
            if let Some(ctx) = context.upgrade() {
                tokio::spawn(wake(ctx, handle, queue, asleep));
            }
        }),
    });
    tokio::spawn(ring(
        ctx.rooms.clone(),
        ctx.time.clone(),
        ctx.shutdown.clone(),
    ));
}

/// Brings a sleeping game back: read from the database, run on the queue its handle
/// already sends to. A game over meanwhile, or one that does not read back, is gone from
/// the registry; one the database did not give back sleeps again and retries.
async fn wake(
    ctx: Arc<RoomContext>,
    handle: RoomHandle,
    queue: mpsc::Receiver<RoomCommand>,
    asleep: Box<Asleep>,
) {
    let id = handle.id;
    if *ctx.shutdown.borrow() {
        ctx.rooms.remove(id);
        return;
    }
    metrics::counter!("jungle_games_woken_total").increment(1);
    let record = match ctx.store.game(id).await {
        Ok(Some(record)) if record.status == GameStatus::Active => record,
        Ok(_) => {
            tracing::warn!(game = %id, "a sleeping game is no longer in play");
            ctx.rooms.remove(id);
            return;
        }
        Err(e) => {
            tracing::error!(game = %id, error = %e, "a sleeping game could not be read; it sleeps on");
            ctx.rooms
                .sleep_again(id, asleep, ctx.time.instant() + RETRY_WAKE);
            return;
        }
    };
    match open::resumed_session(&ctx, record).await {
        Ok(Some(session)) => Room::spawn_woken(ctx, &handle, session, queue, asleep.positions),
        // It does not replay (logged): nothing can run it.
        Ok(None) => ctx.rooms.remove(id),
        Err(e) => {
            tracing::error!(game = %id, error = %e, "a sleeping game could not be read; it sleeps on");
            ctx.rooms
                .sleep_again(id, asleep, ctx.time.instant() + RETRY_WAKE);
        }
    }
}

/// The alarm of the sleeping games: wakes each when its clock runs out (it then ends by
/// it). At a shutdown, the sleeping games are forgotten: whoever runs them next reads them
/// from the database.
async fn ring(rooms: Rooms, time: TimeSource, mut shutdown: watch::Receiver<bool>) {
    let mut time_moves = time.moves();
    loop {
        let next = rooms.next_alarm();
        let alarm = async {
            match next {
                Some(at) => tokio::time::sleep_until(time.timer_at(at)).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = alarm => {
                for game in rooms.due(time.instant()) {
                    rooms.get(game);
                }
            }
            () = rooms.alarm_changed() => {}
            // Time was moved forward (tests of days): the alarm is set again.
            Ok(()) = time_moves.changed() => {}
            _ = shutdown.changed() => break,
        }
    }
    rooms.forget_sleepers();
}
