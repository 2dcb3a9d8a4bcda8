//! Correspondence games as the store sees them (issue 28): how many a player has in progress,
//! and those waiting for their move with each turn's deadline, read from the last turn's
//! stored clocks and the time it was played (so on any node, whoever runs the game).

use jungle_protocol::http::{WaitingGame, WaitingOpponent};
use jungle_protocol::ClockSpec;
use jungle_rules::{Position, Side};
use sqlx::Row;
use uuid::Uuid;

use super::{Store, StoreError};

/// Games whose clock is by days: the clock is stored as its JSON, kind first.
const IS_CORRESPONDENCE: &str = "g.clock LIKE '{\"kind\":\"days\"%'";

/// When a turn that began at `began` with `left` ms ends, its player away on `vacations`
/// (sorted, apart): every overlap pushes it back.
pub fn deadline_ms(began: i64, left: i64, vacations: &[super::Vacation]) -> i64 {
    let mut at = began + left;
    for v in vacations {
        let from = v.starts_at.max(began);
        if from < at && v.ends_at > from {
            at += v.ends_at - from;
        }
    }
    at
}

/// How long a claimed place under the cap counts when its game never starts (a seat taken
/// meanwhile, a node gone); a game that starts deletes its claims as it is stored.
pub const CLAIM_LIFETIME_MS: i64 = 60_000;

impl Store {
    /// Claims, for each of `players`, a place under `cap` correspondence games for `game`,
    /// all or none: `Ok(Some(player))` names one already at the cap. Games in progress and
    /// the claims of games not yet stored both count; claims of one player are taken one at a
    /// time, so starts at once cannot pass the cap together (issue 49). Claiming again for the
    /// same game counts it once.
    pub async fn claim_correspondence_start(
        &self,
        game: Uuid,
        players: &[Uuid],
        cap: i64,
        now: i64,
    ) -> Result<Option<Uuid>, StoreError> {
        let mut tx = self.pool.begin().await?;
        super::serialized::lock_players(&mut tx, players).await?;
        let fresh_after = now - CLAIM_LIFETIME_MS;
        for &player in players {
            let row = sqlx::query(&format!(
                "SELECT (SELECT COUNT(*) FROM games g
                         WHERE g.status = 'active' AND (g.red_id = $1 OR g.blue_id = $1)
                           AND {IS_CORRESPONDENCE})
                      + (SELECT COUNT(*) FROM correspondence_claims c
                         WHERE c.player_id = $1 AND c.game_id <> $2 AND c.claimed_at > $3
                           AND NOT EXISTS (SELECT 1 FROM games s WHERE s.id = c.game_id)) AS n"
            ))
            .bind(player.to_string())
            .bind(game.to_string())
            .bind(fresh_after)
            .fetch_one(&mut *tx)
            .await?;
            let held: i64 = row.try_get("n")?;
            if held >= cap {
                tx.rollback().await?;
                return Ok(Some(player));
            }
        }
        for &player in players {
            sqlx::query(
                "INSERT INTO correspondence_claims (game_id, player_id, claimed_at)
                 VALUES ($1, $2, $3) ON CONFLICT (player_id, game_id) DO NOTHING",
            )
            .bind(game.to_string())
            .bind(player.to_string())
            .bind(now)
            .execute(&mut *tx)
            .await?;
            // Claims whose game never started: bounded by what a player can claim a minute.
            sqlx::query(
                "DELETE FROM correspondence_claims WHERE player_id = $1 AND claimed_at <= $2",
            )
            .bind(player.to_string())
            .bind(fresh_after)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(None)
    }

    /// Correspondence games `player` has in progress.
    pub async fn correspondence_in_progress(&self, player: Uuid) -> Result<i64, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT COUNT(*) AS n FROM games g
             WHERE g.status = 'active' AND (g.red_id = $1 OR g.blue_id = $1) AND {IS_CORRESPONDENCE}"
        ))
        .bind(player.to_string())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// `player`'s correspondence games in progress: those where it is their turn, and those
    /// where it is the opponent's, each most urgent first; `now` (Unix ms) gives the time left.
    pub async fn correspondence_waiting(
        &self,
        player: Uuid,
        now: i64,
    ) -> Result<(Vec<WaitingGame>, Vec<WaitingGame>), StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT g.id, g.ruleset, g.clock, g.rated, g.red_id, g.blue_id, g.start_fen,
                    g.created_at, pr.name AS red_name, pb.name AS blue_name
             FROM games g
             JOIN players pr ON pr.id = g.red_id
             JOIN players pb ON pb.id = g.blue_id
             WHERE g.status = 'active' AND (g.red_id = $1 OR g.blue_id = $1) AND {IS_CORRESPONDENCE}"
        ))
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        let (mut waiting, mut theirs) = (Vec::new(), Vec::new());
        for r in rows {
            let id: String = r.try_get("id")?;
            let corrupt = |what: &str| StoreError::Corrupt(format!("game {id}: {what}"));
            let clock: ClockSpec = serde_json::from_str(&r.try_get::<String, _>("clock")?)
                .map_err(|_| corrupt("clock"))?;
            let ClockSpec::Days { days } = clock else {
                continue;
            };
            let red: String = r.try_get("red_id")?;
            let side = if red == player.to_string() {
                Side::Red
            } else {
                Side::Blue
            };
            let start_fen: String = r.try_get("start_fen")?;
            let first = if start_fen.is_empty() {
                Side::Red
            } else {
                start_fen
                    .parse::<Position>()
                    .map_err(|_| corrupt("start"))?
                    .side_to_move()
            };
            let last = sqlx::query(
                "SELECT ply, red_ms, blue_ms, played_at FROM moves WHERE game_id = $1
                 ORDER BY ply DESC LIMIT 1",
            )
            .bind(&id)
            .fetch_optional(&self.pool)
            .await?;
            // A correspondence game has no passed turns: turns alternate from the first.
            let (plies, began, left) = match last {
                Some(m) => {
                    let plies = m.try_get::<i64, _>("ply")? + 1;
                    let to_move = if plies % 2 == 0 { first } else { !first };
                    let left: i64 = m.try_get(match to_move {
                        Side::Red => "red_ms",
                        Side::Blue => "blue_ms",
                    })?;
                    (plies, m.try_get::<i64, _>("played_at")?, left)
                }
                None => (
                    0,
                    r.try_get::<i64, _>("created_at")?,
                    i64::from(days) * 86_400_000,
                ),
            };
            let to_move = if plies % 2 == 0 { first } else { !first };
            let (opponent_id, opponent_name): (String, String) = match side {
                Side::Red => (r.try_get("blue_id")?, r.try_get("blue_name")?),
                Side::Blue => (red, r.try_get("red_name")?),
            };
            // The mover's vacations push their turn back.
            let mover = match to_move {
                Side::Red => r.try_get::<String, _>("red_id")?,
                Side::Blue => r.try_get::<String, _>("blue_id")?,
            };
            let mover: Uuid = mover.parse().map_err(|_| corrupt("player"))?;
            let away = self.vacations(mover, began).await?;
            let deadline_ms = deadline_ms(began, left, &away);
            let list = if to_move == side {
                &mut waiting
            } else {
                &mut theirs
            };
            list.push(WaitingGame {
                id: id.parse().map_err(|_| corrupt("id"))?,
                rules: r
                    .try_get::<String, _>("ruleset")?
                    .parse()
                    .map_err(|_| corrupt("ruleset"))?,
                clock,
                rated: r.try_get::<i64, _>("rated")? != 0,
                side,
                opponent: WaitingOpponent {
                    id: opponent_id.parse().map_err(|_| corrupt("opponent"))?,
                    name: opponent_name,
                },
                plies: plies as u32,
                deadline_ms,
                left_ms: (deadline_ms - now).max(0) as u64,
            });
        }
        waiting.sort_by_key(|g| (g.deadline_ms, g.id));
        theirs.sort_by_key(|g| (g.deadline_ms, g.id));
        Ok((waiting, theirs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Vacation;

    #[test]
    fn vacations_overlapping_a_turn_push_its_end() {
        let day = 86_400_000;
        let away = [
            Vacation {
                starts_at: -5 * day,
                ends_at: day,
            },
            Vacation {
                starts_at: 2 * day,
                ends_at: 3 * day,
            },
            Vacation {
                starts_at: 10 * day,
                ends_at: 11 * day,
            },
        ];
        // A 3-day turn from 0: the first day and the third are away, the last is too late.
        assert_eq!(deadline_ms(0, 3 * day, &away), 5 * day);
        assert_eq!(deadline_ms(0, 3 * day, &[]), 3 * day);
    }
}
