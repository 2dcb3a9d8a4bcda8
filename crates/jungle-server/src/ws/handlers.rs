//! One handler per client frame. Each checks what it was sent and hands the intention to the
//! lobby or a room; rooms answer through the connection's queue.

use std::time::Duration;

use jungle_engine::Level;
use jungle_protocol::{ClientFrame, ClockSpec, ColorChoice, Ruleset, ServerFrame};
use jungle_rules::Position;
use uuid::Uuid;

use super::session::{Reply, Session};
use crate::ws::frame_error::FrameError;
use jungle_limits::Limited;
use jungle_rooms::{
    frame_text, open, Action, Connection, JoinIntent, RoomCommand, RoomSettings, SeatPlayer,
};

/// The start of a new room's game: the initial position, or a set-up one that reads, breaks
/// no rule of placement (checked as it is read) and leaves the side to move a game to play.
/// Set-up games are casual.
fn set_up_start(
    rules: Ruleset,
    position: Option<&str>,
    rated: bool,
) -> Result<Position, FrameError> {
    let Some(text) = position else {
        return Ok(Position::start());
    };
    if rated {
        return Err(FrameError::BadPosition(
            "games from a set-up position are casual; untick rated".into(),
        ));
    }
    let start: Position = text
        .parse()
        .map_err(|e| FrameError::BadPosition(format!("position: {e}")))?;
    if jungle_rules::Game::new(rules.rules(), start)
        .outcome()
        .is_some()
    {
        return Err(FrameError::BadPosition(
            "the game would be over before it began: the side to move needs a move, and no animal may stand in the enemy den".into(),
        ));
    }
    Ok(start)
}

/// Most games one connection follows at once (its own, and those it watches).
pub const MAX_FOLLOWED: usize = 32;

impl Session {
    /// Dispatches a frame of a signed-in connection.
    pub(super) async fn handle(&mut self, conn: &Connection, frame: ClientFrame) -> Reply {
        match frame {
            ClientFrame::Hello { .. } => Err(FrameError::AlreadyAuthenticated),
            ClientFrame::Ping => Ok(Some(frame_text(&ServerFrame::Pong))),
            ClientFrame::Seek {
                rules,
                clock,
                rated,
                computer_after_s,
            } => self.seek(conn, rules, clock, rated, computer_after_s).await,
            ClientFrame::AcceptSeek { seek } => {
                self.limit(Limited::Seek, conn)?;
                // A seek over days: the taker must be free to start one (an account, under
                // the cap); the list says which seeks are.
                let listed = self.state.reach.open_seeks().await;
                if let Some(taken) = listed.iter().find(|s| s.id == seek) {
                    let store = &self.state.store;
                    jungle_rooms::correspondence::may_start(store, conn.player.id, taken.clock)
                        .await?;
                }
                let has_account = self.state.store.has_account(conn.player.id).await?;
                self.state
                    .reach
                    .accept_seek(conn.clone(), seek, has_account)
                    .await;
                Ok(None)
            }
            ClientFrame::CancelSeek => {
                self.state.reach.cancel_seek(conn.id, true).await;
                Ok(None)
            }
            ClientFrame::CreateRoom {
                rules,
                clock,
                rated,
                color,
                position,
            } => {
                let start = set_up_start(rules, position.as_deref(), rated)?;
                self.create_room(conn, rules, clock, rated, color, start)
                    .await
            }
            ClientFrame::PlayComputer {
                rules,
                clock,
                level,
                color,
                position,
            } => {
                let start = set_up_start(rules, position.as_deref(), false)?;
                self.play_computer(conn, rules, clock, level, color, start)
                    .await
            }
            ClientFrame::AddComputer { game, level } => self.add_computer(conn, game, level).await,
            ClientFrame::JoinRoom { code } => {
                self.limit(Limited::JoinRoom, conn)?;
                self.join_room(&code).await
            }
            ClientFrame::Watch { game } => self.watch(conn, game).await,
            ClientFrame::Unwatch { game } => {
                if let Some(room) = self.joined.remove(&game) {
                    room.send(RoomCommand::Leave { conn_id: conn.id }).await;
                }
                Ok(None)
            }
            ClientFrame::Move { game, mv, blur } => {
                let lag = self.lag();
                let action = Action::Move {
                    text: mv,
                    lag,
                    blurred: blur,
                };
                self.act(conn, game, action).await
            }
            ClientFrame::Resign { game } => self.act(conn, game, Action::Resign).await,
            ClientFrame::Abort { game } => self.act(conn, game, Action::Abort).await,
            ClientFrame::OfferDraw { game } => self.act(conn, game, Action::OfferDraw).await,
            ClientFrame::AcceptDraw { game } => self.act(conn, game, Action::AcceptDraw).await,
            ClientFrame::DeclineDraw { game } => self.act(conn, game, Action::DeclineDraw).await,
            ClientFrame::Rematch { game } => self.act(conn, game, Action::Rematch).await,
            ClientFrame::GiveDay { game } => self.act(conn, game, Action::GiveDay).await,
            ClientFrame::Chat { game, preset, text } => self.chat(conn, game, preset, text).await,
            ClientFrame::Takeback { game } => {
                // Each accepted takeback rewrites stored turns: a loop of them is limited.
                self.limit(Limited::Takeback, conn)?;
                self.act(conn, game, Action::OfferTakeback).await
            }
            ClientFrame::AcceptTakeback { game } => {
                self.act(conn, game, Action::AcceptTakeback).await
            }
            ClientFrame::DeclineTakeback { game } => {
                self.act(conn, game, Action::DeclineTakeback).await
            }
            ClientFrame::Analyse {
                rules,
                position,
                moves,
            } => self.analyse(conn, rules, position, moves).await,
            ClientFrame::AnalyseGame { game } => self
                .analyse_game(conn, game)
                .await
                .map_err(|refusal| FrameError::AboutGame(Box::new(refusal), game)),
            frame @ (ClientFrame::Challenge { .. }
            | ClientFrame::AcceptChallenge { .. }
            | ClientFrame::DeclineChallenge { .. }
            | ClientFrame::CancelChallenge { .. }) => {
                if matches!(frame, ClientFrame::Challenge { .. }) {
                    self.limit(Limited::Challenge, conn)?;
                }
                // Handled where the challenges are held (with several nodes, the matcher's).
                let forwarded = self
                    .state
                    .reach
                    .challenge_elsewhere(conn, frame.clone())
                    .await;
                if forwarded.map_err(FrameError::Unavailable)? {
                    return Ok(None);
                }
                let state = &self.state;
                jungle_rooms::challenges::handle_frame(
                    &state.store,
                    &state.challenges,
                    &state.room_ctx,
                    conn,
                    frame,
                )
                .await
                .map_err(FrameError::from)
            }
            ClientFrame::JoinTournament { id, code } => self.join_tournament(conn, id, code).await,
            ClientFrame::Withdraw { id } => self.withdraw(conn, id).await,
            ClientFrame::WatchTournament { id } => self.watch_tournament(conn, id).await,
            ClientFrame::UnwatchTournament { id } => self.unwatch_tournament(conn, id).await,
        }
    }

    /// Counts a limited request of this connection's player and address.
    pub(super) fn limit(&self, what: Limited, conn: &Connection) -> Result<(), FrameError> {
        Ok(self
            .state
            .limits
            .check(what, Some(conn.player.id), self.ip)?)
    }

    /// Checks a new game's clock and seats this player with their rating in its ruleset.
    async fn seat_for_new_game(
        &self,
        conn: &Connection,
        rules: Ruleset,
        clock: ClockSpec,
    ) -> Result<SeatPlayer, FrameError> {
        clock.validate()?;
        jungle_rooms::correspondence::may_start(&self.state.store, conn.player.id, clock).await?;
        let pool = jungle_game::rating::RatingPool::of(rules, clock);
        let rating = self.state.store.rating(conn.player.id, pool).await?;
        Ok(SeatPlayer::human(conn.player.clone(), rating))
    }

    /// Rated games are for accounts: a rating means little when anyone can mint a thousand
    /// fresh guests to feed it.
    async fn rated_needs_account(&self, conn: &Connection, rated: bool) -> Result<(), FrameError> {
        if rated && !self.state.store.has_account(conn.player.id).await? {
            return Err(FrameError::AccountRequired);
        }
        Ok(())
    }

    async fn seek(
        &mut self,
        conn: &Connection,
        rules: Ruleset,
        clock: ClockSpec,
        rated: bool,
        computer_after_s: Option<u32>,
    ) -> Reply {
        self.limit(Limited::Seek, conn)?;
        if computer_after_s.is_some() {
            refuse_computer_by_days(clock)?;
            // Its fallback is a new computer game: counted, and not while playing a person.
            self.limit(Limited::PlayComputer, conn)?;
            self.state
                .room_ctx
                .fair_play
                .not_playing(conn.player.id)
                .await?;
        }
        let seat = self.seat_for_new_game(conn, rules, clock).await?;
        self.rated_needs_account(conn, rated).await?;
        let settings = RoomSettings {
            rules,
            clock,
            rated,
        };
        let computer_after = computer_after_s.map(|s| Duration::from_secs(s.into()));
        self.state
            .reach
            .seek(conn.clone(), settings, seat.rating, computer_after)
            .await
            .map_err(FrameError::Unavailable)?;
        Ok(None)
    }

    /// Checks a chat line and hands it to the game's room.
    async fn chat(
        &mut self,
        conn: &Connection,
        game: Uuid,
        preset: Option<String>,
        text: Option<String>,
    ) -> Reply {
        self.limit(Limited::Chat, conn)?;
        let line = jungle_rooms::chat_line::check(self.state.config.chat, preset, text)
            .map_err(FrameError::BadChat)?;
        let command = RoomCommand::Chat {
            conn_id: conn.id,
            line: Box::new(line),
        };
        self.send_to_followed(game, command).await
    }

    async fn create_room(
        &mut self,
        conn: &Connection,
        rules: Ruleset,
        clock: ClockSpec,
        rated: bool,
        color: ColorChoice,
        start: Position,
    ) -> Reply {
        self.limit(Limited::CreateRoom, conn)?;
        let host = self.seat_for_new_game(conn, rules, clock).await?;
        self.rated_needs_account(conn, rated).await?;
        let settings = RoomSettings {
            rules,
            clock,
            rated,
        };
        let (room, code) = open::private(self.state.room_ctx.clone(), settings, host, color, start)
            .await
            .map_err(|e| match e {
                open::OpenError::AtCap(at_cap) => FrameError::AtCap(at_cap),
                open::OpenError::Persist(e) => {
                    tracing::error!(error = %e, "a private room could not be stored");
                    FrameError::Store(jungle_store::StoreError::Corrupt(
                        "the room could not be stored".into(),
                    ))
                }
            })?;
        let reply = frame_text(&ServerFrame::Room {
            url: format!("{}/r/{code}", self.state.public_url),
            code,
            game: room.id,
        });
        self.enter(room, JoinIntent::Watch).await;
        Ok(Some(reply))
    }

    async fn play_computer(
        &mut self,
        conn: &Connection,
        rules: Ruleset,
        clock: ClockSpec,
        level: u8,
        color: ColorChoice,
        start: Position,
    ) -> Reply {
        let level = Level::new(level).ok_or(FrameError::BadLevel(None))?;
        refuse_computer_by_days(clock)?;
        self.limit(Limited::PlayComputer, conn)?;
        // The computer is our engine: no game against it while one against a person is on,
        // and none from where a game between people stands now.
        self.state
            .room_ctx
            .fair_play
            .may_start_computer_game(jungle_rooms::fair_play::Asker::of(conn), &start)
            .await?;
        let human = self.seat_for_new_game(conn, rules, clock).await?;
        let settings = RoomSettings {
            rules,
            clock,
            rated: false,
        };
        let ctx = self.state.room_ctx.clone();
        let room = open::computer_game(ctx, settings, human, level, color, start)
            .await
            .map_err(FrameError::AtCap)?;
        self.enter(room, JoinIntent::Watch).await;
        Ok(None)
    }

    async fn add_computer(&mut self, conn: &Connection, game: Uuid, level: u8) -> Reply {
        let level = Level::new(level).ok_or(FrameError::BadLevel(Some(game)))?;
        self.limit(Limited::PlayComputer, conn)?;
        self.state
            .room_ctx
            .fair_play
            .not_playing(conn.player.id)
            .await?;
        let command = RoomCommand::AddComputer {
            conn_id: conn.id,
            player: conn.player.id,
            level,
        };
        self.send_to_followed(game, command).await
    }

    async fn join_room(&mut self, code: &str) -> Reply {
        let code = code.trim().to_ascii_uppercase();
        let Some(room) = self.state.reach.room_by_code(&code).await else {
            // Guessing codes is what this limit is for: a miss costs more than a find.
            self.state.limits.charge_miss(self.ip);
            return Err(FrameError::RoomNotFound(code));
        };
        self.room_to_follow(room.id)?;
        self.enter(room, JoinIntent::TakeSeat).await;
        Ok(None)
    }

    /// Follows a live game, or answers with the final state of a finished one.
    async fn watch(&mut self, conn: &Connection, game: Uuid) -> Reply {
        if let Some(room) = self.state.reach.room(game).await {
            if let Err(full) = self.room_to_follow(room.id) {
                // At the cap a private game answers as the room would: no such game.
                return Err(match self.hidden_from(conn, game).await {
                    true => FrameError::UnknownGame(game),
                    false => full,
                });
            }
            self.enter(room, JoinIntent::Watch).await;
            return Ok(None);
        }
        let record = self
            .state
            .store
            .game(game)
            .await?
            .ok_or(FrameError::UnknownGame(game))?;
        let me = conn.player.id;
        if record.private_in_play() && me != record.red && me != record.blue {
            return Err(FrameError::UnknownGame(game));
        }
        if record.status == jungle_protocol::GameStatus::Active {
            // In progress, but no node runs it this moment (it is changing nodes): follow it
            // to wherever it goes next.
            if let Some(room) = self.state.reach.room_in_progress(game).await {
                self.room_to_follow(room.id)?;
                self.enter(room, JoinIntent::Watch).await;
                return Ok(None);
            }
        }
        let mut state = jungle_rooms::view::archived_state(&record);
        // One's own game stays one's own after its room has closed: oriented to one's colour,
        // no report of oneself.
        state.you = record.side_of(me);
        Ok(Some(frame_text(&ServerFrame::Game(Box::new(state)))))
    }

    async fn act(&mut self, conn: &Connection, game: Uuid, action: Action) -> Reply {
        let command = RoomCommand::Act {
            conn_id: conn.id,
            player: conn.player.id,
            action: Box::new(action),
        };
        self.send_to_followed(game, command).await
    }

    /// Hands a command to the room of a game this connection follows.
    async fn send_to_followed(&mut self, game: Uuid, command: RoomCommand) -> Reply {
        let room = self.followed_room(game).await?;
        if !room.send(command).await {
            // The room closed meanwhile: its game is over.
            self.joined.remove(&game);
            return Err(FrameError::GameOver(game));
        }
        Ok(None)
    }

    /// Whether this connection may follow one more room: at most [`MAX_FOLLOWED`] at once
    /// (rooms that have closed no longer count; one already followed is always fine).
    fn room_to_follow(&mut self, game: Uuid) -> Result<(), FrameError> {
        if self.joined.contains_key(&game) {
            return Ok(());
        }
        self.joined.retain(|_, room| !room.is_closed());
        if self.joined.len() >= MAX_FOLLOWED {
            return Err(FrameError::TooManyFollowed);
        }
        Ok(())
    }

    /// Whether `game` is, to this connection's player, no game at all: a private room waiting
    /// for its guest (no stored game yet), or a private game in play they do not play. Those
    /// who came in with the code are not known here; the room itself tells them apart.
    async fn hidden_from(&self, conn: &Connection, game: Uuid) -> bool {
        match self.state.store.game_without_moves(game).await {
            Ok(Some(record)) => {
                let stranger = conn.player.id != record.red && conn.player.id != record.blue;
                record.private_in_play() && stranger
            }
            Ok(None) => true,
            Err(_) => true,
        }
    }

    /// The room of a game this connection follows, or why there is none (a private game in
    /// play is, to a stranger, no game at all).
    async fn followed_room(&self, game: Uuid) -> Result<jungle_rooms::RoomHandle, FrameError> {
        if let Some(room) = self.joined.get(&game).filter(|room| !room.is_closed()) {
            return Ok(room.clone());
        }
        match self.state.store.game_without_moves(game).await {
            Ok(Some(record)) => {
                let me = self.conn_player();
                let stranger = me != Some(record.red) && me != Some(record.blue);
                if record.private_in_play() && stranger {
                    Err(FrameError::UnknownGame(game))
                } else if stranger || record.status == jungle_protocol::GameStatus::Active {
                    Err(FrameError::NotYourGame(game))
                } else {
                    Err(FrameError::GameOver(game))
                }
            }
            // No stored game: unknown, or a private room still waiting for its guest, which
            // to a stranger is no game either.
            _ => Err(FrameError::UnknownGame(game)),
        }
    }
}

/// The computer answers at once: a game over days against it is only a slow one.
fn refuse_computer_by_days(clock: ClockSpec) -> Result<(), FrameError> {
    if clock.is_correspondence() {
        return Err(jungle_protocol::ClockSpecError(
            "the computer plays in one sitting: no clock of days against it",
        )
        .into());
    }
    Ok(())
}
