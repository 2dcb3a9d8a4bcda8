//! Fair play in the database: each player's assessment per rated game (written once, by the
//! key), the moderators' queue, and engine marks.

use sqlx::Row;
use uuid::Uuid;

use super::{get_uuid, now_ms, Store, StoreError};
use jungle_game::assessment::{Signals, Verdict};

/// One player's assessment in one game, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAssessment {
    pub game: Uuid,
    pub player: Uuid,
    pub side: jungle_rules::Side,
    pub signals: Signals,
    pub verdict: Verdict,
    pub assessed_at: i64,
}

/// A line of the moderators' queue.
#[derive(Clone, Debug)]
pub struct QueueLine {
    pub player: Uuid,
    pub name: String,
    pub verdict: Verdict,
    pub reason: String,
    pub game: Option<Uuid>,
    pub queued_at: i64,
    pub marked: bool,
}

fn assessment_from_row(r: &sqlx::any::AnyRow) -> Result<GameAssessment, StoreError> {
    let side: String = r.try_get("side")?;
    Ok(GameAssessment {
        game: get_uuid(r, "game_id")?,
        player: get_uuid(r, "player_id")?,
        side: side
            .parse()
            .map_err(|_| StoreError::Corrupt(format!("assessment side {side:?}")))?,
        signals: Signals {
            moves: r.try_get::<i64, _>("moves")? as u32,
            matched: r.try_get::<i64, _>("matched")? as u32,
            loss_cp: r.try_get("loss_cp")?,
            time_cv: r.try_get("time_cv")?,
            timed_moves: r.try_get::<i64, _>("timed_moves")? as u32,
            fast_moves: r.try_get::<i64, _>("fast_moves")? as u32,
            blurs: r.try_get::<i64, _>("blurs")? as u32,
            resembling: r.try_get::<i64, _>("resembling")? as u32,
        },
        verdict: Verdict::from_level(r.try_get("verdict")?),
        assessed_at: r.try_get("assessed_at")?,
    })
}

impl Store {
    /// Stores a game's assessments; false if the game was assessed before (nothing changes:
    /// a game is judged once, whichever node gets to it first).
    pub async fn save_assessments(&self, rows: &[GameAssessment]) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let mut fresh = false;
        for row in rows {
            let done = sqlx::query(
                "INSERT INTO game_assessments (game_id, player_id, side, moves, matched, loss_cp,
                     time_cv, timed_moves, fast_moves, blurs, verdict, assessed_at, resembling)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                 ON CONFLICT (game_id, player_id) DO NOTHING",
            )
            .bind(row.game.to_string())
            .bind(row.player.to_string())
            .bind(row.side.name())
            .bind(i64::from(row.signals.moves))
            .bind(i64::from(row.signals.matched))
            .bind(row.signals.loss_cp)
            .bind(row.signals.time_cv)
            .bind(i64::from(row.signals.timed_moves))
            .bind(i64::from(row.signals.fast_moves))
            .bind(i64::from(row.signals.blurs))
            .bind(row.verdict.level())
            .bind(row.assessed_at)
            .bind(i64::from(row.signals.resembling))
            .execute(&mut *tx)
            .await?;
            fresh |= done.rows_affected() > 0;
        }
        tx.commit().await?;
        Ok(fresh)
    }

    /// Keeps `board` (a position's text) as analysed for `player` now, and only their latest
    /// `keep` such boards.
    pub async fn record_analysed_board(
        &self,
        player: Uuid,
        board: &str,
        keep: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO analysed_boards (player_id, at, board) VALUES ($1, $2, $3)")
            .bind(player.to_string())
            .bind(super::now_ms())
            .bind(board)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "DELETE FROM analysed_boards WHERE player_id = $1 AND at < (
                 SELECT MIN(at) FROM (SELECT at FROM analysed_boards WHERE player_id = $1
                                      ORDER BY at DESC LIMIT $2) AS latest)",
        )
        .bind(player.to_string())
        .bind(keep)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The boards analysed for `player` from `from` to `to` (Unix ms).
    pub async fn analysed_boards(
        &self,
        player: Uuid,
        from: i64,
        to: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT board FROM analysed_boards WHERE player_id = $1 AND at >= $2 AND at <= $3",
        )
        .bind(player.to_string())
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<String, _>("board")?))
            .collect()
    }

    /// A player's latest assessments, newest first.
    pub async fn assessments(
        &self,
        player: Uuid,
        limit: i64,
    ) -> Result<Vec<GameAssessment>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM game_assessments WHERE player_id = $1
             ORDER BY assessed_at DESC LIMIT $2",
        )
        .bind(player.to_string())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(assessment_from_row).collect()
    }

    /// Whether `game` has been assessed.
    pub async fn is_assessed(&self, game: Uuid) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 AS one FROM game_assessments WHERE game_id = $1 LIMIT 1")
            .bind(game.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Rated games that ended between the two times (Unix ms) and were never assessed: what
    /// a node that stopped before assessing them left (any node picks them up).
    pub async fn unassessed_games(
        &self,
        ended_after: i64,
        ended_before: i64,
        limit: i64,
    ) -> Result<Vec<Uuid>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g
             WHERE g.status = 'finished' AND g.rated = 1 AND g.ended_at > $1 AND g.ended_at < $2
               AND NOT EXISTS (SELECT 1 FROM game_assessments a WHERE a.game_id = g.id)
             ORDER BY g.ended_at LIMIT $3",
        )
        .bind(ended_after)
        .bind(ended_before)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| get_uuid(r, "id")).collect()
    }

    /// Puts `player` in the moderators' queue (or raises their line there). A player a
    /// moderator cleared comes back with the new reason.
    pub async fn queue_for_review(
        &self,
        player: Uuid,
        verdict: Verdict,
        reason: &str,
        game: Option<Uuid>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO mod_queue (player_id, verdict, reason, game_id, queued_at, cleared_at)
             VALUES ($1, $2, $3, $4, $5, NULL)
             ON CONFLICT (player_id) DO UPDATE SET verdict = excluded.verdict,
                 reason = excluded.reason, game_id = excluded.game_id,
                 queued_at = excluded.queued_at, cleared_at = NULL",
        )
        .bind(player.to_string())
        .bind(verdict.level())
        .bind(reason)
        .bind(game.map(|g| g.to_string()))
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The queue's open lines (or all), the strongest verdict and the oldest first.
    pub async fn review_queue(&self, all: bool, limit: i64) -> Result<Vec<QueueLine>, StoreError> {
        let rows = sqlx::query(
            "SELECT q.player_id, q.verdict, q.reason, q.game_id, q.queued_at,
                    COALESCE(p.username, p.name) AS name, p.engine_marked_at
             FROM mod_queue q JOIN players p ON p.id = q.player_id
             WHERE ($1 = 1 OR q.cleared_at IS NULL)
             ORDER BY q.verdict DESC, q.queued_at LIMIT $2",
        )
        .bind(i64::from(all))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(QueueLine {
                    player: get_uuid(r, "player_id")?,
                    name: r.try_get("name")?,
                    verdict: Verdict::from_level(r.try_get("verdict")?),
                    reason: r.try_get("reason")?,
                    game: r
                        .try_get::<Option<String>, _>("game_id")?
                        .and_then(|g| g.parse().ok()),
                    queued_at: r.try_get("queued_at")?,
                    marked: r.try_get::<Option<i64>, _>("engine_marked_at")?.is_some(),
                })
            })
            .collect()
    }

    /// Takes `player` off the queue (a moderator looked and found nothing); false if they
    /// were not on it.
    pub async fn clear_review(&self, player: Uuid, operator: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE mod_queue SET cleared_at = $2 WHERE player_id = $1 AND cleared_at IS NULL",
        )
        .bind(player.to_string())
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() > 0 {
            super::moderation::audit(&mut tx, operator, "clear", Some(player), "").await?;
        }
        tx.commit().await?;
        Ok(done.rows_affected() > 0)
    }

    /// Marks `player` as an engine user: from now on their rated games move nobody's rating,
    /// and they leave the leaderboards. Their queue line is closed.
    pub async fn mark_engine(
        &self,
        player: Uuid,
        reason: &str,
        operator: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let now = now_ms();
        sqlx::query(
            "UPDATE players SET engine_marked_at = $2, engine_mark_reason = $3
             WHERE id = $1 AND engine_marked_at IS NULL",
        )
        .bind(player.to_string())
        .bind(now)
        .bind(reason)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE mod_queue SET cleared_at = $2 WHERE player_id = $1 AND cleared_at IS NULL",
        )
        .bind(player.to_string())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        super::moderation::audit(&mut tx, operator, "mark", Some(player), reason).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Lifts an engine mark (from now on; games played meanwhile stay as they were).
    pub async fn unmark_engine(&self, player: Uuid, operator: &str) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "UPDATE players SET engine_marked_at = NULL, engine_mark_reason = NULL WHERE id = $1",
        )
        .bind(player.to_string())
        .execute(&mut *tx)
        .await?;
        super::moderation::audit(&mut tx, operator, "unmark", Some(player), "").await?;
        tx.commit().await?;
        Ok(())
    }

    /// When `player` was marked, if they are.
    pub async fn engine_marked_at(&self, player: Uuid) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT engine_marked_at FROM players WHERE id = $1")
            .bind(player.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => row.try_get("engine_marked_at")?,
            None => None,
        })
    }
}
