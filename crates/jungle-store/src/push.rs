//! Web Push (issue 52): the server's VAPID key, each account's subscriptions and settings,
//! and the pushes sent (once per event, a cap a day).

use sqlx::Row;
use uuid::Uuid;

use super::{now_ms, Store, StoreError};

/// How long a sent push is remembered: past the daily cap's day, for a game's turn that
/// might be reported again after a restart.
const PUSHES_KEPT_MS: i64 = 7 * 86_400_000;

/// A browser's subscription as kept: its push service's endpoint and keys (base64url).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPushSubscription {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

/// What an account wants pushed; everything until it says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushPreferences {
    /// Its move in a game over days.
    pub turns: bool,
    /// A challenge from another player.
    pub challenges: bool,
    /// A tournament it joined is about to start.
    pub tournaments: bool,
}

impl Default for PushPreferences {
    fn default() -> Self {
        PushPreferences {
            turns: true,
            challenges: true,
            tournaments: true,
        }
    }
}

impl Store {
    /// The server's VAPID private key: `generated` if none was kept yet (the first start of
    /// the first node), else the kept one, whichever node asks first.
    pub async fn vapid_private_key(&self, generated: &str) -> Result<String, StoreError> {
        sqlx::query(
            "INSERT INTO push_vapid_key (id, private_key, created_at) VALUES (1, $1, $2)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(generated)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT private_key FROM push_vapid_key WHERE id = 1")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("private_key")?)
    }

    /// Keeps `player`'s subscription, made in `session` (a browser signed in; `None` for a
    /// program's token): a browser that subscribed again, or for another account, replaces its
    /// old one, and a player keeps at most `most`: the oldest go.
    pub async fn add_push_subscription(
        &self,
        player: Uuid,
        session: Option<Uuid>,
        subscription: &StoredPushSubscription,
        most: i64,
    ) -> Result<(), StoreError> {
        let now = now_ms();
        sqlx::query(
            "INSERT INTO push_subscriptions
                 (endpoint, player_id, session_id, p256dh, auth, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (endpoint) DO UPDATE SET player_id = excluded.player_id,
                 session_id = excluded.session_id, p256dh = excluded.p256dh,
                 auth = excluded.auth, created_at = excluded.created_at",
        )
        .bind(&subscription.endpoint)
        .bind(player.to_string())
        .bind(session.map(|s| s.to_string()))
        .bind(&subscription.p256dh)
        .bind(&subscription.auth)
        .bind(now)
        .execute(&self.pool)
        .await?;
        sqlx::query(
            "DELETE FROM push_subscriptions WHERE player_id = $1 AND endpoint NOT IN (
                 SELECT endpoint FROM push_subscriptions WHERE player_id = $1
                 ORDER BY created_at DESC, endpoint LIMIT $2)",
        )
        .bind(player.to_string())
        .bind(most)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets `player`'s subscription at `endpoint`; false if they had none there.
    pub async fn remove_push_subscription(
        &self,
        player: Uuid,
        endpoint: &str,
    ) -> Result<bool, StoreError> {
        let done =
            sqlx::query("DELETE FROM push_subscriptions WHERE player_id = $1 AND endpoint = $2")
                .bind(player.to_string())
                .bind(endpoint)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Forgets a subscription its push service says is gone.
    pub async fn drop_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
            .bind(endpoint)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn push_subscriptions(
        &self,
        player: Uuid,
    ) -> Result<Vec<StoredPushSubscription>, StoreError> {
        // Only those whose session is still signed in (or made with a program's token).
        let rows = sqlx::query(
            "SELECT endpoint, p256dh, auth FROM push_subscriptions s WHERE s.player_id = $1
               AND (s.session_id IS NULL
                    OR EXISTS (SELECT 1 FROM sessions x WHERE x.id = s.session_id))
             ORDER BY s.created_at DESC, s.endpoint",
        )
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredPushSubscription {
                    endpoint: r.try_get("endpoint")?,
                    p256dh: r.try_get("p256dh")?,
                    auth: r.try_get("auth")?,
                })
            })
            .collect()
    }

    pub async fn push_preferences(&self, player: Uuid) -> Result<PushPreferences, StoreError> {
        let row = sqlx::query(
            "SELECT turns, challenges, tournaments FROM push_settings WHERE player_id = $1",
        )
        .bind(player.to_string())
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(PushPreferences::default());
        };
        Ok(PushPreferences {
            turns: r.try_get::<i64, _>("turns")? != 0,
            challenges: r.try_get::<i64, _>("challenges")? != 0,
            tournaments: r.try_get::<i64, _>("tournaments")? != 0,
        })
    }

    pub async fn set_push_preferences(
        &self,
        player: Uuid,
        preferences: PushPreferences,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO push_settings (player_id, turns, challenges, tournaments)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id) DO UPDATE SET turns = excluded.turns,
                 challenges = excluded.challenges, tournaments = excluded.tournaments",
        )
        .bind(player.to_string())
        .bind(i64::from(preferences.turns))
        .bind(i64::from(preferences.challenges))
        .bind(i64::from(preferences.tournaments))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Claims the push about `event` (`turn:<game>:<ply>`) for `player`: true once per event,
    /// and only while fewer than `daily_cap` of its kind (the part before the first `:`) went
    /// to them in the last day, so that many of one kind (challenges) cannot use up another's
    /// (turns). Whichever node reports an event, and however often, it is pushed once.
    pub async fn claim_push(
        &self,
        player: Uuid,
        event: &str,
        daily_cap: i64,
    ) -> Result<bool, StoreError> {
        let now = now_ms();
        let kind = format!("{}:%", event.split(':').next().unwrap_or(event));
        let sent: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM pushes_sent
             WHERE player_id = $1 AND at > $2 AND event LIKE $3",
        )
        .bind(player.to_string())
        .bind(now - 86_400_000)
        .bind(kind)
        .fetch_one(&self.pool)
        .await?
        .try_get("n")?;
        if sent >= daily_cap {
            return Ok(false);
        }
        let claimed = sqlx::query(
            "INSERT INTO pushes_sent (player_id, event, at) VALUES ($1, $2, $3)
             ON CONFLICT (player_id, event) DO NOTHING",
        )
        .bind(player.to_string())
        .bind(event)
        .bind(now)
        .execute(&self.pool)
        .await?;
        sqlx::query("DELETE FROM pushes_sent WHERE at < $1")
            .bind(now - PUSHES_KEPT_MS)
            .execute(&self.pool)
            .await?;
        Ok(claimed.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subscription(n: u32) -> StoredPushSubscription {
        StoredPushSubscription {
            endpoint: format!("https://push.example/{n}"),
            p256dh: format!("key{n}"),
            auth: format!("auth{n}"),
        }
    }

    #[tokio::test]
    async fn the_key_is_made_once_and_kept() {
        let (store, _dir) = Store::temporary(None).await;
        assert_eq!(store.vapid_private_key("first").await.unwrap(), "first");
        assert_eq!(store.vapid_private_key("second").await.unwrap(), "first");
    }

    #[tokio::test]
    async fn subscriptions_are_capped_per_player_and_move_with_their_browser() {
        let (store, _dir) = Store::temporary(None).await;
        let ren = store
            .create_player("ren", &format!("{:064}", 1))
            .await
            .unwrap()
            .id;
        let bo = store
            .create_player("bo", &format!("{:064}", 2))
            .await
            .unwrap()
            .id;
        for n in 0..4 {
            store
                .add_push_subscription(ren, None, &subscription(n), 3)
                .await
                .unwrap();
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        let kept = store.push_subscriptions(ren).await.unwrap();
        assert_eq!(
            kept,
            vec![subscription(3), subscription(2), subscription(1)]
        );
        // The same browser, now signed in as Bo: the subscription is Bo's.
        store
            .add_push_subscription(bo, None, &subscription(3), 3)
            .await
            .unwrap();
        assert_eq!(store.push_subscriptions(ren).await.unwrap().len(), 2);
        assert_eq!(
            store.push_subscriptions(bo).await.unwrap(),
            vec![subscription(3)]
        );
        assert!(!store
            .remove_push_subscription(ren, &subscription(3).endpoint)
            .await
            .unwrap());
        assert!(store
            .remove_push_subscription(bo, &subscription(3).endpoint)
            .await
            .unwrap());
        store
            .drop_push_endpoint(&subscription(2).endpoint)
            .await
            .unwrap();
        assert_eq!(
            store.push_subscriptions(ren).await.unwrap(),
            vec![subscription(1)]
        );
    }

    #[tokio::test]
    async fn a_deleted_account_keeps_no_subscription() {
        let (store, _dir) = Store::temporary(None).await;
        let ren = store
            .create_player("ren", &format!("{:064}", 1))
            .await
            .unwrap()
            .id;
        store
            .add_push_subscription(ren, None, &subscription(1), 3)
            .await
            .unwrap();
        let off = PushPreferences {
            challenges: false,
            ..PushPreferences::default()
        };
        store.set_push_preferences(ren, off).await.unwrap();
        assert!(store.claim_push(ren, "turn:g:2", 5).await.unwrap());
        store.delete_account(ren).await.unwrap();
        assert!(store.push_subscriptions(ren).await.unwrap().is_empty());
        assert_eq!(
            store.push_preferences(ren).await.unwrap(),
            PushPreferences::default()
        );
    }

    #[tokio::test]
    async fn an_event_is_pushed_once_and_a_day_has_a_cap() {
        let (store, _dir) = Store::temporary(None).await;
        let ren = store
            .create_player("ren", &format!("{:064}", 1))
            .await
            .unwrap()
            .id;
        assert_eq!(
            store.push_preferences(ren).await.unwrap(),
            PushPreferences::default()
        );
        let off = PushPreferences {
            turns: false,
            ..PushPreferences::default()
        };
        store.set_push_preferences(ren, off).await.unwrap();
        assert_eq!(store.push_preferences(ren).await.unwrap(), off);
        assert!(store.claim_push(ren, "turn:g:2", 2).await.unwrap());
        assert!(!store.claim_push(ren, "turn:g:2", 2).await.unwrap(), "once");
        assert!(store.claim_push(ren, "turn:g:4", 2).await.unwrap());
        assert!(
            !store.claim_push(ren, "turn:g:6", 2).await.unwrap(),
            "the cap"
        );
        assert!(
            store.claim_push(ren, "challenge:c1", 2).await.unwrap(),
            "a cap per kind: challenges do not use up turns'"
        );
    }

    #[tokio::test]
    async fn a_session_signed_out_takes_its_subscription_with_it() {
        let (store, _dir) = Store::temporary(None).await;
        let ren = store
            .create_player("ren", &format!("{:064}", 1))
            .await
            .unwrap()
            .id;
        let token_hash = format!("{:064}", 7);
        let new = crate::NewSession {
            token_hash: &token_hash,
            device: "phone",
            address: "127.0.0.1",
        };
        let (session, _) = store.create_session(ren, &new).await.unwrap();
        store
            .add_push_subscription(ren, Some(session), &subscription(1), 3)
            .await
            .unwrap();
        store
            .add_push_subscription(ren, None, &subscription(2), 3)
            .await
            .unwrap();
        assert_eq!(store.push_subscriptions(ren).await.unwrap().len(), 2);
        store.delete_session(session).await.unwrap();
        assert_eq!(
            store.push_subscriptions(ren).await.unwrap(),
            vec![subscription(2)]
        );
    }
}
