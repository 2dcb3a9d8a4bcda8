//! Durable before visible, in one place: each event the session returns is committed
//! ([`Room::persist`]) before any frame about it is sent ([`Room::publish`]); and the game's
//! place among the games in play (the registry, fair play's live positions, the gauge).

use super::*;
use jungle_game::ended::GameEnded;

impl Room {
    /// Commits what `event` makes durable; false if the write failed.
    pub(super) async fn persist(&mut self, event: &Event) -> bool {
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

    pub(super) async fn publish(&mut self, event: Event) {
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
                let ended = self.ended(status, winner, reason);
                for listener in self.ctx.game_end.iter() {
                    listener.game_ended(&ended).await;
                }
            }
            Event::RematchAgreed { red, blue } => Box::pin(self.start_rematch(red, blue)).await,
            Event::Closed { .. } => {}
        }
    }

    /// The game is in play: listed, counted, its positions closed to the engine, and the
    /// computer seated at its engine.
    pub(super) fn game_in_play(&mut self) {
        self.set_live(true);
        // A casual private room between two people on the clock keeps its positions to
        // itself: a refusal would tell a stranger what is played there, nothing is rated, and
        // its players get no engine at all while they play. Over days its players would have
        // the engine on their own board (only a game's positions close it to them), and with
        // the computer it is the game `play_computer` starts: both are registered.
        let settings = self.session.settings();
        let kept_to_itself = self.session.is_private()
            && !settings.rated
            && !settings.clock.is_correspondence()
            && self.session.computer_level().is_none();
        if self.positions.is_none() && !kept_to_itself {
            let seats = match self.session.computer_level() {
                Some(_) => crate::fair_play::Seats::WithComputer,
                None => crate::fair_play::Seats::People,
            };
            self.positions = Some(crate::fair_play::GamePositions::new(
                self.ctx.fair_play.positions().clone(),
                self.id,
                seats,
            ));
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

    pub(super) fn set_live(&mut self, live: bool) {
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
                .set_live(self.id, true, listed.then(|| self.live_summary()));
        } else {
            metrics::gauge!("jungle_live_games").decrement(1.0);
            self.ctx.rooms.set_live(self.id, false, None);
        }
    }

    /// The end as the other domains hear it.
    fn ended(
        &self,
        status: GameStatus,
        winner: Option<Side>,
        reason: jungle_protocol::Reason,
    ) -> GameEnded {
        let game = self.session.game();
        let player = |side| self.session.seat(side).map(|seat| seat.who.player.id);
        GameEnded {
            game: self.id,
            rated: self.session.settings().rated,
            status,
            winner,
            reason,
            tournament: self.session.tournament(),
            // An empty seat (none once a game has started) is the nil id.
            players: Side::ALL.map(|side| player(side).unwrap_or_default()),
            moved: Side::ALL.map(|side| moved(game, side)),
            to_move: game.position().side_to_move(),
        }
    }
}

/// Whether `side` has made a move (not a pass) in `game`.
fn moved(game: &jungle_rules::Game, side: Side) -> bool {
    let first = game.start().side_to_move();
    game.turns().enumerate().any(|(ply, turn)| {
        turn.as_move().is_some() && (if ply % 2 == 0 { first } else { !first }) == side
    })
}
