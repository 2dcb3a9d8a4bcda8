//! `jungle-server puzzles mine`: the miner from the command line, over self-play games (what
//! made the starter set) — a puzzle a line of JSON, and what was rejected and why at the end.

use std::collections::BTreeMap;
use std::io::Write;

use clap::Args;
use jungle_rules::Ruleset;

use super::{selfplay, Budget, Miner, Rejection};

#[derive(Clone, Debug, Args)]
pub struct MineArgs {
    /// Mine this many self-play games per ruleset.
    #[arg(long)]
    pub selfplay: u64,
    /// The first self-play game's number (to continue a run, or split one).
    #[arg(long, default_value_t = 0)]
    pub first: u64,
    /// Rulesets to mine (all four without it).
    #[arg(long = "rules")]
    pub rules: Vec<Ruleset>,
    /// Write the puzzles here (JSON lines, appended); standard output without it.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Start each game from a random endgame instead of the opening (for the motifs games
    /// from the opening rarely leave: a den entry in one, a defence, a rat blocking a jump).
    #[arg(long)]
    pub endgames: bool,
}

/// Mines as asked; the tally of puzzles and rejections, per ruleset.
pub fn run(args: &MineArgs) -> Result<String, String> {
    let rulesets = if args.rules.is_empty() {
        Ruleset::ALL.to_vec()
    } else {
        args.rules.clone()
    };
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => Box::new(std::io::stdout()),
    };
    let mut report = String::new();
    for ruleset in rulesets {
        let mut miner = Miner::new(ruleset, Budget::default());
        let mut found = 0u64;
        let mut rejected: BTreeMap<Rejection, u64> = BTreeMap::new();
        for n in args.first..args.first + args.selfplay {
            let (start, turns) = if args.endgames {
                selfplay::endgame(ruleset, n)
            } else {
                selfplay::game(ruleset, n)
            };
            match miner.mine(ruleset, start, &turns, None) {
                Ok(puzzle) => {
                    found += 1;
                    let line = serde_json::to_string(&puzzle).expect("a puzzle serializes");
                    writeln!(out, "{line}").map_err(|e| e.to_string())?;
                    out.flush().map_err(|e| e.to_string())?;
                }
                Err(why) => *rejected.entry(why).or_default() += 1,
            }
        }
        report.push_str(&format!(
            "{ruleset}: {} games, {found} puzzles",
            args.selfplay
        ));
        report.push_str(&tally(&rejected));
    }
    Ok(report)
}

/// The rejections counted, each named, ending the line.
fn tally(rejected: &BTreeMap<Rejection, u64>) -> String {
    let mut line = String::new();
    for why in Rejection::ALL {
        line.push_str(&format!(
            "; {}: {}",
            why.name(),
            rejected.get(&why).copied().unwrap_or(0)
        ));
    }
    line.push('\n');
    line
}

/// The puzzles of a file of JSON lines.
fn read_puzzles(path: &std::path::Path) -> Result<Vec<super::Puzzle>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{}: {e}", path.display())))
        .collect()
}

/// Writes `puzzles` to `path` as JSON lines (replacing it).
fn write_puzzles(path: &std::path::Path, puzzles: &[super::Puzzle]) -> Result<(), String> {
    let mut body = String::new();
    for puzzle in puzzles {
        body.push_str(&serde_json::to_string(puzzle).map_err(|e| e.to_string())?);
        body.push('\n');
    }
    std::fs::write(path, body).map_err(|e| format!("{}: {e}", path.display()))
}

#[derive(Clone, Debug, Args)]
pub struct RecheckArgs {
    /// Puzzles to check (JSON lines, as `mine` writes them).
    #[arg(long = "in")]
    pub input: std::path::PathBuf,
    /// Where those that hold go (JSON lines; replaced).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Search nodes per move (the miner used 200,000; the shipped set is checked with twice
    /// as many).
    #[arg(long, default_value_t = super::starter::RECHECK_NODES)]
    pub nodes: u64,
}

/// Keeps the puzzles whose every solver move is still clearly the best with `nodes` of
/// thought (and that replay and carry their themes); the tally of kept and dropped.
pub fn recheck(args: &RecheckArgs) -> Result<String, String> {
    let puzzles = read_puzzles(&args.input)?;
    let mut miners: BTreeMap<String, Miner> = BTreeMap::new();
    let kept: Vec<super::Puzzle> = puzzles
        .iter()
        .filter(|puzzle| {
            let miner = miners
                .entry(puzzle.rules.to_string())
                .or_insert_with(|| Miner::new(puzzle.rules, Budget::default()));
            puzzle.check().is_ok()
                && jungle_game::themes::detect(puzzle) == puzzle.themes
                && miner.recheck(puzzle, args.nodes).is_ok()
        })
        .cloned()
        .collect();
    write_puzzles(&args.out, &kept)?;
    Ok(format!(
        "{}: {} kept, {} dropped at {} nodes\n",
        args.input.display(),
        kept.len(),
        puzzles.len() - kept.len(),
        args.nodes
    ))
}

#[derive(Clone, Debug, Args)]
pub struct ThemesArgs {
    /// Puzzles (JSON lines, as `mine` writes them).
    #[arg(long = "in")]
    pub input: std::path::PathBuf,
    /// Where they go with their themes found again (JSON lines; replaced; may be `--in`).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Finds every puzzle's themes again from its line, keeping the order and everything else;
/// how many changed.
pub fn rethemes(args: &ThemesArgs) -> Result<String, String> {
    let mut puzzles = read_puzzles(&args.input)?;
    let mut changed = 0u64;
    for puzzle in &mut puzzles {
        let themes = jungle_game::themes::detect(puzzle);
        if themes != puzzle.themes {
            changed += 1;
            puzzle.themes = themes;
        }
    }
    write_puzzles(&args.out, &puzzles)?;
    Ok(format!(
        "{}: {changed} with new themes\n",
        args.input.display()
    ))
}

/// Mines each puzzle of `--in` again from its position and the opponent's mistake, by the
/// miner's present rules, with the miner's budgets: what holds goes to `--out` (its id, which is
/// its position and mistake, unchanged; its line, themes and judgement as mined now), in the
/// same order; the tally of what held and why the rest did not.
pub fn rejudge(args: &ThemesArgs) -> Result<String, String> {
    let mut held = Vec::new();
    let mut rejected: BTreeMap<Rejection, u64> = BTreeMap::new();
    let mut miners: BTreeMap<String, Miner> = BTreeMap::new();
    for puzzle in read_puzzles(&args.input)? {
        let miner = miners
            .entry(puzzle.rules.to_string())
            .or_insert_with(|| Miner::new(puzzle.rules, Budget::default()));
        match miner.rejudge(&puzzle) {
            Ok(again) => held.push(again),
            Err(why) => *rejected.entry(why).or_default() += 1,
        }
    }
    write_puzzles(&args.out, &held)?;
    Ok(format!(
        "{}: {} held{}",
        args.input.display(),
        held.len(),
        tally(&rejected)
    ))
}

/// Keeps `--in`'s puzzles in balance (see [`super::balance`]), in their order, in `--out`.
pub fn rebalance(args: &ThemesArgs) -> Result<String, String> {
    let puzzles = read_puzzles(&args.input)?;
    let kept = super::balance::balanced(&puzzles);
    write_puzzles(&args.out, &kept)?;
    Ok(format!(
        "{}: {} of {} kept in balance\n",
        args.input.display(),
        kept.len(),
        puzzles.len()
    ))
}
