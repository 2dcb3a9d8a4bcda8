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

/// Loads the starter set: adds the puzzles the database lacks (a newer server ships more),
/// brings the line and themes of those it has up to the shipped ones (their id, rating and
/// attempts stay), and retires the self-play puzzles the set no longer holds (readable by id,
/// for players' histories; dealt no more).
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
    let ids = shipped.iter().map(jungle_store::puzzle_id).collect();
    match store.retire_starter_puzzles_except(&ids).await {
        Ok(0) => {}
        Ok(retired) => tracing::info!(retired, "starter puzzles no longer shipped were retired"),
        Err(e) => tracing::warn!(error = %e, "starter puzzles not retired"),
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

    /// Every shipped line goes to its point (issue 53): a den entry, or material made safe — the
    /// opponent cannot take the last capturing animal back at once unless the line answers it
    /// — and every puzzle carries how it was judged, by the engine and by counting animals.
    #[test]
    fn every_shipped_line_ends_quiet_and_was_judged_twice() {
        for puzzle in puzzles().expect("the starter set reads") {
            let game = puzzle.start().expect("a start");
            let line: Vec<jungle_rules::Move> = puzzle
                .solution
                .iter()
                .map(|m| m.parse().expect("a move"))
                .collect();
            let end = crate::miner::quiet_end(&game, &line);
            assert_eq!(
                end,
                Some(line.len() - 1),
                "not quiet at its end: {puzzle:?}"
            );
            let judged = puzzle.judged.expect("judged");
            assert_eq!(judged.den, puzzle.ends_in_den(), "{puzzle:?}");
            if !judged.den {
                assert!(judged.animals_up >= 1, "an exchange: {puzzle:?}");
                assert!(judged.chances_permille >= 600, "{puzzle:?}");
            }
        }
    }

    /// Per ruleset, no theme but `material` on more than a quarter of the set, and den entries
    /// on at least a fifth (issue 53).
    #[test]
    fn each_rulesets_set_is_in_balance() {
        let all = puzzles().expect("the starter set reads");
        for (name, _) in FILES {
            let ruleset: jungle_rules::Ruleset = name.parse().expect("a ruleset");
            let of_ruleset: Vec<Puzzle> =
                all.iter().filter(|p| p.rules == ruleset).cloned().collect();
            crate::balance::holds(&of_ruleset).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    /// The themes a page can filter by (five puzzles or more, as the page asks) are many in
    /// every ruleset: the ways to win (the den in two, three or more; material) and the
    /// motifs on the way (an endgame, a long line, a jump over the river).
    #[test]
    fn every_ruleset_has_enough_of_its_main_themes() {
        use jungle_game::theme::Theme::*;
        let all = puzzles().expect("the starter set reads");
        for (name, _) in FILES {
            let ruleset: jungle_rules::Ruleset = name.parse().expect("a ruleset");
            let of_ruleset: Vec<&Puzzle> = all.iter().filter(|p| p.rules == ruleset).collect();
            assert!(of_ruleset.len() >= 100, "{name}: {}", of_ruleset.len());
            for theme in [Material, Den2, Den3, DenLong, Endgame, Long, RiverJump] {
                let on = of_ruleset
                    .iter()
                    .filter(|p| p.themes.contains(&theme))
                    .count();
                assert!(
                    on as u64 >= crate::balance::FEWEST_TO_FILTER,
                    "{name}: {} on {on}",
                    theme.name()
                );
            }
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

    /// A self-play puzzle the set no longer ships is retired at the next load: still read by
    /// id (a player's history), dealt no more; shipped again, it is dealt again.
    #[tokio::test]
    async fn a_puzzle_no_longer_shipped_is_retired_and_stays_readable() {
        let (store, _dir) = Store::temporary(None).await;
        // An older set's puzzle (its move number makes it one no set ships).
        let mut old = Puzzle {
            rules: jungle_rules::Ruleset::Classic,
            position: "6t/ld3c1/2p1w1e/7/r6/7/E1WP1R1/1C3D1/T4L1 r 6 99".into(),
            blunder: "f3f4".into(),
            solution: vec!["a5a4".into(), "b2a2".into(), "a4a3".into()],
            themes: Vec::new(),
            source: None,
            judged: None,
        };
        old.themes = themes::detect(&old);
        old.check().expect("a puzzle under the rules");
        let id = jungle_store::puzzle_id(&old);
        assert_eq!(
            store
                .add_puzzles(std::slice::from_ref(&old))
                .await
                .expect("added"),
            1
        );
        load(store.clone()).await;
        let kept = store.puzzle(&id).await.expect("read").expect("still there");
        assert_eq!(kept.puzzle.solution, old.solution, "readable as it was");
        for pick in 0..30 {
            let dealt = store
                .next_puzzle(None, jungle_rules::Ruleset::Classic, None, 1_600.0, pick)
                .await
                .expect("read")
                .expect("a puzzle");
            assert_ne!(dealt.id, id, "a retired puzzle is not dealt");
        }
        // Shipped again: no longer retired.
        assert_eq!(
            store
                .add_puzzles(std::slice::from_ref(&old))
                .await
                .expect("added"),
            1
        );
        let shipped_now = std::collections::HashSet::from([id.clone()]);
        let others = store
            .retire_starter_puzzles_except(&shipped_now)
            .await
            .expect("retired");
        assert!(
            others > 0,
            "the rest of the set, not shipped in this test's set"
        );
        assert_eq!(
            store
                .retire_starter_puzzles_except(&shipped_now)
                .await
                .expect("retired"),
            0
        );
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
