//! One game as a pure state machine: the [`GameSession`] owns the game, the clock, the seats and
//! their presence, draw offers, the rematch and the phase. It does no I/O and knows no runtime:
//! every call is given the time, and answers with [`Event`]s or a typed [`Refusal`]. The room
//! task around it persists, renders and broadcasts what it returns.
//!
//! Long (about 750 lines): the state machine's transitions share the phase and the seats; its
//! vocabulary and the players' agreements are in `session/`.

use std::time::{Duration, Instant};

use jungle_protocol::{GameResult, GameStatus, Reason};
use jungle_rules::{Game, Side, Turn};

use crate::clock::{Expiry, GameClock};
use jungle_protocol::RatingChange;

mod action;
mod offers;
mod settings;

pub use action::{Action, Event, Refusal};
pub use settings::{HostColour, RoomSettings, SeatPlayer, Timing};

/// The 10-move no-score rule: a rated game ending at or before this ply changes no rating
/// (outside tournaments).
pub const NO_SCORE_PLIES: usize = 20;
/// At most one draw offer per player per this many plies.
pub const DRAW_OFFER_EVERY: usize = 20;
/// Against the computer nobody waits: a person has this long for a first move (a child still
/// reading a lesson's goal) before the game is called off, instead of the usual abort time.
pub const FIRST_MOVE_AGAINST_THE_COMPUTER: Duration = Duration::from_secs(600);

/// A seat and its player's presence.
#[derive(Clone, Debug)]
pub struct Seat {
    pub who: SeatPlayer,
    /// Live connections of this player to the room (two tabs count twice).
    conns: usize,
    /// Since when every connection has been gone, during play.
    away_since: Option<Instant>,
}

impl Seat {
    fn new(who: SeatPlayer) -> Seat {
        Seat {
            who,
            conns: 0,
            away_since: None,
        }
    }

    /// Present as the others see it: connected and not counted away (the computer always is).
    pub fn online(&self) -> bool {
        self.away_since.is_none() && (self.conns > 0 || self.who.computer.is_some())
    }
}

/// Where the game stands: one phase, with what belongs to it alone.
#[derive(Clone, Debug)]
enum Phase {
    /// A private room waiting for its second player; the host sits on Red until then.
    Waiting {
        /// The host's side once the guest arrives (a coin already tossed for `random`).
        host_side: Side,
        /// The colour as the host chose it: what the room shows until the guest arrives (a
        /// tossed coin is not shown before it counts).
        chosen: jungle_protocol::ColorChoice,
        until: Instant,
    },
    Active {
        draw_offer: Option<Side>,
        last_offer_ply: [Option<usize>; 2],
        /// The side asking to take back its last move, if any.
        takeback_offer: Option<Side>,
    },
    Over {
        result: GameResult,
        ended_at: Instant,
        rematch: [bool; 2],
        rematch_agreed: bool,
    },
    /// Nothing left to do; the result stays readable.
    Closed { result: Option<GameResult> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    Abort,
    Expire(Expiry),
    Abandon(Side),
    Close,
}

/// One game's state machine. See the module documentation.
#[derive(Clone, Debug)]
pub struct GameSession {
    settings: RoomSettings,
    code: Option<String>,
    timing: Timing,
    game: Game,
    clock: GameClock,
    seats: [Option<Seat>; 2],
    phase: Phase,
    /// The tournament this game was paired in: the 10-move rule does not apply ("比赛时不受此
    /// 限制"), and neither takebacks nor rematches do (the tournament pairs the next game).
    tournament: Option<uuid::Uuid>,
    /// A private room's game: until it is over, only its players and those who came with the
    /// code see it.
    private: bool,
    /// Both clocks as they stood when the game ended (the side to move's time spent on its
    /// last turn taken off), shown from then on instead of the last move's.
    stopped_clocks: Option<jungle_protocol::Clocks>,
    /// The ply at which the side to move was last given a day (once a turn).
    day_given_at: Option<usize>,
    /// How many takebacks each side (by index) asked for since the last move: at most
    /// [`TAKEBACK_ASKS_A_MOVE`], so that asking and being declined cannot be looped to flood
    /// the opponent.
    takeback_asked: [u8; 2],
}

impl GameSession {
    fn new(settings: RoomSettings, code: Option<String>, timing: Timing, now: Instant) -> Self {
        GameSession {
            settings,
            code,
            timing,
            game: Game::new(settings.rules.rules(), jungle_rules::Position::start()),
            clock: GameClock::new(settings.clock, now),
            seats: [None, None],
            phase: Phase::Closed { result: None },
            tournament: None,
            private: false,
            stopped_clocks: None,
            day_given_at: None,
            takeback_asked: [0, 0],
        }
    }

    /// The game is a private room's (kept through a restart).
    pub fn kept_private(mut self, private: bool) -> GameSession {
        self.private = private;
        self
    }

    pub fn is_private(&self) -> bool {
        self.private
    }

    /// The game belongs to `tournament` (set before it is played).
    pub fn in_tournament(mut self, tournament: Option<uuid::Uuid>) -> GameSession {
        self.tournament = tournament;
        self
    }

    pub fn tournament(&self) -> Option<uuid::Uuid> {
        self.tournament
    }

    /// A game between two known players, starting now; the `Started` event comes with it.
    pub fn matched(
        settings: RoomSettings,
        code: Option<String>,
        red: SeatPlayer,
        blue: SeatPlayer,
        timing: Timing,
        now: Instant,
    ) -> (GameSession, Vec<Event>) {
        let mut session = GameSession::new(settings, code, timing, now);
        session.seats = [Some(Seat::new(red)), Some(Seat::new(blue))];
        session.phase = Phase::Active {
            draw_offer: None,
            last_offer_ply: [None; 2],
            takeback_offer: None,
        };
        (session, vec![Event::Started])
    }

    /// A private room with its host seated, waiting for a guest until `waiting_lifetime` less
    /// `waited` (time already spent waiting before a restart) has passed. `colour` is the
    /// host's as chosen and the side they get once the guest arrives.
    pub fn private(
        settings: RoomSettings,
        code: String,
        host: SeatPlayer,
        colour: HostColour,
        waited: Duration,
        timing: Timing,
        now: Instant,
    ) -> GameSession {
        let mut session = GameSession::new(settings, Some(code), timing, now);
        session.private = true;
        session.seats[Side::Red.index()] = Some(Seat::new(host));
        session.phase = Phase::Waiting {
            host_side: colour.side,
            chosen: colour.chosen,
            until: now + timing.waiting_lifetime.saturating_sub(waited),
        };
        session
    }

    /// The game starts from `start` instead of the initial position (a set-up position; only
    /// before any turn is played).
    pub fn starting_from(mut self, start: jungle_rules::Position) -> GameSession {
        debug_assert_eq!(self.game.ply_count(), 0);
        self.game = Game::new(self.settings.rules.rules(), start);
        self
    }

    /// A game found unfinished at start-up, with its turns replayed and its clock as saved;
    /// both humans count as away from `now` (they reconnect within the grace period).
    pub fn resumed(
        settings: RoomSettings,
        code: Option<String>,
        game: Game,
        clock: GameClock,
        [red, blue]: [SeatPlayer; 2],
        timing: Timing,
        now: Instant,
    ) -> GameSession {
        let mut session = GameSession::new(settings, code, timing, now);
        session.game = game;
        session.clock = clock;
        let mut seats = [Seat::new(red), Seat::new(blue)];
        for seat in &mut seats {
            if seat.who.computer.is_none() {
                seat.away_since = Some(now);
            }
        }
        let [red, blue] = seats;
        session.seats = [Some(red), Some(blue)];
        session.phase = Phase::Active {
            draw_offer: None,
            last_offer_ply: [None; 2],
            takeback_offer: None,
        };
        session
    }

    // ---- what the room asks --------------------------------------------------------------

    pub fn settings(&self) -> RoomSettings {
        self.settings
    }

    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn seat(&self, side: Side) -> Option<&Seat> {
        self.seats[side.index()].as_ref()
    }

    /// The side `player` sits on, if any.
    pub fn side_of(&self, player: uuid::Uuid) -> Option<Side> {
        Side::ALL.into_iter().find(|&s| {
            self.seat(s)
                .is_some_and(|seat| seat.who.player.id == player)
        })
    }

    pub fn status(&self) -> GameStatus {
        match (&self.phase, self.result()) {
            (Phase::Waiting { .. }, _) => GameStatus::Waiting,
            (Phase::Active { .. }, _) => GameStatus::Active,
            (_, Some(result)) if result.reason == Reason::Aborted => GameStatus::Aborted,
            (_, Some(_)) => GameStatus::Finished,
            // A private room that closed while it waited.
            (_, None) => GameStatus::Waiting,
        }
    }

    /// The result, once the game is over (set exactly once).
    pub fn result(&self) -> Option<GameResult> {
        match &self.phase {
            Phase::Over { result, .. } => Some(*result),
            Phase::Closed { result } => *result,
            _ => None,
        }
    }

    /// The side whose takeback request is pending, if any.
    pub fn takeback_offer(&self) -> Option<Side> {
        match self.phase {
            Phase::Active { takeback_offer, .. } => takeback_offer,
            _ => None,
        }
    }

    pub fn draw_offer(&self) -> Option<Side> {
        match &self.phase {
            Phase::Active { draw_offer, .. } => *draw_offer,
            _ => None,
        }
    }

    pub fn is_closed(&self) -> bool {
        matches!(self.phase, Phase::Closed { .. })
    }

    /// The side whose clock runs: the side to move, from each side's second turn on.
    pub fn running_side(&self) -> Option<Side> {
        (matches!(self.phase, Phase::Active { .. }) && self.is_timed())
            .then(|| self.game.position().side_to_move())
    }

    /// While a private room waits for its guest, the colour its host chose.
    pub fn host_colour(&self) -> Option<jungle_protocol::ColorChoice> {
        match self.phase {
            Phase::Waiting { chosen, .. } => Some(chosen),
            _ => None,
        }
    }

    pub fn clocks(&self, now: Instant) -> jungle_protocol::Clocks {
        self.stopped_clocks
            .unwrap_or_else(|| self.clock.snapshot(self.running_side(), now))
    }

    /// The legal moves of `side` when it is to move in a game in play; empty otherwise.
    pub fn legal_for(&self, side: Option<Side>) -> Vec<String> {
        if matches!(self.phase, Phase::Active { .. })
            && side == Some(self.game.position().side_to_move())
        {
            self.game
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect()
        } else {
            Vec::new()
        }
    }

    /// Time left before an away player forfeits, during play.
    pub fn abandon_in(&self, side: Side, now: Instant) -> Option<Duration> {
        if !matches!(self.phase, Phase::Active { .. }) || self.settings.clock.is_correspondence() {
            return None;
        }
        let away = self.seat(side)?.away_since?;
        Some((away + self.timing.disconnect_grace).saturating_duration_since(now))
    }

    /// The computer's side and level, when it is the computer's turn in a game in play.
    pub fn computer_to_move(&self) -> Option<(Side, u8)> {
        if !matches!(self.phase, Phase::Active { .. }) {
            return None;
        }
        let side = self.game.position().side_to_move();
        Some((side, self.seat(side)?.who.computer?))
    }

    /// While the side to move has not made its first move: the time left before the game is
    /// aborted for it.
    pub fn abort_in(&self, now: Instant) -> Option<Duration> {
        if !matches!(self.phase, Phase::Active { .. }) || self.is_timed() {
            return None;
        }
        let at = if self.settings.clock.is_correspondence() {
            self.clock.expiry(self.game.position().side_to_move()).0
        } else {
            self.clock.turn_started() + self.first_move_time()
        };
        Some(at.saturating_duration_since(now))
    }

    /// The engine level of a computer seat, if either seat is the computer.
    pub fn computer_level(&self) -> Option<u8> {
        self.seats.iter().flatten().find_map(|s| s.who.computer)
    }

    /// How long the side to move has for its first move before the game is aborted.
    fn first_move_time(&self) -> Duration {
        if self.computer_level().is_some() {
            self.timing.abort_after.max(FIRST_MOVE_AGAINST_THE_COMPUTER)
        } else {
            self.timing.abort_after
        }
    }

    // ---- presence ------------------------------------------------------------------------

    /// A connection of the player on `side` arrived.
    pub fn connect(&mut self, side: Side, now: Instant) -> Vec<Event> {
        let active = matches!(self.phase, Phase::Active { .. });
        let live = matches!(self.phase, Phase::Active { .. } | Phase::Waiting { .. });
        let Some(seat) = self.seats[side.index()].as_mut() else {
            return Vec::new();
        };
        let was_online = seat.online();
        seat.conns += 1;
        let came_back = seat.away_since.take().is_some();
        let mut events = Vec::new();
        if live && seat.online() != was_online {
            events.push(Event::Presence { side });
        }
        // Abandoning needs someone left behind: a returning player restarts an away
        // opponent's countdown.
        if active && came_back {
            if let Some(other) = self.seats[(!side).index()].as_mut() {
                if other.away_since.is_some() {
                    other.away_since = Some(now);
                    events.push(Event::Presence { side: !side });
                }
            }
        }
        events
    }

    /// A connection of the player on `side` went away.
    pub fn disconnect(&mut self, side: Side, now: Instant) -> Vec<Event> {
        let active = matches!(self.phase, Phase::Active { .. });
        let live = active || matches!(self.phase, Phase::Waiting { .. });
        let Some(seat) = self.seats[side.index()].as_mut() else {
            return Vec::new();
        };
        let was_online = seat.online();
        seat.conns = seat.conns.saturating_sub(1);
        if seat.conns == 0 && active && seat.who.computer.is_none() {
            seat.away_since = Some(now);
        }
        if live && seat.online() != was_online {
            vec![Event::Presence { side }]
        } else {
            Vec::new()
        }
    }

    /// The guest of a private room takes the free seat: colours are settled and the game
    /// starts. Returns the guest's side.
    pub fn seat_guest(
        &mut self,
        guest: SeatPlayer,
        now: Instant,
    ) -> Result<(Side, Vec<Event>), Refusal> {
        let Phase::Waiting { host_side, .. } = self.phase else {
            return Err(match self.phase {
                Phase::Active { .. } => Refusal::RoomFull,
                _ => Refusal::Over,
            });
        };
        let host = self.seats[Side::Red.index()]
            .take()
            .expect("host is seated");
        self.seats[host_side.index()] = Some(host);
        self.seats[(!host_side).index()] = Some(Seat::new(guest));
        self.phase = Phase::Active {
            draw_offer: None,
            last_offer_ply: [None; 2],
            takeback_offer: None,
        };
        self.clock.restart_turn(now);
        Ok((!host_side, vec![Event::Started]))
    }

    /// The moved turn is now visible to the players: the next turn starts from here, so that
    /// time spent writing it (a slow database, say) is charged to nobody.
    pub fn turn_visible(&mut self, now: Instant) {
        if matches!(self.phase, Phase::Active { .. }) {
            self.clock.restart_turn(now);
        }
    }

    /// The rating change the store applied at the end (`None`: none applied).
    pub fn set_rating_change(&mut self, change: Option<RatingChange>) {
        if let Phase::Over { result, .. } = &mut self.phase {
            result.rated = change.is_some();
            result.rating_change = change;
        }
    }

    // ---- actions -------------------------------------------------------------------------

    /// The player on `side` acts. Changes nothing when refused.
    pub fn act(&mut self, side: Side, action: Action, now: Instant) -> Result<Vec<Event>, Refusal> {
        match action {
            Action::Move { text, lag, blurred } => self.play(side, &text, lag, blurred, now),
            Action::MoveOfferingDraw { text, lag } => {
                let mut events = self.play(side, &text, lag, false, now)?;
                if let Ok(offered) = self.offer_draw(side, now) {
                    events.extend(offered);
                }
                Ok(events)
            }
            // The host of a private room nobody has joined yet closes it (its link then names
            // no room, and the host may open another).
            Action::Resign if matches!(self.phase, Phase::Waiting { .. }) => Ok(self.close()),
            Action::Resign => {
                self.require_active()?;
                Ok(self.end(Some(!side), Reason::Resign, now))
            }
            Action::Abort => {
                self.require_active()?;
                let first_move_due =
                    self.game.ply_count() < 2 && self.game.position().side_to_move() == side;
                if !first_move_due {
                    return Err(Refusal::AbortTooLate);
                }
                Ok(self.end(None, Reason::Aborted, now))
            }
            Action::OfferDraw => self.offer_draw(side, now),
            Action::AcceptDraw => {
                self.require_active()?;
                if self.draw_offer() != Some(!side) {
                    return Err(Refusal::NoDrawOffer);
                }
                Ok(self.end(None, Reason::DrawAgreed, now))
            }
            Action::DeclineDraw => {
                self.require_active()?;
                let Phase::Active { draw_offer, .. } = &mut self.phase else {
                    unreachable!("checked active");
                };
                if *draw_offer != Some(!side) {
                    return Err(Refusal::NoDrawOffer);
                }
                *draw_offer = None;
                Ok(vec![Event::DrawDeclined { by: side }])
            }
            Action::WantDraw => self.offer_draw(side, now).map(|events| {
                if events.is_empty() {
                    // One's own offer already stands: it is said again.
                    vec![Event::DrawOffered { by: side }]
                } else {
                    events
                }
            }),
            Action::WantTakeback => match self.takeback_offer() {
                Some(asker) if asker == !side => self.answer_takeback(side, true, now),
                // One's own request already stands: it is said again.
                Some(_) => Ok(vec![Event::TakebackOffered { by: side }]),
                None => self.offer_takeback(side),
            },
            Action::ClaimVictory => self.claim_victory(side, now),
            Action::GiveDay => self.give_day(side),
            Action::Rematch => self.rematch(side),
            Action::OfferTakeback => self.offer_takeback(side),
            Action::AcceptTakeback => self.answer_takeback(side, true, now),
            Action::DeclineTakeback => self.answer_takeback(side, false, now),
            Action::AddComputer(computer) => {
                if !matches!(self.phase, Phase::Waiting { .. }) {
                    return Err(Refusal::RoomFull);
                }
                if self.settings.clock.is_correspondence() {
                    return Err(Refusal::NoComputerByDays);
                }
                // Computer games are casual.
                self.settings.rated = false;
                let (_, events) = self.seat_guest(computer, now)?;
                Ok(events)
            }
        }
    }

    /// A resumed game whose side to move was given a day this turn (read from its clock).
    pub fn with_day_given(mut self, given: bool) -> GameSession {
        if given {
            self.day_given_at = Some(self.game.ply_count());
        }
        self
    }

    /// Whether the side to move was given a day on this turn.
    pub fn day_given_this_turn(&self) -> bool {
        self.day_given_at == Some(self.game.ply_count())
    }

    /// `side`'s vacations from now on (correspondence): its turns do not run during them.
    pub fn set_pauses(&mut self, side: Side, pauses: Vec<(Instant, Instant)>) {
        self.clock.set_pauses(side, pauses);
    }

    /// The operator banned the player of `side`: a game in progress is theirs, lost by
    /// `banned`. Nothing happens to a game not in progress.
    pub fn ban(&mut self, side: Side, now: Instant) -> Vec<Event> {
        if self.require_active().is_err() {
            return Vec::new();
        }
        self.end(Some(!side), Reason::Banned, now)
    }

    /// `side` claims the game its opponent left: won by abandonment once the opponent's time to
    /// come back has run out (the timer does the same at that moment, unasked).
    fn claim_victory(&mut self, side: Side, now: Instant) -> Result<Vec<Event>, Refusal> {
        self.require_active()?;
        if self.settings.clock.is_correspondence() {
            return Err(Refusal::NoClaimByDays);
        }
        match self.abandon_in(!side, now) {
            None => Err(Refusal::OpponentHere),
            Some(left) if left.is_zero() => Ok(self.end(Some(side), Reason::Abandoned, now)),
            Some(left) => Err(Refusal::OpponentMayReturn {
                seconds: left.as_secs_f64().ceil() as u64,
            }),
        }
    }

    fn require_active(&self) -> Result<(), Refusal> {
        match self.phase {
            Phase::Active { .. } => Ok(()),
            Phase::Waiting { .. } => Err(Refusal::NotStarted),
            Phase::Over { .. } | Phase::Closed { .. } => Err(Refusal::Over),
        }
    }

    /// Whether the side to move is on its clock: from each side's second turn on.
    fn is_timed(&self) -> bool {
        self.game.ply_count() >= 2
    }

    fn play(
        &mut self,
        side: Side,
        text: &str,
        lag: Duration,
        blurred: bool,
        now: Instant,
    ) -> Result<Vec<Event>, Refusal> {
        self.require_active()?;
        if self.game.position().side_to_move() != side {
            return Err(Refusal::NotYourTurn);
        }
        let turn = match text.parse::<Turn>().map_err(Refusal::BadMove)? {
            Turn::Pass => return Err(Refusal::PassIsTheServers),
            turn => turn,
        };
        self.game.check(turn).map_err(Refusal::Illegal)?;
        let timed = self.is_timed();
        if !self.clock.record_move(side, timed, lag, now) {
            // The flag fell before the move arrived.
            return Ok(self.end(Some(!side), Reason::Timeout, now));
        }
        Ok(self.apply_turn(turn, blurred, now))
    }

    /// Plays a turn already checked: a move, or the server's pass.
    fn apply_turn(&mut self, turn: Turn, blurred: bool, now: Instant) -> Vec<Event> {
        let mover = self.game.position().side_to_move();
        let ply = self.game.ply_count();
        self.game.play(turn).expect("checked before playing");
        let captured = self.game.history().last().and_then(|t| t.captured);
        if let Phase::Active {
            draw_offer,
            takeback_offer,
            ..
        } = &mut self.phase
        {
            // An offer lapses when the side it was made to moves instead of answering.
            if *draw_offer == Some(!mover) {
                *draw_offer = None;
            }
            // A takeback request is about the position it was made in: any move ends it.
            *takeback_offer = None;
        }
        self.takeback_asked = [0, 0];
        let mut events = vec![Event::Moved {
            turn,
            ply,
            captured,
            clock: self.clock.stored(),
            blurred,
        }];
        if let Some(outcome) = self.game.outcome() {
            events.extend(self.end(outcome.winner, outcome.reason.into(), now));
        }
        events
    }

    fn end(&mut self, winner: Option<Side>, reason: Reason, now: Instant) -> Vec<Event> {
        let status = if reason == Reason::Aborted {
            GameStatus::Aborted
        } else {
            GameStatus::Finished
        };
        let plies = self.game.ply_count();
        // The 10-move rule stops rating farming between friends; a tournament pairs strangers
        // by standing, so it does not apply there (the rules seed: 比赛时不受此限制).
        let apply_rating = self.settings.rated
            && status == GameStatus::Finished
            && (plies > NO_SCORE_PLIES || self.tournament.is_some());
        // The clocks stop where they stand (read while the game is still in play).
        self.stopped_clocks = Some(jungle_protocol::Clocks {
            running: None,
            ..self.clocks(now)
        });
        self.phase = Phase::Over {
            result: GameResult {
                winner,
                reason,
                rated: false,
                rating_change: None,
            },
            ended_at: now,
            rematch: [false; 2],
            rematch_agreed: false,
        };
        vec![Event::Ended {
            status,
            winner,
            reason,
            plies,
            apply_rating,
        }]
    }

    // ---- timers --------------------------------------------------------------------------

    fn next_timer(&self) -> Option<(Instant, Timer)> {
        match &self.phase {
            Phase::Active { .. } => {
                let to_move = self.game.position().side_to_move();
                let correspondence = self.settings.clock.is_correspondence();
                let mut next = if self.is_timed() {
                    let (at, expiry) = self.clock.expiry(to_move);
                    (at, Timer::Expire(expiry))
                } else if correspondence {
                    // A first move not made in its days aborts the game: nobody loses a
                    // game that never began.
                    (self.clock.expiry(to_move).0, Timer::Abort)
                } else {
                    (
                        self.clock.turn_started() + self.first_move_time(),
                        Timer::Abort,
                    )
                };
                // Correspondence players are away most of the time: nobody abandons.
                let abandoning = if correspondence {
                    &[][..]
                } else {
                    &Side::ALL[..]
                };
                for &side in abandoning {
                    let Some(away) = self.seat(side).and_then(|s| s.away_since) else {
                        continue;
                    };
                    // Counted only while the opponent is there to be left behind.
                    let opponent_here = self.seat(!side).is_some_and(|s| s.away_since.is_none());
                    let at = away + self.timing.disconnect_grace;
                    if opponent_here && at < next.0 {
                        next = (at, Timer::Abandon(side));
                    }
                }
                Some(next)
            }
            Phase::Waiting { until, .. } => Some((*until, Timer::Close)),
            Phase::Over { ended_at, .. } => Some((*ended_at + self.timing.linger, Timer::Close)),
            Phase::Closed { .. } => None,
        }
    }

    /// When [`GameSession::on_timer`] has something to do next.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.next_timer().map(|(at, _)| at)
    }

    /// Runs every timer due at `now`: aborts, flags, passed turns, abandonment and closing.
    pub fn on_timer(&mut self, now: Instant) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some((at, timer)) = self.next_timer() {
            if at > now {
                break;
            }
            events.extend(self.fire(timer, at));
        }
        events
    }

    /// Fires one timer, as of the moment it was due.
    fn fire(&mut self, timer: Timer, at: Instant) -> Vec<Event> {
        let to_move = self.game.position().side_to_move();
        match timer {
            Timer::Abort => self.end(None, Reason::Aborted, at),
            Timer::Expire(Expiry::Flag) => self.end(Some(!to_move), Reason::Timeout, at),
            Timer::Expire(Expiry::Pass) => {
                if self.clock.record_timeout(to_move, at) {
                    self.end(Some(!to_move), Reason::Timeout, at)
                } else {
                    self.apply_turn(Turn::Pass, false, at)
                }
            }
            // Nobody loses a game that never began: leaving before the first moves aborts it.
            Timer::Abandon(_) if !self.is_timed() => self.end(None, Reason::Aborted, at),
            Timer::Abandon(side) => self.end(Some(!side), Reason::Abandoned, at),
            Timer::Close => self.close(),
        }
    }

    /// The room ends: after a finished game's lingering, when a private room expired unjoined,
    /// or when its host closed it before anyone came.
    fn close(&mut self) -> Vec<Event> {
        let expired_unjoined = matches!(self.phase, Phase::Waiting { .. });
        self.phase = Phase::Closed {
            result: self.result(),
        };
        vec![Event::Closed { expired_unjoined }]
    }
}

#[cfg(test)]
mod tests;
