//! The starter set (issue 27): puzzles that ship with the server, so a new site has puzzles on
//! day one. Mined from self-play by `jungle-server puzzles mine --selfplay N` (the command and
//! its figures are in docs/benchmarks.md), one JSON line a puzzle, a file per ruleset, loaded
//! at start in the background; loading again adds nothing (a puzzle's id is what it is) but
//! brings the stored themes up to the shipped ones.

use super::Puzzle;
use jungle_store::Store;

/// The thought each solver move of a shipped puzzle is checked with (twice the miner's):
/// `puzzles recheck` keeps only what holds at it, and the tests check a sample again.
pub const RECHECK_NODES: u64 = 400_000;

/// The shipped files, one per ruleset.
pub const FILES: [(&str, &str); 4] = [
    ("classic", include_str!("../puzzles/classic.jsonl")),
    ("strict", include_str!("../puzzles/strict.jsonl")),
    ("daitou", include_str!("../puzzles/daitou.jsonl")),
    (
        "international",
        include_str!("../puzzles/international.jsonl"),
    ),
];

/// Every shipped puzzle; a line that does not read is a build's mistake, named.
pub fn puzzles() -> Result<Vec<Puzzle>, String> {
    let mut all = Vec::new();
    for (name, text) in FILES {
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let puzzle: Puzzle = serde_json::from_str(line)
                .map_err(|e| format!("puzzles/{name}.jsonl line {}: {e}", n + 1))?;
            all.push(puzzle);
        }
    }
    Ok(all)
}

/// Loads the starter set: adds the puzzles the database lacks (a newer server ships more)
/// and updates the themes of those it has.
pub async fn load(store: Store) {
    let shipped = match puzzles() {
        Ok(shipped) => shipped,
        Err(e) => {
            tracing::error!(error = %e, "the starter puzzles do not read");
            return;
        }
    };
    match store.add_puzzles(&shipped).await {
        Ok(0) => {}
        Ok(added) => tracing::info!(added, "starter puzzles loaded or updated"),
        Err(e) => tracing::warn!(error = %e, "starter puzzles not loaded"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Budget, Miner};
    use jungle_game::themes;
    use std::collections::HashSet;

    /// Every shipped puzzle replays under the rules (legal, the solver to move after the
    /// opponent's move, the line ending on the solver's move), carries the themes its line
    /// shows, and is there once.
    #[test]
    fn every_shipped_puzzle_holds_under_the_rules() {
        let all = puzzles().expect("the starter set reads");
        assert!(!all.is_empty());
        let mut ids = HashSet::new();
        for puzzle in &all {
            puzzle.check().unwrap_or_else(|e| panic!("{puzzle:?}: {e}"));
            assert_eq!(puzzle.solution.len() % 2, 1, "{puzzle:?}");
            assert_eq!(themes::detect(puzzle), puzzle.themes, "{puzzle:?}");
            assert!(
                ids.insert(jungle_store::puzzle_id(puzzle)),
                "twice: {puzzle:?}"
            );
        }
        for (name, _) in FILES {
            let ruleset: jungle_rules::Ruleset = name.parse().expect("a ruleset");
            assert!(all.iter().any(|p| p.rules == ruleset), "none for {name}");
        }
    }

    /// Loading twice adds nothing the second time; a stored puzzle whose themes are behind
    /// the shipped ones (a server before the detector learnt a theme) is brought up to them.
    #[tokio::test]
    async fn loading_again_adds_nothing_and_brings_themes_up_to_date() {
        let (store, _dir) = Store::temporary(None).await;
        let shipped = puzzles().expect("the starter set reads");
        let with_themes = shipped
            .iter()
            .find(|p| p.themes.len() > 1)
            .expect("a puzzle with two themes");
        let mut behind = with_themes.clone();
        behind.themes.pop();
        assert_eq!(store.add_puzzles(&[behind]).await.expect("added"), 1);
        load(store.clone()).await;
        let id = jungle_store::puzzle_id(with_themes);
        let stored = store.puzzle(&id).await.expect("read").expect("stored");
        assert_eq!(stored.puzzle.themes, with_themes.themes);
        assert_eq!(store.add_puzzles(&shipped).await.expect("loaded"), 0);
    }

    /// A sample of each ruleset's puzzles is solved again by the engine with twice the
    /// thought the miner gave it: a real mistake first, then the same moves, each still
    /// clearly the best, ending on a capture or a win.
    #[test]
    fn a_sample_is_unique_with_more_thought() {
        let all = puzzles().expect("the starter set reads");
        let budget = RECHECK_NODES;
        for (name, _) in FILES {
            let ruleset: jungle_rules::Ruleset = name.parse().expect("a ruleset");
            let mut miner = Miner::new(ruleset, Budget::default());
            let of_ruleset: Vec<&Puzzle> = all.iter().filter(|p| p.rules == ruleset).collect();
            let step = (of_ruleset.len() / 3).max(1);
            for puzzle in of_ruleset.iter().step_by(step).take(3) {
                miner
                    .recheck(puzzle, budget)
                    .unwrap_or_else(|e| panic!("{puzzle:?}: {e}"));
            }
        }
    }
}
