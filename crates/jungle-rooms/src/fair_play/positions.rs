//! The positions of the games in play on this node, so that no engine path tells anyone about
//! them while they last. Positions are keyed by [`Position::symmetric_hash`]: the same board
//! pasted, reached by another move order, mirrored or with the colours swapped has the same
//! key. The history rules (7-3, 17-5, cycles) and counters are not part of the key: the
//! engine's advice on a position is advice on it whatever led there. Every question is a
//! lookup by key, whatever the number of games in play.
//!
//! Boards merely near a live one are answered: an open engine at home answers the live board
//! itself, so closing near boards stopped nobody, cost a walk over every game per question
//! and closed honest boards (docs/decisions.md, "Fair play without near boards"). What an
//! account does with many such boards is for the assessment to see.
//!
//! Each room holds a [`GamePositions`]: what it registered, taken out again when the game
//! ends, the room closes or the task is dropped by any path.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use jungle_rules::{Game, Position};
use uuid::Uuid;

/// How a board stands to the games in play, for the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// In no game in play: the engine answers.
    Open,
    /// In a game in play (among those asked about): no answer.
    Closed,
}

/// Which games a position is looked up among.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Among {
    /// Every position of every game in play, against the computer too: what analysis must
    /// not reveal.
    AllGames,
    /// Only where games between two players who are not our computer (people, and bots run
    /// by people) stand now: what the computer's own moves must not reveal. A position such a
    /// game has left behind tells its players nothing now, and closing them all would have
    /// the computer play at random through every common opening.
    PeoplesGamesNow,
}

/// Whether a game's seats are both taken by others than our computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seats {
    People,
    WithComputer,
}

/// The key of a position, or `None` for the standard start: it stands at the start of
/// nearly every game, its engine line is the same for everybody, and closing the engine on
/// it whenever any game is about to begin would close the analysis board's first page.
pub fn key(position: &Position) -> Option<u64> {
    let key = position.symmetric_hash();
    (key != start_key()).then_some(key)
}

fn start_key() -> u64 {
    static START: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *START.get_or_init(|| Position::start().symmetric_hash())
}

/// Counts of live positions by key, apart for games between people and games with the
/// computer. Cloning shares.
#[derive(Clone, Default)]
pub struct LivePositions {
    inner: Arc<Mutex<Counts>>,
}

#[derive(Default)]
struct Counts {
    people: HashMap<u64, u32>,
    with_computer: HashMap<u64, u32>,
    /// Where games between people stand now, by key, and the key of each such game's board.
    now: HashMap<u64, u32>,
    current: HashMap<Uuid, u64>,
}

impl Counts {
    fn map(&mut self, seats: Seats) -> &mut HashMap<u64, u32> {
        match seats {
            Seats::People => &mut self.people,
            Seats::WithComputer => &mut self.with_computer,
        }
    }
}

fn count_in(map: &mut HashMap<u64, u32>, key: u64) {
    *map.entry(key).or_default() += 1;
}

fn count_out(map: &mut HashMap<u64, u32>, key: u64) {
    if let Some(count) = map.get_mut(&key) {
        *count -= 1;
        if *count == 0 {
            map.remove(&key);
        }
    }
}

impl LivePositions {
    /// Whether any of `keys` stands in a game in play here (any position of it): among games
    /// between people (`People`), or among every game (`WithComputer`).
    pub fn holds_any(&self, keys: &[u64], seats: Seats) -> bool {
        let counts = self.inner.lock().expect("live positions lock");
        keys.iter().any(|key| {
            counts.people.contains_key(key)
                || (seats == Seats::WithComputer && counts.with_computer.contains_key(key))
        })
    }

    /// How `position` stands to the games in play here, looked up among `among`.
    pub fn standing(&self, position: &Position, among: Among) -> Standing {
        let Some(key) = key(position) else {
            // The standard start is everyone's.
            return Standing::Open;
        };
        let closed = match among {
            Among::AllGames => self.holds_any(&[key], Seats::WithComputer),
            Among::PeoplesGamesNow => self
                .inner
                .lock()
                .expect("live positions lock")
                .now
                .contains_key(&key),
        };
        if closed {
            Standing::Closed
        } else {
            Standing::Open
        }
    }

    fn set_current(&self, game: Uuid, now: Option<u64>) {
        let mut counts = self.inner.lock().expect("live positions lock");
        if let Some(before) = counts.current.remove(&game) {
            count_out(&mut counts.now, before);
        }
        if let Some(key) = now {
            counts.current.insert(game, key);
            count_in(&mut counts.now, key);
        }
    }

    /// Keys held, for metrics and tests.
    pub fn len(&self) -> usize {
        let counts = self.inner.lock().expect("live positions lock");
        counts.people.len() + counts.with_computer.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn add(&self, seats: Seats, keys: &[u64]) {
        let mut counts = self.inner.lock().expect("live positions lock");
        let map = counts.map(seats);
        for key in keys {
            count_in(map, *key);
        }
    }

    fn remove(&self, seats: Seats, keys: &[u64]) {
        let mut counts = self.inner.lock().expect("live positions lock");
        let map = counts.map(seats);
        for key in keys {
            count_out(map, *key);
        }
    }
}

/// One game's positions in the registry (each ply's key; the start's when it is not the
/// standard one). Dropping it takes them all out.
pub struct GamePositions {
    registry: LivePositions,
    game: Uuid,
    seats: Seats,
    /// The key of each position of the game in order (`None`: not registered), one more than
    /// the plies played.
    keys: Vec<Option<u64>>,
}

impl GamePositions {
    pub fn new(registry: LivePositions, game: Uuid, seats: Seats) -> GamePositions {
        GamePositions {
            registry,
            game,
            seats,
            keys: Vec::new(),
        }
    }

    /// Registers every position of `game` not registered yet; after a takeback (the game
    /// shorter than what was registered) the undone ones are taken out first.
    pub fn follow(&mut self, game: &Game) {
        let positions = game.ply_count() + 1;
        if positions < self.keys.len() {
            let undone: Vec<u64> = self.keys.drain(positions..).flatten().collect();
            self.registry.remove(self.seats, &undone);
        }
        if positions == self.keys.len() {
            self.follow_current(game);
            return;
        }
        let known = self.keys.len();
        let new: Vec<Option<u64>> = if positions == known + 1 {
            vec![key(game.position())]
        } else {
            game.positions().skip(known).map(|p| key(&p)).collect()
        };
        let registered: Vec<u64> = new.iter().flatten().copied().collect();
        self.registry.add(self.seats, &registered);
        self.keys.extend(new);
        self.follow_current(game);
    }

    /// Where a game between people stands now (for the computer's own moves).
    fn follow_current(&self, game: &Game) {
        let now = match self.seats {
            Seats::People => key(game.position()),
            Seats::WithComputer => None,
        };
        self.registry.set_current(self.game, now);
    }

    /// Registers again from scratch (a takeback replaced positions).
    pub fn refollow(&mut self, game: &Game) {
        self.clear();
        self.follow(game);
    }

    /// Takes every position out: the game is over.
    pub fn clear(&mut self) {
        let all: Vec<u64> = self.keys.drain(..).flatten().collect();
        self.registry.remove(self.seats, &all);
        self.registry.set_current(self.game, None);
    }
}

impl Drop for GamePositions {
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::{Rules, Turn};

    fn game(moves: &[&str]) -> Game {
        let mut game = Game::new(Rules::CLASSIC, Position::start());
        for m in moves {
            game.play(m.parse::<Turn>().unwrap()).unwrap();
        }
        game
    }

    fn key_after(moves: &[&str]) -> u64 {
        key(game(moves).position()).unwrap()
    }

    #[test]
    fn a_game_registers_each_position_and_gives_them_back() {
        let live = LivePositions::default();
        let mut positions = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People);
        let mut played = game(&["a3a4"]);
        positions.follow(&played);
        assert!(live.holds_any(&[key_after(&["a3a4"])], Seats::People));
        played.play("g7g6".parse().unwrap()).unwrap();
        positions.follow(&played);
        assert_eq!(live.len(), 2, "the start is never registered");
        let later = key_after(&["a3a4", "g7g6"]);
        assert!(live.holds_any(&[later], Seats::WithComputer));
        drop(positions);
        assert!(live.is_empty());
    }

    #[test]
    fn a_takeback_takes_its_positions_out() {
        let live = LivePositions::default();
        let mut positions = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::WithComputer);
        positions.follow(&game(&["a3a4", "g7g6", "a4a5"]));
        assert_eq!(live.len(), 3);
        positions.follow(&game(&["a3a4"]));
        assert_eq!(live.len(), 1);
        assert!(!live.holds_any(&[key_after(&["a3a4", "g7g6"])], Seats::WithComputer));
        assert!(
            !live.holds_any(&[key_after(&["a3a4"])], Seats::People),
            "games with the computer are looked up only among all games"
        );
        assert!(live.holds_any(&[key_after(&["a3a4"])], Seats::WithComputer));
    }

    #[test]
    fn two_games_through_one_position_keep_it_until_both_end() {
        let live = LivePositions::default();
        let mut first = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People);
        let mut second = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People);
        first.follow(&game(&["a3a4"]));
        second.follow(&game(&["a3a4"]));
        first.clear();
        assert!(live.holds_any(&[key_after(&["a3a4"])], Seats::People));
        second.clear();
        assert!(live.is_empty());
    }

    #[test]
    fn the_computers_own_moves_look_only_at_where_peoples_games_stand_now() {
        let live = LivePositions::default();
        let mut people = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People);
        let mut computer = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::WithComputer);
        people.follow(&game(&["a3a4", "g7g6", "e3d3"]));
        computer.follow(&game(&["g3g4", "a7a6"]));
        let passed = *game(&["a3a4", "g7g6"]).position();
        let with_computer = *game(&["g3g4", "a7a6"]).position();
        assert_eq!(live.standing(&passed, Among::AllGames), Standing::Closed);
        assert_eq!(
            live.standing(&passed, Among::PeoplesGamesNow),
            Standing::Open
        );
        assert_eq!(
            live.standing(&with_computer, Among::AllGames),
            Standing::Closed
        );
        assert_eq!(
            live.standing(&with_computer, Among::PeoplesGamesNow),
            Standing::Open
        );
    }

    /// Exact boards only, by key: the live board, however it is pasted, is closed; a board a
    /// move away is answered (docs/decisions.md); where a game stood before its last move
    /// stays closed to analysis, not to the computer's own moves.
    #[test]
    fn only_the_boards_of_games_in_play_are_closed() {
        let live = LivePositions::default();
        let mut positions = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People);
        let moves = [
            "e3d3", "e7d7", "d3d4", "a7a6", "g3g4", "g7g6", "a3a4", "a6a5",
        ];
        let played = game(&moves);
        positions.follow(&played);
        let now = *played.position();
        for among in [Among::AllGames, Among::PeoplesGamesNow] {
            assert_eq!(live.standing(&now, among), Standing::Closed);
            assert_eq!(live.standing(&now.mirrored(), among), Standing::Closed);
            assert_eq!(
                live.standing(&now.colours_swapped(), among),
                Standing::Closed
            );
            for m in now.legal_moves(&Rules::CLASSIC).iter() {
                let next = now.play(&Rules::CLASSIC, *m).unwrap();
                assert_eq!(live.standing(&next, among), Standing::Open, "{m}");
            }
        }
        let before = *game(&moves[..7]).position();
        assert_eq!(live.standing(&before, Among::AllGames), Standing::Closed);
        assert_eq!(
            live.standing(&before, Among::PeoplesGamesNow),
            Standing::Open
        );
        positions.clear();
        assert_eq!(live.standing(&now, Among::PeoplesGamesNow), Standing::Open);
        assert_eq!(live.standing(&now, Among::AllGames), Standing::Open);
    }

    #[test]
    fn a_mirrored_or_colour_swapped_board_has_the_same_key() {
        let position = *game(&["a3a4", "g7g6"]).position();
        assert_eq!(key(&position.mirrored()), key(&position));
        assert_eq!(key(&position.colours_swapped()), key(&position));
        assert_eq!(key(&Position::start()), None);
    }
}
