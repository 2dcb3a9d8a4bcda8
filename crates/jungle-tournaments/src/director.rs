//! One tournament's director: a task that takes players in and out, pairs whoever is waiting
//! (once a second, from its start until the cut-off before its end), hears of each game's end,
//! and sends the standings that changed to those who follow them. Points are not counted here:
//! the transaction that ends a game scores it ([`crate::scoring`]), so a restart or a
//! retried write cannot count a game twice; the director reads the scores back.
//!
//! Long (about 650 lines): one actor, whose commands, pairing tick and standings share its state.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use jungle_protocol::http::TournamentStatus;
use jungle_protocol::{ClockSpec, GameStatus, ServerFrame, StandingLine};
use jungle_rules::Side;
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use jungle_rooms::online::Online;

use super::Directors;
use jungle_game::arena::{self, Entry};
use jungle_rooms::{frame_text, open, Connection, RoomContext, RoomSettings, SeatPlayer};
use jungle_store::{now_ms, StoreError, TournamentRecord};

/// Most players one tournament takes.
pub const MAX_PLAYERS: usize = 2_000;
/// Most connections following one tournament's standings.
pub const MAX_WATCHERS: usize = 10_000;
/// How often waiting players are paired and changed standings sent.
const TICK: Duration = Duration::from_secs(1);
/// How long before its start the players who joined a tournament are told it is coming (a
/// push to a phone: time to come back to the site).
const SOON: Duration = Duration::from_secs(5 * 60);
/// Tables up to this many players are sent every tick; larger ones every `players / this`
/// ticks, so that a 1,000-player arena's followers get a table every 4 s.
const PLAYERS_PER_TICK: usize = 250;
/// A player is not paired again until this long after their game ended: time to see the
/// result before the next board opens.
const REST: Duration = Duration::from_secs(4);
/// The least time between the starts of two of one player's games: a pair who resign at once,
/// again and again, make at most three stored games a minute.
const BETWEEN_PAIRINGS: Duration = Duration::from_secs(20);

/// Why a player was not taken in.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    #[error("this tournament is over")]
    Over,
    #[error("this tournament is private: join it through its link, or with its code")]
    Code,
    #[error("rated tournaments are for accounts: keep this player with a username and a password, or join a casual one")]
    AccountRequired,
    #[error("you are already in this tournament")]
    AlreadyJoined,
    #[error("you are playing a game of another tournament; finish it first")]
    InOtherGame,
    #[error("this tournament has {MAX_PLAYERS} players, as many as it takes")]
    Full,
    #[error("no tournament has this id")]
    Unknown,
    #[error("this arena is for bots: people may watch it")]
    BotsOnly,
    #[error("this arena is for people: a bot plays in arenas for bots")]
    NoBots,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl JoinError {
    /// The wire code a client hears this refusal as.
    pub fn code(&self) -> jungle_protocol::ErrorCode {
        use jungle_protocol::ErrorCode;
        match self {
            JoinError::Over => ErrorCode::TournamentOver,
            JoinError::Code => ErrorCode::TournamentCode,
            JoinError::AccountRequired => ErrorCode::AccountRequired,
            JoinError::AlreadyJoined => ErrorCode::AlreadyJoined,
            JoinError::InOtherGame => ErrorCode::InTournamentGame,
            JoinError::Full => ErrorCode::TournamentFull,
            JoinError::Unknown => ErrorCode::UnknownTournament,
            JoinError::BotsOnly => ErrorCode::BotsOnly,
            JoinError::NoBots => ErrorCode::BotAccount,
            JoinError::Store(_) => ErrorCode::Internal,
        }
    }

    /// The `error` frame the client gets (an internal failure is logged, not told).
    pub fn to_frame(&self) -> axum::extract::ws::Utf8Bytes {
        let message = match self {
            JoinError::Store(e) => {
                tracing::error!(error = %e, "a tournament frame failed");
                "something went wrong on our side; please try again".to_owned()
            }
            other => other.to_string(),
        };
        jungle_rooms::error_text(self.code(), &message, None)
    }
}

pub(super) enum Command {
    Join {
        conn: Connection,
        code: Option<String>,
        has_account: bool,
        reply: oneshot::Sender<Result<(), JoinError>>,
    },
    Withdraw {
        player: Uuid,
    },
    Watch {
        conn: Connection,
    },
    Unwatch {
        conn_id: u64,
    },
    GameEnded {
        game: Uuid,
        absent: Option<Uuid>,
    },
}

/// No pairing once less than this is left: a quarter of a game's likely length (base time
/// and 40 increments, or 40 turns of a per-move clock), from 10 s to 2 min.
pub fn cut_off(clock: ClockSpec) -> Duration {
    let game = match clock {
        ClockSpec::Fischer { base_s, inc_s } => base_s + 40 * inc_s,
        ClockSpec::PerMove { move_s, .. } => 40 * move_s,
        // Refused when an arena is made; the longest cut-off if one came anyway.
        ClockSpec::Days { .. } => u32::MAX / 4,
    };
    Duration::from_secs(u64::from(game / 4).clamp(10, 120))
}

/// Where a tournament stands at `now` (ms since the epoch).
pub fn status_at(t: &TournamentRecord, now: i64) -> TournamentStatus {
    if now < t.starts_at {
        TournamentStatus::Upcoming
    } else if now < t.ends_at {
        TournamentStatus::Running
    } else {
        TournamentStatus::Finished
    }
}

/// Milliseconds until the next change of status: the start, then the end.
pub fn ms_left(t: &TournamentRecord, now: i64) -> u64 {
    match status_at(t, now) {
        TournamentStatus::Upcoming => (t.starts_at - now) as u64,
        TournamentStatus::Running => (t.ends_at - now) as u64,
        TournamentStatus::Finished => 0,
    }
}

/// A tournament as the database has it, ready to direct.
pub struct Loaded {
    record: TournamentRecord,
    entries: HashMap<Uuid, Entry>,
    /// The players in the order they joined.
    joined: Vec<Uuid>,
    paused: HashSet<Uuid>,
    /// Games still being played: (red, blue).
    games: HashMap<Uuid, (Uuid, Uuid)>,
}

/// Reads a tournament's entries and pairings (the recent opponents and colours are rebuilt
/// from the pairings, oldest first).
pub async fn load(
    store: &jungle_store::Store,
    record: TournamentRecord,
) -> Result<Loaded, StoreError> {
    let mut entries = HashMap::new();
    let mut paused = HashSet::new();
    let mut joined = Vec::new();
    for line in store.tournament_entries(record.id, record.rules).await? {
        if line.withdrawn {
            paused.insert(line.entry.player);
        }
        joined.push(line.entry.player);
        entries.insert(line.entry.player, line.entry);
    }
    let mut games = HashMap::new();
    for pairing in store.tournament_pairings(record.id).await? {
        for (player, opponent, side) in [
            (pairing.red, pairing.blue, Side::Red),
            (pairing.blue, pairing.red, Side::Blue),
        ] {
            if let Some(entry) = entries.get_mut(&player) {
                entry.paired(opponent, side);
            }
        }
        if pairing.in_play {
            games.insert(pairing.game, (pairing.red, pairing.blue));
        }
    }
    Ok(Loaded {
        record,
        entries,
        joined,
        paused,
        games,
    })
}

/// At start (one node): directs again every tournament not over (and any whose games are
/// still being played). The end time stays as stored, waiting players are paired again,
/// resumed games are scored when they end.
pub async fn direct_all(
    ctx: &Arc<RoomContext>,
    directors: &Directors,
    online: &Online,
) -> Result<(), StoreError> {
    let records = ctx
        .store
        .tournaments_to_direct(jungle_store::now_ms())
        .await?;
    let count = records.len();
    for record in records {
        let loaded = load(&ctx.store, record).await?;
        start(ctx.clone(), directors.clone(), online.clone(), loaded);
    }
    if count > 0 {
        tracing::info!(tournaments = count, "directing tournaments");
    }
    Ok(())
}

/// Starts directing a loaded tournament.
pub fn start(ctx: Arc<RoomContext>, directors: Directors, online: Online, loaded: Loaded) {
    let id = loaded.record.id;
    let (tx, rx) = mpsc::channel(1024);
    directors.register(id, tx);
    for player in loaded.entries.keys() {
        if !loaded.paused.contains(player) {
            directors.set_active(*player, id);
        }
    }
    let mut playing = HashMap::new();
    for (game, (red, blue)) in &loaded.games {
        for player in [*red, *blue] {
            playing.insert(player, *game);
            directors.set_playing(player, Some(id));
        }
    }
    let director = Director {
        t: loaded.record,
        ctx,
        directors,
        online,
        entries: loaded.entries,
        paused: loaded.paused,
        playing,
        games: loaded.games,
        ended_at: HashMap::new(),
        paired_at: HashMap::new(),
        watchers: Vec::new(),
        numbers: numbered(&loaded.joined),
        shown: jungle_game::table::Shown::default(),
        full_text: None,
        status_shown: None,
        seq: 0,
        ticks: 0,
        changed: true,
        told_soon: HashSet::new(),
    };
    tokio::spawn(director.run(rx));
}

struct Director {
    t: TournamentRecord,
    ctx: Arc<RoomContext>,
    /// Every director of this node (who plays where, who is active), this one among them.
    directors: Directors,
    online: Online,
    entries: HashMap<Uuid, Entry>,
    paused: HashSet<Uuid>,
    /// Player → the game they are in.
    playing: HashMap<Uuid, Uuid>,
    /// Game → (red, blue).
    games: HashMap<Uuid, (Uuid, Uuid)>,
    /// When each player's last game ended (ms), for the rest before the next.
    ended_at: HashMap<Uuid, i64>,
    /// When each player's last game began (ms).
    paired_at: HashMap<Uuid, i64>,
    watchers: Vec<Connection>,
    /// Each player's number in the tournament, in the order they joined.
    numbers: HashMap<Uuid, u32>,
    /// The standings as last sent.
    shown: jungle_game::table::Shown,
    /// The whole table as last sent, serialized once for every newcomer of that `seq`.
    full_text: Option<(u64, axum::extract::ws::Utf8Bytes)>,
    status_shown: Option<TournamentStatus>,
    seq: u64,
    ticks: u64,
    /// Something the standings show may have changed since they were last sent.
    changed: bool,
    /// The players told the start is near, those who join later too (the services tell each
    /// player once, whatever node or restart tells them again).
    told_soon: HashSet<Uuid>,
}

/// The order players joined in, for their numbers: as stored (by join time).
fn numbered(order: &[Uuid]) -> HashMap<Uuid, u32> {
    order
        .iter()
        .enumerate()
        .map(|(n, p)| (*p, n as u32))
        .collect()
}

impl Director {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut shutdown = self.ctx.shutdown.clone();
        loop {
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                _ = tick.tick() => {
                    // One node directs each tournament: its lease is renewed each tick, and a
                    // director whose lease another node took stops.
                    if !self.ctx.claims.direct(self.t.id).await {
                        tracing::warn!(tournament = %self.t.id, "another node directs this tournament");
                        break;
                    }
                    self.find_lost_games().await;
                    let now = now_ms();
                    self.tell_the_start_is_near(now);
                    if self.pairing_open(now) {
                        self.pair().await;
                    }
                    self.ticks += 1;
                    let every = (self.entries.len() / PLAYERS_PER_TICK).max(1) as u64;
                    if self.ticks.is_multiple_of(every) || self.status_shown != Some(status_at(&self.t, now)) {
                        self.flush(now);
                    }
                    if now >= self.t.ends_at && self.games.is_empty() {
                        break;
                    }
                }
                _ = shutdown.changed() => break,
            }
        }
        self.directors.remove(self.t.id);
        // Whoever asks after this is told the tournament is over.
        rx.close();
        while let Some(command) = rx.recv().await {
            if let Command::Join { reply, .. } = command {
                let _ = reply.send(Err(JoinError::Over));
            }
        }
    }

    /// Within [`SOON`] of the start: every player in the tournament away from the site hears it
    /// is coming, once, whenever they joined or left.
    fn tell_the_start_is_near(&mut self, now: i64) {
        let until_start = self.t.starts_at - now;
        if until_start <= 0 || until_start > SOON.as_millis() as i64 {
            return;
        }
        let minutes = (until_start as u64).div_ceil(60_000) as u32;
        for player in self.entries.keys() {
            // A player with the site open sees the countdown; told if they leave before it.
            if self.paused.contains(player)
                || self.online.is_online(*player)
                || !self.told_soon.insert(*player)
            {
                continue;
            }
            self.ctx
                .notices
                .tournament_soon(*player, self.t.id, self.t.name.clone(), minutes);
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join {
                conn,
                code,
                has_account,
                reply,
            } => {
                let joined = self.join(conn, code, has_account).await;
                let _ = reply.send(joined);
            }
            Command::Withdraw { player } => self.pause(player).await,
            Command::Watch { conn } => self.watch(conn),
            Command::Unwatch { conn_id } => self.watchers.retain(|w| w.id != conn_id),
            Command::GameEnded { game, absent } => self.game_ended(game, absent).await,
        }
    }

    async fn join(
        &mut self,
        conn: Connection,
        code: Option<String>,
        has_account: bool,
    ) -> Result<(), JoinError> {
        let player = conn.player.id;
        let directors = &self.directors;
        if now_ms() >= self.t.ends_at {
            return Err(JoinError::Over);
        }
        if let Some(expected) = &self.t.code {
            let given = code.map(|c| c.trim().to_ascii_uppercase());
            if given.as_deref() != Some(expected.as_str()) {
                return Err(JoinError::Code);
            }
        }
        if self.t.rated && !has_account {
            return Err(JoinError::AccountRequired);
        }
        match (self.t.bots, conn.player.bot) {
            (true, false) => return Err(JoinError::BotsOnly),
            (false, true) => return Err(JoinError::NoBots),
            _ => {}
        }
        let known = self.entries.contains_key(&player);
        if known && !self.paused.contains(&player) {
            return Err(JoinError::AlreadyJoined);
        }
        if !known && self.entries.len() >= MAX_PLAYERS {
            return Err(JoinError::Full);
        }
        if directors
            .playing_in(player)
            .is_some_and(|other| other != self.t.id)
        {
            return Err(JoinError::InOtherGame);
        }
        let store = &self.ctx.store;
        store.join_tournament(self.t.id, player).await?;
        if !known {
            let line = store
                .tournament_entry(self.t.id, self.t.rules, player)
                .await?
                .ok_or(JoinError::Unknown)?;
            self.entries.insert(player, line.entry);
            let n = self.numbers.len() as u32;
            self.numbers.entry(player).or_insert(n);
        }
        self.paused.remove(&player);
        // One tournament at a time: joining this one pauses the other.
        if let Some(before) = directors.set_active(player, self.t.id) {
            let directors = directors.clone();
            tokio::spawn(async move { directors.withdraw(before, player).await });
        }
        self.changed = true;
        self.watch(conn);
        self.tell(player, true);
        Ok(())
    }

    /// Withdraws `player` (by their wish, or for a game they let be aborted).
    async fn pause(&mut self, player: Uuid) {
        if self.entries.contains_key(&player) && !self.paused.contains(&player) {
            if let Err(e) = self
                .ctx
                .store
                .withdraw_from_tournament(self.t.id, player)
                .await
            {
                tracing::error!(tournament = %self.t.id, error = %e, "a withdrawal was not stored");
            }
            self.paused.insert(player);
            self.directors.clear_active(player, self.t.id);
            self.changed = true;
        }
        self.tell(player, false);
    }

    /// Tells every tab of `player` whether they are being paired.
    fn tell(&self, player: Uuid, active: bool) {
        let frame = frame_text(&ServerFrame::TournamentEntry {
            id: self.t.id,
            active,
        });
        self.directors.players().send(player, &frame, None);
    }

    /// Follows the standings on `conn`: the table as last sent, then what changes. (A player
    /// who just joined shows in the next change, with everyone's.)
    fn watch(&mut self, conn: Connection) {
        let now = now_ms();
        let full = match &self.full_text {
            Some((seq, text)) if *seq == self.seq => text.clone(),
            _ => {
                let frame = self.standings_frame(
                    now,
                    true,
                    self.shown.lines.clone(),
                    Some(self.shown.order.clone()),
                );
                let text = frame_text(&frame);
                self.full_text = Some((self.seq, text.clone()));
                text
            }
        };
        conn.send_text(full);
        self.watchers
            .retain(|w| w.id != conn.id && !w.tx.is_closed());
        if self.watchers.len() < MAX_WATCHERS {
            self.watchers.push(conn);
        }
    }

    async fn game_ended(&mut self, game: Uuid, absent: Option<Uuid>) {
        let Some((red, blue)) = self.games.remove(&game) else {
            return;
        };
        for player in [red, blue] {
            self.playing.remove(&player);
            self.ended_at.insert(player, now_ms());
            self.directors.set_playing(player, None);
            let stored = self
                .ctx
                .store
                .tournament_entry(self.t.id, self.t.rules, player)
                .await;
            match (stored, self.entries.get_mut(&player)) {
                (Ok(Some(line)), Some(entry)) => entry.take_scores(&line.entry),
                (Err(e), _) => {
                    tracing::error!(tournament = %self.t.id, error = %e, "scores not read back")
                }
                _ => {}
            }
        }
        if let Some(player) = absent {
            self.pause(player).await;
        }
        self.changed = true;
    }

    /// Games whose room is gone without a word (a room that could not be resumed after a
    /// restart, say) are over if the database says so.
    async fn find_lost_games(&mut self) {
        let lost: Vec<Uuid> = self
            .games
            .keys()
            .filter(|game| !self.ctx.rooms.contains(**game))
            .copied()
            .collect();
        for game in lost {
            match self.ctx.store.game_without_moves(game).await {
                Ok(Some(record)) if record.status == GameStatus::Active => {}
                Ok(_) => self.game_ended(game, None).await,
                Err(e) => tracing::error!(%game, error = %e, "a tournament game's state"),
            }
        }
    }

    fn pairing_open(&self, now: i64) -> bool {
        let cut_off = cut_off(self.t.clock).as_millis() as i64;
        now >= self.t.starts_at && now < self.t.ends_at - cut_off
    }

    /// Pairs the players waiting now: active, online, not in a game, rested after the last.
    async fn pair(&mut self) {
        let rested_since = now_ms() - REST.as_millis() as i64;
        let last_pairing_before = now_ms() - BETWEEN_PAIRINGS.as_millis() as i64;
        let waiting: HashSet<Uuid> = self
            .entries
            .keys()
            .filter(|p| !self.paused.contains(p) && !self.playing.contains_key(p))
            .filter(|p| self.ended_at.get(p).is_none_or(|at| *at <= rested_since))
            .filter(|p| {
                self.paired_at
                    .get(p)
                    .is_none_or(|at| *at <= last_pairing_before)
            })
            .filter(|p| self.directors.players().is_online(**p))
            .copied()
            .collect();
        if waiting.len() < 2 {
            return;
        }
        let mut order: Vec<Entry> = self.entries.values().cloned().collect();
        arena::standings(&mut order);
        let indexes: Vec<usize> = order
            .iter()
            .enumerate()
            .filter(|(_, e)| waiting.contains(&e.player))
            .map(|(i, _)| i)
            .collect();
        let started = std::time::Instant::now();
        let pairs = arena::pair(&order, &indexes);
        metrics::histogram!("jungle_tournament_pairing_seconds")
            .record(started.elapsed().as_secs_f64());
        for (a, b) in pairs {
            // A player in a game outside the arena (a challenge, a bot's other game) waits
            // for it to end rather than play two at once.
            if self.busy_elsewhere(order[a].player).await
                || self.busy_elsewhere(order[b].player).await
            {
                continue;
            }
            let coin = open::coin_flip() == Side::Red;
            let (red, blue) = arena::colours(&order[a], &order[b], coin);
            self.start_game(red, blue).await;
        }
    }

    /// Whether `player` sits in a game in progress that is not this arena's.
    async fn busy_elsewhere(&self, player: Uuid) -> bool {
        match self.ctx.store.active_game_ids_in_one_sitting(player).await {
            Ok(games) => games.iter().any(|g| !self.games.contains_key(g)),
            Err(e) => {
                tracing::warn!(error = %e, "a player's games in progress, before pairing");
                true
            }
        }
    }

    /// A player as connected here, or (several nodes) as stored.
    async fn player_record(&self, player: Uuid) -> Option<jungle_store::PlayerRecord> {
        match self.online.player(player) {
            Some(record) => Some(record),
            None => self.ctx.store.player(player).await.ok().flatten(),
        }
    }

    async fn start_game(&mut self, red: Uuid, blue: Uuid) {
        let (Some(red_player), Some(blue_player)) = (
            self.player_record(red).await,
            self.player_record(blue).await,
        ) else {
            return;
        };
        let store = &self.ctx.store;
        let rules = self.t.rules;
        let (red_rating, blue_rating) = match (
            store.rating(red, rules).await,
            store.rating(blue, rules).await,
        ) {
            (Ok(r), Ok(b)) => (r, b),
            (Err(e), _) | (_, Err(e)) => {
                tracing::error!(error = %e, "ratings for a tournament pairing");
                return;
            }
        };
        let settings = RoomSettings {
            rules,
            clock: self.t.clock,
            rated: self.t.rated,
        };
        let room = open::tournament_game(
            self.ctx.clone(),
            settings,
            SeatPlayer::human(red_player, red_rating),
            SeatPlayer::human(blue_player, blue_rating),
            self.t.id,
        );
        self.games.insert(room.id, (red, blue));
        for (player, opponent, side) in [(red, blue, Side::Red), (blue, red, Side::Blue)] {
            self.playing.insert(player, room.id);
            self.paired_at.insert(player, now_ms());
            self.directors.set_playing(player, Some(self.t.id));
            if let Some(entry) = self.entries.get_mut(&player) {
                entry.paired(opponent, side);
            }
            self.directors.players().enter(player, &room);
        }
        self.changed = true;
    }

    fn standings_frame(
        &self,
        now: i64,
        full: bool,
        lines: Vec<StandingLine>,
        order: Option<Vec<u32>>,
    ) -> ServerFrame {
        ServerFrame::TournamentStandings {
            id: self.t.id,
            seq: self.seq,
            full,
            // As of the table sent: a status change comes with its own frame.
            status: self.status_shown.unwrap_or(status_at(&self.t, now)),
            ms_left: ms_left(&self.t, now),
            players: self.shown.order.len() as u32,
            lines,
            order,
        }
    }

    /// Sends the lines that changed (and a change of status) to every follower.
    fn flush(&mut self, now: i64) {
        let status = status_at(&self.t, now);
        if !self.changed && self.status_shown == Some(status) {
            return;
        }
        self.changed = false;
        let ranked =
            jungle_game::table::lines(self.entries.values().cloned(), &self.paused, &self.playing);
        let change = self.shown.update(&ranked, &self.numbers);
        if change.is_none() && self.status_shown == Some(status) {
            return;
        }
        let (lines, order) = change.map_or((Vec::new(), None), |c| (c.lines, c.order));
        self.seq += 1;
        self.status_shown = Some(status);
        self.directors.publish(self.t.id, Arc::new(ranked));
        let text = frame_text(&self.standings_frame(now, false, lines, order));
        self.watchers.retain(|w| !w.tx.is_closed());
        for watcher in &self.watchers {
            if !watcher.send_text(text.clone()) {
                metrics::counter!("jungle_frames_dropped_total").increment(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_pairing_in_the_last_quarter_of_a_game() {
        let blitz = ClockSpec::Fischer {
            base_s: 180,
            inc_s: 2,
        };
        assert_eq!(cut_off(blitz), Duration::from_secs(65));
        let bullet = ClockSpec::Fischer {
            base_s: 30,
            inc_s: 0,
        };
        assert_eq!(cut_off(bullet), Duration::from_secs(10));
        assert_eq!(
            cut_off(ClockSpec::CLASSIC_PER_MOVE),
            Duration::from_secs(120)
        );
    }
}
