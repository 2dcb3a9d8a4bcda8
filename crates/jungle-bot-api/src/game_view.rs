//! What a game stream says (issue 26): the socket's frames about one game, read as lichess's
//! Board and Bot APIs write them — one `gameFull` first, then a `gameState` after every change,
//! `chatLine`s and `opponentGone`. Pure: frames in, JSON lines out, so that it is tested alone.

use jungle_protocol::{ClockSpec, Clocks, GameState, ServerFrame, Side};
use serde_json::{json, Value};
use uuid::Uuid;

/// One game as its stream has told it so far.
pub struct GameView {
    game: Uuid,
    /// The player the stream is for.
    me: Uuid,
    /// The bot accounts among the two players (they carry the title BOT).
    bots: Vec<Uuid>,
    moves: Vec<String>,
    clocks: Option<Clocks>,
    clock: Option<ClockSpec>,
    /// Whose draw offer and takeback request stand.
    draw_offer: Option<Side>,
    takeback_offer: Option<Side>,
    /// `started`, or once over the reason it ended.
    status: String,
    winner: Option<Side>,
    /// The side the stream's player holds, once the game's state told it.
    my_side: Option<Side>,
    started: bool,
    over: bool,
    /// The last `gameState` written: one that would say the same again is not written (a
    /// move offered with a draw is the move's frame and the offer's, one state).
    last_state: Option<Value>,
}

impl GameView {
    pub fn new(game: Uuid, me: Uuid, bots: Vec<Uuid>) -> GameView {
        GameView {
            game,
            me,
            bots,
            moves: Vec::new(),
            clocks: None,
            clock: None,
            draw_offer: None,
            takeback_offer: None,
            status: "started".into(),
            winner: None,
            my_side: None,
            started: false,
            over: false,
            last_state: None,
        }
    }

    /// Whether the game has ended (the stream closes after saying so).
    pub fn over(&self) -> bool {
        self.over
    }

    /// The lines one frame adds to the stream (none for a frame of another game or of no
    /// interest here).
    pub fn read(&mut self, frame: &ServerFrame) -> Vec<Value> {
        match frame {
            ServerFrame::Game(state) if state.game == self.game => self.full(state),
            ServerFrame::Moved {
                game,
                mv,
                clocks,
                draw_offer,
                status,
                ..
            } if *game == self.game => {
                self.moves.push(mv.clone());
                self.clocks = Some(*clocks);
                self.draw_offer = *draw_offer;
                self.takeback_offer = None;
                if *status != jungle_protocol::GameStatus::Active {
                    // The move ended the game: its `game_over` follows at once, and says the
                    // move with the result in one state (never "started" for a finished game).
                    return Vec::new();
                }
                self.changed_state()
            }
            ServerFrame::DrawOffered { game, by, .. } if *game == self.game => {
                self.draw_offer = Some(*by);
                self.changed_state()
            }
            ServerFrame::DrawDeclined { game, .. } if *game == self.game => {
                self.draw_offer = None;
                self.changed_state()
            }
            ServerFrame::TakebackOffered { game, by, .. } if *game == self.game => {
                self.takeback_offer = Some(*by);
                self.changed_state()
            }
            ServerFrame::TakebackDeclined { game, .. } if *game == self.game => {
                self.takeback_offer = None;
                self.changed_state()
            }
            ServerFrame::GameOver {
                game,
                winner,
                reason,
                clocks,
                ..
            } if *game == self.game => {
                self.over = true;
                self.winner = *winner;
                self.status = reason.name().to_owned();
                if let Some(clocks) = clocks {
                    self.clocks = Some(*clocks);
                }
                self.draw_offer = None;
                self.changed_state()
            }
            ServerFrame::Presence {
                game,
                online,
                abandon_in_ms,
                side,
                ..
            } if *game == self.game && !self.is_me(*side) => {
                let seconds = abandon_in_ms.map(|ms| ms.div_ceil(1000));
                vec![json!({
                    "type": "opponentGone",
                    "gone": !online,
                    "claimWinInSeconds": if *online { None } else { seconds },
                })]
            }
            ServerFrame::ChatLine {
                game,
                channel,
                from,
                preset,
                text,
            } if *game == self.game => vec![json!({
                "type": "chatLine",
                // lichess's names for the rooms.
                "room": match channel {
                    jungle_protocol::ChatChannel::Players => "player",
                    jungle_protocol::ChatChannel::Spectators => "spectator",
                },
                "username": from.name,
                "text": text.clone().or_else(|| preset.clone()).unwrap_or_default(),
            })],
            _ => Vec::new(),
        }
    }

    /// Which side the stream's player holds, as last told.
    fn is_me(&self, side: Side) -> bool {
        self.my_side == Some(side)
    }

    /// A whole state: the stream's first line, and later a resync (a takeback, a reconnect).
    fn full(&mut self, state: &GameState) -> Vec<Value> {
        self.moves = state.moves.clone();
        self.clocks = Some(state.clocks);
        self.clock = Some(state.clock);
        self.draw_offer = state.draw_offer;
        self.takeback_offer = state.takeback_offer;
        self.my_side = [Side::Red, Side::Blue].into_iter().find(|side| {
            let seat = match side {
                Side::Red => &state.red,
                Side::Blue => &state.blue,
            };
            seat.as_ref().is_some_and(|s| s.id == self.me)
        });
        if let Some(result) = &state.result {
            self.over = true;
            self.winner = result.winner;
            self.status = result.reason.name().to_owned();
        }
        if self.started {
            return self.changed_state();
        }
        self.started = true;
        let seat = |seat: &Option<jungle_protocol::Seat>| match seat {
            Some(s) => json!({
                "id": s.id,
                "name": s.name,
                "title": if self.bots.contains(&s.id) { Some("BOT") } else { None },
                "rating": s.rating,
                "provisional": s.provisional,
            }),
            None => Value::Null,
        };
        let now = self.state();
        self.last_state = Some(now.clone());
        vec![json!({
            "type": "gameFull",
            "id": state.game,
            "rules": state.rules,
            "rated": state.rated,
            "clock": clock_json(&state.clock),
            "red": seat(&state.red),
            "blue": seat(&state.blue),
            // lichess's names beside ours: Red moves first, as White does.
            "white": seat(&state.red),
            "black": seat(&state.blue),
            "initialPosition": state.start,
            "state": now,
        })]
    }

    /// The `gameState` line, unless it says what the last one said.
    fn changed_state(&mut self) -> Vec<Value> {
        let now = self.state();
        if self.last_state.as_ref() == Some(&now) {
            return Vec::new();
        }
        self.last_state = Some(now.clone());
        vec![now]
    }

    /// The `gameState` line as things stand.
    fn state(&self) -> Value {
        let clocks = self.clocks.unwrap_or(Clocks {
            red_ms: 0,
            blue_ms: 0,
            running: None,
            red_timeouts: 0,
            blue_timeouts: 0,
        });
        let inc_ms = match self.clock {
            Some(ClockSpec::Fischer { inc_s, .. }) => u64::from(inc_s) * 1000,
            _ => 0,
        };
        let mut state = json!({
            "type": "gameState",
            "moves": self.moves.join(" "),
            "rtime": clocks.red_ms,
            "btime": clocks.blue_ms,
            "rinc": inc_ms,
            "binc": inc_ms,
            "rtimeouts": clocks.red_timeouts,
            "btimeouts": clocks.blue_timeouts,
            "status": self.status,
            "winner": self.winner,
            "drawOffer": self.draw_offer,
            "takebackOffer": self.takeback_offer,
            // lichess's names beside ours, in milliseconds (Red is white, the first mover):
            // its clients read `wtime` as White's time and `btime` as Black's.
            "wtime": clocks.red_ms,
            "winc": inc_ms,
        });
        // lichess's offers: `wdraw`/`bdraw`, `wtakeback`/`btakeback`, true or absent.
        for (offer, key) in [(self.draw_offer, "draw"), (self.takeback_offer, "takeback")] {
            match offer {
                Some(Side::Red) => state[format!("w{key}")] = json!(true),
                Some(Side::Blue) => state[format!("b{key}")] = json!(true),
                None => {}
            }
        }
        state
    }
}

/// A clock as the streams write it: `kind` and its own fields, in milliseconds.
pub fn clock_json(clock: &ClockSpec) -> Value {
    match *clock {
        ClockSpec::Fischer { base_s, inc_s } => json!({
            "kind": "fischer",
            "initial": u64::from(base_s) * 1000,
            "increment": u64::from(inc_s) * 1000,
        }),
        ClockSpec::PerMove {
            move_s,
            max_timeouts,
            consecutive,
        } => json!({
            "kind": "per_move",
            "perMove": u64::from(move_s) * 1000,
            "maxTimeouts": max_timeouts,
            "consecutive": consecutive,
        }),
        ClockSpec::Days { days } => json!({ "kind": "days", "daysPerTurn": days }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_protocol::{GameStatus, Reason};

    fn clocks() -> Clocks {
        Clocks {
            red_ms: 61_000,
            blue_ms: 59_000,
            running: Some(Side::Blue),
            red_timeouts: 0,
            blue_timeouts: 0,
        }
    }

    fn moved(game: Uuid, mv: &str, status: GameStatus, draw_offer: Option<Side>) -> ServerFrame {
        ServerFrame::Moved {
            game,
            seq: 1,
            mv: mv.into(),
            ply: 1,
            position: "p".into(),
            turn: Side::Blue,
            captured: None,
            status,
            draw_offer,
            clocks: clocks(),
            legal: Vec::new(),
            abort_in_ms: None,
        }
    }

    #[test]
    fn a_move_offered_with_a_draw_is_one_state_with_the_offer() {
        let game = Uuid::new_v4();
        let mut view = GameView::new(game, Uuid::new_v4(), Vec::new());
        let lines = view.read(&moved(game, "a3a4", GameStatus::Active, Some(Side::Red)));
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0]["drawOffer"], "red");
        assert_eq!(lines[0]["wdraw"], true);
        assert!(lines[0].get("bdraw").is_none());
        // lichess's clock fields beside ours, in milliseconds.
        assert_eq!(
            (lines[0]["wtime"].clone(), lines[0]["btime"].clone()),
            (json!(61_000), json!(59_000))
        );
        assert_eq!(lines[0]["rtime"], lines[0]["wtime"]);
        // The offer's own frame says nothing new.
        let offered = ServerFrame::DrawOffered {
            game,
            seq: 2,
            by: Side::Red,
        };
        assert!(view.read(&offered).is_empty());
    }

    #[test]
    fn the_move_that_ends_a_game_comes_with_its_result_in_one_state() {
        let game = Uuid::new_v4();
        let mut view = GameView::new(game, Uuid::new_v4(), Vec::new());
        let ending = moved(game, "d8d9", GameStatus::Finished, None);
        assert!(
            view.read(&ending).is_empty(),
            "never 'started' for a finished game"
        );
        let over = ServerFrame::GameOver {
            game,
            seq: 2,
            status: GameStatus::Finished,
            winner: Some(Side::Red),
            reason: Reason::Den,
            rated: false,
            rating_change: None,
            clocks: None,
        };
        let lines = view.read(&over);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0]["moves"], "d8d9");
        assert_eq!(lines[0]["status"], "den");
        assert_eq!(lines[0]["winner"], "red");
        assert!(view.over());
    }
}
