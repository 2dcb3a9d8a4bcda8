//! How a player's moves in a game compare with our engine's, and what that suggests: pure
//! arithmetic over what the assessor measured (no engine, no store here). Modelled on lichess's
//! `PlayerAssessment`: a few signals, each cut into tiers, combined by a table into a verdict
//! from "fine" to "likely an engine". The thresholds, and why, are in docs/decisions.md.

/// Own moves at the start of a game that are not judged: openings are known by heart, and
/// each side's first move is untimed (the abort clock runs instead).
pub const OPENING_MOVES: usize = 2;
/// A position this far from level (centi-animals, for the side to move) is decided: every
/// sensible move wins or loses, so matching the engine there proves nothing.
pub const DECIDED_CP: i32 = 1500;
/// Judged moves a game needs before its numbers mean anything.
pub const MIN_MOVES: u32 = 8;
/// Timed moves needed for the move-time signal.
pub const MIN_TIMED: u32 = 8;
/// A move made faster than this is "very fast" (premoves, obvious recaptures).
pub const FAST_MS: i64 = 500;

/// "High accuracy": at least this share of the engine's first choices, and at most this
/// average loss. Measured at the fair-play assessor's depth (`jungle-server`'s `fair_play::assessor::DEPTH`): our engine at full
/// strength (60 ms a move) matched 44–100% of the moves judged (about 65% over many games) and
/// lost 0–24 centi-animals a move; a level-3 player matched 10–43% and lost 18–200.
pub const HIGH_MATCH: f64 = 0.65;
pub const HIGH_LOSS_CP: f64 = 12.0;
/// "Moderate accuracy".
pub const MODERATE_MATCH: f64 = 0.5;
pub const MODERATE_LOSS_CP: f64 = 25.0;
/// Move times whose coefficient of variation is below these are "flat" and "steady": people
/// think long on hard moves and fast on easy ones (a CV of 0.7 and more is usual), a program
/// that sleeps a fixed time before answering does not.
pub const FLAT_CV: f64 = 0.25;
pub const STEADY_CV: f64 = 0.4;
/// Shares of judged moves made after the tab lost focus (another window, another program).
pub const HIGH_BLUR: f64 = 0.7;
pub const MODERATE_BLUR: f64 = 0.3;

/// Boards a player had our engine analyse, while a game over days of theirs was in play, that
/// resemble a position of that game (within this many by `Position::board_distance`, a board
/// mirrored or colour-swapped alike: about six animals a square off). The engine answers
/// such boards (issue 49: a live board's exact positions are refused, near ones are not), so
/// asking many of them is the trace that recovering a live move from near boards leaves.
pub const RESEMBLES: u32 = 12;
/// So many resembling boards in one game are "many", so many "some". An honest player who
/// studies an opening on the analysis board meets a few by chance; the majority attack needs
/// 16 to 40 a move.
pub const MANY_RESEMBLING: u32 = 10;
pub const SOME_RESEMBLING: u32 = 3;

/// From 1 (nothing to see) to 5 (likely an engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Fine = 1,
    UnlikelyCheating = 2,
    Unclear = 3,
    LikelyCheating = 4,
    LikelyEngine = 5,
}

impl Verdict {
    pub fn from_level(level: i64) -> Verdict {
        match level {
            ..=1 => Verdict::Fine,
            2 => Verdict::UnlikelyCheating,
            3 => Verdict::Unclear,
            4 => Verdict::LikelyCheating,
            _ => Verdict::LikelyEngine,
        }
    }

    pub fn level(self) -> i64 {
        self as i64
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Fine => "fine",
            Verdict::UnlikelyCheating => "unlikely cheating",
            Verdict::Unclear => "unclear",
            Verdict::LikelyCheating => "likely cheating",
            Verdict::LikelyEngine => "likely engine",
        }
    }
}

/// A game's verdict from this level up puts the player in the moderators' queue.
pub const QUEUE_GAME: Verdict = Verdict::LikelyEngine;
/// A player's record from this level up does too.
pub const QUEUE_PLAYER: Verdict = Verdict::LikelyCheating;
/// The record: the latest games judged, and how many it needs.
pub const RECORD_GAMES: usize = 30;
pub const RECORD_MIN_GAMES: usize = 3;

/// One judged move: the engine's best score and the played move's, both for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgedMove {
    pub best_cp: i32,
    pub played_cp: i32,
}

impl JudgedMove {
    pub fn matched(self) -> bool {
        self.played_cp >= self.best_cp
    }

    /// What the move gave away, capped so that one blunder does not swamp a game.
    pub fn loss(self) -> i32 {
        (self.best_cp - self.played_cp).clamp(0, 1000)
    }
}

/// What was measured of one player in one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Signals {
    pub moves: u32,
    pub matched: u32,
    pub loss_cp: f64,
    pub time_cv: Option<f64>,
    pub timed_moves: u32,
    pub fast_moves: u32,
    pub blurs: u32,
    /// Boards analysed by our engine for this player, while the game was in play, that
    /// resemble one of its positions (see [`RESEMBLES`]).
    pub resembling: u32,
}

impl Signals {
    /// From the judged moves, the times of the player's timed moves (milliseconds), and how
    /// many of their judged moves came after a blur.
    pub fn measure(judged: &[JudgedMove], times_ms: &[i64], blurs: u32) -> Signals {
        let moves = judged.len() as u32;
        let matched = judged.iter().filter(|m| m.matched()).count() as u32;
        let loss_cp = if judged.is_empty() {
            0.0
        } else {
            judged.iter().map(|m| f64::from(m.loss())).sum::<f64>() / judged.len() as f64
        };
        let timed_moves = times_ms.len() as u32;
        let fast_moves = times_ms.iter().filter(|&&t| t < FAST_MS).count() as u32;
        Signals {
            moves,
            matched,
            loss_cp,
            time_cv: (timed_moves >= MIN_TIMED)
                .then(|| coefficient_of_variation(times_ms))
                .flatten(),
            timed_moves,
            fast_moves,
            blurs: blurs.min(moves),
            resembling: 0,
        }
    }

    /// With the boards analysed that resembled the game.
    pub fn with_resembling(self, resembling: u32) -> Signals {
        Signals { resembling, ..self }
    }

    pub fn match_share(&self) -> f64 {
        f64::from(self.matched) / f64::from(self.moves.max(1))
    }

    pub fn blur_share(&self) -> f64 {
        f64::from(self.blurs) / f64::from(self.moves.max(1))
    }

    /// The verdict for these numbers; a game too short to judge is fine.
    pub fn verdict(&self) -> Verdict {
        if self.moves < MIN_MOVES {
            return Verdict::Fine;
        }
        combine(
            accuracy(self.match_share(), self.loss_cp),
            times(self.time_cv),
            blur(self.blur_share()).max(resembling(self.resembling)),
        )
    }
}

fn coefficient_of_variation(values: &[i64]) -> Option<f64> {
    let n = values.len() as f64;
    let mean = values.iter().sum::<i64>() as f64 / n;
    if mean <= 0.0 {
        return None;
    }
    let variance = values
        .iter()
        .map(|&v| (v as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    Some(variance.sqrt() / mean)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    None,
    Moderate,
    High,
}

fn accuracy(match_share: f64, loss_cp: f64) -> Tier {
    if match_share >= HIGH_MATCH && loss_cp <= HIGH_LOSS_CP {
        Tier::High
    } else if match_share >= MODERATE_MATCH && loss_cp <= MODERATE_LOSS_CP {
        Tier::Moderate
    } else {
        Tier::None
    }
}

/// "High" here is flat times, "moderate" steady ones.
fn times(cv: Option<f64>) -> Tier {
    match cv {
        Some(cv) if cv < FLAT_CV => Tier::High,
        Some(cv) if cv < STEADY_CV => Tier::Moderate,
        _ => Tier::None,
    }
}

fn blur(share: f64) -> Tier {
    if share >= HIGH_BLUR {
        Tier::High
    } else if share >= MODERATE_BLUR {
        Tier::Moderate
    } else {
        Tier::None
    }
}

/// Analysed boards resembling the game back accuracy up as blurs do: both say the player
/// looked elsewhere for their moves.
fn resembling(boards: u32) -> Tier {
    if boards >= MANY_RESEMBLING {
        Tier::High
    } else if boards >= SOME_RESEMBLING {
        Tier::Moderate
    } else {
        Tier::None
    }
}

/// The table: accuracy is the main witness; flat times and blurs back it up; neither of
/// those alone says more than "unlikely".
fn combine(accuracy: Tier, times: Tier, blur: Tier) -> Verdict {
    use Tier::*;
    match (accuracy, times, blur) {
        (High, High, _) | (High, _, Moderate | High) => Verdict::LikelyEngine,
        (Moderate, High, Moderate | High) => Verdict::LikelyEngine,
        (High, _, _) => Verdict::LikelyCheating,
        (Moderate, High, _) | (Moderate, _, High) => Verdict::LikelyCheating,
        (Moderate, Moderate, _) | (Moderate, _, Moderate) => Verdict::Unclear,
        (None, High, High) => Verdict::Unclear,
        (Moderate, _, _) | (None, High, _) | (None, _, High) => Verdict::UnlikelyCheating,
        _ => Verdict::Fine,
    }
}

/// A player's record: the sums over their latest judged games (each long enough to judge).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    pub games: usize,
    pub moves: u32,
    pub matched: u32,
    pub loss_cp: f64,
    /// The mean of the games' move-time CVs (those that had one).
    pub time_cv: Option<f64>,
    pub blurs: u32,
    /// Games with many analysed boards resembling them.
    pub resembling_games: usize,
    /// Games whose own verdict was "likely cheating" or worse.
    pub suspicious_games: usize,
}

impl Record {
    pub fn of(games: &[Signals]) -> Record {
        let judged: Vec<&Signals> = games
            .iter()
            .filter(|g| g.moves >= MIN_MOVES)
            .take(RECORD_GAMES)
            .collect();
        let moves: u32 = judged.iter().map(|g| g.moves).sum();
        let cvs: Vec<f64> = judged.iter().filter_map(|g| g.time_cv).collect();
        Record {
            games: judged.len(),
            moves,
            matched: judged.iter().map(|g| g.matched).sum(),
            loss_cp: if moves == 0 {
                0.0
            } else {
                judged
                    .iter()
                    .map(|g| g.loss_cp * f64::from(g.moves))
                    .sum::<f64>()
                    / f64::from(moves)
            },
            time_cv: (!cvs.is_empty()).then(|| cvs.iter().sum::<f64>() / cvs.len() as f64),
            blurs: judged.iter().map(|g| g.blurs).sum(),
            resembling_games: judged
                .iter()
                .filter(|g| g.resembling >= MANY_RESEMBLING)
                .count(),
            suspicious_games: judged
                .iter()
                .filter(|g| g.verdict() >= Verdict::LikelyCheating)
                .count(),
        }
    }

    /// The record's verdict: the same table over all its moves, and at least "likely
    /// cheating" when half its games are; nothing is said before [`RECORD_MIN_GAMES`].
    pub fn verdict(&self) -> Verdict {
        if self.games < RECORD_MIN_GAMES {
            return Verdict::Fine;
        }
        let overall = combine(
            accuracy(
                f64::from(self.matched) / f64::from(self.moves.max(1)),
                self.loss_cp,
            ),
            times(self.time_cv),
            blur(f64::from(self.blurs) / f64::from(self.moves.max(1))).max(
                match self.resembling_games {
                    0 => Tier::None,
                    1 => Tier::Moderate,
                    _ => Tier::High,
                },
            ),
        );
        if self.suspicious_games * 2 >= self.games {
            overall.max(Verdict::LikelyCheating)
        } else {
            overall
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(matched: usize, missed: usize, loss: i32) -> Vec<JudgedMove> {
        let mut moves = vec![
            JudgedMove {
                best_cp: 100,
                played_cp: 100,
            };
            matched
        ];
        moves.extend(vec![
            JudgedMove {
                best_cp: 100,
                played_cp: 100 - loss,
            };
            missed
        ]);
        moves
    }

    #[test]
    fn an_engine_with_flat_times_is_likely_an_engine() {
        let times = [2000, 2100, 1950, 2050, 2000, 1980, 2020, 2010, 1990, 2000];
        let signals = Signals::measure(&judged(18, 2, 40), &times, 0);
        assert!(signals.time_cv.unwrap() < FLAT_CV);
        assert!(signals.loss_cp <= HIGH_LOSS_CP);
        assert_eq!(signals.verdict(), Verdict::LikelyEngine);
    }

    /// Issue 49: boards resembling the game, analysed while it was in play, back accuracy up
    /// as blurs do; alone they say little.
    #[test]
    fn analysed_boards_resembling_the_game_back_accuracy_up() {
        let times = [
            800, 12_000, 3_000, 450, 25_000, 6_000, 1_500, 9_000, 2_200, 300,
        ];
        let accurate = Signals::measure(&judged(11, 9, 40), &times, 0);
        assert_eq!(accurate.verdict(), Verdict::UnlikelyCheating);
        let studied = accurate.clone().with_resembling(SOME_RESEMBLING);
        assert_eq!(studied.verdict(), Verdict::Unclear);
        let looked_up = accurate.with_resembling(MANY_RESEMBLING);
        assert_eq!(looked_up.verdict(), Verdict::LikelyCheating);
        let careless = Signals::measure(&judged(7, 13, 120), &times, 0);
        assert_eq!(
            careless.with_resembling(40).verdict(),
            Verdict::UnlikelyCheating,
            "without accuracy, a hint"
        );
    }

    #[test]
    fn a_person_who_thinks_unevenly_and_errs_is_fine() {
        let times = [
            800, 12_000, 3_000, 450, 25_000, 6_000, 1_500, 9_000, 2_200, 300,
        ];
        let signals = Signals::measure(&judged(7, 13, 120), &times, 1);
        assert!(signals.time_cv.unwrap() > 0.7);
        assert_eq!(signals.fast_moves, 2);
        assert_eq!(signals.verdict(), Verdict::Fine);
    }

    #[test]
    fn one_witness_alone_says_little() {
        let flat = [2000; 10];
        assert_eq!(
            Signals::measure(&judged(5, 15, 200), &flat, 0).verdict(),
            Verdict::UnlikelyCheating,
            "flat times alone"
        );
        let uneven = [800, 12_000, 3_000, 450, 25_000, 6_000, 1_500, 9_000];
        assert_eq!(
            Signals::measure(&judged(16, 4, 30), &uneven, 0).verdict(),
            Verdict::LikelyCheating,
            "high accuracy alone"
        );
        assert_eq!(
            Signals::measure(&judged(16, 4, 30), &uneven, 15).verdict(),
            Verdict::LikelyEngine,
            "high accuracy with the tab away most of the time"
        );
    }

    #[test]
    fn short_games_and_small_records_say_nothing() {
        assert_eq!(
            Signals::measure(&judged(5, 0, 0), &[2000; 5], 5).verdict(),
            Verdict::Fine
        );
        let engine = Signals::measure(&judged(20, 0, 0), &[2000; 10], 0);
        assert_eq!(
            Record::of(&[engine.clone(), engine.clone()]).verdict(),
            Verdict::Fine
        );
        let record = Record::of(&[engine.clone(), engine.clone(), engine]);
        assert_eq!(record.games, 3);
        assert_eq!(record.verdict(), Verdict::LikelyEngine);
    }

    #[test]
    fn a_record_half_suspicious_is_likely_cheating() {
        let uneven = [800, 12_000, 3_000, 450, 25_000, 6_000, 1_500, 9_000];
        let good = Signals::measure(&judged(16, 4, 30), &uneven, 0);
        let poor = Signals::measure(&judged(4, 16, 150), &uneven, 0);
        let record = Record::of(&[good.clone(), poor, good]);
        assert_eq!(record.suspicious_games, 2);
        assert_eq!(record.verdict(), Verdict::LikelyCheating);
    }
}
