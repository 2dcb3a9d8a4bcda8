//! What every node publishes for the others, and reads of theirs: its games in progress and
//! its players (each beat), the matcher's seek list, who runs matchmaking and who directs each
//! tournament (leases like a game's).

use uuid::Uuid;

use super::{Cluster, ClusterError, LEASE};

impl Cluster {
    /// This node's games in progress, for every node's list; kept a beat or two. `games` is
    /// `None` when they are as last published: then only the list's time to live is renewed
    /// (a thousand games are a few hundred kilobytes of JSON to make, send and drop at every
    /// beat otherwise). False when there was no list to renew (Redis lost it): the caller
    /// publishes it whole.
    pub async fn publish_live(
        &self,
        games: Option<&[jungle_protocol::http::LiveGame]>,
    ) -> Result<bool, ClusterError> {
        let key = format!("{}live:{}", self.prefix, self.node);
        let mut pipe = redis::pipe();
        match games {
            Some(games) => pipe
                .cmd("SET")
                .arg(&key)
                .arg(serde_json::to_string(games).expect("live games serialize"))
                .arg("PX")
                .arg(LEASE.as_millis() as u64)
                .ignore(),
            None => pipe.cmd("PEXPIRE").arg(&key).arg(LEASE.as_millis() as u64),
        };
        pipe.cmd("SADD")
            .arg(format!("{}nodes", self.prefix))
            .arg(&*self.node)
            .ignore();
        if games.is_some() {
            let _: () = pipe.query_async(&mut self.conn()?).await?;
            return Ok(true);
        }
        let (renewed,): (bool,) = pipe.query_async(&mut self.conn()?).await?;
        Ok(renewed)
    }

    /// This node leaves (it drained): its games-in-progress key goes at once, so the other
    /// nodes look for its games now rather than when the key would have lapsed.
    pub async fn leave(&self) -> Result<(), ClusterError> {
        let _: () = redis::pipe()
            .cmd("DEL")
            .arg(format!("{}live:{}", self.prefix, self.node))
            .ignore()
            .cmd("SREM")
            .arg(format!("{}nodes", self.prefix))
            .arg(&*self.node)
            .ignore()
            .query_async(&mut self.conn()?)
            .await?;
        Ok(())
    }

    /// The players with a connection on this node, for the others (kept a beat or two), under
    /// `version` (which names this publication: the others read the set again only when it
    /// changes). `None` when they are as last published: then only their time to live is
    /// renewed. False when there was nothing to renew (Redis lost it): the caller publishes
    /// them whole.
    pub async fn publish_players(
        &self,
        published: Option<(&str, &[Uuid])>,
    ) -> Result<bool, ClusterError> {
        let key = format!("{}players:{}", self.prefix, self.node);
        let version_key = format!("{}players-version:{}", self.prefix, self.node);
        let lease = LEASE.as_millis() as u64;
        let mut pipe = redis::pipe();
        let Some((version, players)) = published else {
            pipe.cmd("PEXPIRE")
                .arg(&key)
                .arg(lease)
                .ignore()
                .cmd("PEXPIRE")
                .arg(&version_key)
                .arg(lease);
            let (renewed,): (bool,) = pipe.query_async(&mut self.conn()?).await?;
            return Ok(renewed);
        };
        pipe.atomic().cmd("DEL").arg(&key).ignore();
        for chunk in players.chunks(1_000) {
            let ids: Vec<String> = chunk.iter().map(Uuid::to_string).collect();
            pipe.cmd("SADD").arg(&key).arg(ids).ignore();
        }
        pipe.cmd("PEXPIRE")
            .arg(&key)
            .arg(lease)
            .ignore()
            .cmd("SET")
            .arg(&version_key)
            .arg(version)
            .arg("PX")
            .arg(lease)
            .ignore();
        let _: () = pipe.query_async(&mut self.conn()?).await?;
        Ok(true)
    }

    /// Who is online on the other nodes, kept in `known` (node → the name of the publication
    /// of its players last read, and them): a node's players are read again only when it
    /// published them whole again. Whether anything in `known` changed.
    pub async fn players_elsewhere(
        &self,
        known: &mut std::collections::HashMap<String, (String, Vec<Uuid>)>,
    ) -> Result<bool, ClusterError> {
        let nodes = self.node_set().await?;
        let others: Vec<String> = nodes.into_iter().filter(|n| **n != *self.node).collect();
        let mut changed = false;
        let before = known.len();
        known.retain(|node, _| others.contains(node));
        changed |= known.len() != before;
        if others.is_empty() {
            return Ok(changed);
        }
        let keys: Vec<String> = others
            .iter()
            .map(|node| format!("{}players-version:{node}", self.prefix))
            .collect();
        let versions: Vec<Option<String>> = redis::cmd("MGET")
            .arg(&keys)
            .query_async(&mut self.conn()?)
            .await?;
        for (node, version) in others.into_iter().zip(versions) {
            let Some(version) = version else {
                // Gone, or not published yet: nobody of it is online.
                changed |= known.remove(&node).is_some();
                continue;
            };
            if known.get(&node).is_some_and(|(seen, _)| *seen == version) {
                continue;
            }
            let players: Vec<String> = redis::cmd("SMEMBERS")
                .arg(format!("{}players:{node}", self.prefix))
                .query_async(&mut self.conn()?)
                .await?;
            let players = players.iter().filter_map(|p| p.parse().ok()).collect();
            known.insert(node, (version, players));
            changed = true;
        }
        Ok(changed)
    }

    /// The set of nodes that have published their games in progress (some may have gone
    /// since; a reader that finds a node's list gone takes it out).
    async fn node_set(&self) -> Result<Vec<String>, ClusterError> {
        Ok(redis::cmd("SMEMBERS")
            .arg(format!("{}nodes", self.prefix))
            .query_async(&mut self.conn()?)
            .await?)
    }

    /// Every node's games in progress, as they last published them.
    pub async fn live_games(&self) -> Result<Vec<jungle_protocol::http::LiveGame>, ClusterError> {
        let nodes = self.node_set().await?;
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
        let nodes = self.node_set().await?;
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
}
