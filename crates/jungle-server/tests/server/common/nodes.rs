//! Helpers for tests with several nodes: a node on the shared Redis, a player's way back into
//! a game after its node went away, and a follower that checks event numbers as a client does.

use std::time::{Duration, Instant};

use super::*;
use crate::expect_frame;

pub const REDIS: &str = "redis://127.0.0.1:6379";

/// A node of the cluster on the Redis at 127.0.0.1:6379.
pub fn node(url: &str, name: &str) -> ServerProcess {
    ServerProcess::start_with_args(url, &["--redis-url", REDIS, "--node-id", name])
}

/// Signs `player` in at `addr` and waits until the game is live there (a `game` frame that
/// seats them): the node has adopted it, or reaches the node that did. Returns the state.
pub async fn back_in_game(
    addr: std::net::SocketAddr,
    player: &Player,
    game: Uuid,
) -> (Client, GameState) {
    let mut client = signed_in_client(addr, player).await;
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        assert!(Instant::now() < until, "the game was adopted in time");
        client.send(ClientFrame::Watch { game }).await;
        let frame = tokio::time::timeout(Duration::from_millis(700), client.next()).await;
        if let Ok(Some(ServerFrame::Game(state))) = frame {
            // A game no node runs yet answers as stored, seating nobody.
            if state.game == game && state.you.is_some() {
                return (client, *state);
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Why a follower stopped waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lost {
    /// Its socket closed (its node went away).
    Closed,
    /// Not within the time given.
    Late,
}

/// A connection following one game as the browser client does: a `game` state replaces what
/// it holds; an event is applied only if its number is the next one, dropped if already
/// applied, and a gap is remembered as a missed frame (the client asks for the state again).
pub struct Follower {
    pub client: Client,
    pub game: Uuid,
    pub seq: u64,
    pub state: GameState,
    /// Full states received (the first, then every resync or takeover).
    pub states: usize,
    /// Event numbers that skipped ahead: each must be followed by a state.
    pub gaps: usize,
    pub over: Option<(Option<Side>, Reason)>,
}

impl Follower {
    /// Follows from `state`, the game frame `client` just received.
    pub fn new(client: Client, state: GameState) -> Follower {
        Follower {
            client,
            game: state.game,
            seq: state.seq,
            over: None,
            states: 1,
            gaps: 0,
            state,
        }
    }

    /// A fresh player at `addr` follows `game`, entering it by `enter` (`watch`, or
    /// `join_room` with a private room's code).
    pub async fn enter(
        addr: std::net::SocketAddr,
        name: &str,
        game: Uuid,
        enter: ClientFrame,
    ) -> Follower {
        let mut client = signed_in_client(addr, &create_player(addr, name).await).await;
        client.send(enter).await;
        let state = expect_frame!(client, ServerFrame::Game(s) if s.game == game => *s);
        Follower::new(client, state)
    }

    /// Reads frames until `done` holds, within `within`; the socket must stay open.
    pub async fn until(&mut self, what: &str, within: Duration, done: impl Fn(&Follower) -> bool) {
        match self.try_until(within, done).await {
            Ok(()) => {}
            Err(Lost::Closed) => panic!("the socket stayed open until {what}"),
            Err(Lost::Late) => panic!("{what} within {within:?}"),
        }
    }

    /// Reads frames until `done` holds, within `within`, or says why not.
    pub async fn try_until(
        &mut self,
        within: Duration,
        done: impl Fn(&Follower) -> bool,
    ) -> Result<(), Lost> {
        let deadline = Instant::now() + within;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            let frame = tokio::time::timeout(left, self.client.next_or_close())
                .await
                .map_err(|_| Lost::Late)?;
            self.see(frame.ok_or(Lost::Closed)?);
        }
        Ok(())
    }

    /// The moves of the game as this follower holds it.
    pub fn moves(&self) -> &[String] {
        &self.state.moves
    }

    fn see(&mut self, frame: ServerFrame) {
        if let ServerFrame::Game(state) = frame {
            if state.game == self.game {
                self.seq = state.seq;
                self.states += 1;
                self.gaps = 0;
                self.state = *state;
            }
            return;
        }
        let Some((game, seq)) = frame.game_event() else {
            return;
        };
        if game != self.game || seq <= self.seq {
            return;
        }
        if seq != self.seq + 1 {
            self.gaps += 1;
            return;
        }
        // Applied after a gap would be a client applying events over a hole.
        assert_eq!(
            self.gaps, 0,
            "an event applied before the state after a gap"
        );
        self.seq = seq;
        match frame {
            ServerFrame::Moved { mv, .. } => self.state.moves.push(mv),
            ServerFrame::GameOver { winner, reason, .. } => {
                self.over = Some((winner, reason));
                self.state.status = GameStatus::Finished;
            }
            _ => {}
        }
    }
}

/// A Redis of the test's own on a free port, that it can stop and start again.
pub struct PrivateRedis {
    pub port: u16,
    child: Option<std::process::Child>,
}

impl PrivateRedis {
    pub fn start() -> PrivateRedis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut redis = PrivateRedis { port, child: None };
        redis.restart();
        redis
    }

    pub fn restart(&mut self) {
        let child = std::process::Command::new("redis-server")
            .args([
                "--port",
                &self.port.to_string(),
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server starts (the Redis package is a test prerequisite)");
        self.child = Some(child);
        let until = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < until, "redis-server answers");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A TCP relay in front of a Redis, for one node: paused, it forwards nothing either way (the
/// node is cut off from Redis while its sockets stay open); resumed, everything held goes on.
pub struct Relay {
    pub port: u16,
    paused: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Relay {
    pub async fn to(target: u16) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (paused, watch) = tokio::sync::watch::channel(false);
        let task = tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let Ok(outbound) = tokio::net::TcpStream::connect(("127.0.0.1", target)).await
                else {
                    continue;
                };
                let (in_read, in_write) = inbound.into_split();
                let (out_read, out_write) = outbound.into_split();
                tokio::spawn(pipe(in_read, out_write, watch.clone()));
                tokio::spawn(pipe(out_read, in_write, watch.clone()));
            }
        });
        Relay { port, paused, task }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn pause(&self, paused: bool) {
        let _ = self.paused.send(paused);
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Copies `from` to `to`, holding whatever it read while paused.
async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mut paused: tokio::sync::watch::Receiver<bool>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        if paused.wait_for(|p| !*p).await.is_err() {
            return;
        }
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if paused.wait_for(|p| !*p).await.is_err() {
            return;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}
