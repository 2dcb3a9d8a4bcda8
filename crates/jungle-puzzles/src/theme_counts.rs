//! `GET /api/puzzles/themes` (issue 53): how many puzzles of a ruleset are dealt, in all and
//! per theme, so that the page offers as filters the themes there are enough puzzles of. The
//! counts are kept a minute per ruleset on each node: a page asks on every visit, and they
//! change only as puzzles are mined.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::Json;
use jungle_protocol::puzzles::{PuzzleThemes, ThemeCount};
use jungle_rules::Ruleset;
use serde::Deserialize;

use crate::api::{asker, rules_of, PuzzleApiError};
use crate::balance::Shares;
use crate::{PuzzlesState, Theme};
use jungle_limits::Limited;
use jungle_web::client_addr::ClientAddr;

#[derive(Debug, Deserialize)]
pub struct ThemesQuery {
    rules: Option<String>,
}

/// How long a ruleset's theme counts are kept before they are counted again.
const THEME_COUNTS_FOR: Duration = Duration::from_secs(60);

/// The theme counts last read, per ruleset (a page asks on every visit; the count changes
/// only as puzzles are mined).
#[derive(Default)]
pub struct ThemeCounts(Mutex<HashMap<Ruleset, (Instant, PuzzleThemes)>>);

impl ThemeCounts {
    fn fresh(&self, rules: Ruleset) -> Option<PuzzleThemes> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.get(&rules)
            .filter(|(at, _)| at.elapsed() < THEME_COUNTS_FOR)
            .map(|(_, counts)| counts.clone())
    }

    fn keep(&self, counts: &PuzzleThemes) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.insert(counts.rules, (Instant::now(), counts.clone()));
    }
}

/// `GET /api/puzzles/themes?rules=classic`.
pub async fn themes(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Query(query): Query<ThemesQuery>,
) -> Result<Json<PuzzleThemes>, PuzzleApiError> {
    asker(&state, &headers, client, Limited::Puzzles).await?;
    let rules = rules_of(query.rules.as_deref())?;
    if let Some(counts) = state.theme_counts.fresh(rules) {
        return Ok(Json(counts));
    }
    let counts = state.store.puzzle_theme_counts(rules).await?;
    let shares = Shares::from_counts(&counts);
    let answer = PuzzleThemes {
        rules,
        total: shares.total,
        themes: Theme::ALL
            .into_iter()
            .filter_map(|theme| {
                let count = shares.per_theme.get(&theme).copied().unwrap_or(0);
                (count > 0).then(|| ThemeCount {
                    theme: theme.name(),
                    count,
                })
            })
            .collect(),
    };
    // None yet: the starter set is still loading, and is counted at the next ask.
    if answer.total > 0 {
        state.theme_counts.keep(&answer);
    }
    Ok(Json(answer))
}
