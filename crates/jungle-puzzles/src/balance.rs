//! The balance of the puzzles dealt (issue 53): per ruleset, no theme but `material` on more
//! than a quarter of the puzzles, and den entries on at least a fifth, so that the set is not
//! one puzzle told many times. Pure: the shipped set is balanced by [`balanced`] (puzzles in,
//! the ones kept out, in their order); the background miner asks [`Shares::admits`] before it
//! deals a puzzle it found, and holds back the ones that would tip the balance until enough
//! others come.

use jungle_game::puzzle::Puzzle;
use jungle_game::theme::Theme;

/// The most of a ruleset's puzzles one theme (other than `material`) may be on.
pub const MOST_PER_THEME: f64 = 0.25;
/// The least of a ruleset's puzzles that end in the den.
pub const LEAST_DEN: f64 = 0.2;

/// Whether `theme` counts against [`MOST_PER_THEME`]: `material` is what most puzzles win.
fn capped(theme: Theme) -> bool {
    theme != Theme::Material
}

/// The puzzles of one ruleset kept, in their order: every den entry first in line, then the
/// others while no capped theme passes its share of what is kept; if den entries fall under
/// their share, the last others go.
pub fn balanced(puzzles: &[Puzzle]) -> Vec<Puzzle> {
    let mut size = puzzles.len();
    loop {
        let most = (MOST_PER_THEME * size as f64).floor() as usize;
        let mut counts = std::collections::HashMap::<Theme, usize>::new();
        let mut kept: Vec<&Puzzle> = Vec::new();
        // Den entries are what the set lacks: they are taken before the others.
        let dens = puzzles.iter().filter(|p| p.ends_in_den());
        let others = puzzles.iter().filter(|p| !p.ends_in_den());
        for puzzle in dens.chain(others) {
            let fits = puzzle
                .themes
                .iter()
                .filter(|t| capped(**t))
                .all(|t| counts.get(t).copied().unwrap_or(0) < most);
            if fits {
                for t in puzzle.themes.iter().filter(|t| capped(**t)) {
                    *counts.entry(*t).or_default() += 1;
                }
                kept.push(puzzle);
            }
        }
        let den = kept.iter().filter(|p| p.ends_in_den()).count();
        while kept.len() > den && (den as f64) < LEAST_DEN * kept.len() as f64 {
            let last_other = kept.iter().rposition(|p| !p.ends_in_den());
            match last_other {
                Some(at) => {
                    kept.remove(at);
                }
                None => break,
            }
        }
        if kept.len() == size {
            // In the file's order.
            return puzzles
                .iter()
                .filter(|p| kept.iter().any(|k| std::ptr::eq(*k, *p)))
                .cloned()
                .collect();
        }
        size = kept.len();
    }
}

/// The fewest puzzles of a theme for the page to offer it as a filter (the page's
/// `FEWEST_TO_FILTER`, static/js/views/puzzles.js).
pub const FEWEST_TO_FILTER: u64 = 5;

/// Below this many puzzles in a ruleset, shares mean little: every puzzle is dealt.
pub const BALANCED_FROM: u64 = 40;

/// How many puzzles of one ruleset are dealt, in all and per theme.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shares {
    pub total: u64,
    pub per_theme: std::collections::BTreeMap<Theme, u64>,
}

impl Shares {
    /// From the store's count of puzzles per set of themes.
    pub fn from_counts(counts: &[(Vec<Theme>, u64)]) -> Shares {
        let mut shares = Shares::default();
        for (themes, count) in counts {
            shares.total += count;
            for theme in themes {
                *shares.per_theme.entry(*theme).or_default() += count;
            }
        }
        shares
    }

    fn on(&self, theme: Theme) -> u64 {
        self.per_theme.get(&theme).copied().unwrap_or(0)
    }

    fn dens(&self) -> u64 {
        Theme::ALL
            .into_iter()
            .filter(|t| t.is_den())
            .map(|t| self.on(t))
            .sum()
    }

    /// Whether a puzzle of `themes`, dealt too, keeps the balance: no capped theme over its
    /// share, den entries not under theirs.
    pub fn admits(&self, themes: &[Theme]) -> bool {
        let total = self.total + 1;
        if total < BALANCED_FROM {
            return true;
        }
        let most = (MOST_PER_THEME * total as f64).floor() as u64;
        let themes_fit = themes
            .iter()
            .filter(|t| capped(**t))
            .all(|t| self.on(*t) < most);
        let den = themes.iter().any(|t| t.is_den());
        let dens_fit = den || self.dens() as f64 >= LEAST_DEN * total as f64;
        themes_fit && dens_fit
    }

    /// Counts a puzzle of `themes` as dealt.
    pub fn add(&mut self, themes: &[Theme]) {
        self.total += 1;
        for theme in themes {
            *self.per_theme.entry(*theme).or_default() += 1;
        }
    }
}

/// Whether `puzzles` (one ruleset's) keep the balance.
pub fn holds(puzzles: &[Puzzle]) -> Result<(), String> {
    let n = puzzles.len() as f64;
    for theme in Theme::ALL.into_iter().filter(|t| capped(*t)) {
        let on = puzzles.iter().filter(|p| p.themes.contains(&theme)).count();
        if on as f64 > MOST_PER_THEME * n {
            return Err(format!("{} on {on} of {n}", theme.name()));
        }
    }
    let den = puzzles.iter().filter(|p| p.ends_in_den()).count();
    if (den as f64) < LEAST_DEN * n {
        return Err(format!("den entries on {den} of {n}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Ruleset;

    fn puzzle(n: u32, themes: &[Theme], den: bool) -> Puzzle {
        // A den entry in one when asked for, else a line that is not one (the shape is all
        // that is read here).
        Puzzle {
            rules: Ruleset::International,
            position: format!("7/7/7/7/7/7/7/3l3/E6 r 0 {n}"),
            blunder: "a1a2".into(),
            solution: vec![if den { "d2d1" } else { "d2c2" }.into()],
            themes: themes.to_vec(),
            source: None,
            judged: None,
        }
    }

    /// The background miner's test: a puzzle that would tip a theme over its quarter, or den
    /// entries under their fifth, is held back; a small set takes everything.
    #[test]
    fn shares_admit_what_keeps_the_balance() {
        let material_jump = [Theme::Material, Theme::RiverJump];
        let den2 = [Theme::Den2];
        let mut shares = Shares::default();
        for _ in 0..30 {
            assert!(shares.admits(&material_jump), "a small set takes all");
            shares.add(&material_jump);
        }
        for _ in 0..20 {
            shares.add(&den2);
        }
        // 50 dealt: 30 river jumps (over a quarter already), 20 den entries.
        assert!(!shares.admits(&material_jump));
        assert!(
            shares.admits(&[Theme::Material]),
            "material alone is not capped"
        );
        assert!(shares.admits(&[Theme::Den1]));
        // Den entries at the fifth: a material puzzle more would put them under it.
        let mut few_dens =
            Shares::from_counts(&[(vec![Theme::Material], 40), (vec![Theme::Den3], 10)]);
        assert_eq!(few_dens.total, 50);
        assert!(
            !few_dens.admits(&[Theme::Material]),
            "10 of 51 is under a fifth"
        );
        few_dens.add(&[Theme::Den1]);
        assert!(few_dens.admits(&[Theme::Material]), "11 of 52 is over it");
    }

    #[test]
    fn a_theme_on_too_many_is_cut_to_its_share_and_den_entries_are_kept() {
        let mut all = Vec::new();
        for n in 0..12 {
            all.push(puzzle(n, &[Theme::Material, Theme::RiverJump], false));
        }
        for n in 12..16 {
            all.push(puzzle(n, &[Theme::Material], false));
        }
        for (n, den) in (16..20).zip([Theme::Den1, Theme::Den2, Theme::Den3, Theme::DenLong]) {
            all.push(puzzle(n, &[den], true));
        }
        assert!(holds(&all).is_err(), "river jumps on 12 of 20");
        let kept = balanced(&all);
        holds(&kept).expect("balanced");
        assert_eq!(
            kept.iter().filter(|p| p.ends_in_den()).count(),
            4,
            "every den entry"
        );
        assert!(kept.len() >= 10, "{}", kept.len());
        // In the order given.
        let positions: Vec<&str> = kept.iter().map(|p| p.position.as_str()).collect();
        let mut sorted = positions.clone();
        sorted.sort_by_key(|p| all.iter().position(|q| q.position == *p));
        assert_eq!(positions, sorted);
    }
}
