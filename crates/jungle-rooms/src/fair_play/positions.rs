//! The positions of the games in play on this node, so that no engine path tells anyone about
//! them while they last. Positions are keyed by [`Position::symmetric_hash`]: the same board
//! pasted, reached by another move order, mirrored or with the colours swapped has the same
//! key. The history rules (7-3, 17-5, cycles) and counters are not part of the key: the
//! engine's advice on a position is advice on it whatever led there.
//!
//! Each room holds a [`GamePositions`]: what it registered, taken out again when the game
//! ends, the room closes or the task is dropped by any path.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use jungle_rules::{Animal, Game, Piece, Position, Side};
use uuid::Uuid;

/// Boards this close to where a game between people stands now (see
/// [`Position::board_distance`]: two turns, captures included) are closed to the engine too:
/// analysing every position one or two moves on from a live one would otherwise give away its
/// best move by elimination.
pub const NEAR: u32 = 6;
/// Boards this close (but not [`NEAR`]) are answered, a few an hour per player and address:
/// one such board says little, but the best moves of thirty of them, by majority, say what to
/// play in the live position (a cold test did it at distances 7 to 10).
pub const FAR: u32 = 12;
/// Boards where one side's animals stand within this of that side's in a game between people
/// (two of them moved at most), however the other side's stand, are close too: a cold test
/// kept the side to move as it was, moved all seven of the other side's animals a square
/// (distance 14, past [`FAR`]) and read the live game's best move from the majority of ten
/// free answers. What a side may play depends mostly on where its own animals stand.
pub const ONE_SIDE_FAR: u32 = 4;
/// Games closer to their start than this are left out of the nearness check (only where they
/// stand exactly counts): the first moves are everyone's, and every game is near every other
/// there.
pub const NEAR_FROM_PLY: usize = 8;

/// How a board stands to the games in play, for the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// Nowhere near: the engine answers.
    Open,
    /// Within [`FAR`] of where a game between people stands: answered within a budget.
    Close,
    /// In a game in play, or within [`NEAR`] of where one between people stands: no answer.
    Closed,
}

/// Where each animal stands (255: off the board), in a fixed order: what nearness compares.
type Placements = [u8; 16];

fn placements(position: &Position) -> Placements {
    let mut placed = [u8::MAX; 16];
    for (i, side) in Side::ALL.into_iter().enumerate() {
        for (j, animal) in Animal::ALL.into_iter().enumerate() {
            if let Some(square) = position.square_of(Piece::new(side, animal)) {
                placed[i * 8 + j] = square.index() as u8;
            }
        }
    }
    placed
}

/// [`Position::board_distance`] on placements.
fn distance(a: &Placements, b: &Placements) -> u32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| match (*x == u8::MAX, *y == u8::MAX) {
            _ if x == y => 0,
            (false, false) => 2,
            _ => 1,
        })
        .sum()
}

/// [`distance`] over one side's animals alone (0 Red, 1 Blue).
fn side_distance(a: &Placements, b: &Placements, side: usize) -> u32 {
    let one = |p: &Placements| -> Placements {
        let mut only = [u8::MAX; 16];
        only[side * 8..side * 8 + 8].copy_from_slice(&p[side * 8..side * 8 + 8]);
        only
    };
    distance(&one(a), &one(b))
}

/// Which games a position is looked up among.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Among {
    /// Every position of every game in play, against the computer too, and the boards near
    /// where games between people stand now: what analysis must not reveal.
    AllGames,
    /// Only where games between two players who are not our computer (people, and later bots
    /// run by people) stand now, and the boards near: what the computer's own moves must not
    /// reveal. A position such a game has left behind tells its players nothing now, and
    /// closing them all would have the computer play at random through every common opening.
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
    /// Where each game between people stands now.
    current: HashMap<Uuid, Standpoint>,
}

/// Where a game between people stands now, for nearness.
struct Standpoint {
    placements: Placements,
    plies: usize,
    /// Played over days: boards close to it are closed, not answered within a budget. The
    /// budget makes the majority attack cost an hour a move, which a turn of days affords.
    over_days: bool,
}

impl Counts {
    fn map(&mut self, seats: Seats) -> &mut HashMap<u64, u32> {
        match seats {
            Seats::People => &mut self.people,
            Seats::WithComputer => &mut self.with_computer,
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
        if among == Among::AllGames && self.holds_any(&[key], Seats::WithComputer) {
            return Standing::Closed;
        }
        self.nearness(position)
    }

    /// How close `position` (or its mirror or colour swap) is to where a game between people
    /// stands now: exactly there closes it whatever the game's age; within [`NEAR`] or
    /// [`FAR`] counts once the game is [`NEAR_FROM_PLY`] plies old (within [`FAR`] of a game
    /// over days closes it too).
    fn nearness(&self, position: &Position) -> Standing {
        let mirrored = position.mirrored();
        let variants = [
            placements(position),
            placements(&mirrored),
            placements(&position.colours_swapped()),
            placements(&mirrored.colours_swapped()),
        ];
        let counts = self.inner.lock().expect("live positions lock");
        let mut standing = Standing::Open;
        for game in counts.current.values() {
            let now = &game.placements;
            for variant in &variants {
                let distance = distance(variant, now);
                let grown = game.plies >= NEAR_FROM_PLY;
                if distance == 0 || (grown && distance <= NEAR) {
                    return Standing::Closed;
                }
                let one_side_close =
                    (0..2).any(|side| side_distance(variant, now, side) <= ONE_SIDE_FAR);
                if grown && (distance <= FAR || one_side_close) {
                    if game.over_days {
                        return Standing::Closed;
                    }
                    standing = Standing::Close;
                }
            }
        }
        standing
    }

    fn set_current(&self, game: Uuid, position: Option<(&Position, usize, bool)>) {
        let mut counts = self.inner.lock().expect("live positions lock");
        match position {
            Some((position, plies, over_days)) => {
                let standpoint = Standpoint {
                    placements: placements(position),
                    plies,
                    over_days,
                };
                counts.current.insert(game, standpoint);
            }
            None => {
                counts.current.remove(&game);
            }
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
            *map.entry(*key).or_default() += 1;
        }
    }

    fn remove(&self, seats: Seats, keys: &[u64]) {
        let mut counts = self.inner.lock().expect("live positions lock");
        let map = counts.map(seats);
        for key in keys {
            if let Some(count) = map.get_mut(key) {
                *count -= 1;
                if *count == 0 {
                    map.remove(key);
                }
            }
        }
    }
}

/// One game's positions in the registry (each ply's key; the start's when it is not the
/// standard one). Dropping it takes them all out.
pub struct GamePositions {
    registry: LivePositions,
    game: Uuid,
    seats: Seats,
    /// A game over days (see [`Standpoint::over_days`]).
    over_days: bool,
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
            over_days: false,
            keys: Vec::new(),
        }
    }

    /// Marks a game played over days: the boards close to where it stands are closed.
    pub fn over_days(mut self, over_days: bool) -> GamePositions {
        self.over_days = over_days;
        self
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

    /// Where a game between people stands now, for nearness.
    fn follow_current(&self, game: &Game) {
        let now = (self.seats == Seats::People)
            .then(|| (game.position(), game.ply_count(), self.over_days));
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

    /// `position` with every animal of `side` moved a square to an empty land square, where
    /// one is free (drawing only: legality does not matter here).
    fn each_moved_a_square(position: &Position, side: Side) -> Position {
        let text = position.to_string();
        let (board, rest) = text.split_once(' ').unwrap();
        let mut grid: Vec<Vec<char>> = board
            .split('/')
            .map(|row| {
                row.chars()
                    .flat_map(|c| match c.to_digit(10) {
                        Some(n) => vec!['.'; n as usize],
                        None => vec![c],
                    })
                    .collect()
            })
            .collect();
        let water = |r: usize, f: usize| (3..=5).contains(&r) && matches!(f, 1 | 2 | 4 | 5);
        let mut moved = vec![vec![false; 7]; 9];
        for r in 0..9 {
            for f in 0..7 {
                let c = grid[r][f];
                let ours = c != '.' && (c.is_ascii_uppercase() == (side == Side::Red));
                if !ours || moved[r][f] {
                    continue;
                }
                let steps = [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)];
                for (dr, df) in steps {
                    let (nr, nf) = (r as i32 + dr, f as i32 + df);
                    if !(0..9).contains(&nr) || !(0..7).contains(&nf) {
                        continue;
                    }
                    let (nr, nf) = (nr as usize, nf as usize);
                    if grid[nr][nf] == '.' && !water(nr, nf) {
                        grid[nr][nf] = c;
                        grid[r][f] = '.';
                        moved[nr][nf] = true;
                        break;
                    }
                }
            }
        }
        let rows: Vec<String> = grid
            .iter()
            .map(|row| {
                let mut out = String::new();
                let mut empty = 0;
                for &c in row {
                    if c == '.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect();
        format!("{} {rest}", rows.join("/")).parse().unwrap()
    }

    #[test]
    fn boards_near_where_a_peoples_game_stands_are_near_it() {
        use Standing::{Close, Closed, Open};
        let live = LivePositions::default();
        let mut positions = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People);
        let moves = [
            "e3d3", "e7d7", "d3d4", "a7a6", "g3g4", "g7g6", "a3a4", "a6a5", "b2b3",
        ];
        let played = game(&moves);
        positions.follow(&played);
        let now = *played.position();
        let near = |p: &Position| live.standing(p, Among::PeoplesGamesNow);
        assert_eq!(near(&now), Closed);
        // Every position one move on, with an animal fewer, or with the other side to move.
        for m in now.legal_moves(&Rules::CLASSIC).iter() {
            assert_eq!(near(&now.play(&Rules::CLASSIC, *m).unwrap()), Closed);
        }
        let mut other_side = game(&moves[..8]);
        other_side.play("a1a2".parse().unwrap()).unwrap();
        assert_eq!(near(other_side.position()), Closed);
        assert_eq!(near(&now.mirrored()), Closed);
        // Four more animals moved a square each: close, answered within a budget.
        let mut further = game(&moves);
        for m in ["g9f9", "g1f1", "a9b9", "a1b1"] {
            further.play(m.parse().unwrap()).unwrap();
        }
        assert_eq!(near(further.position()), Close);
        // The side to move as it stands, every animal of the other side a square away
        // (the cold test's boards, past FAR): close.
        assert_eq!(now.side_to_move(), Side::Blue);
        let shuffled = each_moved_a_square(&now, Side::Red);
        assert!(distance(&placements(&shuffled), &placements(&now)) > FAR);
        assert_eq!(near(&shuffled), Close);
        // The start is everyone's, and a board far away is open.
        assert_eq!(near(&Position::start()), Open);
        let far: Position = "6l/7/7/7/7/7/7/7/L6 r 0 20".parse().unwrap();
        assert_eq!(near(&far), Open);
        // A game in its first moves closes only where it stands; one that ends takes its
        // place with it.
        let mut young = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People);
        young.follow(&game(&["g3g4"]));
        positions.clear();
        assert_eq!(near(&now), Open);
        assert_eq!(near(game(&["g3g4"]).position()), Closed);
        assert_eq!(near(game(&["g3g4", "a7a6"]).position()), Open);
    }

    /// A game over days: the boards close to it (answered within a budget near a game in one
    /// sitting) are closed; a turn of days affords the budget's hour a move.
    #[test]
    fn boards_close_to_a_game_over_days_are_closed() {
        let live = LivePositions::default();
        let moves = [
            "e3d3", "e7d7", "d3d4", "a7a6", "g3g4", "g7g6", "a3a4", "a6a5", "b2b3",
        ];
        let played = game(&moves);
        let mut further = game(&moves);
        for m in ["g9f9", "g1f1", "a9b9", "a1b1"] {
            further.play(m.parse().unwrap()).unwrap();
        }
        let near = |p: &Position| live.standing(p, Among::AllGames);
        let mut one_sitting = GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People);
        one_sitting.follow(&played);
        assert_eq!(near(further.position()), Standing::Close);
        one_sitting.clear();
        let mut over_days =
            GamePositions::new(live.clone(), Uuid::new_v4(), Seats::People).over_days(true);
        over_days.follow(&played);
        assert_eq!(near(further.position()), Standing::Closed);
        let shuffled = each_moved_a_square(played.position(), Side::Red);
        assert_eq!(near(&shuffled), Standing::Closed);
        let far: Position = "6l/7/7/7/7/7/7/7/L6 r 0 20".parse().unwrap();
        assert_eq!(near(&far), Standing::Open);
        over_days.clear();
        assert_eq!(near(further.position()), Standing::Open);
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

    #[test]
    fn a_mirrored_or_colour_swapped_board_has_the_same_key() {
        let position = *game(&["a3a4", "g7g6"]).position();
        assert_eq!(key(&position.mirrored()), key(&position));
        assert_eq!(key(&position.colours_swapped()), key(&position));
        assert_eq!(key(&Position::start()), None);
    }
}
