//! Fair play across nodes: whether a position stands in a game run by another node. A node
//! asks every live node over Redis pub/sub (a channel of its own, apart from the bus) and
//! waits for all their answers; each answers from its own registry, which its rooms fill
//! before any frame about a position leaves. No answer in time, or a node that vanished in
//! the last [`SETTLING`] (its games are waiting to be adopted and registered elsewhere),
//! makes the answer "unsure", and the engine stays closed: fair play fails closed.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, watch};

use super::{Cluster, BEAT};
use jungle_rooms::fair_play::{Among, EngineClosed, LivePositions, Standing};

/// How long the answers of every node are waited for.
const ANSWER_WITHIN: Duration = Duration::from_millis(700);
/// After a node vanishes, how long its games may be waiting for a new owner.
pub const SETTLING: Duration = Duration::from_secs(10);

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
enum Message {
    /// How do these positions (as text) stand to your games? `now_only`: only where games
    /// between people stand now (the computer's own moves).
    Ask {
        id: u64,
        from: String,
        positions: Vec<String>,
        now_only: bool,
    },
    /// The indexes of the positions asked that are closed.
    Answer { id: u64, live: Vec<usize> },
}

/// This node's end: its answers, and its questions to the others. Cloning shares.
#[derive(Clone)]
pub struct Peers {
    cluster: Cluster,
    local: LivePositions,
    next_id: Arc<AtomicU64>,
    waiting: Arc<Mutex<HashMap<u64, mpsc::UnboundedSender<Answered>>>>,
    view: Arc<Mutex<NodeView>>,
}

/// One node's answer: the indexes closed.
type Answered = Vec<usize>;

/// The live nodes as of the last beat, and when each of the others vanished.
#[derive(Default)]
struct NodeView {
    live: Vec<String>,
    vanished: HashMap<String, Instant>,
    /// Whether this node is subscribed, so that it can hear answers.
    listening: bool,
}

impl Peers {
    pub fn start(cluster: Cluster, local: LivePositions, shutdown: watch::Receiver<bool>) -> Peers {
        let peers = Peers {
            cluster,
            local,
            next_id: Arc::default(),
            waiting: Arc::default(),
            view: Arc::default(),
        };
        tokio::spawn(peers.clone().listen(shutdown.clone()));
        tokio::spawn(peers.clone().watch_nodes(shutdown));
        peers
    }

    fn channel(&self, node: &str) -> String {
        format!("{}fair:{node}", self.cluster.prefix)
    }

    /// For each position, whether a game of another node closes the engine on it.
    pub async fn standings(
        &self,
        positions: &[jungle_rules::Position],
        among: Among,
    ) -> Result<Vec<Standing>, EngineClosed> {
        let others: Vec<String> = {
            let mut view = self.view.lock().expect("fair play view");
            view.vanished.retain(|_, at| at.elapsed() < SETTLING);
            if !view.vanished.is_empty() || !view.listening {
                return Err(EngineClosed::Unsure);
            }
            view.live
                .iter()
                .filter(|n| **n != *self.cluster.node())
                .cloned()
                .collect()
        };
        let mut live = vec![Standing::Open; positions.len()];
        if others.is_empty() {
            return Ok(live);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, mut rx) = mpsc::unbounded_channel();
        self.waiting
            .lock()
            .expect("fair play waiting")
            .insert(id, tx);
        let ask = Message::Ask {
            id,
            from: self.cluster.node().to_owned(),
            positions: positions.iter().map(ToString::to_string).collect(),
            now_only: among == Among::PeoplesGamesNow,
        };
        let answered = async {
            for node in &others {
                if self.publish(node, &ask).await? == 0 {
                    return Err(EngineClosed::Unsure);
                }
            }
            for _ in &others {
                let closed = rx.recv().await.ok_or(EngineClosed::Unsure)?;
                for index in closed {
                    if let Some(slot) = live.get_mut(index) {
                        *slot = Standing::Closed;
                    }
                }
            }
            Ok(())
        };
        let outcome = tokio::time::timeout(ANSWER_WITHIN, answered).await;
        self.waiting.lock().expect("fair play waiting").remove(&id);
        match outcome {
            Ok(Ok(())) => Ok(live),
            Ok(Err(e)) => Err(e),
            Err(_) => {
                metrics::counter!("jungle_cluster_errors_total").increment(1);
                tracing::warn!("fair play: a node did not answer in time");
                Err(EngineClosed::Unsure)
            }
        }
    }

    /// Subscribers that got it (0: nobody listens there).
    async fn publish(&self, node: &str, message: &Message) -> Result<i64, EngineClosed> {
        let payload = serde_json::to_string(message).expect("fair play messages serialize");
        let mut redis = self.cluster.conn().map_err(|_| EngineClosed::Unsure)?;
        redis::cmd("PUBLISH")
            .arg(self.channel(node))
            .arg(payload)
            .query_async(&mut redis)
            .await
            .map_err(|e| {
                tracing::warn!(error = %e, "fair play: a question was not sent");
                EngineClosed::Unsure
            })
    }

    /// Every beat: which nodes are live (those that published their games lately).
    async fn watch_nodes(self, shutdown: watch::Receiver<bool>) {
        let mut beats = super::Beats::new(shutdown);
        while beats.next().await {
            let Ok(now_live) = self.cluster.live_nodes().await else {
                continue;
            };
            let mut view = self.view.lock().expect("fair play view");
            let gone: Vec<String> = view
                .live
                .iter()
                .filter(|n| !now_live.contains(n))
                .cloned()
                .collect();
            for node in gone {
                view.vanished.insert(node, Instant::now());
            }
            for back in &now_live {
                view.vanished.remove(back);
            }
            view.live = now_live;
        }
    }

    async fn listen(self, mut shutdown: watch::Receiver<bool>) {
        let channel = self.channel(self.cluster.node());
        loop {
            let subscribed = async {
                let mut pubsub = self.cluster.client.get_async_pubsub().await?;
                pubsub.subscribe(&channel).await?;
                Ok::<_, redis::RedisError>(pubsub)
            };
            let mut pubsub = match subscribed.await {
                Ok(pubsub) => pubsub,
                Err(e) => {
                    tracing::warn!(error = %e, "fair play: cannot subscribe; trying again");
                    tokio::select! {
                        _ = tokio::time::sleep(BEAT) => continue,
                        _ = shutdown.changed() => return,
                    }
                }
            };
            self.view.lock().expect("fair play view").listening = true;
            let mut messages = pubsub.on_message();
            loop {
                tokio::select! {
                    message = messages.next() => match message {
                        Some(message) => {
                            let read = message
                                .get_payload::<String>()
                                .ok()
                                .and_then(|p| serde_json::from_str::<Message>(&p).ok());
                            match read {
                                Some(message) => self.receive(message).await,
                                None => tracing::warn!("fair play: a message that does not read"),
                            }
                        }
                        None => break,
                    },
                    _ = shutdown.changed() => return,
                }
            }
            self.view.lock().expect("fair play view").listening = false;
        }
    }

    async fn receive(&self, message: Message) {
        match message {
            Message::Ask {
                id,
                from,
                positions,
                now_only,
            } => {
                let among = match now_only {
                    true => Among::PeoplesGamesNow,
                    false => Among::AllGames,
                };
                let mut live = Vec::new();
                for (index, text) in positions.iter().enumerate() {
                    // A position that does not read is closed: fail closed.
                    let standing = text
                        .parse::<jungle_rules::Position>()
                        .map_or(Standing::Closed, |p| self.local.standing(&p, among));
                    if standing == Standing::Closed {
                        live.push(index);
                    }
                }
                let answer = Message::Answer { id, live };
                let _ = self.publish(&from, &answer).await;
            }
            Message::Answer { id, live } => {
                let waiting = self.waiting.lock().expect("fair play waiting");
                if let Some(tx) = waiting.get(&id) {
                    let _ = tx.send(live);
                }
            }
        }
    }
}
