//! Puzzles in the database (issue 27): the puzzles with their ratings, each player's puzzle
//! rating per ruleset, their attempts (one per player and puzzle: only a first attempt counts,
//! so it is kept for good, bounded by the number of puzzles), and the puzzle of each day.

use jungle_rules::Ruleset;
use sqlx::Row;
use uuid::Uuid;

use super::{now_ms, Store, StoreError};
use jungle_game::puzzle::Puzzle;
use jungle_game::rating::{rate, Glicko};
use jungle_game::themes::Theme;

/// How much of a rated attempt's change a puzzle's own rating takes: many more people try a
/// puzzle than a player meets puzzles, so it moves slowly.
const PUZZLE_DAMPING: f64 = 0.5;

/// A puzzle as stored: the puzzle, its id and its standing.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPuzzle {
    pub id: String,
    pub puzzle: Puzzle,
    pub rating: Glicko,
    pub plays: i64,
    pub wins: i64,
}

/// A player's puzzle rating in one ruleset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    pub glicko: Glicko,
    pub attempts: i64,
    pub wins: i64,
}

/// One attempt, for a player's history.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRecord {
    pub puzzle: String,
    pub rules: Ruleset,
    pub win: bool,
    pub rating_after: Option<f64>,
    pub at: i64,
}

/// What an attempt did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttemptOutcome {
    /// The first attempt of this puzzle by this player (only that one counts).
    pub first: bool,
    /// The player's puzzle rating before and after (`None`: not rated, a guest or a repeat).
    pub player: Option<(Glicko, Glicko)>,
    /// The puzzle's rating after.
    pub puzzle: Glicko,
}

/// `puzzles.retired`: a puzzle dealt; one held back for the balance (issue 53; 1 is retired
/// for good).
const DEALT: i64 = 0;
const HELD: i64 = 2;

/// A new puzzle's row; the caller adds what happens when its id is there.
const INSERT_PUZZLE: &str =
    "INSERT INTO puzzles (id, ruleset, position, blunder, solution, themes, source_game,
         rating, deviation, volatility, created_at, retired)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";

/// [`INSERT_PUZZLE`]'s values for `puzzle`, new now, dealt or held as `retired` says.
fn bind_new<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    puzzle: &'q Puzzle,
    retired: i64,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let seed = seed_rating(puzzle);
    query
        .bind(puzzle_id(puzzle))
        .bind(puzzle.rules.name())
        .bind(&puzzle.position)
        .bind(&puzzle.blunder)
        .bind(puzzle.solution.join(" "))
        .bind(themes_text(&puzzle.themes))
        .bind(puzzle.source.map(|g| g.to_string()))
        .bind(seed.rating)
        .bind(seed.deviation)
        .bind(seed.volatility)
        .bind(now_ms())
        .bind(retired)
}

/// A puzzle's id: from what it is, so the same puzzle has the same id on every site and
/// loading it twice adds nothing.
pub fn puzzle_id(puzzle: &Puzzle) -> String {
    use sha2::Digest;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let digest = sha2::Sha256::digest(
        format!("{}|{}|{}", puzzle.rules, puzzle.position, puzzle.blunder).as_bytes(),
    );
    digest[..8]
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// A new puzzle's rating: longer lines start higher; the deviation says it is a guess.
fn seed_rating(puzzle: &Puzzle) -> Glicko {
    Glicko {
        rating: 1_300.0 + 100.0 * puzzle.solver_moves().min(6) as f64,
        deviation: 300.0,
        ..Glicko::default()
    }
}

fn themes_text(themes: &[Theme]) -> String {
    let names: Vec<String> = themes.iter().map(|t| t.name()).collect();
    format!(" {} ", names.join(" "))
}

pub(crate) fn stored(r: &sqlx::any::AnyRow) -> Result<StoredPuzzle, StoreError> {
    let ruleset: String = r.try_get("ruleset")?;
    let solution: String = r.try_get("solution")?;
    let themes: String = r.try_get("themes")?;
    let source: Option<String> = r.try_get("source_game")?;
    Ok(StoredPuzzle {
        id: r.try_get("id")?,
        puzzle: Puzzle {
            rules: ruleset
                .parse()
                .map_err(|_| StoreError::Corrupt(format!("ruleset {ruleset:?}")))?,
            position: r.try_get("position")?,
            blunder: r.try_get("blunder")?,
            solution: solution.split_whitespace().map(str::to_owned).collect(),
            themes: themes
                .split_whitespace()
                .filter_map(Theme::from_name)
                .collect(),
            source: source.and_then(|s| s.parse().ok()),
            judged: None,
        },
        rating: Glicko {
            rating: r.try_get("rating")?,
            deviation: r.try_get("deviation")?,
            volatility: r.try_get("volatility")?,
        },
        plays: r.try_get("plays")?,
        wins: r.try_get("wins")?,
    })
}

pub(crate) const COLUMNS: &str =
    "id, ruleset, position, blunder, solution, themes, source_game, rating, \
                       deviation, volatility, plays, wins";

impl Store {
    /// Adds `puzzles`; one already here only takes the themes given (the detector may have
    /// learnt one since it was stored). How many were new or changed.
    pub async fn add_puzzles(&self, puzzles: &[Puzzle]) -> Result<u64, StoreError> {
        let mut added = 0;
        let mut tx = self.pool.begin().await?;
        for puzzle in puzzles {
            let sql = format!(
                "{INSERT_PUZZLE} ON CONFLICT (id) DO UPDATE SET themes = excluded.themes,
                     solution = excluded.solution, retired = 0
                     WHERE puzzles.themes <> excluded.themes
                        OR puzzles.solution <> excluded.solution OR puzzles.retired <> 0"
            );
            let done = bind_new(sqlx::query(&sql), puzzle, DEALT)
                .execute(&mut *tx)
                .await?;
            added += done.rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    }

    /// Retires the self-play puzzles (no source game) not in `shipped` (ids): a newer server
    /// ships a set that no longer holds them. They stay readable by id, with their rating and
    /// attempts; they are dealt no more. Returns how many were retired now.
    pub async fn retire_starter_puzzles_except(
        &self,
        shipped: &std::collections::HashSet<String>,
    ) -> Result<u64, StoreError> {
        let ids: Vec<String> =
            sqlx::query_scalar("SELECT id FROM puzzles WHERE source_game IS NULL AND retired = 0")
                .fetch_all(&self.pool)
                .await?;
        let mut retired = 0;
        let mut tx = self.pool.begin().await?;
        for id in ids.iter().filter(|id| !shipped.contains(*id)) {
            retired += sqlx::query("UPDATE puzzles SET retired = 1 WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        tx.commit().await?;
        Ok(retired)
    }

    /// How many puzzles of `ruleset` are dealt, per set of themes (a few dozen rows: the sets
    /// of themes that occur).
    pub async fn puzzle_theme_counts(
        &self,
        ruleset: Ruleset,
    ) -> Result<Vec<(Vec<Theme>, u64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT themes, COUNT(*) AS n FROM puzzles WHERE ruleset = $1 AND retired = 0
             GROUP BY themes",
        )
        .bind(ruleset.name())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let themes: String = r.try_get("themes")?;
                let n: i64 = r.try_get("n")?;
                let themes = themes
                    .split_whitespace()
                    .filter_map(Theme::from_name)
                    .collect();
                Ok((themes, n.max(0) as u64))
            })
            .collect()
    }

    /// Stores a mined puzzle held back (issue 53: dealing it would tip its ruleset's balance):
    /// readable by id, not dealt until [`Store::release_puzzle`]. False if it was there.
    pub async fn add_held_puzzle(&self, puzzle: &Puzzle) -> Result<bool, StoreError> {
        let sql = format!("{INSERT_PUZZLE} ON CONFLICT (id) DO NOTHING");
        let done = bind_new(sqlx::query(&sql), puzzle, HELD)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The puzzles of `ruleset` held back, the oldest first, at most `limit`.
    pub async fn held_puzzles(
        &self,
        ruleset: Ruleset,
        limit: i64,
    ) -> Result<Vec<StoredPuzzle>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM puzzles WHERE ruleset = $1 AND retired = $2
             ORDER BY created_at, id LIMIT $3"
        ))
        .bind(ruleset.name())
        .bind(HELD)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(stored).collect()
    }

    /// Deals a held puzzle from now on. False if it was not held (another node released it).
    pub async fn release_puzzle(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE puzzles SET retired = 0 WHERE id = $1 AND retired = $2")
            .bind(id)
            .bind(HELD)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn puzzle(&self, id: &str) -> Result<Option<StoredPuzzle>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(stored).transpose()
    }

    /// A puzzle of `ruleset` (and `theme`) near `rating` that `player` has not tried: any of
    /// those in a window around `rating` (widened until it holds one), by `pick` (any number;
    /// the caller's randomness).
    pub async fn next_puzzle(
        &self,
        player: Option<Uuid>,
        ruleset: Ruleset,
        theme: Option<Theme>,
        rating: f64,
        pick: u64,
    ) -> Result<Option<StoredPuzzle>, StoreError> {
        let theme = theme.map(|t| format!("% {} %", t.name()));
        // A window around the rating, widened until it holds something.
        const UNTRIED_IN_WINDOW: &str = "FROM puzzles p
             WHERE p.ruleset = $1 AND p.rating >= $2 AND p.rating <= $3 AND p.retired = 0
               AND ($4 = '' OR p.themes LIKE $4)
               AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                               WHERE a.player_id = $5 AND a.puzzle_id = p.id)";
        let player = player.map(|p| p.to_string()).unwrap_or_default();
        let theme = theme.unwrap_or_default();
        for width in [150.0, 400.0, 1_000.0, 10_000.0] {
            let count: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {UNTRIED_IN_WINDOW}"))
                .bind(ruleset.name())
                .bind(rating - width)
                .bind(rating + width)
                .bind(&theme)
                .bind(&player)
                .fetch_one(&self.pool)
                .await?;
            if count == 0 {
                continue;
            }
            // Any of the window's, alike: a few first ones would give everyone the same.
            let row = sqlx::query(&format!(
                "SELECT {COLUMNS} {UNTRIED_IN_WINDOW} ORDER BY p.id LIMIT 1 OFFSET $6"
            ))
            .bind(ruleset.name())
            .bind(rating - width)
            .bind(rating + width)
            .bind(&theme)
            .bind(&player)
            .bind((pick % count as u64) as i64)
            .fetch_optional(&self.pool)
            .await?;
            // (None: the window changed between the two reads; a wider one is looked at.)
            if let Some(row) = row {
                return stored(&row).map(Some);
            }
        }
        Ok(None)
    }

    /// `player`'s puzzle rating in `ruleset` (the start for a newcomer).
    pub async fn puzzle_rating(
        &self,
        player: Uuid,
        ruleset: Ruleset,
    ) -> Result<PuzzleRating, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, attempts, wins FROM puzzle_ratings
             WHERE player_id = $1 AND ruleset = $2",
        )
        .bind(player.to_string())
        .bind(ruleset.name())
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => PuzzleRating {
                glicko: Glicko {
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    volatility: r.try_get("volatility")?,
                },
                attempts: r.try_get("attempts")?,
                wins: r.try_get("wins")?,
            },
            None => PuzzleRating {
                glicko: Glicko::default(),
                attempts: 0,
                wins: 0,
            },
        })
    }

    /// Records `player`'s attempt of `puzzle` (already judged: `win`). Only a first attempt
    /// counts; `rated` (an account's) moves both ratings, the puzzle's damped. In one
    /// transaction, so a retry or a second tab never counts twice.
    pub async fn record_attempt(
        &self,
        player: Uuid,
        puzzle: &StoredPuzzle,
        win: bool,
        rated: bool,
    ) -> Result<AttemptOutcome, StoreError> {
        let ruleset = puzzle.puzzle.rules;
        let mut tx = self.pool.begin().await?;
        let now = now_ms();
        let first = sqlx::query(
            "INSERT INTO puzzle_attempts (player_id, puzzle_id, ruleset, win, at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(player.to_string())
        .bind(&puzzle.id)
        .bind(ruleset.name())
        .bind(i64::from(win))
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !first || !rated {
            tx.commit().await?;
            return Ok(AttemptOutcome {
                first,
                player: None,
                puzzle: puzzle.rating,
            });
        }
        // The player's rating row, made if new and locked for this transaction (the no-op
        // update), then read: two attempts at once by one player are rated one after the other.
        let fresh = Glicko::default();
        sqlx::query(
            "INSERT INTO puzzle_ratings (player_id, ruleset, rating, deviation, volatility,
                 attempts, wins, updated_at)
             VALUES ($1, $2, $3, $4, $5, 0, 0, $6) ON CONFLICT (player_id, ruleset) DO NOTHING",
        )
        .bind(player.to_string())
        .bind(ruleset.name())
        .bind(fresh.rating)
        .bind(fresh.deviation)
        .bind(fresh.volatility)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzle_ratings SET updated_at = updated_at WHERE player_id = $1 AND ruleset = $2",
        )
        .bind(player.to_string())
        .bind(ruleset.name())
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(
            "SELECT rating, deviation, volatility FROM puzzle_ratings
             WHERE player_id = $1 AND ruleset = $2",
        )
        .bind(player.to_string())
        .bind(ruleset.name())
        .fetch_one(&mut *tx)
        .await?;
        let before = Glicko {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        };
        let stored_now = sqlx::query(&format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1"))
            .bind(&puzzle.id)
            .fetch_one(&mut *tx)
            .await?;
        let puzzle_before = stored(&stored_now)?.rating;
        let winner = if win {
            jungle_rules::Side::Red
        } else {
            jungle_rules::Side::Blue
        };
        let (player_after, puzzle_rated) = rate(before, puzzle_before, Some(winner));
        let puzzle_after = Glicko {
            rating: puzzle_before.rating
                + (puzzle_rated.rating - puzzle_before.rating) * PUZZLE_DAMPING,
            deviation: puzzle_before.deviation
                + (puzzle_rated.deviation - puzzle_before.deviation) * PUZZLE_DAMPING,
            volatility: puzzle_rated.volatility,
        };
        sqlx::query(
            "INSERT INTO puzzle_ratings (player_id, ruleset, rating, deviation, volatility,
                 attempts, wins, updated_at)
             VALUES ($1, $2, $3, $4, $5, 1, $6, $7)
             ON CONFLICT (player_id, ruleset) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 attempts = puzzle_ratings.attempts + 1,
                 wins = puzzle_ratings.wins + excluded.wins, updated_at = excluded.updated_at",
        )
        .bind(player.to_string())
        .bind(ruleset.name())
        .bind(player_after.rating)
        .bind(player_after.deviation)
        .bind(player_after.volatility)
        .bind(i64::from(win))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3,
                 plays = plays + 1, wins = wins + $4 WHERE id = $5",
        )
        .bind(puzzle_after.rating)
        .bind(puzzle_after.deviation)
        .bind(puzzle_after.volatility)
        .bind(i64::from(win))
        .bind(&puzzle.id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzle_attempts SET rating_after = $1 WHERE player_id = $2 AND puzzle_id = $3",
        )
        .bind(player_after.rating)
        .bind(player.to_string())
        .bind(&puzzle.id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(AttemptOutcome {
            first,
            player: Some((before, player_after)),
            puzzle: puzzle_after,
        })
    }

    /// The puzzle of `day` (`2026-12-02`): chosen from the classic puzzles at its first
    /// asking, by the day, and kept.
    pub async fn puzzle_of_day(&self, day: &str) -> Result<Option<StoredPuzzle>, StoreError> {
        let chosen = sqlx::query("SELECT puzzle_id FROM puzzle_days WHERE day = $1")
            .bind(day)
            .fetch_optional(&self.pool)
            .await?;
        let id: String = match chosen {
            Some(row) => row.try_get("puzzle_id")?,
            None => {
                let count: i64 = sqlx::query(
                    "SELECT COUNT(*) AS n FROM puzzles WHERE ruleset = 'classic' AND retired = 0",
                )
                .fetch_one(&self.pool)
                .await?
                .try_get("n")?;
                if count == 0 {
                    return Ok(None);
                }
                let offset = day_number(day) % count;
                let row = sqlx::query(
                    "SELECT id FROM puzzles WHERE ruleset = 'classic' AND retired = 0
                     ORDER BY id LIMIT 1 OFFSET $1",
                )
                .bind(offset)
                .fetch_one(&self.pool)
                .await?;
                let id: String = row.try_get("id")?;
                sqlx::query(
                    "INSERT INTO puzzle_days (day, puzzle_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                )
                .bind(day)
                .bind(&id)
                .execute(&self.pool)
                .await?;
                // Another node may have chosen first: its choice stands.
                sqlx::query("SELECT puzzle_id FROM puzzle_days WHERE day = $1")
                    .bind(day)
                    .fetch_one(&self.pool)
                    .await?
                    .try_get("puzzle_id")?
            }
        };
        self.puzzle(&id).await
    }

    /// `player`'s latest attempts, newest first.
    pub async fn puzzle_attempts(
        &self,
        player: Uuid,
        limit: i64,
    ) -> Result<Vec<AttemptRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle_id, ruleset, win, rating_after, at FROM puzzle_attempts
             WHERE player_id = $1 ORDER BY at DESC LIMIT $2",
        )
        .bind(player.to_string())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let ruleset: String = r.try_get("ruleset")?;
                Ok(AttemptRecord {
                    puzzle: r.try_get("puzzle_id")?,
                    rules: ruleset
                        .parse()
                        .map_err(|_| StoreError::Corrupt(format!("ruleset {ruleset:?}")))?,
                    win: r.try_get::<i64, _>("win")? != 0,
                    rating_after: r.try_get("rating_after")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }
}

/// A day's number, for choosing its puzzle (any stable spread will do).
fn day_number(day: &str) -> i64 {
    day.bytes()
        .fold(0i64, |n, b| (n * 31 + i64::from(b)) % 1_000_003)
}
