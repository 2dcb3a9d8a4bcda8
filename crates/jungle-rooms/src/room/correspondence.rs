//! Games over days: the notice (a mail, a push) that tells a player it is their move, and the vacations that
//! pause their clock.

use super::*;

impl Room {
    /// A game over days: it is someone's turn, and if they are not here to see it they may
    /// want a mail or a push (those services decide: once a turn, a daily cap).
    pub(super) fn mail_the_mover(&self) {
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
        self.ctx.notices.your_turn(
            mover.who.player.id,
            self.id,
            self.session.game().ply_count(),
            other.who.player.name.clone(),
        );
    }

    /// A game over days: `side`'s vacations from now on, from the store, into its clock.
    pub(super) async fn read_vacations(&mut self, side: Side) {
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
}
