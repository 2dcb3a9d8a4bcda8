//! Several nodes over Redis. With `--redis-url`, nodes that share one PostgreSQL coordinate
//! through Redis; without it nothing here runs and no Redis is needed. Features never ask
//! whether there are other nodes: [`reach`] does for the request handlers, and the rooms' own
//! seams (`jungle_rooms::reach`, `fair_play::OtherNodes`) for them; this crate answers both
//! ([`seams`] implements the rooms' traits).
//!
//! - **Leases** (this file, [`leases`]): each game's room, and each private room waiting for
//!   its guest, runs on exactly one node, which holds the key `…:game:{id}` (its node id, a
//!   few seconds to live) and renews it every beat. A node that finds one without a lease
//!   twice in a row (its owner died, or drained) takes the lease and resumes it from the
//!   database, as a restarted server does: every acknowledged move is there, and the clocks
//!   restart from the last stored turn, so the outage is charged to nobody. A draining node
//!   stops its rooms, waits until every write is committed, then gives up its leases. What
//!   reaches a game while this node takes it over is held until its room runs ([`adopting`]).
//! - **What every node publishes** ([`directory`]): its games in progress and its players,
//!   the matcher's seek list, who runs matchmaking and who directs each tournament.
//! - **Messages between nodes**, typed by direction ([`wire`]): one ordered outbox per peer
//!   ([`outbox`]); one inbox that hands each message to its service ([`inbox`]); the
//!   follower's side of a game run elsewhere, one proxy per game ([`proxy`]) and the
//!   owner's side of a member elsewhere ([`members`]); matchmaking ([`matcher`]), presence
//!   ([`presence`]), fair play's questions to the other nodes ([`positions`]), and each
//!   link's round trip, credited to the clock of a player on another node ([`round_trip`]).

pub mod across;
pub mod adopting;
pub mod directory;
pub mod followers;
pub mod inbox;
pub mod leases;
pub mod matcher;
pub mod members;
pub mod outbox;
pub mod positions;
pub mod presence;
pub mod proxy;
pub mod reach;
pub mod round_trip;
pub mod seams;
pub mod wire;

use std::time::Duration;

use uuid::Uuid;

/// How long a lease lives without renewal.
pub const LEASE: Duration = Duration::from_millis(3_000);
/// How often a node renews its leases and looks for games to adopt.
pub const BEAT: Duration = Duration::from_millis(1_000);

/// A list a node renews between changes is published whole at least this often.
const REPUBLISH_EVERY: u32 = 10;

/// What a node last published whole of a list it only renews between changes (its games in
/// progress, its players). Whole again when the list changed, when Redis lost it, after an
/// error, and every [`REPUBLISH_EVERY`] beats in any case: Redis restarted from its file, or a
/// replica promoted, may hold an older copy, which a renewal would keep alive.
#[derive(Default)]
pub struct Published {
    version: Option<u64>,
    beats: u32,
    /// Whole publications so far, to name each for the readers.
    count: u64,
}

impl Published {
    /// The version last published, to compare with this beat's (`None`: publish whole).
    pub fn seen(&mut self) -> Option<u64> {
        self.beats += 1;
        self.version.filter(|_| self.beats < REPUBLISH_EVERY)
    }

    /// A name for the next whole publication, never given before in this process.
    pub fn next_name(&mut self) -> u64 {
        self.count += 1;
        self.count
    }

    pub fn published(&mut self, version: u64) {
        self.version = Some(version);
        self.beats = 0;
    }

    pub fn failed(&mut self) {
        self.version = None;
    }
}

/// The beat every cluster task keeps, delayed rather than bunched after a stall.
pub struct Beats {
    interval: tokio::time::Interval,
    shutdown: tokio::sync::watch::Receiver<bool>,
}

impl Beats {
    pub fn new(shutdown: tokio::sync::watch::Receiver<bool>) -> Beats {
        let mut interval = tokio::time::interval(BEAT);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Beats { interval, shutdown }
    }

    /// Waits for the next beat: false once the node shuts down.
    pub async fn next(&mut self) -> bool {
        tokio::select! {
            _ = self.interval.tick() => true,
            _ = self.shutdown.changed() => false,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("several nodes share one PostgreSQL: --redis-url needs a postgres:// --database-url (SQLite is one node only)")]
    NeedsPostgres,
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("Redis did not answer at the last beat")]
    Unreachable,
}

/// This node's place in the cluster: its id and its Redis connection.
#[derive(Clone)]
pub struct Cluster {
    node: std::sync::Arc<str>,
    prefix: std::sync::Arc<str>,
    redis: redis::aio::ConnectionManager,
    /// For the bus's subscription, a connection of its own.
    client: redis::Client,
    /// Whether Redis answered at the last beat: while it did not, requests fail at once
    /// instead of each waiting for a timeout (a seek is refused, a game elsewhere waits).
    healthy: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Cluster {
    /// Connects to Redis. Nodes of one cluster share `database_url`; its hash prefixes every
    /// key, so that separate clusters (and tests) may share one Redis.
    pub async fn connect(
        redis_url: &str,
        node: Option<String>,
        database_url: &str,
    ) -> Result<Cluster, ClusterError> {
        if !database_url.starts_with("postgres") {
            return Err(ClusterError::NeedsPostgres);
        }
        let client = redis::Client::open(redis_url)?;
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Duration::from_millis(500))
            .set_response_timeout(Duration::from_millis(500))
            .set_number_of_retries(1)
            .set_max_delay(500);
        let redis = redis::aio::ConnectionManager::new_with_config(client.clone(), config).await?;
        let node = node.unwrap_or_else(|| Uuid::new_v4().simple().to_string()[..12].to_owned());
        let digest = {
            use sha2::Digest;
            let hash = sha2::Sha256::digest(database_url.as_bytes());
            hash[..6]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        };
        Ok(Cluster {
            node: node.into(),
            prefix: format!("jungle:{digest}:").into(),
            redis,
            client,
            healthy: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true)),
        })
    }

    pub fn node(&self) -> &str {
        &self.node
    }

    /// The connection for a request, unless Redis was found away at the last beat.
    fn conn(&self) -> Result<redis::aio::ConnectionManager, ClusterError> {
        if self.healthy.load(std::sync::atomic::Ordering::Relaxed) {
            Ok(self.redis.clone())
        } else {
            Err(ClusterError::Unreachable)
        }
    }

    /// The bus channel of `node`.
    pub fn node_channel(&self, node: &str) -> String {
        format!("{}node:{node}", self.prefix)
    }

    fn game_key(&self, game: Uuid) -> String {
        format!("{}game:{game}", self.prefix)
    }

    /// Renews this node's leases on `games`, taking those nobody holds; returns the games
    /// another node holds now (they are no longer ours to run).
    pub async fn renew(&self, games: &[Uuid]) -> Result<Vec<Uuid>, ClusterError> {
        // One round trip for every lease: set when free or ours, else report it.
        let script = redis::Script::new(
            r"local lost = {}
              for i, key in ipairs(KEYS) do
                local owner = redis.call('GET', key)
                if owner == false or owner == ARGV[1] then
                  redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
                else
                  table.insert(lost, i)
                end
              end
              return lost",
        );
        let mut invocation = script.prepare_invoke();
        for game in games {
            invocation.key(self.game_key(*game));
        }
        invocation.arg(&*self.node).arg(LEASE.as_millis() as u64);
        let lost: Result<Vec<usize>, _> = invocation.invoke_async(&mut self.redis.clone()).await;
        self.healthy
            .store(lost.is_ok(), std::sync::atomic::Ordering::Relaxed);
        Ok(lost?.into_iter().map(|i| games[i - 1]).collect())
    }

    /// Takes the lease of a game nobody holds; false if someone does.
    pub async fn claim(&self, game: Uuid) -> Result<bool, ClusterError> {
        let set: Option<String> = redis::cmd("SET")
            .arg(self.game_key(game))
            .arg(&*self.node)
            .arg("NX")
            .arg("PX")
            .arg(LEASE.as_millis() as u64)
            .query_async(&mut self.conn()?)
            .await?;
        Ok(set.is_some())
    }

    /// Which of `games` no node holds.
    pub async fn unowned(&self, games: &[Uuid]) -> Result<Vec<Uuid>, ClusterError> {
        let owners = self.owners(games).await?;
        Ok(games
            .iter()
            .zip(owners)
            .filter(|(_, owner)| owner.is_none())
            .map(|(game, _)| *game)
            .collect())
    }

    /// The node holding each game's lease, in order: a round trip per thousand games.
    pub async fn owners(&self, games: &[Uuid]) -> Result<Vec<Option<String>>, ClusterError> {
        let mut owners = Vec::with_capacity(games.len());
        for chunk in games.chunks(1_000) {
            let keys: Vec<String> = chunk.iter().map(|g| self.game_key(*g)).collect();
            let some: Vec<Option<String>> = redis::cmd("MGET")
                .arg(&keys)
                .query_async(&mut self.conn()?)
                .await?;
            owners.extend(some);
        }
        Ok(owners)
    }

    /// The node holding `game`'s lease, if any.
    pub async fn owner(&self, game: Uuid) -> Result<Option<String>, ClusterError> {
        Ok(redis::cmd("GET")
            .arg(self.game_key(game))
            .query_async(&mut self.conn()?)
            .await?)
    }

    /// A room code here names `game` on this node, for joins through other nodes. Kept a day
    /// at most (a node that dies leaves its codes; they then find no room).
    pub async fn set_code(&self, code: &str, game: Uuid) -> Result<(), ClusterError> {
        let _: () = redis::cmd("SET")
            .arg(format!("{}code:{code}", self.prefix))
            .arg(format!("{game}@{}", self.node))
            .arg("EX")
            .arg(86_400)
            .query_async(&mut self.conn()?)
            .await?;
        Ok(())
    }

    /// Whether Redis lost what this node had put there (it restarted empty, or this node is
    /// new): true once, until it does again. A key of this node's own marks it.
    pub async fn found_empty(&self) -> Result<bool, ClusterError> {
        let set: Option<String> = redis::cmd("SET")
            .arg(format!("{}seen:{}", self.prefix, self.node))
            .arg(1)
            .arg("NX")
            .query_async(&mut self.conn()?)
            .await?;
        Ok(set.is_some())
    }

    /// Names again every room code of this node's (after Redis came back empty, and now and
    /// then in case it did unseen).
    pub async fn share_codes(&self, codes: &[(String, Uuid)]) -> Result<(), ClusterError> {
        for chunk in codes.chunks(500) {
            let mut pipe = redis::pipe();
            for (code, game) in chunk {
                pipe.cmd("SET")
                    .arg(format!("{}code:{code}", self.prefix))
                    .arg(format!("{game}@{}", self.node))
                    .arg("EX")
                    .arg(86_400)
                    .ignore();
            }
            let _: () = pipe.query_async(&mut self.conn()?).await?;
        }
        Ok(())
    }

    /// The game a room code names, and the node whose room it was opened on.
    pub async fn code(&self, code: &str) -> Result<Option<(Uuid, String)>, ClusterError> {
        let value: Option<String> = redis::cmd("GET")
            .arg(format!("{}code:{code}", self.prefix))
            .query_async(&mut self.conn()?)
            .await?;
        Ok(value.and_then(|v| {
            let (game, node) = v.split_once('@')?;
            Some((game.parse().ok()?, node.to_owned()))
        }))
    }

    /// Forgets a room code of this node's (its room closed).
    pub async fn forget_code(&self, code: &str, game: Uuid) -> Result<(), ClusterError> {
        let script = redis::Script::new(
            r"if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
              return 0",
        );
        let _: i64 = script
            .key(format!("{}code:{code}", self.prefix))
            .arg(format!("{game}@{}", self.node))
            .invoke_async(&mut self.conn()?)
            .await?;
        Ok(())
    }

    /// Gives up this node's leases on `games` (a drained node's last act).
    pub async fn release(&self, games: &[Uuid]) -> Result<(), ClusterError> {
        if games.is_empty() {
            return Ok(());
        }
        let script = redis::Script::new(
            r"for _, key in ipairs(KEYS) do
                if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
              end
              return 0",
        );
        let mut invocation = script.prepare_invoke();
        for game in games {
            invocation.key(self.game_key(*game));
        }
        invocation.arg(&*self.node);
        let _: i64 = invocation.invoke_async(&mut self.conn()?).await?;
        Ok(())
    }
}

#[cfg(test)]
mod published_tests {
    use super::{Published, REPUBLISH_EVERY};

    #[test]
    fn a_list_is_published_whole_first_after_a_failure_and_every_few_beats() {
        let mut published = Published::default();
        assert_eq!(published.seen(), None, "whole at first");
        published.published(7);
        for _ in 1..REPUBLISH_EVERY {
            assert_eq!(published.seen(), Some(7), "renewed between");
        }
        assert_eq!(published.seen(), None, "whole every few beats");
        published.published(7);
        assert_eq!(published.seen(), Some(7));
        published.failed();
        assert_eq!(published.seen(), None, "whole after a failure");
        let (first, second) = (published.next_name(), published.next_name());
        assert_ne!(first, second, "each whole publication has its own name");
    }
}
