//! A rematch: who may ask for one, and the new game's room once both want it.

use super::*;

impl Room {
    /// A rematch starts a new stored game: against the computer it counts as a
    /// `play_computer`, between people as a `rematch`, per player and per address, so that a
    /// resign-and-rematch loop meets the same limits as any other way to a new game; and a
    /// new computer game is not for someone playing a person meanwhile (fair play).
    pub(super) async fn rematch_allowed(&self, conn_id: u64, player: Uuid) -> bool {
        let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) else {
            return false;
        };
        let against_computer = self.session.computer_level().is_some();
        let what = match against_computer {
            true => jungle_limits::Limited::PlayComputer,
            false => jungle_limits::Limited::Rematch,
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

    pub(super) async fn start_rematch(&mut self, red: SeatPlayer, blue: SeatPlayer) {
        let rules = self.session.settings().rules;
        // Another game over days counts as one: both must be free to start it.
        let clock = self.session.settings().clock;
        let game = Uuid::new_v4();
        let players = [red.player.id, blue.player.id];
        let store = &self.ctx.store;
        if let Err(refusal) = crate::correspondence::claim_start(store, game, &players, clock).await
        {
            let error = refusal;
            let text = error_text(error.code(), &error.to_string(), Some(self.id));
            for member in &self.members {
                self.deliver(&member.conn, text.clone());
            }
            return;
        }
        let red = SeatPlayer {
            rating: self.rating(red.player.id, rules).await,
            ..red
        };
        let blue = SeatPlayer {
            rating: self.rating(blue.player.id, rules).await,
            ..blue
        };
        let handle =
            crate::open::matched(self.ctx.clone(), game, self.session.settings(), red, blue);
        for member in &self.members {
            let _ = member.conn.tx.try_send(Outbound::enter(handle.clone()));
        }
    }

    pub(super) fn new_game(&self) -> NewGame {
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
}
