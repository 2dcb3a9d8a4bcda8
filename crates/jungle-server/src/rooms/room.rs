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

use super::computer::ComputerPlayer;
use super::view::{error_text, frame_text, View};
use super::{
    Connection, Hold, HoldKind, JoinIntent, LiveGame, Outbound, RoomCommand, RoomHandle, Rooms,
};
use jungle_game::session::{Action, Event, GameSession, Refusal, SeatPlayer, Timing};
use jungle_store::persist::{Persister, Write, Written};
use jungle_store::{MoveRecord, NewGame, RatingRecord, Store};

/// How many commands may wait for a room before senders wait in turn.
const ROOM_QUEUE: usize = 256;

/// What every room needs from the server around it.
#[derive(Clone)]
pub struct RoomContext {
    pub persister: Persister,
    pub engines: crate::engine_pool::EnginePool,
    pub rooms: Rooms,
    pub store: Store,
    pub timing: Timing,
    pub shutdown: watch::Receiver<bool>,
    /// The tournaments' directors, told when a tournament game ends.
    pub tournaments: crate::tournaments::Directors,
    /// What this node holds while it runs a game or a room (leases, codes; nothing with one
    /// node).
    pub claims: crate::reach::Claims,
    /// The check in front of the engine, and the registry of live positions rooms fill.
    pub fair_play: crate::fair_play::FairPlay,
    /// Told of every rated game that ends, to assess it in the background.
    pub assessor: crate::fair_play::assessor::Assessor,
    /// The rate limits, for what only a room can tell apart (a rematch against the computer
    /// is a new computer game).
    pub limits: Arc<crate::limits::Limits>,
    /// The time as sessions see it (tokio's clock, moved forward by tests of days).
    pub time: crate::time_source::TimeSource,
    /// Mails a correspondence player whose turn it becomes (off unless configured).
    pub mailer: crate::mail::Mailer,
    /// Held from the cap check of a game over days to its start being stored.
    pub correspondence_starts: Arc<tokio::sync::Mutex<()>>,
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
}

/// Whether `side` has made a move (not a pass) in `game`.
fn moved(game: &jungle_rules::Game, side: Side) -> bool {
    let first = game.start().side_to_move();
    game.turns().enumerate().any(|(ply, turn)| {
        turn.as_move().is_some() && (if ply % 2 == 0 { first } else { !first }) == side
    })
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
        let first_seq = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_millis() as u64);
        Room::spawn_numbered(ctx, id, session, Vec::new(), hold, first_seq)
    }

    fn spawn_numbered(
        ctx: Arc<RoomContext>,
        id: Uuid,
        session: GameSession,
        initial: Vec<Event>,
        hold: Option<Hold>,
        first_seq: u64,
    ) -> RoomHandle {
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        let handle = RoomHandle { id, tx };
        ctx.rooms
            .insert(handle.clone(), session.code().map(str::to_owned), hold);
        // Boxed: an async fn's argument is held twice in its task (as passed, and as the
        // local it becomes), and the room is its largest.
        let room = Box::new(Room {
            id,
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
            positions: None,
        });
        tokio::spawn(room.run(rx, initial));
        handle
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
        let mut shutdown = self.ctx.shutdown.clone();
        let mut time_moves = self.ctx.time.moves();
        // One timer for the room's life, moved when the deadline moves: a new one at every
        // command would enter and leave the timer wheel (a lock) once a move.
        let mut timer = std::pin::pin!(sleep_until(tokio::time::Instant::now()));
        let mut armed: Option<tokio::time::Instant> = None;
        while !self.session.is_closed() && !self.relinquished {
            let now = self.now();
            if let Some(computer) = &mut self.computer {
                // The player across the board spends the budget for boards close to a live
                // game (by their address too, when they are here).
                let across = super::computer::opponent(&self.session);
                let addr = self
                    .members
                    .iter()
                    .find(|m| m.conn.player.id == across)
                    .map(|m| m.conn.addr);
                computer.think_if_to_move(
                    &self.session,
                    now,
                    &self.ctx.engines,
                    &self.ctx.fair_play,
                    (&self.own_tx, addr),
                );
            }
            let deadline = self
                .session
                .next_deadline()
                .map(|at| self.ctx.time.timer_at(at));
            if let Some(at) = deadline.filter(|at| armed != Some(*at)) {
                timer.as_mut().reset(at);
            }
            armed = deadline;
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => Box::pin(self.handle(command)).await,
                    None => break,
                },
                _ = &mut timer, if deadline.is_some() => {
                    armed = None;
                    let events = self.session.on_timer(self.now());
                    Box::pin(self.apply(events)).await;
                }
                _ = shutdown.changed() => break,
                // Time was moved forward (tests of days): the deadline is armed again.
                Ok(()) = time_moves.changed() => {}
            }
        }
        self.set_live(false);
        // A room stopped by a shutdown keeps its code: the node that adopts it is found
        // through the code and the lease.
        if self.session.is_closed() {
            Box::pin(self.share_code(false)).await;
        }
        metrics::gauge!("jungle_rooms").decrement(1.0);
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
                let is_move = matches!(*action, Action::Move { .. });
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
        let Action::Move { text, lag, blurred } = action else {
            return action;
        };
        let round_trip = self
            .members
            .iter()
            .find(|m| m.conn.id == conn_id)
            .and_then(|m| m.conn.remote.as_ref())
            .map_or(Duration::ZERO, |node| node.round_trip());
        Action::Move {
            text,
            lag: lag + round_trip,
            blurred,
        }
    }

    /// The side of the member on connection `conn_id`, who must be `player`; a stranger is
    /// told they do not play here.
    fn seated_member(&self, conn_id: u64, player: Uuid) -> Option<Side> {
        let side = self
            .members
            .iter()
            .any(|m| m.conn.id == conn_id && m.conn.player.id == player)
            .then(|| self.session.side_of(player))
            .flatten();
        if side.is_none() {
            self.refuse(conn_id, &Refusal::NotYourGame);
        }
        side
    }

    /// A rematch starts a new stored game: against the computer it counts as a
    /// `play_computer`, between people as a `rematch`, per player and per address, so that a
    /// resign-and-rematch loop meets the same limits as any other way to a new game; and a
    /// new computer game is not for someone playing a person meanwhile (fair play).
    async fn rematch_allowed(&self, conn_id: u64, player: Uuid) -> bool {
        let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) else {
            return false;
        };
        let against_computer = self.session.computer_level().is_some();
        let what = match against_computer {
            true => crate::limits::Limited::PlayComputer,
            false => crate::limits::Limited::Rematch,
        };
        let refusal = match self.ctx.limits.check(what, Some(player), member.conn.addr) {
            Err(limited) => Some((jungle_protocol::ErrorCode::RateLimited, limited.to_string())),
            Ok(()) if against_computer => match self.ctx.fair_play.not_playing(player).await {
                Ok(()) => None,
                Err(closed) => Some((
                    jungle_protocol::ErrorCode::AnalysisUnavailable,
                    closed.to_string(),
                )),
            },
            Ok(()) => None,
        };
        match refusal {
            None => true,
            Some((code, message)) => {
                self.deliver(&member.conn, error_text(code, &message, Some(self.id)));
                false
            }
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

    /// A private room's game is watched only through its code or link until it is over: by
    /// its players, and by those who came in with the code.
    fn may_watch(&mut self, player: Uuid, intent: JoinIntent) -> bool {
        if intent == JoinIntent::TakeSeat {
            self.admitted.insert(player);
        }
        let private_in_play = self.session.is_private()
            && matches!(
                self.session.status(),
                GameStatus::Waiting | GameStatus::Active
            );
        !private_in_play
            || self.session.side_of(player).is_some()
            || self.admitted.contains(&player)
    }

    async fn join(&mut self, conn: Connection, intent: JoinIntent) {
        if !self.may_watch(conn.player.id, intent) {
            // As if there were no such game: its id tells a stranger nothing.
            let text = error_text(
                jungle_protocol::ErrorCode::UnknownGame,
                "no such game",
                Some(self.id),
            );
            let _ = conn.tx.try_send(Outbound::refused(self.id, text));
            return;
        }
        if let Some(member) = self.members.iter().find(|m| m.conn.id == conn.id) {
            let you = self.session.side_of(member.conn.player.id);
            self.deliver(&member.conn, self.view().game_frame(you));
            return;
        }
        let mut events = Vec::new();
        let mut side = self.session.side_of(conn.player.id);
        let mut may_sit = true;
        let mut start_guard = None;
        if side.is_none()
            && intent == JoinIntent::TakeSeat
            && self.session.status() == GameStatus::Waiting
        {
            // A room over days seats an account under the cap (the host too, who may have
            // started others meanwhile); anyone else watches. The check and the start are one
            // step on this node, so that joins at once cannot pass the cap together.
            let clock = self.session.settings().clock;
            if clock.is_correspondence() {
                start_guard = Some(self.ctx.correspondence_starts.clone().lock_owned().await);
                let host = self.session.seat(Side::Red).map(|s| s.who.player.id);
                let store = &self.ctx.store;
                for player in std::iter::once(conn.player.id).chain(host) {
                    if let Err(refusal) =
                        crate::correspondence::may_start(store, player, clock).await
                    {
                        may_sit = false;
                        let error = crate::frame_error::FrameError::from(refusal);
                        let text = error_text(error.code(), &error.to_string(), Some(self.id));
                        self.deliver(&conn, text);
                        break;
                    }
                }
            }
        }
        if side.is_none()
            && may_sit
            && intent == JoinIntent::TakeSeat
            && self.session.status() == GameStatus::Waiting
        {
            let rules = self.session.settings().rules;
            let guest = SeatPlayer::human(
                conn.player.clone(),
                self.rating(conn.player.id, rules).await,
            );
            match self.session.seat_guest(guest, self.now()) {
                Ok((guest_side, started)) => {
                    side = Some(guest_side);
                    events = started;
                }
                Err(refusal) => tracing::debug!(%refusal, "seat taken meanwhile; watching"),
            }
        }
        if let Some(side) = side {
            events.extend(self.session.connect(side, self.now()));
        }
        self.members.push(Member { conn: conn.clone() });
        if !events.contains(&Event::Started) {
            // A start shows everybody the full state; otherwise only the newcomer needs it.
            self.deliver(&conn, self.view().game_frame(side));
        }
        // What was said on the newcomer's channel so far, but by those they block.
        let channel = self.channel_of(&conn);
        let blocked = if self.chat.iter().any(|(on, _, _)| *on == channel) {
            Box::pin(self.ctx.store.blocked_ids(conn.player.id))
                .await
                .unwrap_or_default()
        } else {
            Default::default()
        };
        for (said_on, by, line) in &self.chat {
            if *said_on == channel && !blocked.contains(by) {
                self.deliver(&conn, line.clone());
            }
        }
        self.apply(events).await;
        // The game's start is stored: the next check of the cap counts it.
        drop(start_guard);
    }

    /// The channel of a member: players talk to players, everyone else to the spectators.
    fn channel_of(&self, conn: &Connection) -> ChatChannel {
        match self.session.side_of(conn.player.id) {
            Some(_) => ChatChannel::Players,
            None => ChatChannel::Spectators,
        }
    }

    /// A line from a member (checked by its handler): stored, then told to its channel.
    async fn chat(&mut self, conn_id: u64, preset: Option<String>, text: Option<String>) {
        let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) else {
            return;
        };
        let from = member.conn.player.clone();
        if !self.said.contains_key(&from.id) {
            // What they said before a restart counts too.
            let before = self.ctx.store.chat_count(self.id, from.id).await;
            self.said.insert(from.id, before.unwrap_or(0));
        }
        let member = self
            .members
            .iter()
            .find(|m| m.conn.id == conn_id)
            .expect("found above");
        let said = self.said.entry(from.id).or_default();
        if *said >= CHAT_LINES_PER_PLAYER {
            let text = error_text(
                jungle_protocol::ErrorCode::LimitReached,
                &format!("at most {CHAT_LINES_PER_PLAYER} chat lines a game"),
                Some(self.id),
            );
            self.deliver(&member.conn, text);
            return;
        }
        *said += 1;
        let channel = self.channel_of(&member.conn);
        let record = jungle_store::ChatRecord {
            game: self.id,
            channel: match channel {
                ChatChannel::Players => "players",
                ChatChannel::Spectators => "spectators",
            },
            player: from.id,
            preset: preset.clone(),
            text: text.clone(),
        };
        if let Err(e) = self.ctx.persister.write(Write::Chat(record)).await {
            tracing::error!(game = %self.id, error = %e, "a chat line could not be stored");
            return;
        }
        let line = frame_text(&ServerFrame::ChatLine {
            game: self.id,
            channel,
            from: jungle_protocol::PlayerInfo {
                id: from.id,
                name: from.name,
            },
            preset,
            text,
        });
        // Nobody hears a player they block.
        let listeners: Vec<Uuid> = self
            .members
            .iter()
            .filter(|m| self.channel_of(&m.conn) == channel && m.conn.player.id != from.id)
            .map(|m| m.conn.player.id)
            .collect();
        let blockers = self
            .ctx
            .store
            .blockers_of(from.id, &listeners)
            .await
            .unwrap_or_default();
        self.deliver_each(|member| {
            (self.channel_of(&member.conn) == channel && !blockers.contains(&member.conn.player.id))
                .then(|| line.clone())
        });
        if self.chat.len() >= CHAT_KEPT {
            self.chat.remove(0);
        }
        self.chat.push((channel, from.id, line));
    }

    async fn leave(&mut self, conn_id: u64) {
        let Some(index) = self.members.iter().position(|m| m.conn.id == conn_id) else {
            return;
        };
        let member = self.members.swap_remove(index);
        if let Some(side) = self.session.side_of(member.conn.player.id) {
            let events = self.session.disconnect(side, self.now());
            self.apply(events).await;
        }
    }

    /// A player's rating in `rules` (by correspondence if this game is), or a new player's
    /// when the store cannot say.
    async fn rating(&self, player: Uuid, rules: jungle_rules::Ruleset) -> RatingRecord {
        let pool = jungle_game::rating::RatingPool::of(rules, self.session.settings().clock);
        self.ctx
            .store
            .rating(player, pool)
            .await
            .unwrap_or_else(|e| {
                tracing::error!(error = %e, "rating lookup failed; using a new player's");
                RatingRecord::from_glicko(jungle_game::rating::Glicko::default(), 0)
            })
    }

    /// A game over days: it is someone's turn, and if they are not here to see it they may
    /// want a mail (the mailer decides: a confirmed address, once a turn, a daily cap).
    fn mail_the_mover(&self) {
        if !self.session.settings().clock.is_correspondence()
            || self.session.status() != GameStatus::Active
        {
            return;
        }
        let to_move = self.session.game().position().side_to_move();
        let (Some(mover), Some(other)) = (self.session.seat(to_move), self.session.seat(!to_move))
        else {
            return;
        };
        if mover.online() {
            return;
        }
        self.ctx.mailer.your_turn(
            mover.who.player.id,
            self.id,
            self.session.game().ply_count(),
            other.who.player.name.clone(),
        );
    }

    /// A game over days: `side`'s vacations from now on, from the store, into its clock.
    async fn read_vacations(&mut self, side: Side) {
        if !self.session.settings().clock.is_correspondence() {
            return;
        }
        let Some(player) = self.session.seat(side).map(|s| s.who.player.id) else {
            return;
        };
        let (wall, now) = (self.ctx.time.wall_ms(), self.now());
        let vacations = match self.ctx.store.vacations(player, wall).await {
            Ok(vacations) => vacations,
            Err(e) => {
                tracing::error!(error = %e, game = %self.id, "a player's vacations");
                return;
            }
        };
        let at = |ms: i64| now + std::time::Duration::from_millis((ms - wall).max(0) as u64);
        let pauses = vacations
            .iter()
            .map(|v| (at(v.starts_at), at(v.ends_at)))
            .collect();
        self.session.set_pauses(side, pauses);
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

    /// Commits what `event` makes durable; false if the write failed.
    async fn persist(&mut self, event: &Event) -> bool {
        let write = match event {
            Event::Started => Write::StartGame(self.new_game()),
            Event::Moved {
                turn,
                ply,
                clock,
                blurred,
                ..
            } => {
                let correspondence = self.session.settings().clock.is_correspondence();
                let record = MoveRecord {
                    ply: *ply as i64,
                    mv: turn.to_string(),
                    clock: *clock,
                    blurred: *blurred,
                    // A correspondence turn's time counts from here, by the time source
                    // (which tests move); others take the store's time at the commit.
                    played_at: if correspondence {
                        self.ctx.time.wall_ms()
                    } else {
                        0
                    },
                };
                if correspondence {
                    Write::CorrespondenceTurn(self.id, record)
                } else {
                    Write::Turn(self.id, record)
                }
            }
            Event::DayGiven { ply, clock, .. } => Write::TurnClock {
                game: self.id,
                ply: *ply,
                clock: *clock,
            },
            Event::Ended {
                status,
                winner,
                reason,
                plies,
                apply_rating,
            } => Write::Finish(jungle_store::FinishRecord {
                game: self.id,
                status: *status,
                winner: *winner,
                reason: *reason,
                plies: *plies as i64,
                apply_rating: *apply_rating,
            }),
            Event::Closed {
                expired_unjoined: true,
            } => match self.session.code() {
                Some(code) => Write::CloseRoom(code.to_owned()),
                None => return true,
            },
            Event::TakenBack { keep, undone } => Write::TakeBack {
                game: self.id,
                kept: *keep,
                undone: undone.iter().map(ToString::to_string).collect(),
            },
            _ => return true,
        };
        match self.ctx.persister.write(write).await {
            Ok(Written::Finished(change)) => {
                self.session.set_rating_change(change);
                true
            }
            Ok(Written::Done) => true,
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, ?event, "could not persist");
                false
            }
        }
    }

    async fn publish(&mut self, event: Event) {
        match event {
            Event::Started => {
                self.seq += 1;
                // A private room that starts no longer counts among its host's waiting rooms.
                self.ctx.rooms.release(self.id, HoldKind::WaitingRoom);
                self.game_in_play();
                // The first turn starts when the players can see the board.
                self.session.turn_visible(self.now());
                self.deliver_states();
                self.mail_the_mover();
            }
            Event::Moved {
                turn,
                ply,
                captured,
                ..
            } => {
                self.seq += 1;
                // Registered before anyone sees it.
                if let Some(positions) = &mut self.positions {
                    positions.follow(self.session.game());
                }
                self.session.turn_visible(self.now());
                metrics::counter!("jungle_moves_total").increment(1);
                self.broadcast_moved(turn, ply, captured);
                self.mail_the_mover();
            }
            Event::DrawOffered { by } => {
                self.broadcast_next(|game, seq| ServerFrame::DrawOffered { game, seq, by })
            }
            Event::DrawDeclined { by } => {
                self.broadcast_next(|game, seq| ServerFrame::DrawDeclined { game, seq, by })
            }
            Event::RematchOffered { by } => {
                self.broadcast_next(|game, seq| ServerFrame::RematchOffered { game, seq, by })
            }
            Event::TakebackOffered { by } => {
                self.broadcast_next(|game, seq| ServerFrame::TakebackOffered { game, seq, by })
            }
            Event::TakebackDeclined { by } => {
                self.broadcast_next(|game, seq| ServerFrame::TakebackDeclined { game, seq, by })
            }
            Event::TakenBack { .. } => {
                self.seq += 1;
                if let Some(positions) = &mut self.positions {
                    positions.refollow(self.session.game());
                }
                // The computer's search was for a position that is gone.
                if let Some(computer) = &mut self.computer {
                    computer.cancel();
                }
                self.session.turn_visible(self.now());
                // Everyone gets the whole new state: the board, clocks, moves and legal moves.
                self.deliver_states();
            }
            Event::DayGiven { .. } => {
                self.seq += 1;
                // Everyone gets the new clocks with the whole state.
                self.deliver_states();
            }
            Event::Presence { side } => {
                self.seq += 1;
                self.broadcast(&self.view().presence(side));
            }
            Event::Ended {
                reason,
                status,
                winner,
                ..
            } => {
                self.seq += 1;
                self.set_live(false);
                // Over: the engine may speak of it again.
                self.positions = None;
                if self.session.settings().rated && status == GameStatus::Finished {
                    self.ctx.assessor.game_ended(self.id);
                }
                if let Some(computer) = &mut self.computer {
                    computer.cancel();
                }
                // An ended game against the computer no longer counts against its player.
                self.ctx.rooms.release(self.id, HoldKind::ComputerGame);
                metrics::counter!("jungle_games_finished_total", "reason" => reason.name())
                    .increment(1);
                if let Some(frame) = self.view().game_over() {
                    self.broadcast(&frame);
                }
                if let Some(tournament) = self.session.tournament() {
                    // An aborted game is the fault of the side that never moved; resigning
                    // before one's first move is the same (else a pair resigning at once
                    // would fill the tournament with games): they are paused.
                    let game = self.session.game();
                    let absent_side = match reason {
                        jungle_protocol::Reason::Aborted => Some(game.position().side_to_move()),
                        jungle_protocol::Reason::Resign => {
                            winner.map(|w| !w).filter(|&loser| !moved(game, loser))
                        }
                        _ => None,
                    };
                    let absent = absent_side
                        .and_then(|side| self.session.seat(side))
                        .map(|seat| seat.who.player.id);
                    let directors = self.ctx.tournaments.clone();
                    directors.game_ended(tournament, self.id, absent).await;
                }
            }
            Event::RematchAgreed { red, blue } => Box::pin(self.start_rematch(red, blue)).await,
            Event::Closed { .. } => {}
        }
    }

    /// The game is in play: listed, counted, its positions closed to the engine, and the
    /// computer seated at its engine.
    fn game_in_play(&mut self) {
        self.set_live(true);
        // A casual private room's positions are not registered: a refusal would tell a
        // stranger what is played there, and nothing is rated. Its players still get no engine.
        let private_casual = self.session.is_private() && !self.session.settings().rated;
        if self.positions.is_none() && !private_casual {
            let seats = match self.session.computer_level() {
                Some(_) => crate::fair_play::Seats::WithComputer,
                None => crate::fair_play::Seats::People,
            };
            let over_days = self.session.settings().clock.is_correspondence();
            self.positions = Some(
                crate::fair_play::GamePositions::new(
                    self.ctx.fair_play.positions().clone(),
                    self.id,
                    seats,
                )
                .over_days(over_days),
            );
        }
        if let Some(positions) = &mut self.positions {
            positions.follow(self.session.game());
        }
        if self.computer.is_none() {
            if let Some(level) = self.session.computer_level().and_then(Level::new) {
                self.computer = Some(ComputerPlayer::new(level));
            }
        }
    }

    fn set_live(&mut self, live: bool) {
        if self.live == live {
            return;
        }
        self.live = live;
        if live {
            metrics::gauge!("jungle_live_games").increment(1.0);
            // Games over days are not listed among live games: a move a day is no show.
            let listed = !self.session.settings().clock.is_correspondence();
            self.ctx
                .rooms
                .set_live(self.id, listed.then(|| self.live_summary()));
        } else {
            metrics::gauge!("jungle_live_games").decrement(1.0);
            self.ctx.rooms.set_live(self.id, None);
        }
    }

    async fn start_rematch(&mut self, red: SeatPlayer, blue: SeatPlayer) {
        let rules = self.session.settings().rules;
        // Another game over days counts as one: both must be free to start it.
        let clock = self.session.settings().clock;
        for player in [red.player.id, blue.player.id] {
            let store = &self.ctx.store;
            if let Err(refusal) = crate::correspondence::may_start(store, player, clock).await {
                let error = crate::frame_error::FrameError::from(refusal);
                let text = error_text(error.code(), &error.to_string(), Some(self.id));
                for member in &self.members {
                    self.deliver(&member.conn, text.clone());
                }
                return;
            }
        }
        let red = SeatPlayer {
            rating: self.rating(red.player.id, rules).await,
            ..red
        };
        let blue = SeatPlayer {
            rating: self.rating(blue.player.id, rules).await,
            ..blue
        };
        let handle = super::open::matched(self.ctx.clone(), self.session.settings(), red, blue);
        for member in &self.members {
            let _ = member.conn.tx.try_send(Outbound::enter(handle.clone()));
        }
    }

    fn new_game(&self) -> NewGame {
        let seat = |side: Side| &self.session.seat(side).expect("both seated").who;
        let settings = self.session.settings();
        NewGame {
            id: self.id,
            ruleset: settings.rules,
            clock: settings.clock,
            rated: settings.rated,
            room_code: self.session.code().map(str::to_owned),
            red: seat(Side::Red).player.id,
            blue: seat(Side::Blue).player.id,
            red_rating: seat(Side::Red).rating.glicko().shown(),
            blue_rating: seat(Side::Blue).rating.glicko().shown(),
            red_provisional: seat(Side::Red).rating.provisional,
            blue_provisional: seat(Side::Blue).rating.provisional,
            start_fen: self.session.game().start().to_string(),
            tournament: self.session.tournament(),
            private: self.session.is_private(),
            created_at: self.ctx.time.wall_ms(),
        }
    }

    // ---- frames ----------------------------------------------------------------------------

    fn view(&self) -> View<'_> {
        View {
            id: self.id,
            session: &self.session,
            seq: self.seq,
            now: self.now(),
        }
    }

    fn live_summary(&self) -> LiveGame {
        let seat = |side: Side| self.session.seat(side).map(|s| &s.who);
        let settings = self.session.settings();
        LiveGame {
            id: self.id,
            rules: settings.rules,
            clock: settings.clock,
            rated: settings.rated,
            red: seat(Side::Red)
                .map(|w| w.player.name.clone())
                .unwrap_or_default(),
            blue: seat(Side::Blue)
                .map(|w| w.player.name.clone())
                .unwrap_or_default(),
            red_rating: seat(Side::Red)
                .map(|w| w.rating.glicko().shown())
                .unwrap_or_default(),
            blue_rating: seat(Side::Blue)
                .map(|w| w.rating.glicko().shown())
                .unwrap_or_default(),
            red_id: seat(Side::Red).map(|w| w.player.id),
            blue_id: seat(Side::Blue).map(|w| w.player.id),
            red_title: seat(Side::Red).and_then(|w| w.player.bot.then(|| "BOT".to_owned())),
            blue_title: seat(Side::Blue).and_then(|w| w.player.bot.then(|| "BOT".to_owned())),
        }
    }

    fn broadcast_moved(
        &self,
        turn: jungle_rules::Turn,
        ply: usize,
        captured: Option<jungle_rules::Animal>,
    ) {
        let view = self.view();
        let to_move = self.session.game().position().side_to_move();
        // Serialized twice at most: once without legal moves, once with them for the side to
        // move; the frame is built once.
        let mut frame = view.moved(turn, ply, captured, None);
        let plain = frame_text(&frame);
        let mut with_legal = None;
        self.deliver_each(|member| {
            Some(
                if self.session.side_of(member.conn.player.id) == Some(to_move) {
                    with_legal
                        .get_or_insert_with(|| {
                            if let ServerFrame::Moved { legal, .. } = &mut frame {
                                *legal = self.session.legal_for(Some(to_move));
                            }
                            frame_text(&frame)
                        })
                        .clone()
                } else {
                    plain.clone()
                },
            )
        });
    }

    /// Every member gets the whole state, as their seat sees it (serialized once per seat).
    fn deliver_states(&self) {
        let view = self.view();
        let mut by_seat: [Option<Utf8Bytes>; 3] = Default::default();
        self.deliver_each(|member| {
            let you = self.session.side_of(member.conn.player.id);
            let slot = you.map_or(2, Side::index);
            Some(
                by_seat[slot]
                    .get_or_insert_with(|| view.game_frame(you))
                    .clone(),
            )
        });
    }

    /// Sends each member the text `pick` gives it (if any): members here at once; members on
    /// other nodes one message per node and text, however many there are there.
    fn deliver_each(&self, mut pick: impl FnMut(&Member) -> Option<Utf8Bytes>) {
        let mut elsewhere: Vec<(&Arc<dyn super::Fanout>, Utf8Bytes, Vec<u64>)> = Vec::new();
        for member in &self.members {
            let Some(text) = pick(member) else {
                continue;
            };
            let Some(fanout) = &member.conn.remote else {
                self.deliver(&member.conn, text);
                continue;
            };
            let group = elsewhere
                .iter_mut()
                .find(|(f, t, _)| f.node() == fanout.node() && t.as_str() == text.as_str());
            match group {
                Some((_, _, conns)) => conns.push(member.conn.id),
                None => elsewhere.push((fanout, text, vec![member.conn.id])),
            }
        }
        for (fanout, text, conns) in elsewhere {
            fanout.frames(conns, &text);
        }
    }

    /// Broadcasts the game's next event, built from its id and new sequence number.
    fn broadcast_next(&mut self, frame: impl FnOnce(Uuid, u64) -> ServerFrame) {
        self.seq += 1;
        self.broadcast(&frame(self.id, self.seq));
    }

    fn broadcast(&self, frame: &ServerFrame) {
        let text = frame_text(frame);
        self.deliver_each(|_| Some(text.clone()));
    }

    fn deliver(&self, conn: &Connection, text: Utf8Bytes) {
        if !conn.send_text(text) {
            metrics::counter!("jungle_frames_dropped_total").increment(1);
            conn.too_slow.notify_one();
        }
    }

    fn refuse_with(&self, conn_id: u64, text: Utf8Bytes) {
        if let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) {
            self.deliver(&member.conn, text);
        }
    }

    fn refuse(&self, conn_id: u64, refusal: &Refusal) {
        if let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) {
            let text = error_text(refusal.code(), &refusal.to_string(), Some(self.id));
            self.deliver(&member.conn, text);
        }
    }
}
