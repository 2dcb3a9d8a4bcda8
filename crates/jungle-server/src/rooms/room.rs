//! One game's task: it owns the game, the clocks, the seats and the members, and is the only
//! code that changes them. Commands arrive over a bounded channel; timers are a single
//! `sleep_until` on the earliest deadline.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use jungle_protocol::{
    ClockSpec, ColorChoice, ErrorCode, GameResult, GameState, GameStatus, Reason, Seat, ServerFrame,
};
use jungle_rules::{Game, Position, Ruleset, Side, Turn};
use tokio::sync::{mpsc, watch};
use tokio::time::{sleep_until, Instant};
use uuid::Uuid;

use super::clock::{Expiry, GameClock};
use super::{Action, Connection, JoinIntent, LiveGame, RoomCommand, RoomHandle, Rooms, ROOM_QUEUE};
use crate::persist::{Persister, Write, Written};
use crate::store::{
    GameRecord, MoveRecord, NewGame, PlayerRecord, RatingRecord, Store, WaitingRoom,
};

/// How long a finished game's room stays open for a rematch and late spectators.
const LINGER: Duration = Duration::from_secs(300);
/// How long a private room waits for its second player.
const WAITING_LIFETIME: Duration = Duration::from_secs(3600);
/// The 10-move no-score rule: a rated game ending at or before this ply changes no rating.
const NO_SCORE_PLIES: usize = 20;
/// At most one draw offer per player per this many plies.
const DRAW_OFFER_EVERY: usize = 20;

/// What every room needs from the server around it.
#[derive(Clone)]
pub struct RoomContext {
    pub persister: Persister,
    pub bots: crate::bots::BotPool,
    pub rooms: Rooms,
    pub store: Store,
    pub disconnect_grace: Duration,
    pub abort_after: Duration,
    pub shutdown: watch::Receiver<bool>,
}

/// The settings a game is played with; also the matchmaking pool key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoomSettings {
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
}

/// A player taking a seat, with their rating in the game's ruleset.
#[derive(Clone, Debug)]
pub struct SeatPlayer {
    pub player: PlayerRecord,
    pub rating: RatingRecord,
    /// The engine level when this seat is the computer.
    pub computer: Option<u8>,
}

impl SeatPlayer {
    pub fn computer(level: u8, rating: RatingRecord) -> SeatPlayer {
        SeatPlayer {
            player: crate::bots::bot_player(level),
            rating,
            computer: Some(level),
        }
    }
}

struct SeatState {
    who: SeatPlayer,
    /// Live connections of this player to the room (two tabs count twice).
    conns: usize,
    away_since: Option<Instant>,
}

struct Member {
    conn: Connection,
    side: Option<Side>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    Abort,
    Expire(Expiry),
    Abandon(Side),
    Close,
}

pub struct Room {
    id: Uuid,
    code: Option<String>,
    settings: RoomSettings,
    ctx: Arc<RoomContext>,
    seats: [Option<SeatState>; 2],
    host_color: ColorChoice,
    members: Vec<Member>,
    game: Game,
    clock: GameClock,
    status: GameStatus,
    draw_offer: Option<Side>,
    last_offer_ply: [Option<usize>; 2],
    result: Option<GameResult>,
    rematch: [bool; 2],
    rematched: bool,
    created: Instant,
    /// When a private room still waiting for its guest closes.
    waiting_until: Instant,
    ended_at: Option<Instant>,
    closing: bool,
    /// The game row must be written before anything else (a new matchmade game or rematch).
    start_unpersisted: bool,
    /// The computer's engine, when a seat is the computer; away while it thinks.
    engine: Option<Box<jungle_engine::Engine>>,
    thinking: bool,
    /// To hand the computer's moves back to this room's own queue; weak, so it can close.
    own_tx: Option<mpsc::WeakSender<RoomCommand>>,
}

impl Room {
    fn new(ctx: Arc<RoomContext>, id: Uuid, settings: RoomSettings, code: Option<String>) -> Room {
        let now = Instant::now();
        Room {
            id,
            code,
            settings,
            clock: GameClock::new(settings.clock, now),
            game: Game::new(settings.rules.rules(), Position::start()),
            ctx,
            seats: [None, None],
            host_color: ColorChoice::Random,
            members: Vec::new(),
            status: GameStatus::Waiting,
            draw_offer: None,
            last_offer_ply: [None; 2],
            result: None,
            rematch: [false; 2],
            rematched: false,
            created: now,
            waiting_until: now + WAITING_LIFETIME,
            ended_at: None,
            closing: false,
            start_unpersisted: false,
            engine: None,
            thinking: false,
            own_tx: None,
        }
    }

    fn spawn(mut self) -> RoomHandle {
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        self.own_tx = Some(tx.downgrade());
        if let Some(level) = self.seats.iter().flatten().find_map(|s| s.who.computer) {
            self.engine = Some(crate::bots::new_engine(self.settings.rules.rules(), level));
        }
        let handle = RoomHandle { id: self.id, tx };
        self.ctx.rooms.insert(handle.clone(), self.code.clone());
        if self.status == GameStatus::Active {
            self.ctx.rooms.set_live(self.id, Some(self.live_summary()));
        }
        tokio::spawn(self.run(rx));
        handle
    }

    /// A game between two known players, starting now.
    pub fn spawn_matched(
        ctx: Arc<RoomContext>,
        settings: RoomSettings,
        red: SeatPlayer,
        blue: SeatPlayer,
    ) -> RoomHandle {
        let mut room = Room::new(ctx, Uuid::new_v4(), settings, None);
        room.seats = [Some(SeatState::new(red)), Some(SeatState::new(blue))];
        room.status = GameStatus::Active;
        room.start_unpersisted = true;
        room.spawn()
    }

    /// A private room with its host seated, waiting for a second player.
    pub fn spawn_private(
        ctx: Arc<RoomContext>,
        settings: RoomSettings,
        host: SeatPlayer,
        color: ColorChoice,
        code: String,
    ) -> RoomHandle {
        Room::new_private(ctx, Uuid::new_v4(), settings, host, color, code).spawn()
    }

    fn new_private(
        ctx: Arc<RoomContext>,
        id: Uuid,
        settings: RoomSettings,
        host: SeatPlayer,
        color: ColorChoice,
        code: String,
    ) -> Room {
        let mut room = Room::new(ctx, id, settings, Some(code));
        room.host_color = color;
        // The host sits on Red until the guest arrives and colours are settled.
        room.seats[Side::Red.index()] = Some(SeatState::new(host));
        room
    }

    /// A private room found waiting at start-up, under its old code and game id, with the
    /// time it has already waited counted against its lifetime (one whose hour is up closes at
    /// once, and forgets itself like any room that expires).
    pub fn spawn_private_restored(
        ctx: Arc<RoomContext>,
        saved: &WaitingRoom,
        host: SeatPlayer,
        waited: Duration,
    ) -> RoomHandle {
        let settings = RoomSettings {
            rules: saved.ruleset,
            clock: saved.clock,
            rated: saved.rated,
        };
        let code = saved.code.clone();
        let mut room = Room::new_private(ctx, saved.game, settings, host, saved.color, code);
        // Counted forward from now: a monotonic clock cannot go back before this machine's boot.
        room.waiting_until = Instant::now() + WAITING_LIFETIME.saturating_sub(waited);
        room.spawn()
    }

    /// A game found unfinished at start-up: replayed, with the clocks as saved after the last
    /// turn, and both players counted away from now (they reconnect within the grace period).
    pub fn spawn_resumed(
        ctx: Arc<RoomContext>,
        record: GameRecord,
        red: SeatPlayer,
        blue: SeatPlayer,
    ) -> Result<RoomHandle, String> {
        let settings = RoomSettings {
            rules: record.rules,
            clock: record.clock,
            rated: record.rated,
        };
        let mut room = Room::new(ctx, record.id, settings, record.room_code.clone());
        let start: Position = record
            .start
            .parse()
            .map_err(|e| format!("start position: {e}"))?;
        let turns = record
            .moves
            .iter()
            .map(|m| {
                m.mv.parse::<Turn>()
                    .map_err(|e| format!("ply {}: {e}", m.ply))
            })
            .collect::<Result<Vec<_>, _>>()?;
        room.game = Game::replay(settings.rules.rules(), start, turns)
            .map_err(|(i, e)| format!("ply {i}: {e}"))?;
        let now = Instant::now();
        room.clock = match record.moves.last() {
            Some(last) => GameClock::restore(settings.clock, last.clock, now),
            None => GameClock::new(settings.clock, now),
        };
        let mut red = SeatState::new(red);
        let mut blue = SeatState::new(blue);
        for seat in [&mut red, &mut blue] {
            if seat.who.computer.is_none() {
                seat.away_since = Some(now);
            }
        }
        room.seats = [Some(red), Some(blue)];
        room.status = GameStatus::Active;
        Ok(room.spawn())
    }

    async fn run(mut self, mut rx: mpsc::Receiver<RoomCommand>) {
        metrics::gauge!("jungle_rooms").increment(1.0);
        if self.start_unpersisted {
            self.persist_start().await;
        }
        if self.status == GameStatus::Active {
            metrics::gauge!("jungle_live_games").increment(1.0);
        }
        let mut shutdown = self.ctx.shutdown.clone();
        self.maybe_start_computer();
        loop {
            let timer = self.next_timer();
            let wake_at = timer.map_or_else(|| Instant::now() + LINGER, |(at, _)| at);
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                _ = sleep_until(wake_at), if timer.is_some() => {
                    if let Some((_, timer)) = timer {
                        self.on_timer(timer).await;
                    }
                }
                _ = shutdown.changed() => break,
            }
            if self.closing {
                break;
            }
            self.maybe_start_computer();
        }
        if self.status == GameStatus::Active {
            metrics::gauge!("jungle_live_games").decrement(1.0);
        }
        // Expired unjoined (not stopped by a shutdown, after which it is restored).
        if let (GameStatus::Waiting, true, Some(code)) = (self.status, self.closing, &self.code) {
            if let Err(e) = self
                .ctx
                .persister
                .write(Write::CloseRoom(code.clone()))
                .await
            {
                tracing::error!(room = %code, error = %e, "could not forget an expired room");
            }
        }
        metrics::gauge!("jungle_rooms").decrement(1.0);
        self.ctx.rooms.remove(self.id);
    }

    // ---- commands ------------------------------------------------------------------------

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Join { conn, intent } => self.join(conn, intent).await,
            RoomCommand::Leave { conn_id } => self.leave(conn_id),
            RoomCommand::ComputerMove {
                ply,
                choice,
                engine,
            } => {
                self.engine = Some(engine);
                self.thinking = false;
                self.computer_moved(ply, choice).await;
            }
            RoomCommand::Act {
                conn_id,
                player,
                action,
                lag,
            } => {
                let received = Instant::now();
                let side = self
                    .members
                    .iter()
                    .find(|m| m.conn.id == conn_id && m.conn.player.id == player)
                    .and_then(|m| m.side);
                let Some(side) = side else {
                    self.send_error(
                        conn_id,
                        ErrorCode::NotYourGame,
                        "you do not play in this game",
                    );
                    return;
                };
                let is_move = matches!(action, Action::Move(_));
                self.act(conn_id, side, action, lag).await;
                if is_move {
                    // From the move reaching the room to everyone having it: persistence included.
                    metrics::histogram!("jungle_move_seconds")
                        .record(received.elapsed().as_secs_f64());
                }
                metrics::histogram!("jungle_room_command_seconds")
                    .record(received.elapsed().as_secs_f64());
            }
        }
    }

    async fn join(&mut self, conn: Connection, intent: JoinIntent) {
        if let Some(existing) = self.members.iter().position(|m| m.conn.id == conn.id) {
            let side = self.members[existing].side;
            self.send_state(&self.members[existing].conn, side);
            return;
        }
        let seated = Side::ALL.into_iter().find(|&s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|seat| seat.who.player.id == conn.player.id)
        });
        let side = match seated {
            Some(side) => Some(side),
            None if intent == JoinIntent::TakeSeat && self.status == GameStatus::Waiting => {
                let rating = match self
                    .ctx
                    .store
                    .rating(conn.player.id, self.settings.rules)
                    .await
                {
                    Ok(r) => r,
                    Err(e) => {
                        tracing::error!(error = %e, "rating lookup failed");
                        let _ = conn.tx.try_send(super::Outbound::Text(error_text(
                            ErrorCode::Internal,
                            "please try again",
                            Some(self.id),
                        )));
                        return;
                    }
                };
                Some(self.seat_guest(SeatPlayer {
                    player: conn.player.clone(),
                    rating,
                    computer: None,
                }))
            }
            None => None,
        };
        self.members.push(Member {
            conn: conn.clone(),
            side,
        });
        if let Some(side) = side {
            let seat = self.seats[side.index()].as_mut().expect("seated");
            seat.conns += 1;
            let came_back = seat.away_since.take().is_some();
            if came_back && self.status == GameStatus::Active {
                self.on_presence_change(side);
            }
            if self.status == GameStatus::Active && self.start_unpersisted {
                // The guest's arrival started the game: everybody gets the full state.
                self.persist_start().await;
                self.ctx.rooms.set_live(self.id, Some(self.live_summary()));
                metrics::gauge!("jungle_live_games").increment(1.0);
                self.broadcast_state();
                return;
            }
        }
        self.send_state(&conn, side);
    }

    /// Seats the guest of a private room, settles colours and starts the game.
    fn seat_guest(&mut self, guest: SeatPlayer) -> Side {
        let host = self.seats[Side::Red.index()]
            .take()
            .expect("host is seated");
        let host_side = match self.host_color {
            ColorChoice::Red => Side::Red,
            ColorChoice::Blue => Side::Blue,
            ColorChoice::Random => {
                if Uuid::new_v4().as_bytes()[0] & 1 == 0 {
                    Side::Red
                } else {
                    Side::Blue
                }
            }
        };
        self.seats[host_side.index()] = Some(host);
        self.seats[(!host_side).index()] = Some(SeatState::new(guest));
        for member in &mut self.members {
            if member.side.is_some() {
                member.side = Some(host_side);
            }
        }
        self.status = GameStatus::Active;
        self.start_unpersisted = true;
        self.clock.restart_turn(Instant::now());
        !host_side
    }

    fn leave(&mut self, conn_id: u64) {
        let Some(index) = self.members.iter().position(|m| m.conn.id == conn_id) else {
            return;
        };
        let member = self.members.swap_remove(index);
        if let Some(side) = member.side {
            let seat = self.seats[side.index()].as_mut().expect("seated");
            seat.conns = seat.conns.saturating_sub(1);
            if seat.conns == 0 && self.status == GameStatus::Active {
                seat.away_since = Some(Instant::now());
                self.on_presence_change(side);
            }
        }
    }

    /// Tells everyone a player came or went; a returning player restarts an away opponent's
    /// countdown, since abandoning needs someone left behind.
    fn on_presence_change(&mut self, side: Side) {
        let online = self.is_online(side);
        if online {
            if let Some(other) = self.seats[(!side).index()].as_mut() {
                if other.away_since.is_some() {
                    other.away_since = Some(Instant::now());
                }
            }
        }
        let frame = ServerFrame::Presence {
            game: self.id,
            side,
            online,
            abandon_in_ms: self.abandon_in(side).map(|d| d.as_millis() as u64),
        };
        self.broadcast(&frame);
        if online && !self.is_online(!side) {
            let frame = ServerFrame::Presence {
                game: self.id,
                side: !side,
                online: false,
                abandon_in_ms: self.abandon_in(!side).map(|d| d.as_millis() as u64),
            };
            self.broadcast(&frame);
        }
    }

    async fn act(&mut self, conn_id: u64, side: Side, action: Action, lag: Duration) {
        match action {
            Action::Move(text) => self.play_move(conn_id, side, &text, lag).await,
            Action::Resign => {
                if self.require_active(conn_id) {
                    self.finish(Some(!side), Reason::Resign).await;
                }
            }
            Action::OfferDraw => self.offer_draw(conn_id, side).await,
            Action::AcceptDraw => {
                if !self.require_active(conn_id) {
                    return;
                }
                if self.draw_offer == Some(!side) {
                    self.finish(None, Reason::DrawAgreed).await;
                } else {
                    self.send_error(
                        conn_id,
                        ErrorCode::NoDrawOffer,
                        "there is no draw offer to accept",
                    );
                }
            }
            Action::DeclineDraw => {
                if !self.require_active(conn_id) {
                    return;
                }
                if self.draw_offer == Some(!side) {
                    self.draw_offer = None;
                    self.broadcast(&ServerFrame::DrawDeclined {
                        game: self.id,
                        by: side,
                    });
                } else {
                    self.send_error(
                        conn_id,
                        ErrorCode::NoDrawOffer,
                        "there is no draw offer to decline",
                    );
                }
            }
            Action::Rematch => self.ask_rematch(conn_id, side).await,
            Action::AddComputer(level) => self.add_computer(conn_id, level).await,
        }
    }

    fn require_active(&self, conn_id: u64) -> bool {
        match self.status {
            GameStatus::Active => true,
            GameStatus::Waiting => {
                self.send_error(
                    conn_id,
                    ErrorCode::GameNotStarted,
                    "the game has not started: waiting for an opponent",
                );
                false
            }
            GameStatus::Finished | GameStatus::Aborted => {
                self.send_error(conn_id, ErrorCode::GameOver, "the game is over");
                false
            }
        }
    }

    async fn play_move(&mut self, conn_id: u64, side: Side, text: &str, lag: Duration) {
        if !self.require_active(conn_id) {
            return;
        }
        if self.game.position().side_to_move() != side {
            self.send_error(
                conn_id,
                ErrorCode::NotYourTurn,
                "it is your opponent's turn",
            );
            return;
        }
        let turn = match text.parse::<Turn>() {
            Ok(Turn::Pass) => {
                self.send_error(
                    conn_id,
                    ErrorCode::BadMove,
                    "pass is played by the server for a timed-out turn",
                );
                return;
            }
            Ok(turn) => turn,
            Err(e) => {
                self.send_error(conn_id, ErrorCode::BadMove, &e.to_string());
                return;
            }
        };
        if let Err(e) = self.game.check(turn) {
            self.send_error(conn_id, ErrorCode::IllegalMove, &e.to_string());
            return;
        }
        self.commit_move(side, turn, lag).await;
    }

    /// Charges the clock and plays a move already checked to be legal.
    async fn commit_move(&mut self, side: Side, turn: Turn, lag: Duration) {
        let now = Instant::now();
        let timed = self.is_timed();
        if !self.clock.record_move(side, timed, lag, now) {
            self.finish(Some(!side), Reason::Timeout).await;
            return;
        }
        self.game.play(turn).expect("checked before committing");
        if self.draw_offer == Some(!side) {
            self.draw_offer = None;
        }
        self.after_turn(turn).await;
    }

    fn is_computer(&self, side: Side) -> bool {
        self.seats[side.index()]
            .as_ref()
            .is_some_and(|s| s.who.computer.is_some())
    }

    /// When the computer is to move, starts its search on the engine pool; the answer comes
    /// back to this room as a `ComputerMove` command.
    fn maybe_start_computer(&mut self) {
        let to_move = self.game.position().side_to_move();
        if self.thinking
            || self.status != GameStatus::Active
            || self.start_unpersisted
            || !self.is_computer(to_move)
        {
            return;
        }
        let (Some(engine), Some(tx)) = (
            self.engine.take(),
            self.own_tx.as_ref().and_then(|t| t.upgrade()),
        ) else {
            return;
        };
        self.thinking = true;
        let game = self.game.clone();
        let ply = game.ply_count();
        let clocks = self.clock.snapshot(self.running_side(), Instant::now());
        let budget = crate::bots::budget(self.settings.clock, &clocks, to_move);
        let pool = self.ctx.bots.clone();
        tokio::spawn(async move {
            let started = Instant::now();
            let (engine, choice) = pool.think(engine, game, budget).await;
            // An instant reply feels like a machine gun; a short pause feels like a player.
            let pause = Duration::from_millis(300);
            if started.elapsed() < pause {
                tokio::time::sleep(pause - started.elapsed()).await;
            }
            let _ = tx
                .send(RoomCommand::ComputerMove {
                    ply,
                    choice,
                    engine,
                })
                .await;
        });
    }

    async fn computer_moved(&mut self, ply: usize, choice: Option<jungle_rules::Move>) {
        let side = self.game.position().side_to_move();
        if self.status != GameStatus::Active
            || ply != self.game.ply_count()
            || !self.is_computer(side)
        {
            return;
        }
        let Some(m) = choice else { return };
        let turn = Turn::Move(m);
        if let Err(e) = self.game.check(turn) {
            tracing::error!(game = %self.id, error = %e, "the computer chose an illegal move");
            return;
        }
        self.commit_move(side, turn, Duration::ZERO).await;
    }

    async fn add_computer(&mut self, conn_id: u64, level: u8) {
        if self.status != GameStatus::Waiting {
            self.send_error(
                conn_id,
                ErrorCode::BadRequest,
                "the room already has two players",
            );
            return;
        }
        let rating = self
            .ctx
            .store
            .rating(crate::bots::bot_id(level), self.settings.rules)
            .await
            .unwrap_or_else(|_| RatingRecord::from_glicko(crate::rating::Glicko::default(), 0));
        // Computer games are casual.
        self.settings.rated = false;
        self.seat_guest(SeatPlayer::computer(level, rating));
        self.engine = Some(crate::bots::new_engine(self.settings.rules.rules(), level));
        self.persist_start().await;
        self.ctx.rooms.set_live(self.id, Some(self.live_summary()));
        metrics::gauge!("jungle_live_games").increment(1.0);
        self.broadcast_state();
    }

    /// Persists the turn just played, then tells everyone, then ends the game if it is over.
    async fn after_turn(&mut self, turn: Turn) {
        let ply = self.game.ply_count();
        let record = MoveRecord {
            ply: (ply - 1) as i64,
            mv: turn.to_string(),
            clock: self.clock.stored(),
        };
        if let Err(e) = self.ctx.persister.write(Write::Turn(self.id, record)).await {
            tracing::error!(game = %self.id, error = %e, "could not persist a turn");
        }
        // The next player's turn starts when they can see the move: time spent waiting for the
        // database (an outage, say) is charged to nobody.
        self.clock.restart_turn(Instant::now());
        metrics::counter!("jungle_moves_total").increment(1);
        self.broadcast_moved(turn, ply);
        if let Some(outcome) = self.game.outcome() {
            self.finish(outcome.winner, outcome.reason.into()).await;
        }
    }

    async fn offer_draw(&mut self, conn_id: u64, side: Side) {
        if !self.require_active(conn_id) {
            return;
        }
        if self.draw_offer == Some(!side) {
            // Both want a draw.
            self.finish(None, Reason::DrawAgreed).await;
            return;
        }
        if self.draw_offer == Some(side) {
            return;
        }
        let ply = self.game.ply_count();
        if let Some(last) = self.last_offer_ply[side.index()] {
            if ply < last + DRAW_OFFER_EVERY {
                self.send_error(
                    conn_id,
                    ErrorCode::DrawOfferLimit,
                    &format!(
                        "one draw offer per {DRAW_OFFER_EVERY} plies; next at ply {}",
                        last + DRAW_OFFER_EVERY
                    ),
                );
                return;
            }
        }
        self.last_offer_ply[side.index()] = Some(ply);
        self.draw_offer = Some(side);
        self.broadcast(&ServerFrame::DrawOffered {
            game: self.id,
            by: side,
        });
    }

    async fn ask_rematch(&mut self, conn_id: u64, side: Side) {
        if !matches!(self.status, GameStatus::Finished | GameStatus::Aborted) || self.rematched {
            self.send_error(
                conn_id,
                ErrorCode::RematchUnavailable,
                "a rematch is possible once, after the game ends",
            );
            return;
        }
        if self.rematch[side.index()] {
            return;
        }
        self.rematch[side.index()] = true;
        self.broadcast(&ServerFrame::RematchOffered {
            game: self.id,
            by: side,
        });
        if self.is_computer(!side) {
            // The computer always wants another game.
            self.rematch[(!side).index()] = true;
        }
        if !self.rematch[(!side).index()] {
            return;
        }
        self.rematched = true;
        let mut seats = Vec::new();
        for side in [Side::Blue, Side::Red] {
            let who = self.seats[side.index()]
                .as_ref()
                .expect("seated")
                .who
                .clone();
            let rating = self
                .ctx
                .store
                .rating(who.player.id, self.settings.rules)
                .await
                .unwrap_or(who.rating);
            seats.push(SeatPlayer { rating, ..who });
        }
        let blue = seats.pop().expect("two seats");
        let red = seats.pop().expect("two seats");
        let handle = Room::spawn_matched(self.ctx.clone(), self.settings, red, blue);
        for member in &self.members {
            let _ = member
                .conn
                .tx
                .try_send(super::Outbound::Enter(handle.clone()));
        }
    }

    // ---- timers --------------------------------------------------------------------------

    /// Whether the side to move is on its clock: from each side's second turn on.
    fn is_timed(&self) -> bool {
        self.game.ply_count() >= 2
    }

    fn is_online(&self, side: Side) -> bool {
        self.seats[side.index()]
            .as_ref()
            .is_some_and(|s| s.away_since.is_none())
    }

    /// Time left before an away player forfeits; counted only while the opponent is present.
    fn abandon_in(&self, side: Side) -> Option<Duration> {
        let away = self.seats[side.index()].as_ref()?.away_since?;
        let deadline = away + self.ctx.disconnect_grace;
        Some(deadline.saturating_duration_since(Instant::now()))
    }

    fn next_timer(&self) -> Option<(Instant, Timer)> {
        let mut timers: Vec<(Instant, Timer)> = Vec::with_capacity(3);
        match self.status {
            GameStatus::Active => {
                let to_move = self.game.position().side_to_move();
                if self.is_timed() {
                    let (at, expiry) = self.clock.expiry(to_move);
                    timers.push((at, Timer::Expire(expiry)));
                } else {
                    timers.push((
                        self.clock.turn_started() + self.ctx.abort_after,
                        Timer::Abort,
                    ));
                }
                for side in Side::ALL {
                    if let Some(away) = self.seats[side.index()].as_ref().and_then(|s| s.away_since)
                    {
                        if self.is_online(!side) {
                            timers.push((away + self.ctx.disconnect_grace, Timer::Abandon(side)));
                        }
                    }
                }
            }
            GameStatus::Waiting => timers.push((self.waiting_until, Timer::Close)),
            GameStatus::Finished | GameStatus::Aborted => {
                let ended = self.ended_at.unwrap_or(self.created);
                timers.push((ended + LINGER, Timer::Close));
            }
        }
        timers.into_iter().min_by_key(|(at, _)| *at)
    }

    async fn on_timer(&mut self, timer: Timer) {
        let to_move = self.game.position().side_to_move();
        match timer {
            Timer::Abort => self.finish(None, Reason::Aborted).await,
            Timer::Expire(Expiry::Flag) => self.finish(Some(!to_move), Reason::Timeout).await,
            Timer::Expire(Expiry::Pass) => {
                if self.clock.record_timeout(to_move, Instant::now()) {
                    self.finish(Some(!to_move), Reason::Timeout).await;
                    return;
                }
                self.game
                    .play(Turn::Pass)
                    .expect("a pass is legal while the game goes on");
                if self.draw_offer == Some(!to_move) {
                    self.draw_offer = None;
                }
                self.after_turn(Turn::Pass).await;
            }
            Timer::Abandon(side) => self.finish(Some(!side), Reason::Abandoned).await,
            Timer::Close => self.closing = true,
        }
    }

    // ---- the end ---------------------------------------------------------------------------

    async fn finish(&mut self, winner: Option<Side>, reason: Reason) {
        let status = if reason == Reason::Aborted {
            GameStatus::Aborted
        } else {
            GameStatus::Finished
        };
        let plies = self.game.ply_count();
        let counts =
            self.settings.rated && status == GameStatus::Finished && plies > NO_SCORE_PLIES;
        let finish = crate::store::FinishRecord {
            game: self.id,
            status,
            winner,
            reason,
            plies: plies as i64,
            apply_rating: counts,
        };
        let rating_change = match self.ctx.persister.write(Write::Finish(finish)).await {
            Ok(Written::Finished(change)) => change,
            Ok(Written::Done) => None,
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, "could not persist the end of a game");
                None
            }
        };
        let was_active = self.status == GameStatus::Active;
        self.status = status;
        self.draw_offer = None;
        self.ended_at = Some(Instant::now());
        self.result = Some(GameResult {
            winner,
            reason,
            rated: rating_change.is_some(),
            rating_change,
        });
        if was_active {
            metrics::gauge!("jungle_live_games").decrement(1.0);
        }
        metrics::counter!("jungle_games_finished_total", "reason" => reason.name()).increment(1);
        self.ctx.rooms.set_live(self.id, None);
        self.broadcast(&ServerFrame::GameOver {
            game: self.id,
            winner,
            reason,
            rated: rating_change.is_some(),
            rating_change,
        });
    }

    async fn persist_start(&mut self) {
        let seat = |side: Side| self.seats[side.index()].as_ref().expect("both seated");
        let new = NewGame {
            id: self.id,
            ruleset: self.settings.rules,
            clock: self.settings.clock,
            rated: self.settings.rated,
            room_code: self.code.clone(),
            red: seat(Side::Red).who.player.id,
            blue: seat(Side::Blue).who.player.id,
            red_rating: seat(Side::Red).who.rating.glicko().shown(),
            blue_rating: seat(Side::Blue).who.rating.glicko().shown(),
            start_fen: self.game.start().to_string(),
        };
        if let Err(e) = self.ctx.persister.write(Write::StartGame(new)).await {
            tracing::error!(game = %self.id, error = %e, "could not persist a new game");
        }
        self.start_unpersisted = false;
        self.clock.restart_turn(Instant::now());
    }

    // ---- frames ----------------------------------------------------------------------------

    fn live_summary(&self) -> LiveGame {
        let seat = |side: Side| self.seats[side.index()].as_ref().map(|s| &s.who);
        LiveGame {
            id: self.id,
            rules: self.settings.rules,
            clock: self.settings.clock,
            rated: self.settings.rated,
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
        }
    }

    fn running_side(&self) -> Option<Side> {
        (self.status == GameStatus::Active && self.is_timed())
            .then(|| self.game.position().side_to_move())
    }

    fn legal_for(&self, side: Option<Side>) -> Vec<String> {
        if self.status == GameStatus::Active && side == Some(self.game.position().side_to_move()) {
            self.game
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect()
        } else {
            Vec::new()
        }
    }

    fn state_for(&self, you: Option<Side>) -> GameState {
        let seat = |side: Side| {
            self.seats[side.index()].as_ref().map(|s| Seat {
                id: s.who.player.id,
                name: s.who.player.name.clone(),
                rating: s.who.rating.glicko().shown(),
                provisional: s.who.rating.provisional,
                online: s.away_since.is_none() && (s.conns > 0 || s.who.computer.is_some()),
                computer: s.who.computer,
            })
        };
        let away_ms = |side: Side| {
            if self.status == GameStatus::Active {
                self.abandon_in(side).map(|d| d.as_millis() as u64)
            } else {
                None
            }
        };
        GameState {
            game: self.id,
            rules: self.settings.rules,
            clock: self.settings.clock,
            rated: self.settings.rated,
            code: self.code.clone(),
            red: seat(Side::Red),
            blue: seat(Side::Blue),
            you,
            start: self.game.start().to_string(),
            moves: self.game.turns().map(|t| t.to_string()).collect(),
            position: self.game.position().to_string(),
            turn: self.game.position().side_to_move(),
            clocks: self.clock.snapshot(self.running_side(), Instant::now()),
            draw_offer: self.draw_offer,
            status: self.status,
            result: self.result,
            red_away_ms: away_ms(Side::Red),
            blue_away_ms: away_ms(Side::Blue),
            legal: self.legal_for(you),
        }
    }

    fn send_state(&self, conn: &Connection, you: Option<Side>) {
        let frame = ServerFrame::Game(Box::new(self.state_for(you)));
        self.deliver(conn, frame_text(&frame));
    }

    fn broadcast_state(&self) {
        for member in &self.members {
            self.send_state(&member.conn, member.side);
        }
    }

    fn broadcast_moved(&self, turn: Turn, ply: usize) {
        let to_move = self.game.position().side_to_move();
        let clocks = self.clock.snapshot(self.running_side(), Instant::now());
        let frame = |legal: Vec<String>| ServerFrame::Moved {
            game: self.id,
            mv: turn.to_string(),
            ply,
            position: self.game.position().to_string(),
            clocks,
            legal,
        };
        // Serialized twice at most: once with the legal moves for the side to move, once without.
        let plain = frame_text(&frame(Vec::new()));
        let mut with_legal = None;
        for member in &self.members {
            if member.side == Some(to_move) && self.status == GameStatus::Active {
                let text = with_legal
                    .get_or_insert_with(|| frame_text(&frame(self.legal_for(Some(to_move)))));
                self.deliver(&member.conn, text.clone());
            } else {
                self.deliver(&member.conn, plain.clone());
            }
        }
    }

    fn broadcast(&self, frame: &ServerFrame) {
        let text = frame_text(frame);
        for member in &self.members {
            self.deliver(&member.conn, text.clone());
        }
    }

    fn deliver(&self, conn: &Connection, text: Utf8Bytes) {
        if !conn.send_text(text) {
            metrics::counter!("jungle_frames_dropped_total").increment(1);
            conn.too_slow.notify_one();
        }
    }

    fn send_error(&self, conn_id: u64, code: ErrorCode, message: &str) {
        if let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) {
            self.deliver(&member.conn, error_text(code, message, Some(self.id)));
        }
    }
}

impl SeatState {
    fn new(who: SeatPlayer) -> SeatState {
        SeatState {
            who,
            conns: 0,
            away_since: None,
        }
    }
}

pub fn frame_text(frame: &ServerFrame) -> Utf8Bytes {
    Utf8Bytes::from(serde_json::to_string(frame).expect("frames serialize"))
}

pub fn error_text(code: ErrorCode, message: &str, game: Option<Uuid>) -> Utf8Bytes {
    frame_text(&ServerFrame::Error {
        code,
        message: message.to_owned(),
        game,
    })
}
