//! What a player away from the site may want to hear of: their move in a game over days, a
//! challenge, a tournament they joined about to start. The rooms, the challenges and the
//! tournaments say that it happened; the services that reach players (mail, Web Push) decide
//! whether anything goes and how. A service implements what it carries; the rest does nothing.

use std::sync::Arc;

use uuid::Uuid;

pub trait PlayerNotices: Send + Sync {
    /// `player`'s turn in `game` over days at `ply`, against `opponent` (their name), while
    /// they are not at the board.
    fn your_turn(&self, _player: Uuid, _game: Uuid, _ply: usize, _opponent: String) {}
    /// `player` was challenged by `from` (challenge `id`).
    fn challenged(&self, _player: Uuid, _id: Uuid, _from: String) {}
    /// Tournament `id` (`name`), which `player` joined, starts in `minutes`.
    fn tournament_soon(&self, _player: Uuid, _id: Uuid, _name: String, _minutes: u32) {}
}

/// Nobody is told anything: a server without mail or push, and tests.
pub struct NoNotices;

impl PlayerNotices for NoNotices {}

/// Several services, each told everything.
pub struct AllNotices(pub Vec<Arc<dyn PlayerNotices>>);

impl PlayerNotices for AllNotices {
    fn your_turn(&self, player: Uuid, game: Uuid, ply: usize, opponent: String) {
        for service in &self.0 {
            service.your_turn(player, game, ply, opponent.clone());
        }
    }

    fn challenged(&self, player: Uuid, id: Uuid, from: String) {
        for service in &self.0 {
            service.challenged(player, id, from.clone());
        }
    }

    fn tournament_soon(&self, player: Uuid, id: Uuid, name: String, minutes: u32) {
        for service in &self.0 {
            service.tournament_soon(player, id, name.clone(), minutes);
        }
    }
}
