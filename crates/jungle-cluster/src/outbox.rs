//! One ordered outbox per peer node: whatever this node sends a peer goes out in the order it
//! was given, and never waits the sender. What is queued goes in one published message; on a
//! busy link (a message sent within the last [`BUSY`]) the outbox lingers [`LINGER`] first to
//! take more with it, since each message wakes both nodes (on one machine the wake-ups, not
//! the bytes, were most of what a move between nodes cost), while a quiet link sends at once. While Redis is away the outbox holds its messages and sends them in
//! order when it is back; a longer outage, or a peer that was not listening, drops them and
//! the peer is told to resync its followers (every one joins again and gets the whole state).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::round_trip::{self, RoundTrips};
use super::wire::{Envelope, Message, ToFollowers, ToNode};
use super::Cluster;

/// Messages one peer's outbox holds at most (beyond, they are dropped and the peer resyncs).
const QUEUE: usize = 8_192;
/// Messages sent in one pipeline.
const BATCH: usize = 256;
/// How long a batch is retried while Redis is away before it is dropped.
const OUTAGE: Duration = Duration::from_secs(5);
/// A peer's outbox ends after this long with nothing to send (it starts again when needed).
const IDLE: Duration = Duration::from_secs(600);
/// A link that sent this recently is busy…
const BUSY: Duration = Duration::from_millis(20);
/// …and waits this long for more before sending. Each published message wakes a handful of
/// tasks on both nodes; on one machine at 1,000 moves a second two nodes cost 35% more CPU a
/// move than one with 2 ms, 26% with 6 ms, 15% with 10 ms (docs/benchmarks.md). What a
/// player on another node than their game loses to it is credited to their clock
/// ([`super::round_trip`]).
const LINGER: Duration = Duration::from_millis(10);

/// Every peer's outbox. Cloning shares.
#[derive(Clone)]
pub struct Outboxes {
    cluster: Cluster,
    peers: Arc<Mutex<HashMap<String, Peer>>>,
    /// How long each link takes there and back, as pings measure it.
    pub round_trips: RoundTrips,
}

#[derive(Clone)]
struct Peer {
    tx: mpsc::Sender<Envelope>,
    /// Something for this peer was dropped: it resyncs before the next message.
    lost: Arc<AtomicBool>,
    /// When something other than the bus's own upkeep was last sent there
    /// ([`round_trip::now_micros`]): only such a link is pinged, so that pings and their
    /// answers never keep a link alive by themselves.
    last_used: Arc<AtomicU64>,
}

impl Outboxes {
    pub fn new(cluster: Cluster) -> Outboxes {
        Outboxes {
            cluster,
            peers: Arc::default(),
            round_trips: RoundTrips::default(),
        }
    }

    /// The other nodes this node sent something to (besides pings and their answers) within
    /// `within`.
    pub fn used_within(&self, within: Duration) -> Vec<String> {
        let since = round_trip::now_micros().saturating_sub(within.as_micros() as u64);
        let mut peers = self.peers.lock().expect("outbox lock");
        peers.retain(|_, peer| !peer.tx.is_closed());
        peers
            .iter()
            .filter(|(node, peer)| {
                node.as_str() != self.cluster.node()
                    && peer.last_used.load(Ordering::Relaxed) >= since
            })
            .map(|(node, _)| node.clone())
            .collect()
    }

    /// Queues `envelope` for `node`, in order after everything queued for it before.
    pub fn send(&self, node: &str, envelope: Envelope) {
        let peer = self.peer(node);
        if !envelope.is_upkeep() {
            peer.last_used
                .store(round_trip::now_micros(), Ordering::Relaxed);
        }
        if peer.tx.try_send(envelope).is_err() {
            metrics::counter!("jungle_bus_dropped_total").increment(1);
            peer.lost.store(true, Ordering::Relaxed);
        }
    }

    pub fn message(&self, node: &str, message: Message) {
        self.send(node, Envelope::Message(message));
    }

    fn peer(&self, node: &str) -> Peer {
        let mut peers = self.peers.lock().expect("outbox lock");
        if let Some(peer) = peers.get(node).filter(|p| !p.tx.is_closed()) {
            return peer.clone();
        }
        let (tx, rx) = mpsc::channel(QUEUE);
        let peer = Peer {
            tx,
            lost: Arc::default(),
            last_used: Arc::default(),
        };
        peers.insert(node.to_owned(), peer.clone());
        let (cluster, node, lost, round_trips) = (
            self.cluster.clone(),
            node.to_owned(),
            peer.lost.clone(),
            self.round_trips.clone(),
        );
        tokio::spawn(async move {
            run(cluster, &node, rx, lost).await;
            // A link unused this long is forgotten, its round trip with it.
            round_trips.forget(&node);
        });
        peer
    }
}

async fn run(
    cluster: Cluster,
    node: &str,
    mut rx: mpsc::Receiver<Envelope>,
    lost: Arc<AtomicBool>,
) {
    let channel = cluster.node_channel(node);
    let mut batch: Vec<Envelope> = Vec::with_capacity(BATCH);
    let mut last_sent = tokio::time::Instant::now() - BUSY;
    loop {
        match tokio::time::timeout(IDLE, rx.recv_many(&mut batch, BATCH)).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if last_sent.elapsed() < BUSY && batch.len() < BATCH {
            tokio::time::sleep(LINGER).await;
            while batch.len() < BATCH {
                match rx.try_recv() {
                    Ok(envelope) => batch.push(envelope),
                    Err(_) => break,
                }
            }
        }
        last_sent = tokio::time::Instant::now();
        let mut delay = Duration::from_millis(20);
        let mut waited = Duration::ZERO;
        loop {
            if lost.swap(false, Ordering::Relaxed) {
                // What was dropped is made good by the whole state, before anything newer.
                batch.insert(
                    0,
                    Envelope::Message(Message::Followers(ToFollowers::Resync { game: None })),
                );
            }
            match publish(&cluster, &channel, &batch).await {
                Ok(listened) => {
                    metrics::counter!("jungle_bus_messages_total", "way" => "out")
                        .increment(batch.len() as u64);
                    if !listened {
                        // Nobody listened (the peer was restarting its subscription): it
                        // resyncs once it listens again.
                        lost.store(true, Ordering::Relaxed);
                    }
                    batch.clear();
                    break;
                }
                Err(e) if waited < OUTAGE => {
                    metrics::counter!("jungle_cluster_errors_total").increment(1);
                    tracing::debug!(error = %e, %node, "bus: holding messages while Redis is away");
                    tokio::time::sleep(delay).await;
                    waited += delay;
                    delay = (delay * 2).min(Duration::from_millis(500));
                }
                Err(e) => {
                    tracing::warn!(error = %e, %node, dropped = batch.len(), "bus: Redis away too long; the peer resyncs");
                    metrics::counter!("jungle_bus_dropped_total").increment(batch.len() as u64);
                    batch.clear();
                    while rx.try_recv().is_ok() {}
                    lost.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
    }
}

/// Publishes `batch` in order as one message; whether it had a listener. The bus's upkeep
/// (pings and their answers) goes first as a message of its own: a node of an older version
/// that does not know it then loses only that, not the moves and frames beside it. (Were the
/// rest published first and the upkeep then failed, the retry would send the rest twice.)
async fn publish(
    cluster: &Cluster,
    channel: &str,
    batch: &[Envelope],
) -> Result<bool, super::ClusterError> {
    let (upkeep, rest): (Vec<&Envelope>, Vec<&Envelope>) =
        batch.iter().partition(|e| e.is_upkeep());
    let mut listened = true;
    for part in [upkeep, rest] {
        if part.is_empty() {
            continue;
        }
        let receivers: i64 = redis::cmd("PUBLISH")
            .arg(channel)
            .arg(Envelope::encode_all(&part))
            .query_async(&mut cluster.conn()?)
            .await?;
        metrics::counter!("jungle_bus_publishes_total").increment(1);
        listened = receivers > 0;
    }
    Ok(listened)
}

/// A link is pinged while something else was sent on it within this (its round trip is
/// only of use while moves go there).
const PINGED_AFTER_USE: Duration = Duration::from_secs(60);

/// Every beat, pings each peer this node sent something to lately (moves, frames); their
/// pongs come back through the inbox to [`RoundTrips::record`](super::round_trip::RoundTrips::record).
pub fn ping_used_links(cluster: Cluster, outboxes: Outboxes, shutdown: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut beats = super::Beats::new(shutdown);
        while beats.next().await {
            for peer in outboxes.used_within(PINGED_AFTER_USE) {
                let ping = ToNode::Ping {
                    from: cluster.node().to_owned(),
                    sent: round_trip::now_micros(),
                };
                outboxes.message(&peer, Message::Node(ping));
            }
        }
    });
}
