//! What the players agree between them during and after a game: draws, takebacks, a rematch,
//! and a day given to a correspondence opponent. Each answers with events or a refusal.

use std::time::Instant;

use jungle_protocol::Reason;
use jungle_rules::{Game, Side, Turn};

use super::{Event, GameSession, Phase, Refusal, DRAW_OFFER_EVERY};
use crate::clock;

/// Takebacks one side may ask for between two moves: the request, and one more after a
/// decline.
pub const TAKEBACK_ASKS_A_MOVE: u8 = 2;

impl GameSession {
    /// One more day for the opponent's running turn: a courtesy between correspondence
    /// players, once a turn, stored with the last turn so that a restart keeps it.
    pub(super) fn give_day(&mut self, side: Side) -> Result<Vec<Event>, Refusal> {
        self.require_active()?;
        let ply = self.game.ply_count();
        let opponents_turn = self.game.position().side_to_move() == !side;
        if !opponents_turn || ply == 0 || self.day_given_at == Some(ply) {
            return Err(Refusal::GiveDayUnavailable);
        }
        if !self.clock.give_time(!side, clock::days_of(1)) {
            return Err(Refusal::GiveDayUnavailable);
        }
        self.day_given_at = Some(ply);
        Ok(vec![Event::DayGiven {
            to: !side,
            ply: ply - 1,
            clock: self.clock.stored(),
        }])
    }

    pub(super) fn offer_draw(&mut self, side: Side, now: Instant) -> Result<Vec<Event>, Refusal> {
        self.require_active()?;
        let ply = self.game.ply_count();
        let Phase::Active {
            draw_offer,
            last_offer_ply,
            ..
        } = &mut self.phase
        else {
            unreachable!("checked active");
        };
        if *draw_offer == Some(!side) {
            // Both want a draw.
            return Ok(self.end(None, Reason::DrawAgreed, now));
        }
        if *draw_offer == Some(side) {
            return Ok(Vec::new());
        }
        if let Some(last) = last_offer_ply[side.index()] {
            if ply < last + DRAW_OFFER_EVERY {
                return Err(Refusal::DrawOfferLimit {
                    next: last + DRAW_OFFER_EVERY,
                });
            }
        }
        last_offer_ply[side.index()] = Some(ply);
        *draw_offer = Some(side);
        Ok(vec![Event::DrawOffered { by: side }])
    }

    /// How many turns from the end undo `side`'s last turn (and the opponent's after it).
    fn plies_to_take_back(&self, side: Side) -> Option<usize> {
        let plies = self.game.ply_count();
        // The side to move now made none of the last turn; walking back, movers alternate.
        let mut mover = !self.game.position().side_to_move();
        for back in 1..=plies {
            if mover == side {
                return Some(back);
            }
            mover = !mover;
        }
        None
    }

    pub(super) fn offer_takeback(&mut self, side: Side) -> Result<Vec<Event>, Refusal> {
        self.require_active()?;
        if self.settings.rated {
            return Err(Refusal::TakebackRated);
        }
        if self.tournament.is_some() {
            return Err(Refusal::TakebackTournament);
        }
        self.plies_to_take_back(side)
            .ok_or(Refusal::NothingToTakeBack)?;
        let Phase::Active { takeback_offer, .. } = &mut self.phase else {
            unreachable!("checked active");
        };
        if takeback_offer.is_some() {
            return Err(Refusal::TakebackPending);
        }
        if self.takeback_asked[side.index()] >= TAKEBACK_ASKS_A_MOVE {
            return Err(Refusal::TakebackAskedThisTurn);
        }
        self.takeback_asked[side.index()] += 1;
        *takeback_offer = Some(side);
        Ok(vec![Event::TakebackOffered { by: side }])
    }

    /// The opponent of the side asking answers. On yes, the asker's last turn (and any of the
    /// answerer's after it) is undone: the game is played again from its start without them,
    /// so the history rules and the no-capture count are as if they had never been played.
    pub(super) fn answer_takeback(
        &mut self,
        side: Side,
        yes: bool,
        now: Instant,
    ) -> Result<Vec<Event>, Refusal> {
        self.require_active()?;
        let Phase::Active {
            takeback_offer,
            draw_offer,
            ..
        } = &mut self.phase
        else {
            unreachable!("checked active");
        };
        if *takeback_offer != Some(!side) {
            return Err(Refusal::NoTakebackOffer);
        }
        *takeback_offer = None;
        if !yes {
            return Ok(vec![Event::TakebackDeclined { by: side }]);
        }
        *draw_offer = None;
        let back = self
            .plies_to_take_back(!side)
            .ok_or(Refusal::NothingToTakeBack)?;
        let keep = self.game.ply_count() - back;
        let mut turns: Vec<Turn> = self.game.turns().collect();
        let undone = turns.split_off(keep);
        self.game = Game::replay(self.settings.rules.rules(), *self.game.start(), turns)
            .expect("a prefix of played turns plays again");
        self.clock.restart_turn(now);
        self.takeback_asked = [0, 0];
        Ok(vec![Event::TakenBack { keep, undone }])
    }

    pub(super) fn rematch(&mut self, side: Side) -> Result<Vec<Event>, Refusal> {
        if self.tournament.is_some() {
            return Err(Refusal::RematchTournament);
        }
        let computer_opponent = self.seat(!side).is_some_and(|s| s.who.computer.is_some());
        let Phase::Over {
            rematch,
            rematch_agreed,
            ..
        } = &mut self.phase
        else {
            return Err(Refusal::RematchUnavailable);
        };
        if *rematch_agreed {
            return Err(Refusal::RematchUnavailable);
        }
        if rematch[side.index()] {
            return Ok(Vec::new());
        }
        rematch[side.index()] = true;
        let mut events = vec![Event::RematchOffered { by: side }];
        if computer_opponent {
            // The computer always wants another game.
            rematch[(!side).index()] = true;
        }
        if rematch[(!side).index()] {
            *rematch_agreed = true;
            let seat = |s: Side| self.seat(s).expect("both seated").who.clone();
            events.push(Event::RematchAgreed {
                red: seat(Side::Blue),
                blue: seat(Side::Red),
            });
        }
        Ok(events)
    }
}
