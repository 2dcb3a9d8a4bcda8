//! What players and spectators are shown: wire frames rendered from a [`GameSession`]. Pure;
//! the room decides who receives what.

use std::time::Instant;

use axum::extract::ws::Utf8Bytes;
use jungle_protocol::{Captured, Clocks, ErrorCode, GameResult, GameState, Seat, ServerFrame};
use jungle_rules::{Animal, Side, Turn};
use uuid::Uuid;

use jungle_game::session::GameSession;
use jungle_store::GameRecord;

/// One game's frames as of one moment: its id, its session, and the sequence number of the
/// latest event sent about it.
pub struct View<'a> {
    pub id: Uuid,
    pub session: &'a GameSession,
    pub seq: u64,
    pub now: Instant,
}

impl View<'_> {
    /// The full state as `you` (a side, or `None` for a spectator) sees it.
    pub fn state(&self, you: Option<Side>) -> GameState {
        let session = self.session;
        let seat = |side: Side| {
            session.seat(side).map(|s| Seat {
                id: s.who.player.id,
                name: s.who.player.name.clone(),
                rating: s.who.rating.glicko().shown(),
                provisional: s.who.rating.provisional,
                online: s.online(),
                computer: s.who.computer,
                disconnects: s.who.player.disconnects,
                title: s.who.player.bot.then(|| "BOT".to_owned()),
            })
        };
        let away_ms = |side: Side| {
            session
                .abandon_in(side, self.now)
                .map(|d| d.as_millis() as u64)
        };
        let settings = session.settings();
        let game = session.game();
        GameState {
            game: self.id,
            seq: self.seq,
            rules: settings.rules,
            clock: settings.clock,
            rated: settings.rated,
            code: session.code().map(str::to_owned),
            red: seat(Side::Red),
            blue: seat(Side::Blue),
            you,
            start: game.start().to_string(),
            moves: game.turns().map(|t| t.to_string()).collect(),
            position: game.position().to_string(),
            turn: game.position().side_to_move(),
            clocks: session.clocks(self.now),
            captured: Captured::from_game(game),
            draw_offer: session.draw_offer(),
            takeback_offer: session.takeback_offer(),
            status: session.status(),
            result: session.result(),
            red_away_ms: away_ms(Side::Red),
            blue_away_ms: away_ms(Side::Blue),
            legal: session.legal_for(you),
            abort_in_ms: session.abort_in(self.now).map(|d| d.as_millis() as u64),
            tournament: session.tournament(),
            host_colour: session.host_colour(),
            day_given: session.day_given_this_turn(),
        }
    }

    pub fn game_frame(&self, you: Option<Side>) -> Utf8Bytes {
        frame_text(&ServerFrame::Game(Box::new(self.state(you))))
    }

    /// A turn, with the legal moves that follow for `recipient` (when it is now their turn).
    /// `ply` is the turn's index; the frame counts turns played, this one included.
    pub fn moved(
        &self,
        turn: Turn,
        ply: usize,
        captured: Option<Animal>,
        recipient: Option<Side>,
    ) -> ServerFrame {
        let session = self.session;
        ServerFrame::Moved {
            game: self.id,
            seq: self.seq,
            mv: turn.to_string(),
            ply: ply + 1,
            position: session.game().position().to_string(),
            turn: session.game().position().side_to_move(),
            captured,
            status: session.status(),
            draw_offer: session.draw_offer(),
            clocks: session.clocks(self.now),
            legal: session.legal_for(recipient),
            abort_in_ms: session.abort_in(self.now).map(|d| d.as_millis() as u64),
        }
    }

    pub fn presence(&self, side: Side) -> ServerFrame {
        let online = self.session.seat(side).is_some_and(|s| s.online());
        ServerFrame::Presence {
            game: self.id,
            seq: self.seq,
            side,
            online,
            abandon_in_ms: self
                .session
                .abandon_in(side, self.now)
                .map(|d| d.as_millis() as u64),
        }
    }

    /// The end, once the game has a result.
    pub fn game_over(&self) -> Option<ServerFrame> {
        let result = self.session.result()?;
        Some(ServerFrame::GameOver {
            game: self.id,
            seq: self.seq,
            status: self.session.status(),
            winner: result.winner,
            reason: result.reason,
            rated: result.rated,
            rating_change: result.rating_change,
            clocks: Some(self.session.clocks(self.now)),
        })
    }
}

pub fn frame_text(frame: &ServerFrame) -> Utf8Bytes {
    // Sized for a move's frame, the common one: serde_json starts at 128 bytes and grows by
    // copying, three times for a move with its legal moves.
    let mut bytes = Vec::with_capacity(FRAME_CAPACITY);
    serde_json::to_writer(&mut bytes, frame).expect("frames serialize");
    // A short frame may be kept a while (chat lines for latecomers): it keeps no slack.
    if bytes.capacity() - bytes.len() > FRAME_CAPACITY / 2 {
        bytes.shrink_to_fit();
    }
    Utf8Bytes::from(String::from_utf8(bytes).expect("serde_json writes UTF-8"))
}

/// The buffer a frame is serialized into at first.
const FRAME_CAPACITY: usize = 640;

pub fn error_text(code: ErrorCode, message: &str, game: Option<Uuid>) -> Utf8Bytes {
    frame_text(&ServerFrame::Error {
        code,
        message: message.to_owned(),
        game,
    })
}

/// The state of a game no longer live, as a spectator sees it.
pub fn archived_state(record: &GameRecord) -> GameState {
    let game = jungle_game::replay::as_far_as_it_goes(record);
    let last = record.moves.last().map(|m| m.clock).unwrap_or_default();
    let seat =
        |id: Uuid, name: &str, rating: i32, provisional: bool, title: &Option<String>| Seat {
            id,
            name: name.to_owned(),
            rating,
            provisional,
            title: title.clone(),
            online: false,
            computer: jungle_game::computer::bot_level(id),
            disconnects: 0,
        };
    GameState {
        game: record.id,
        // An archived game sends no more events.
        seq: 0,
        rules: record.rules,
        clock: record.clock,
        rated: record.rated,
        code: record.room_code.clone(),
        red: Some(seat(
            record.red,
            &record.red_name,
            record.red_rating,
            record.red_provisional,
            &record.red_title,
        )),
        blue: Some(seat(
            record.blue,
            &record.blue_name,
            record.blue_rating,
            record.blue_provisional,
            &record.blue_title,
        )),
        you: None,
        start: record.start.clone(),
        moves: record.moves.iter().map(|m| m.mv.clone()).collect(),
        position: game.position().to_string(),
        turn: game.position().side_to_move(),
        clocks: Clocks {
            red_ms: last.red_ms.max(0) as u64,
            blue_ms: last.blue_ms.max(0) as u64,
            running: None,
            red_timeouts: last.red_timeouts as u32,
            blue_timeouts: last.blue_timeouts as u32,
        },
        captured: jungle_protocol::Captured::from_game(&game),
        draw_offer: None,
        takeback_offer: None,
        status: record.status,
        result: record.reason.map(|reason| GameResult {
            winner: record.winner,
            reason,
            rated: record.rating_applied,
            rating_change: record.rating_change,
        }),
        red_away_ms: None,
        blue_away_ms: None,
        legal: Vec::new(),
        abort_in_ms: None,
        tournament: record.tournament,
        day_given: false,
        host_colour: None,
    }
}
