//! E-mail addresses and the mails sent about turns (issue 28). Tokens only as hashes.

use sqlx::Row;
use uuid::Uuid;

use super::{now_ms, Store, StoreError};

/// A player's address as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailAddress {
    pub address: String,
    pub confirmed: bool,
    pub turn_mails: bool,
}

/// Kept this long, then forgotten (the daily cap looks back a day).
const TURN_MAILS_KEPT_MS: i64 = 30 * 86_400_000;

impl Store {
    pub async fn mail_address(&self, player: Uuid) -> Result<Option<MailAddress>, StoreError> {
        let row = sqlx::query(
            "SELECT address, confirmed_at, turn_mails FROM mail_addresses WHERE player_id = $1",
        )
        .bind(player.to_string())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(MailAddress {
                address: r.try_get("address")?,
                confirmed: r.try_get::<Option<i64>, _>("confirmed_at")?.is_some(),
                turn_mails: r.try_get::<i64, _>("turn_mails")? != 0,
            })
        })
        .transpose()
    }

    /// A new address, unconfirmed until the link with the token of `confirm_hash` is followed.
    pub async fn set_mail_address(
        &self,
        player: Uuid,
        address: &str,
        confirm_hash: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO mail_addresses (player_id, address, confirm_hash, confirmed_at, turn_mails, created_at)
             VALUES ($1, $2, $3, NULL, 1, $4)
             ON CONFLICT (player_id) DO UPDATE SET address = excluded.address,
                confirm_hash = excluded.confirm_hash, confirmed_at = NULL, turn_mails = 1,
                created_at = excluded.created_at",
        )
        .bind(player.to_string())
        .bind(address)
        .bind(confirm_hash)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Follows a confirmation link: whether it named an address waiting for one.
    pub async fn confirm_mail_address(&self, confirm_hash: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE mail_addresses SET confirmed_at = $1, confirm_hash = NULL
             WHERE confirm_hash = $2",
        )
        .bind(now_ms())
        .bind(confirm_hash)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn delete_mail_address(&self, player: Uuid) -> Result<(), StoreError> {
        for table in ["mail_addresses", "turn_mails"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE player_id = $1"))
                .bind(player.to_string())
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Follows an unsubscribe link: no more mails about turns for its player; whether it
    /// named one.
    pub async fn unsubscribe(&self, unsubscribe_hash: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT player_id FROM turn_mails WHERE unsubscribe_hash = $1")
            .bind(unsubscribe_hash)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(false);
        };
        let player: String = row.try_get("player_id")?;
        sqlx::query("UPDATE mail_addresses SET turn_mails = 0 WHERE player_id = $1")
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(true)
    }

    /// Counts a mail to the address whose lower-case SHA-256 is `recipient_hash`, if fewer
    /// than `daily_cap` went to it in its current day (begun at its first mail): whether it may
    /// be sent. One statement on the address's row, so mails asked at once count one by one.
    pub async fn claim_mail_to(
        &self,
        recipient_hash: &str,
        daily_cap: i64,
    ) -> Result<bool, StoreError> {
        let now = now_ms();
        let day_over = now - 86_400_000;
        let sent: i64 = sqlx::query(
            "INSERT INTO mails_per_recipient (recipient_hash, day_began, sent) VALUES ($1, $2, 1)
             ON CONFLICT (recipient_hash) DO UPDATE SET
               sent = CASE WHEN mails_per_recipient.day_began <= $3 THEN 1
                           ELSE mails_per_recipient.sent + 1 END,
               day_began = CASE WHEN mails_per_recipient.day_began <= $3 THEN $2
                                ELSE mails_per_recipient.day_began END
             RETURNING sent",
        )
        .bind(recipient_hash)
        .bind(now)
        .bind(day_over)
        .fetch_one(&self.pool)
        .await?
        .try_get("sent")?;
        sqlx::query("DELETE FROM mails_per_recipient WHERE day_began <= $1")
            .bind(day_over)
            .execute(&self.pool)
            .await?;
        Ok(sent <= daily_cap)
    }

    /// Claims the one mail about `player`'s turn at `ply` of `game`, if none was sent and
    /// fewer than `daily_cap` went to them in the last day: where to send it, or `None`.
    pub async fn claim_turn_mail(
        &self,
        player: Uuid,
        game: Uuid,
        ply: i64,
        unsubscribe_hash: &str,
        daily_cap: i64,
    ) -> Result<Option<String>, StoreError> {
        let Some(address) = self.mail_address(player).await? else {
            return Ok(None);
        };
        if !address.confirmed || !address.turn_mails {
            return Ok(None);
        }
        let now = now_ms();
        let sent: i64 =
            sqlx::query("SELECT COUNT(*) AS n FROM turn_mails WHERE player_id = $1 AND at > $2")
                .bind(player.to_string())
                .bind(now - 86_400_000)
                .fetch_one(&self.pool)
                .await?
                .try_get("n")?;
        if sent >= daily_cap {
            return Ok(None);
        }
        let claimed = sqlx::query(
            "INSERT INTO turn_mails (player_id, game_id, ply, unsubscribe_hash, at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (player_id, game_id, ply) DO NOTHING",
        )
        .bind(player.to_string())
        .bind(game.to_string())
        .bind(ply)
        .bind(unsubscribe_hash)
        .bind(now)
        .execute(&self.pool)
        .await?;
        sqlx::query("DELETE FROM turn_mails WHERE at < $1")
            .bind(now - TURN_MAILS_KEPT_MS)
            .execute(&self.pool)
            .await?;
        Ok((claimed.rows_affected() > 0).then_some(address.address))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One mail a turn, none past the daily cap, none to an address not confirmed.
    #[tokio::test]
    async fn a_turn_is_mailed_once_and_a_day_has_a_cap() {
        let (store, _dir) = Store::temporary(None).await;
        let player = store
            .create_player("ren", &format!("{:064}", 1))
            .await
            .expect("player")
            .id;
        let game = Uuid::new_v4();
        store
            .set_mail_address(player, "ren@example.org", "confirm-hash")
            .await
            .expect("address");
        let claim = |ply: i64, cap: i64| {
            let store = store.clone();
            async move {
                let hash = format!("unsubscribe-{ply}");
                store
                    .claim_turn_mail(player, game, ply, &hash, cap)
                    .await
                    .expect("claim")
            }
        };
        assert_eq!(claim(0, 20).await, None, "not confirmed");
        assert!(store
            .confirm_mail_address("confirm-hash")
            .await
            .expect("ok"));
        assert_eq!(claim(2, 20).await.as_deref(), Some("ren@example.org"));
        assert_eq!(claim(2, 20).await, None, "once a turn");
        assert_eq!(claim(4, 2).await.as_deref(), Some("ren@example.org"));
        assert_eq!(claim(6, 2).await, None, "two a day at most here");
        assert!(store.unsubscribe("unsubscribe-4").await.expect("ok"));
        assert_eq!(claim(8, 20).await, None, "unsubscribed");
    }
}
