//! Matchmaking: one task owns every pool of waiting players. A pool per (ruleset, clock, rated);
//! the closest ratings are paired, and the acceptable gap widens the longer a player waits.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use jungle_protocol::{ErrorCode, ServerFrame};
use jungle_rules::Side;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use uuid::Uuid;

use crate::{
    error_text, frame_text, open, Connection, Outbound, RoomContext, RoomSettings, SeatPlayer,
};
pub use jungle_protocol::http::OpenSeek;
use jungle_store::RatingRecord;

/// The rating gap accepted at once, and how much it widens per second of waiting.
const BASE_GAP: f64 = 100.0;
const GAP_PER_SECOND: f64 = 50.0;
const TICK: Duration = Duration::from_secs(1);
/// Players whose last matchmade colour is remembered, at most.
const LAST_COLOURS_KEPT: usize = 100_000;

enum Command {
    Seek {
        conn: Connection,
        settings: RoomSettings,
        rating: RatingRecord,
        computer_after: Option<Duration>,
    },
    Cancel {
        conn_id: u64,
        /// Answer with `seek_cancelled` (false when the connection is closing).
        answer: bool,
    },
    /// The seeks waiting, for the lobby's list.
    List {
        reply: oneshot::Sender<Vec<OpenSeek>>,
    },
    /// `conn` takes the waiting seek `seek` from the list.
    Accept {
        conn: Connection,
        seek: Uuid,
        has_account: bool,
    },
    /// The same, once checked that neither player blocks the other.
    AcceptChecked {
        conn: Connection,
        seek: Uuid,
        has_account: bool,
    },
    /// The players a seeker blocks, read from the store after their seek came in.
    Blocks {
        conn_id: u64,
        blocks: Arc<HashSet<Uuid>>,
    },
}

/// Most seeks the lobby's list shows (the longest-waiting first).
pub const LISTED_SEEKS: usize = 100;

struct Seeker {
    /// Its id in the lobby's list.
    id: Uuid,
    conn: Connection,
    rating: RatingRecord,
    since: Instant,
    /// Play the computer once this long has passed without a human opponent.
    computer_after: Option<Duration>,
    /// Whom the seeker blocks: never paired with them. `None` until read from the store (a
    /// moment); the seek waits meanwhile.
    blocks: Option<Arc<HashSet<Uuid>>>,
}

impl Seeker {
    /// Whether these two may be paired: both seeks ready, neither blocking the other.
    fn may_meet(&self, other: &Seeker) -> bool {
        match (&self.blocks, &other.blocks) {
            (Some(mine), Some(theirs)) => {
                !mine.contains(&other.conn.player.id) && !theirs.contains(&self.conn.player.id)
            }
            _ => false,
        }
    }
}

impl Seeker {
    fn gap(&self, now: Instant) -> f64 {
        BASE_GAP + GAP_PER_SECOND * now.duration_since(self.since).as_secs_f64()
    }
}

/// A cloneable handle to the matchmaking task.
#[derive(Clone)]
pub struct Lobby {
    tx: mpsc::Sender<Command>,
}

impl Lobby {
    pub fn start(ctx: Arc<RoomContext>, shutdown: watch::Receiver<bool>) -> Lobby {
        let (tx, rx) = mpsc::channel(1024);
        tokio::spawn(run(ctx, rx, tx.downgrade(), shutdown));
        Lobby { tx }
    }

    pub async fn seek(
        &self,
        conn: Connection,
        settings: RoomSettings,
        rating: RatingRecord,
        computer_after: Option<Duration>,
    ) {
        let command = Command::Seek {
            conn,
            settings,
            rating,
            computer_after,
        };
        let _ = self.tx.send(command).await;
    }

    pub async fn cancel(&self, conn_id: u64, answer: bool) {
        let _ = self.tx.send(Command::Cancel { conn_id, answer }).await;
    }

    /// The seeks waiting now, longest-waiting first.
    pub async fn list(&self) -> Vec<OpenSeek> {
        let (reply, answer) = oneshot::channel();
        if self.tx.send(Command::List { reply }).await.is_err() {
            return Vec::new();
        }
        answer.await.unwrap_or_default()
    }

    /// `conn` accepts a listed seek; the game starts for both, or `conn` hears why not.
    pub async fn accept(&self, conn: Connection, seek: Uuid, has_account: bool) {
        let _ = self
            .tx
            .send(Command::Accept {
                conn,
                seek,
                has_account,
            })
            .await;
    }
}

struct Pools {
    ctx: Arc<RoomContext>,
    /// The lobby's own queue, for answers read from the store in the meantime.
    own: mpsc::WeakSender<Command>,
    pools: HashMap<RoomSettings, Vec<Seeker>>,
    /// Each player's colour in their last matchmade game, to alternate fairly.
    last_colour: HashMap<Uuid, Side>,
}

async fn run(
    ctx: Arc<RoomContext>,
    mut rx: mpsc::Receiver<Command>,
    own: mpsc::WeakSender<Command>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut pools = Pools {
        ctx,
        own,
        pools: HashMap::new(),
        last_colour: HashMap::new(),
    };
    let mut tick = tokio::time::interval(TICK);
    loop {
        tokio::select! {
            command = rx.recv() => match command {
                Some(Command::Seek { conn, settings, rating, computer_after }) => pools.seek(conn, settings, rating, computer_after),
                Some(Command::Cancel { conn_id, answer }) => pools.cancel(conn_id, answer),
                Some(Command::List { reply }) => {
                    let _ = reply.send(pools.open_seeks());
                }
                Some(Command::Accept { conn, seek, has_account }) => pools.check_accept(conn, seek, has_account),
                Some(Command::AcceptChecked { conn, seek, has_account }) => pools.accept(conn, seek, has_account),
                Some(Command::Blocks { conn_id, blocks }) => pools.blocks_read(conn_id, blocks),
                None => break,
            },
            _ = tick.tick() => {
                let keys: Vec<RoomSettings> = pools.pools.keys().copied().collect();
                for settings in keys {
                    pools.pair(settings);
                }
            }
            _ = shutdown.changed() => break,
        }
    }
}

impl Pools {
    fn seek(
        &mut self,
        conn: Connection,
        settings: RoomSettings,
        rating: RatingRecord,
        computer_after: Option<Duration>,
    ) {
        let already = self
            .pools
            .values()
            .flatten()
            .any(|s| s.conn.player.id == conn.player.id);
        if already {
            let _ = conn.tx.try_send(Outbound::text(error_text(
                ErrorCode::AlreadySeeking,
                "you are already looking for a game; cancel that seek first",
                None,
            )));
            return;
        }
        let pool = self.pools.entry(settings).or_default();
        pool.push(Seeker {
            id: Uuid::new_v4(),
            conn: conn.clone(),
            rating,
            since: Instant::now(),
            computer_after,
            blocks: None,
        });
        let size = pool.len();
        self.read_blocks(conn.id, conn.player.id);
        let _ = conn
            .tx
            .try_send(Outbound::text(frame_text(&ServerFrame::Seeking {
                rules: settings.rules,
                clock: settings.clock,
                rated: settings.rated,
                pool: size,
            })));
        metrics::gauge!("jungle_seeks").increment(1.0);
        self.pair(settings);
    }

    /// Reads whom a seeker blocks, off the lobby's task; the answer comes back as a command.
    fn read_blocks(&self, conn_id: u64, player: Uuid) {
        let (store, own) = (self.ctx.store.clone(), self.own.clone());
        tokio::spawn(async move {
            let blocks = store.blocked_ids(player).await.unwrap_or_else(|e| {
                tracing::error!(error = %e, "a seeker's blocks");
                HashSet::new()
            });
            if let Some(tx) = own.upgrade() {
                let blocks = Arc::new(blocks);
                let _ = tx.send(Command::Blocks { conn_id, blocks }).await;
            }
        });
    }

    fn blocks_read(&mut self, conn_id: u64, blocks: Arc<HashSet<Uuid>>) {
        let found = self.pools.iter_mut().find_map(|(settings, pool)| {
            let seeker = pool.iter_mut().find(|s| s.conn.id == conn_id)?;
            seeker.blocks = Some(blocks.clone());
            Some(*settings)
        });
        if let Some(settings) = found {
            self.pair(settings);
        }
    }

    /// Someone takes a listed seek: first, off the lobby's task, whether either of the two
    /// blocks the other (the taker's blocks are not in the lobby).
    fn check_accept(&mut self, conn: Connection, seek: Uuid, has_account: bool) {
        let seeker = self
            .pools
            .values()
            .flatten()
            .find(|s| s.id == seek)
            .map(|s| s.conn.player.id);
        let Some(seeker) = seeker else {
            // Refused at once, as the acceptance itself would be.
            self.accept(conn, seek, has_account);
            return;
        };
        let (store, own) = (self.ctx.store.clone(), self.own.clone());
        tokio::spawn(async move {
            match store.either_blocks(conn.player.id, seeker).await {
                Ok(false) => {
                    if let Some(tx) = own.upgrade() {
                        let accept = Command::AcceptChecked {
                            conn,
                            seek,
                            has_account,
                        };
                        let _ = tx.send(accept).await;
                    }
                }
                Ok(true) => {
                    let _ = conn.tx.try_send(Outbound::text(error_text(
                        ErrorCode::SeekGone,
                        "that seek is not open to you",
                        None,
                    )));
                }
                Err(e) => tracing::error!(error = %e, "blocks between a seeker and a taker"),
            }
        });
    }

    fn cancel(&mut self, conn_id: u64, answer: bool) {
        for pool in self.pools.values_mut() {
            if let Some(i) = pool.iter().position(|s| s.conn.id == conn_id) {
                let seeker = pool.swap_remove(i);
                metrics::gauge!("jungle_seeks").decrement(1.0);
                if answer {
                    let _ = seeker
                        .conn
                        .tx
                        .try_send(Outbound::text(frame_text(&ServerFrame::SeekCancelled)));
                }
            }
        }
        self.pools.retain(|_, pool| !pool.is_empty());
    }

    fn open_seeks(&self) -> Vec<OpenSeek> {
        let mut seeks: Vec<(&RoomSettings, &Seeker)> = self
            .pools
            .iter()
            .flat_map(|(settings, pool)| pool.iter().map(move |s| (settings, s)))
            .filter(|(_, s)| !s.conn.tx.is_closed())
            .collect();
        // The longest-waiting first; only the first few are shown.
        seeks.sort_by_key(|(_, s)| s.since);
        seeks
            .into_iter()
            .take(LISTED_SEEKS)
            .map(|(settings, s)| OpenSeek {
                id: s.id,
                player: jungle_protocol::PlayerInfo {
                    id: s.conn.player.id,
                    name: s.conn.player.name.clone(),
                },
                rating: s.rating.glicko().shown(),
                provisional: s.rating.provisional,
                rules: settings.rules,
                clock: settings.clock,
                rated: settings.rated,
            })
            .collect()
    }

    /// Someone takes a seek from the list: the seeker meets them at once, whatever the ratings.
    fn accept(&mut self, conn: Connection, seek: Uuid, has_account: bool) {
        let refuse = |conn: &Connection, code: ErrorCode, message: &str| {
            let _ = conn
                .tx
                .try_send(Outbound::text(error_text(code, message, None)));
        };
        let Some((settings, index)) = self.pools.iter().find_map(|(settings, pool)| {
            pool.iter()
                .position(|s| s.id == seek && !s.conn.tx.is_closed())
                .map(|i| (*settings, i))
        }) else {
            refuse(
                &conn,
                ErrorCode::SeekGone,
                "that seek is gone: it was taken or cancelled",
            );
            return;
        };
        let pool = self.pools.get_mut(&settings).expect("found");
        if pool[index].conn.player.id == conn.player.id {
            refuse(&conn, ErrorCode::SeekGone, "that is your own seek");
            return;
        }
        if settings.rated && !has_account {
            refuse(
                &conn,
                ErrorCode::AccountRequired,
                "rated games are for accounts",
            );
            return;
        }
        let seeker = pool.swap_remove(index);
        metrics::gauge!("jungle_seeks").decrement(1.0);
        // The taker's own seek, if any, ends: they are in a game now.
        self.cancel(conn.id, true);
        self.pools.retain(|_, pool| !pool.is_empty());
        let ctx = self.ctx.clone();
        tokio::spawn(async move {
            let rating = ctx
                .store
                .rating(
                    conn.player.id,
                    jungle_game::rating::RatingPool::of(settings.rules, settings.clock),
                )
                .await
                .unwrap_or_else(|_| {
                    RatingRecord::from_glicko(jungle_game::rating::Glicko::default(), 0)
                });
            // A seek over days: both must still be free to start one (the seeker may have
            // started others since seeking).
            let game = Uuid::new_v4();
            let players = [conn.player.id, seeker.conn.player.id];
            if let Err(refusal) =
                crate::correspondence::claim_start(&ctx.store, game, &players, settings.clock).await
            {
                let error = refusal;
                let text = error_text(error.code(), &error.to_string(), None);
                for tx in [&seeker.conn.tx, &conn.tx] {
                    let _ = tx.try_send(Outbound::text(text.clone()));
                }
                let cancelled = crate::frame_text(&ServerFrame::SeekCancelled);
                let _ = seeker.conn.tx.try_send(Outbound::text(cancelled));
                return;
            }
            let taker = SeatPlayer::human(conn.player.clone(), rating);
            let host = SeatPlayer::human(seeker.conn.player.clone(), seeker.rating);
            let (red, blue) = match open::coin_flip() {
                Side::Red => (host, taker),
                Side::Blue => (taker, host),
            };
            let handle = open::matched(ctx, game, settings, red, blue);
            for tx in [&seeker.conn.tx, &conn.tx] {
                let _ = tx.try_send(Outbound::enter(handle.clone()));
            }
        });
    }

    /// Pairs whoever can be paired in one pool: the longest-waiting first, each with the
    /// closest rating within both players' acceptable gaps.
    fn pair(&mut self, settings: RoomSettings) {
        let now = Instant::now();
        let Some(pool) = self.pools.get_mut(&settings) else {
            return;
        };
        pool.retain(|s| !s.conn.tx.is_closed());
        // Seeks over days are not paired: people pick one from the list.
        if settings.clock.is_correspondence() {
            return;
        }
        // Almost always sorted already (newcomers join at the end): a linear pass.
        pool.sort_by_key(|s| s.since);
        let matches = matches(pool, now);
        let mut seekers: Vec<Option<Seeker>> = pool.drain(..).map(Some).collect();
        for (i, j) in matches {
            let a = seekers[i].take().expect("paired once");
            let b = seekers[j].take().expect("paired once");
            metrics::gauge!("jungle_seeks").decrement(2.0);
            metrics::histogram!("jungle_matchmaking_wait_seconds")
                .record(now.duration_since(a.since).as_secs_f64());
            metrics::histogram!("jungle_matchmaking_wait_seconds")
                .record(now.duration_since(b.since).as_secs_f64());
            self.start_game(settings, a, b);
        }
        let mut waiting = Vec::new();
        for seeker in seekers.into_iter().flatten() {
            if seeker
                .computer_after
                .is_some_and(|after| now.duration_since(seeker.since) >= after)
            {
                metrics::gauge!("jungle_seeks").decrement(1.0);
                self.start_computer_game(settings, seeker);
            } else {
                waiting.push(seeker);
            }
        }
        let pool = self.pools.get_mut(&settings).expect("pool exists");
        pool.extend(waiting);
        if pool.is_empty() {
            self.pools.remove(&settings);
        }
    }

    /// Nobody came: a casual game against the computer at a level near the player's rating.
    fn start_computer_game(&mut self, settings: RoomSettings, seeker: Seeker) {
        let level = crate::computer::level_for_rating(seeker.rating.rating);
        let human = SeatPlayer::human(seeker.conn.player.clone(), seeker.rating);
        let ctx = self.ctx.clone();
        tokio::spawn(async move {
            // Fair play: no computer for someone who sat down to a game against a person
            // while they waited.
            if ctx
                .fair_play
                .not_playing(seeker.conn.player.id)
                .await
                .is_err()
            {
                let _ = seeker
                    .conn
                    .tx
                    .try_send(Outbound::text(frame_text(&ServerFrame::SeekCancelled)));
                return;
            }
            let opened = open::computer_game(
                ctx,
                settings,
                human,
                level,
                jungle_protocol::ColorChoice::Random,
                jungle_rules::Position::start(),
            )
            .await;
            let reply = match opened {
                Ok(handle) => Outbound::enter(handle),
                // Already at the cap of computer games: the seek ends without a game.
                Err(_) => Outbound::text(frame_text(&ServerFrame::SeekCancelled)),
            };
            let _ = seeker.conn.tx.try_send(reply);
        });
    }

    fn start_game(&mut self, settings: RoomSettings, a: Seeker, b: Seeker) {
        let a_last = self.last_colour.get(&a.conn.player.id).copied();
        let b_last = self.last_colour.get(&b.conn.player.id).copied();
        // Whoever was Red last time takes Blue; a coin decides when that settles nothing.
        let a_red = match (a_last, b_last) {
            (Some(Side::Red), Some(Side::Red))
            | (None, None)
            | (Some(Side::Blue), Some(Side::Blue)) => open::coin_flip() == Side::Red,
            (Some(Side::Red), _) | (_, Some(Side::Blue)) => false,
            _ => true,
        };
        let (red, blue) = if a_red { (a, b) } else { (b, a) };
        // Bounded: past this many players it starts afresh (a colour alternation forgotten now
        // and then costs nothing; a map growing with every guest ever matched would).
        if self.last_colour.len() >= LAST_COLOURS_KEPT {
            self.last_colour.clear();
        }
        self.last_colour.insert(red.conn.player.id, Side::Red);
        self.last_colour.insert(blue.conn.player.id, Side::Blue);
        let handle = open::matched(
            self.ctx.clone(),
            Uuid::new_v4(),
            settings,
            SeatPlayer::human(red.conn.player.clone(), red.rating),
            SeatPlayer::human(blue.conn.player.clone(), blue.rating),
        );
        for seeker in [red, blue] {
            let _ = seeker.conn.tx.try_send(Outbound::enter(handle.clone()));
        }
    }
}
/// The pairs to make in `pool` (sorted by time of seeking): the longest-waiting seeker first,
/// each with the nearest-rated ready seeker after it that both may meet and whose gaps allow.
/// Partners are looked for outward in rating order, so a pass costs about n log n, not n²:
/// a burst of thousands of seekers is paired as fast as it arrives.
fn matches(pool: &[Seeker], now: Instant) -> Vec<(usize, usize)> {
    let key = |i: usize| ((pool[i].rating.rating * 1_000.0).round() as i64, i);
    // Seekers still free to pair: ready ones (their blocks read) not yet paired or passed.
    let mut free: BTreeSet<(i64, usize)> = (0..pool.len())
        .filter(|&i| pool[i].blocks.is_some())
        .map(key)
        .collect();
    let mut matches = Vec::new();
    for i in 0..pool.len() {
        if !free.remove(&key(i)) {
            continue;
        }
        let (rating, limit) = (pool[i].rating.rating, pool[i].gap(now));
        let fits = |&&(_, j): &&(i64, usize)| {
            let gap = (rating - pool[j].rating.rating).abs();
            pool[j].conn.player.id != pool[i].conn.player.id
                && pool[i].may_meet(&pool[j])
                && gap <= pool[j].gap(now)
        };
        let within = |&&(_, j): &&(i64, usize)| (rating - pool[j].rating.rating).abs() <= limit;
        let below = free.range(..key(i)).rev().take_while(within).find(fits);
        let above = free.range(key(i)..).take_while(within).find(fits);
        let gap = |found: Option<&(i64, usize)>| {
            found.map(|&(_, j)| (j, (rating - pool[j].rating.rating).abs()))
        };
        let best = match (gap(below), gap(above)) {
            (Some(b), Some(a)) => Some(if a.1 < b.1 { a } else { b }),
            (b, a) => b.or(a),
        };
        if let Some((j, _)) = best {
            free.remove(&key(j));
            matches.push((i, j));
        }
    }
    matches
}
