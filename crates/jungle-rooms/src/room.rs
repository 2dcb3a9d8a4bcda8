//! One game's task: a thin actor around its [`GameSession`]. It receives a command, asks the
//! session, and for each event the session returns it persists (durable events are committed
//! before any frame about them leaves: [`Room::apply`] is the one place where that happens),
//! renders, broadcasts, and keeps the registry and metrics up to date.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use jungle_engine::Level;
use jungle_protocol::{ChatChannel, GameStatus, ServerFrame};
use jungle_rules::Side;
use tokio::sync::{mpsc, watch};
use tokio::time::sleep_until;
use uuid::Uuid;

mod chat;
mod correspondence;
mod delivery;
mod durable;
mod members;
mod rematch;

use super::computer::ComputerPlayer;
use super::view::{error_text, frame_text, View};
use super::{
    Connection, Hold, HoldKind, JoinIntent, LiveGame, Outbound, RoomCommand, RoomHandle, Rooms,
};
use jungle_game::session::{Action, Event, GameSession, Refusal, SeatPlayer, Timing};
use jungle_store::persist::{Persister, Write, Written};
use jungle_store::{MoveRecord, NewGame, RatingRecord, Store};

/// What every room needs from the server around it.
#[derive(Clone)]
pub struct RoomContext {
    pub persister: Persister,
    pub engines: crate::engine_pool::EnginePool,
    pub rooms: Rooms,
    pub store: Store,
    pub timing: Timing,
    pub shutdown: watch::Receiver<bool>,
    /// What this node holds while it runs a game or a room (leases, codes; nothing with one
    /// node).
    pub claims: crate::reach::Claims,
    /// The check in front of the engine, and the registry of live positions rooms fill.
    pub fair_play: crate::fair_play::FairPlay,
    /// Told of every game's end once it is durable (tournaments, fair play's assessor).
    pub game_end: super::game_end::GameEndListeners,
    /// The rate limits, for what only a room can tell apart (a rematch against the computer
    /// is a new computer game).
    pub limits: Arc<jungle_limits::Limits>,
    /// The time as sessions see it (tokio's clock, moved forward by tests of days).
    pub time: crate::time_source::TimeSource,
    /// Mails a correspondence player whose turn it becomes (off unless configured).
    pub notices: Arc<dyn crate::notices::PlayerNotices>,
}

struct Member {
    conn: Connection,
}

pub struct Room {
    id: Uuid,
    ctx: Arc<RoomContext>,
    session: GameSession,
    members: Vec<Member>,
    /// The sequence number of the latest event sent about this game.
    seq: u64,
    computer: Option<ComputerPlayer>,
    /// Counted among the games in progress (registry and gauge).
    live: bool,
    /// To hand the computer's moves back to this room's own queue; weak, so it can close.
    own_tx: mpsc::WeakSender<RoomCommand>,
    /// The latest chat lines and who said them, for those who join later (at most
    /// [`CHAT_KEPT`]).
    chat: Vec<(ChatChannel, Uuid, Utf8Bytes)>,
    /// Lines stored so far by each player who spoke here.
    said: std::collections::HashMap<Uuid, u32>,
    /// Who came in through the private room's code or link (they may watch it again by id).
    admitted: std::collections::HashSet<Uuid>,
    /// Another node runs this game now; this room stops without ending it.
    relinquished: bool,
    /// This game's positions in the fair-play registry while it is in play: no engine path
    /// speaks of them until it ends.
    positions: Option<crate::fair_play::GamePositions>,
    /// Its game was read back from the database (a restart, an adoption, a wake).
    resumed: bool,
    /// It went to sleep: the registry holds what stays of it (see [`crate::asleep`]).
    asleep: bool,
}

/// The first event number of a room whose game was read back from the database: the time in
/// milliseconds, above any number its room had before.
fn resumed_seq() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}

/// Chat lines a room keeps in memory for latecomers (all are stored in the database).
const CHAT_KEPT: usize = 50;
/// Chat lines one player may store in one game: the rate limit bounds a minute, this a game
/// however long it lasts.
pub const CHAT_LINES_PER_PLAYER: u32 = 200;

impl Room {
    /// The time as the session sees it (see [`crate::time_source`]).
    fn now(&self) -> std::time::Instant {
        self.ctx.time.instant()
    }

    /// Starts a room's task around `session`, after which `initial` events (a game that starts
    /// at once) are applied before anything else. `hold` is the player's claim the room counts
    /// against (see [`Rooms::reserve`]). The one way a room comes to life.
    pub fn spawn(
        ctx: Arc<RoomContext>,
        id: Uuid,
        session: GameSession,
        initial: Vec<Event>,
        hold: Option<Hold>,
    ) -> RoomHandle {
        Room::spawn_numbered(ctx, id, session, initial, hold, 0)
    }

    /// Starts the room of a stored game (a restart, or a game adopted from a node that is
    /// gone). Its events are numbered on from the time in milliseconds, above any number the
    /// game's room had before, so a client that holds an older state sees a gap and asks for
    /// the whole one instead of taking new events for ones it has applied.
    pub fn spawn_resumed(
        ctx: Arc<RoomContext>,
        id: Uuid,
        session: GameSession,
        hold: Option<Hold>,
    ) -> RoomHandle {
        Room::spawn_numbered(ctx, id, session, Vec::new(), hold, resumed_seq())
    }

    fn spawn_numbered(
        ctx: Arc<RoomContext>,
        id: Uuid,
        session: GameSession,
        initial: Vec<Event>,
        hold: Option<Hold>,
        first_seq: u64,
    ) -> RoomHandle {
        let (handle, queue) = RoomHandle::channel(id);
        ctx.rooms
            .insert(handle.clone(), session.code().map(str::to_owned), hold);
        Room::start(ctx, &handle, session, queue, initial, first_seq, None);
        handle
    }

    /// Starts the room of a game over days that slept, on the queue of the handle the
    /// registry already hands out (commands sent meanwhile wait there), with its positions
    /// still registered.
    pub(crate) fn spawn_woken(
        ctx: Arc<RoomContext>,
        handle: &RoomHandle,
        session: GameSession,
        queue: mpsc::Receiver<RoomCommand>,
        positions: Option<crate::fair_play::GamePositions>,
    ) {
        let seq = resumed_seq();
        Room::start(ctx, handle, session, queue, Vec::new(), seq, positions);
    }

    fn start(
        ctx: Arc<RoomContext>,
        handle: &RoomHandle,
        session: GameSession,
        queue: mpsc::Receiver<RoomCommand>,
        initial: Vec<Event>,
        first_seq: u64,
        positions: Option<crate::fair_play::GamePositions>,
    ) {
        // Boxed: an async fn's argument is held twice in its task (as passed, and as the
        // local it becomes), and the room is its largest.
        let room = Box::new(Room {
            id: handle.id,
            ctx,
            session,
            members: Vec::new(),
            chat: Vec::new(),
            said: Default::default(),
            admitted: Default::default(),
            seq: first_seq,
            computer: None,
            live: false,
            own_tx: handle.tx.downgrade(),
            relinquished: false,
            positions,
            resumed: first_seq != 0,
            asleep: false,
        });
        tokio::spawn(room.run(queue, initial));
    }

    async fn run(mut self: Box<Self>, mut rx: mpsc::Receiver<RoomCommand>, initial: Vec<Event>) {
        metrics::gauge!("jungle_rooms").increment(1.0);
        // Each step that awaits is boxed (here and in the loop): the task's size is its largest
        // step's, and it lives as long as the game.
        Box::pin(self.share_code(true)).await;
        if self.session.status() == GameStatus::Active {
            self.game_in_play();
        }
        if matches!(
            self.session.status(),
            GameStatus::Active | GameStatus::Waiting
        ) {
            Box::pin(self.take_lease()).await;
        }
        if !self.relinquished {
            Box::pin(self.apply(initial)).await;
        }
        for side in [Side::Red, Side::Blue] {
            Box::pin(self.read_vacations(side)).await;
        }
        // A game read back from the database shows what was said in it (a room still
        // waiting for its guest has no chat).
        if self.resumed && self.session.status() == GameStatus::Active {
            Box::pin(self.recall_chat()).await;
        }
        let mut shutdown = self.ctx.shutdown.clone();
        let mut time_moves = self.ctx.time.moves();
        // One timer for the room's life, moved when its next moment moves: a new one at every
        // command would enter and leave the timer wheel (a lock) once a move. Its next moment
        // is the session's deadline, or, for a game that may sleep, the end of its idleness.
        let mut timer = std::pin::pin!(sleep_until(tokio::time::Instant::now()));
        let mut armed: Option<tokio::time::Instant> = None;
        let mut idle_since = tokio::time::Instant::now();
        while !self.session.is_closed() && !self.relinquished && !self.asleep {
            let now = self.now();
            if let Some(computer) = &mut self.computer {
                computer.think_if_to_move(
                    &self.session,
                    now,
                    &self.ctx.engines,
                    &self.ctx.fair_play,
                    &self.own_tx,
                );
            }
            let deadline = self
                .session
                .next_deadline()
                .map(|at| self.ctx.time.timer_at(at));
            let sleepy = self.sleep_after().map(|after| idle_since + after);
            let next = deadline.into_iter().chain(sleepy).min();
            if let Some(at) = next.filter(|at| armed != Some(*at)) {
                timer.as_mut().reset(at);
            }
            armed = next;
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => {
                        idle_since = tokio::time::Instant::now();
                        Box::pin(self.handle(command)).await
                    }
                    None => break,
                },
                _ = &mut timer, if next.is_some() => {
                    armed = None;
                    if deadline.is_some_and(|at| at <= tokio::time::Instant::now()) {
                        let events = self.session.on_timer(self.now());
                        Box::pin(self.apply(events)).await;
                    } else if sleepy.is_some() && !self.fall_asleep(&rx) {
                        // Someone may still reach it: another period before trying again.
                        idle_since = tokio::time::Instant::now();
                    }
                }
                _ = shutdown.changed() => break,
                // Time was moved forward (tests of days): the deadline is armed again.
                Ok(()) = time_moves.changed() => {}
            }
        }
        metrics::gauge!("jungle_rooms").decrement(1.0);
        if self.asleep {
            // Still in play, and still in the registry: only its task and state are gone.
            metrics::gauge!("jungle_live_games").decrement(1.0);
            tracing::debug!(game = %self.id, "asleep");
            return;
        }
        self.set_live(false);
        // A room stopped by a shutdown keeps its code: the node that adopts it is found
        // through the code and the lease.
        if self.session.is_closed() {
            Box::pin(self.share_code(false)).await;
        }
        self.ctx.rooms.remove(self.id);
        if self.relinquished {
            // Gone from this node's rooms first, so that following it again finds the node that
            // runs it now. Members on other nodes follow it through their own node, which
            // watches the lease.
            for member in self.members.iter().filter(|m| m.conn.remote.is_none()) {
                let _ = member.conn.tx.try_send(Outbound::moved(self.id));
            }
        }
    }

    /// How long this room waits with nobody in it before it sleeps, if it may: a game over
    /// days in play, nobody in it, nothing offered that only memory holds (see
    /// [`crate::asleep`]).
    fn sleep_after(&self) -> Option<Duration> {
        let may = self.session.settings().clock.is_correspondence()
            && self.session.status() == GameStatus::Active
            && self.live
            && self.members.is_empty()
            && self.computer.is_none()
            && self.session.draw_offer().is_none()
            && self.session.takeback_offer().is_none();
        may.then(|| self.ctx.rooms.sleep_after()).flatten()
    }

    /// Hands what must stay of this game to the registry and stops, if nothing can reach the
    /// room meanwhile; false if it must keep running.
    fn fall_asleep(&mut self, queue: &mpsc::Receiver<RoomCommand>) -> bool {
        let asleep = Box::new(crate::registry::Asleep {
            positions: self.positions.take(),
            deadline: self.session.next_deadline(),
        });
        match self.ctx.rooms.sleep(self.id, || queue.is_empty(), asleep) {
            Ok(()) => self.asleep = true,
            Err(asleep) => self.positions = asleep.positions,
        }
        self.asleep
    }

    /// A room's code is findable from every node while the room lives.
    async fn share_code(&self, open: bool) {
        if let Some(code) = self.session.code() {
            self.ctx.claims.share_code(code, self.id, open).await;
        }
    }

    /// A game in play, or a room waiting for its guest, holds its lease from its first moment.
    async fn take_lease(&mut self) {
        if self.ctx.claims.hold_game(self.id).await == crate::reach::Held::Elsewhere {
            tracing::warn!(game = %self.id, "another node holds this game; not running it here");
            self.relinquished = true;
        }
    }

    // ---- commands ------------------------------------------------------------------------

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            // Paths that wait for the store are boxed: a room's task is as large as its largest
            // await, for its whole life, and these are rare (measured: 4.7 -> 4.2 KiB a room).
            RoomCommand::Join { conn, intent } => Box::pin(self.join(*conn, intent)).await,
            RoomCommand::Leave { conn_id } => self.leave(conn_id).await,
            RoomCommand::Chat { conn_id, line } => {
                Box::pin(self.chat(conn_id, line.preset, line.text)).await
            }
            RoomCommand::Act {
                conn_id,
                player,
                action,
            } => {
                let received = tokio::time::Instant::now();
                let is_move = matches!(
                    *action,
                    Action::Move { .. } | Action::MoveOfferingDraw { .. }
                );
                if let Some(side) = self.seated_member(conn_id, player) {
                    if *action == Action::Rematch
                        && !Box::pin(self.rematch_allowed(conn_id, player)).await
                    {
                        return;
                    }
                    let action = self.credit_round_trip(conn_id, *action);
                    self.act(conn_id, side, action).await;
                }
                if is_move {
                    // From the move reaching the room to everyone having it: persistence included.
                    metrics::histogram!("jungle_move_seconds")
                        .record(received.elapsed().as_secs_f64());
                }
                metrics::histogram!("jungle_room_command_seconds")
                    .record(received.elapsed().as_secs_f64());
            }
            RoomCommand::Relinquish => self.relinquished = true,
            RoomCommand::Rejoin => {}
            RoomCommand::Banned { player } => {
                if let Some(side) = self.session.side_of(player) {
                    let events = self.session.ban(side, self.now());
                    self.apply(events).await;
                }
            }
            RoomCommand::Vacation { player } => {
                if let Some(side) = self.session.side_of(player) {
                    self.read_vacations(side).await;
                    // The clocks everyone sees move with the deadline.
                    self.seq += 1;
                    self.deliver_states();
                }
            }
            RoomCommand::AddComputer {
                conn_id,
                player,
                level,
            } => {
                let member = self.members.iter().find(|m| m.conn.id == conn_id);
                let asker = member.map(|m| crate::fair_play::Asker::of(&m.conn));
                if let (Some(side), Some(asker)) = (self.seated_member(conn_id, player), asker) {
                    // As `play_computer`: not from where a game between people stands now.
                    let start = *self.session.game().start();
                    let closed =
                        Box::pin(self.ctx.fair_play.may_start_computer_game(asker, &start)).await;
                    if let Err(closed) = closed {
                        let text = error_text(
                            jungle_protocol::ErrorCode::AnalysisUnavailable,
                            &closed.to_string(),
                            Some(self.id),
                        );
                        self.refuse_with(conn_id, text);
                        return;
                    }
                    let rules = self.session.settings().rules;
                    let bot = jungle_game::computer::bot_id(level.get());
                    let rating = Box::pin(self.rating(bot, rules)).await;
                    let computer = SeatPlayer::computer(level.get(), rating);
                    self.act(conn_id, side, Action::AddComputer(computer)).await;
                }
            }
            RoomCommand::ComputerMove {
                search,
                choice,
                persona,
            } => {
                let current = self
                    .computer
                    .as_mut()
                    .is_some_and(|computer| computer.answered(search, persona));
                let Some((side, _)) = self.session.computer_to_move() else {
                    return;
                };
                let (Some(choice), true) = (choice, current) else {
                    return;
                };
                let action = Action::Move {
                    text: choice.to_string(),
                    lag: Duration::ZERO,
                    blurred: false,
                };
                match self.session.act(side, action, self.now()) {
                    Ok(events) => self.apply(events).await,
                    Err(refusal) => {
                        tracing::error!(game = %self.id, %refusal, "the computer's move was refused")
                    }
                }
            }
        }
    }

    /// A move from a member on another node is credited the round trip between the nodes
    /// besides its connection's own lag: the player saw the last move and was heard that much
    /// later than a player here (within the clock's lag quota, like any lag).
    fn credit_round_trip(&self, conn_id: u64, action: Action) -> Action {
        let round_trip = || {
            self.members
                .iter()
                .find(|m| m.conn.id == conn_id)
                .and_then(|m| m.conn.remote.as_ref())
                .map_or(Duration::ZERO, |node| node.round_trip())
        };
        match action {
            Action::Move { text, lag, blurred } => Action::Move {
                text,
                lag: lag + round_trip(),
                blurred,
            },
            Action::MoveOfferingDraw { text, lag } => Action::MoveOfferingDraw {
                text,
                lag: lag + round_trip(),
            },
            other => other,
        }
    }

    async fn act(&mut self, conn_id: u64, side: Side, action: Action) {
        match self.session.act(side, action, self.now()) {
            Ok(events) => {
                self.apply(events).await;
                self.computer_answers().await;
            }
            Err(refusal) => self.refuse(conn_id, &refusal),
        }
    }

    /// What is asked of the computer is answered at once: a draw by its judgement (see
    /// [`computer::accepts_draw`]), a takeback always (it is a casual game, and a teacher).
    async fn computer_answers(&mut self) {
        let Some(level) = self.session.computer_level() else {
            return;
        };
        let (asker, answer) = if let Some(asker) = self.session.takeback_offer() {
            (asker, Action::AcceptTakeback)
        } else if let Some(offerer) = self.session.draw_offer() {
            // Its judgement of a position someone is playing is no one's business.
            let live = self
                .ctx
                .fair_play
                .in_peoples_game(self.session.game().position())
                .await;
            let answer = if !live && super::computer::accepts_draw(self.session.game()) {
                Action::AcceptDraw
            } else {
                Action::DeclineDraw
            };
            (offerer, answer)
        } else {
            return;
        };
        let computer_side = !asker;
        if self
            .session
            .seat(computer_side)
            .and_then(|s| s.who.computer)
            != Some(level)
        {
            return;
        }
        match self.session.act(computer_side, answer, self.now()) {
            Ok(events) => self.apply(events).await,
            Err(refusal) => {
                tracing::error!(game = %self.id, %refusal, "the computer's answer was refused")
            }
        }
    }

    // ---- events --------------------------------------------------------------------------

    /// Durable before visible: each event's write is committed before any frame about it is
    /// sent. Every event passes through here.
    async fn apply(&mut self, events: Vec<Event>) {
        for event in events {
            if !self.persist(&event).await {
                // Nothing about a write that failed is ever shown. The game stops here as it
                // is stored (another node, or this one after a restart, resumes it from
                // there); its players are told something went wrong.
                self.suspend();
                return;
            }
            self.publish(event).await;
        }
    }

    /// Stops this room without ending its game, after a write the database refused.
    fn suspend(&mut self) {
        tracing::error!(game = %self.id, "a write failed: the room stops; the game resumes from the database");
        let text = error_text(
            jungle_protocol::ErrorCode::Internal,
            "something went wrong on our side; the game resumes shortly from its last saved move",
            Some(self.id),
        );
        for member in &self.members {
            self.deliver(&member.conn, text.clone());
        }
        self.relinquished = true;
    }

    // ---- frames ----------------------------------------------------------------------------
}
