//! Several nodes over Redis (issue 16). With `--redis-url`, nodes that share one
//! PostgreSQL coordinate through Redis; without it nothing here runs and no Redis is needed.
//!
//! Built so far:
//! - **Game leases** ([`leases`]): each game's room runs on exactly one node, which holds the
//!   key `…:game:{id}` (its node id, a few seconds to live) and renews it every second.
//! - **Adoption**: a node that finds a game in progress without a lease (its owner died, or was
//!   drained) twice in a row takes the lease and resumes the game from the database, as a
//!   restarted server does: every acknowledged move is there, and the clocks restart from the
//!   last stored turn, so the outage is charged to nobody.
//! - **Draining**: a node that shuts down stops its rooms, waits until every write is
//!   committed, then gives up its leases; other nodes adopt the games.
//!
//! - **The bus** ([`bus`]): a connection on one node follows and plays a game run by another
//!   through Redis pub/sub; one node (holding a lock) runs matchmaking for all; room codes,
//!   the seek list and the games in progress are shared through Redis.
//!
//! - **Presence, challenges, tournaments**: who is online is shared each beat; challenges live
//!   on the matcher's node; one node directs each tournament, under a lease.

pub mod across;
pub mod followers;
pub mod inbox;
pub mod leases;
pub mod matcher;
pub mod members;
pub mod outbox;
pub mod positions;
pub mod presence;
pub mod proxy;
pub mod wire;

use std::time::Duration;

use uuid::Uuid;

/// How long a lease lives without renewal.
pub const LEASE: Duration = Duration::from_millis(3_000);
/// How often a node renews its leases and looks for games to adopt.
pub const BEAT: Duration = Duration::from_millis(1_000);

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
        let mut free = Vec::new();
        for chunk in games.chunks(1_000) {
            let keys: Vec<String> = chunk.iter().map(|g| self.game_key(*g)).collect();
            let owners: Vec<Option<String>> = redis::cmd("MGET")
                .arg(&keys)
                .query_async(&mut self.conn()?)
                .await?;
            free.extend(
                chunk
                    .iter()
                    .zip(owners)
                    .filter(|(_, owner)| owner.is_none())
                    .map(|(game, _)| *game),
            );
        }
        Ok(free)
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

    /// This node's games in progress, for every node's list; kept a beat or two.
    pub async fn publish_live(
        &self,
        games: &[jungle_protocol::http::LiveGame],
    ) -> Result<(), ClusterError> {
        let key = format!("{}live:{}", self.prefix, self.node);
        let _: () = redis::pipe()
            .cmd("SET")
            .arg(&key)
            .arg(serde_json::to_string(games).expect("live games serialize"))
            .arg("PX")
            .arg(LEASE.as_millis() as u64)
            .ignore()
            .cmd("SADD")
            .arg(format!("{}nodes", self.prefix))
            .arg(&*self.node)
            .ignore()
            .query_async(&mut self.conn()?)
            .await?;
        Ok(())
    }

    /// The players with a connection on this node, for the others (kept a beat or two).
    pub async fn publish_players(&self, players: &[Uuid]) -> Result<(), ClusterError> {
        let key = format!("{}players:{}", self.prefix, self.node);
        let mut pipe = redis::pipe();
        pipe.atomic().cmd("DEL").arg(&key).ignore();
        for chunk in players.chunks(1_000) {
            let ids: Vec<String> = chunk.iter().map(Uuid::to_string).collect();
            pipe.cmd("SADD").arg(&key).arg(ids).ignore();
        }
        pipe.cmd("PEXPIRE")
            .arg(&key)
            .arg(LEASE.as_millis() as u64)
            .ignore();
        let _: () = pipe.query_async(&mut self.conn()?).await?;
        Ok(())
    }

    /// Who is online on the other nodes: player → their nodes.
    pub async fn players_elsewhere(
        &self,
    ) -> Result<std::collections::HashMap<Uuid, Vec<String>>, ClusterError> {
        let nodes: Vec<String> = redis::cmd("SMEMBERS")
            .arg(format!("{}nodes", self.prefix))
            .query_async(&mut self.conn()?)
            .await?;
        let mut everywhere: std::collections::HashMap<Uuid, Vec<String>> = Default::default();
        for node in nodes.into_iter().filter(|n| **n != *self.node) {
            let players: Vec<String> = redis::cmd("SMEMBERS")
                .arg(format!("{}players:{node}", self.prefix))
                .query_async(&mut self.conn()?)
                .await?;
            for player in players.iter().filter_map(|p| p.parse().ok()) {
                everywhere.entry(player).or_default().push(node.clone());
            }
        }
        Ok(everywhere)
    }

    /// Every node's games in progress, as they last published them.
    pub async fn live_games(&self) -> Result<Vec<jungle_protocol::http::LiveGame>, ClusterError> {
        let nodes: Vec<String> = redis::cmd("SMEMBERS")
            .arg(format!("{}nodes", self.prefix))
            .query_async(&mut self.conn()?)
            .await?;
        if nodes.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = nodes
            .iter()
            .map(|n| format!("{}live:{n}", self.prefix))
            .collect();
        let lists: Vec<Option<String>> = redis::cmd("MGET")
            .arg(&keys)
            .query_async(&mut self.conn()?)
            .await?;
        let mut games = Vec::new();
        for (node, list) in nodes.iter().zip(lists) {
            match list
                .and_then(|l| serde_json::from_str::<Vec<jungle_protocol::http::LiveGame>>(&l).ok())
            {
                Some(list) => games.extend(list),
                // A node gone: it leaves the set.
                None => {
                    let _: Result<i64, _> = redis::cmd("SREM")
                        .arg(format!("{}nodes", self.prefix))
                        .arg(node)
                        .query_async(&mut self.conn()?)
                        .await;
                }
            }
        }
        Ok(games)
    }

    /// The nodes that published their games in progress within the last lease (this one
    /// included, once it has).
    pub async fn live_nodes(&self) -> Result<Vec<String>, ClusterError> {
        let nodes: Vec<String> = redis::cmd("SMEMBERS")
            .arg(format!("{}nodes", self.prefix))
            .query_async(&mut self.conn()?)
            .await?;
        if nodes.is_empty() {
            return Ok(nodes);
        }
        // EXISTS, not GET: the lists themselves may be long.
        let mut pipe = redis::pipe();
        for node in &nodes {
            pipe.cmd("EXISTS")
                .arg(format!("{}live:{node}", self.prefix));
        }
        let exists: Vec<bool> = pipe.query_async(&mut self.conn()?).await?;
        Ok(nodes
            .into_iter()
            .zip(exists)
            .filter_map(|(node, live)| live.then_some(node))
            .collect())
    }

    /// Takes or keeps the lease on directing a tournament: false if another node has it.
    pub async fn direct(&self, tournament: Uuid) -> Result<bool, ClusterError> {
        let script = redis::Script::new(
            r"local owner = redis.call('GET', KEYS[1])
              if owner == false or owner == ARGV[1] then
                redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
                return 1
              end
              return 0",
        );
        let held: i64 = script
            .key(format!("{}tournament:{tournament}", self.prefix))
            .arg(&*self.node)
            .arg(LEASE.as_millis() as u64)
            .invoke_async(&mut self.conn()?)
            .await?;
        Ok(held == 1)
    }

    /// The node directing a tournament, if any.
    pub async fn director(&self, tournament: Uuid) -> Result<Option<String>, ClusterError> {
        Ok(redis::cmd("GET")
            .arg(format!("{}tournament:{tournament}", self.prefix))
            .query_async(&mut self.conn()?)
            .await?)
    }

    /// Holds the matcher's lock if this node has it or nobody does; returns the matcher.
    pub async fn hold_matcher(&self) -> Result<String, ClusterError> {
        let script = redis::Script::new(
            r"local owner = redis.call('GET', KEYS[1])
              if owner == false or owner == ARGV[1] then
                redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
                return ARGV[1]
              end
              return owner",
        );
        Ok(script
            .key(format!("{}matcher", self.prefix))
            .arg(&*self.node)
            .arg(LEASE.as_millis() as u64)
            .invoke_async(&mut self.conn()?)
            .await?)
    }

    /// The node that runs matchmaking now, if any.
    pub async fn matcher(&self) -> Result<Option<String>, ClusterError> {
        Ok(redis::cmd("GET")
            .arg(format!("{}matcher", self.prefix))
            .query_async(&mut self.conn()?)
            .await?)
    }

    /// The matcher's seek list, for the other nodes' `GET /api/seeks`.
    pub async fn publish_seeks(
        &self,
        seeks: &[jungle_protocol::http::OpenSeek],
    ) -> Result<(), ClusterError> {
        let _: () = redis::cmd("SET")
            .arg(format!("{}seeks", self.prefix))
            .arg(serde_json::to_string(seeks).expect("seeks serialize"))
            .arg("PX")
            .arg(LEASE.as_millis() as u64)
            .query_async(&mut self.conn()?)
            .await?;
        Ok(())
    }

    pub async fn published_seeks(
        &self,
    ) -> Result<Vec<jungle_protocol::http::OpenSeek>, ClusterError> {
        let text: Option<String> = redis::cmd("GET")
            .arg(format!("{}seeks", self.prefix))
            .query_async(&mut self.conn()?)
            .await?;
        Ok(text
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default())
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
