//! The fault suite (issue 24): three nodes on one PostgreSQL and a Redis of the test's own,
//! players spread over every node by a round-robin choice, games in every state (rated games
//! between people on different nodes, a tournament's game, a private room still waiting for
//! its guest, spectators on every node). A scripted sequence kills a node with SIGKILL, drains
//! another, restarts Redis, and cuts a third off Redis for a few seconds (a relay the test
//! pauses); new nodes join as old ones go. Each client behaves as the browser does: when its
//! socket closes it reconnects to another node, and when a move gets no answer it asks for the
//! state and sends it again only if it was not played.
//!
//! At the end, from the database and the clients' logs: every acknowledged move is stored
//! once and in order, each game ended exactly once and by its last move (never by abandonment
//! or time of a player who stayed), every rating changed once, the tournament counted its game
//! once, and every client's event numbers ran on without a hole (a gap is only ever followed by
//! a whole state). Bounded: a few games, a minute or two, loopback only.

use std::time::{Duration, Instant};

use crate::common::*;

/// How long a client waits for an answer before it asks for the whole state again.
const ANSWER: Duration = Duration::from_secs(4);
/// How long anything may take to come back after a fault (an adoption is a few beats).
const BACK: Duration = Duration::from_secs(20);

/// The nodes alive now, and a round-robin choice among them.
struct Nodes {
    url: String,
    redis: PrivateRedis,
    /// The node cut off Redis through this relay.
    relay: Relay,
    live: Vec<(String, ServerProcess)>,
    next: usize,
    started: usize,
}

impl Nodes {
    async fn start(url: String) -> Nodes {
        let redis = PrivateRedis::start();
        let relay = Relay::to(redis.port).await;
        let mut nodes = Nodes {
            url,
            redis,
            relay,
            live: Vec::new(),
            next: 0,
            started: 0,
        };
        for _ in 0..2 {
            nodes.add(false);
        }
        nodes.add(true);
        nodes
    }

    /// A new node (reaching Redis through the relay if `relayed`).
    fn add(&mut self, relayed: bool) {
        let name = format!("n{}", self.started);
        self.started += 1;
        let redis = match relayed {
            true => self.relay.url(),
            false => self.redis.url(),
        };
        let args = ["--redis-url", &redis, "--node-id", &name];
        let process = ServerProcess::start_with_args(&self.url, &args);
        self.live.push((name, process));
    }

    /// The next node by the round-robin.
    fn pick(&mut self) -> std::net::SocketAddr {
        self.next += 1;
        self.live[self.next % self.live.len()].1.addr
    }

    fn take(&mut self, name: &str) -> ServerProcess {
        let at = self.live.iter().position(|(n, _)| n == name).unwrap();
        self.live.remove(at).1
    }

    fn any(&self) -> std::net::SocketAddr {
        self.live[0].1.addr
    }
}

/// One player of one game, reconnecting as the browser does.
struct Seat {
    player: Player,
    game: Uuid,
    follower: Option<Follower>,
    reconnects: usize,
}

impl Seat {
    /// Connected and following the game (reconnecting through the next node if need be).
    async fn ensure(&mut self, nodes: &mut Nodes) -> &mut Follower {
        if self.follower.is_none() {
            let addr = nodes.pick();
            let (client, state) = back_in_game(addr, &self.player, self.game).await;
            self.follower = Some(Follower::new(client, state));
            self.reconnects += 1;
        }
        self.follower.as_mut().unwrap()
    }

    /// Waits until the game has `plies` turns as this seat sees it, reconnecting when its
    /// socket closes and asking for the state when nothing comes.
    async fn reach(&mut self, nodes: &mut Nodes, plies: usize) {
        let until = Instant::now() + BACK;
        loop {
            assert!(Instant::now() < until, "ply {plies} reached in time");
            let game = self.game;
            let follower = self.ensure(nodes).await;
            match follower
                .try_until(ANSWER, |f| f.moves().len() >= plies)
                .await
            {
                Ok(()) => return,
                Err(Lost::Closed) => self.follower = None,
                Err(Lost::Late) => follower.client.send(ClientFrame::Watch { game }).await,
            }
        }
    }

    /// Plays `mv` as the `ply`-th turn: sent, and sent again after a resync only if the game
    /// does not have it.
    async fn play(&mut self, nodes: &mut Nodes, ply: usize, mv: &str) {
        let until = Instant::now() + BACK;
        loop {
            assert!(Instant::now() < until, "{mv} acknowledged in time");
            let game = self.game;
            let follower = self.ensure(nodes).await;
            if follower.moves().len() > ply {
                assert_eq!(follower.moves()[ply], mv, "the game has this move");
                return;
            }
            follower.client.mv(game, mv).await;
            match follower.try_until(ANSWER, |f| f.moves().len() > ply).await {
                Ok(()) => {
                    assert_eq!(follower.moves()[ply], mv, "acknowledged as sent");
                    return;
                }
                Err(Lost::Closed) => self.follower = None,
                Err(Lost::Late) => {
                    follower.client.send(ClientFrame::Watch { game }).await;
                    let _ = follower.try_until(ANSWER, |f| f.moves().len() > ply).await;
                }
            }
        }
    }
}

/// A spectator, reconnecting when its node goes.
struct Watcher {
    name: String,
    game: Uuid,
    enter: ClientFrame,
    follower: Option<Follower>,
}

impl Watcher {
    async fn new(nodes: &mut Nodes, name: &str, game: Uuid, enter: ClientFrame) -> Watcher {
        let follower = Follower::enter(nodes.pick(), name, game, enter.clone()).await;
        Watcher {
            name: name.to_owned(),
            game,
            enter,
            follower: Some(follower),
        }
    }

    /// Follows on until the game is over.
    async fn follow_to_the_end(
        &mut self,
        nodes: &mut Nodes,
    ) -> (Option<Side>, Reason, Vec<String>) {
        let until = Instant::now() + BACK;
        loop {
            assert!(Instant::now() < until, "{} saw the end in time", self.name);
            if self.follower.is_none() {
                let name = format!("{} again", self.name);
                let entered = Follower::enter(nodes.pick(), &name, self.game, self.enter.clone());
                self.follower = Some(entered.await);
            }
            let follower = self.follower.as_mut().unwrap();
            let ended = |f: &Follower| {
                f.over.is_some()
                    || matches!(f.state.status, GameStatus::Finished | GameStatus::Aborted)
            };
            match follower.try_until(ANSWER, ended).await {
                Ok(()) => {
                    assert_eq!(
                        follower.gaps, 0,
                        "{}: a gap not followed by a state",
                        self.name
                    );
                    let (winner, reason) = match follower.over {
                        Some(over) => over,
                        None => {
                            let result = follower.state.result.as_ref().expect("a result");
                            (result.winner, result.reason)
                        }
                    };
                    return (winner, reason, follower.moves().to_vec());
                }
                Err(Lost::Closed) => self.follower = None,
                Err(Lost::Late) => {
                    let game = self.game;
                    follower.client.send(ClientFrame::Watch { game }).await;
                }
            }
        }
    }
}

/// A game being played through the faults: its two seats, its script, how far it is.
struct Table {
    game: Uuid,
    seats: [Seat; 2],
    script: &'static [&'static str],
    ply: usize,
}

impl Table {
    fn new(game: Uuid, red: Player, blue: Player, script: &'static [&'static str]) -> Table {
        let seat = |player| Seat {
            player,
            game,
            follower: None,
            reconnects: 0,
        };
        Table {
            game,
            seats: [seat(red), seat(blue)],
            script,
            ply: 0,
        }
    }

    /// Plays up to `plies` more turns of the script; both seats see each.
    async fn advance(&mut self, nodes: &mut Nodes, plies: usize) {
        let end = (self.ply + plies).min(self.script.len());
        while self.ply < end {
            let mv = self.script[self.ply];
            let (mover, other) = match self.ply % 2 {
                0 => (0, 1),
                _ => (1, 0),
            };
            self.seats[mover].play(nodes, self.ply, mv).await;
            self.seats[other].reach(nodes, self.ply + 1).await;
            self.ply += 1;
        }
    }

    fn done(&self) -> bool {
        self.ply == self.script.len()
    }
}

/// Two players on two nodes (by the round-robin) matched by a rated seek of their own clock.
async fn rated_pair(nodes: &mut Nodes, n: u32) -> Table {
    let (a_at, b_at) = (nodes.pick(), nodes.pick());
    let a = create_account(a_at, "Faulty").await;
    let b = create_account(b_at, "Steady").await;
    let seek = seek(Ruleset::Classic, fischer(300 + n, 2), true);
    let mut ca = signed_in_client(a_at, &a).await;
    ca.send(seek.clone()).await;
    expect_frame!(ca, ServerFrame::Seeking { .. });
    let mut cb = signed_in_client(b_at, &b).await;
    cb.send(seek).await;
    let sa = expect_frame!(ca, ServerFrame::Game(s) => *s);
    let sb = expect_frame!(cb, ServerFrame::Game(s) => *s);
    assert_eq!(sa.game, sb.game);
    let game = sa.game;
    let (mut table, red_first) = match sa.you {
        Some(Side::Red) => (Table::new(game, a, b, &DEN_WIN_AT_PLY_21), true),
        _ => (Table::new(game, b, a, &DEN_WIN_AT_PLY_21), false),
    };
    let (red, blue) = match red_first {
        true => ((ca, sa), (cb, sb)),
        false => ((cb, sb), (ca, sa)),
    };
    table.seats[0].follower = Some(Follower::new(red.0, red.1));
    table.seats[1].follower = Some(Follower::new(blue.0, blue.1));
    table
}

/// An arena directed by one node; two players on two others join and are paired.
async fn tournament_pair(nodes: &mut Nodes) -> (Uuid, Table) {
    let host = create_account(nodes.any(), "Organiser").await;
    let made: http::TournamentCreated = reqwest::Client::new()
        .post(format!("http://{}/api/tournaments", nodes.any()))
        .bearer_auth(&host.token)
        .json(
            &serde_json::json!({ "name": "Fault arena", "rules": "classic",
            "clock": { "kind": "fischer", "base_s": 300, "inc_s": 2 }, "minutes": 30 }),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = made.id;
    let (a_at, b_at) = (nodes.pick(), nodes.pick());
    let (a, b) = (
        create_player(a_at, "Arena A").await,
        create_player(b_at, "Arena B").await,
    );
    let mut ca = signed_in_client(a_at, &a).await;
    let mut cb = signed_in_client(b_at, &b).await;
    // Who is online on the other nodes is known within a beat or two.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let mut states = Vec::new();
    for client in [&mut ca, &mut cb] {
        client
            .send(ClientFrame::JoinTournament { id, code: None })
            .await;
    }
    for client in [&mut ca, &mut cb] {
        states.push(expect_frame!(client, ServerFrame::Game(s) if s.tournament == Some(id) => *s));
    }
    let game = states[0].game;
    assert_eq!(states[1].game, game);
    let a_red = states[0].you == Some(Side::Red);
    let (red, blue) = match a_red {
        true => (a, b),
        false => (b, a),
    };
    let mut table = Table::new(game, red, blue, &DEN_WIN_AT_PLY_13);
    let (sb, sa) = (states.pop().unwrap(), states.pop().unwrap());
    let (red_seat, blue_seat) = match a_red {
        true => ((ca, sa), (cb, sb)),
        false => ((cb, sb), (ca, sa)),
    };
    table.seats[0].follower = Some(Follower::new(red_seat.0, red_seat.1));
    table.seats[1].follower = Some(Follower::new(blue_seat.0, blue_seat.1));
    (id, table)
}

async fn everyone_plays_on(tables: &mut [Table], nodes: &mut Nodes, plies: usize) {
    for table in tables.iter_mut() {
        table.advance(nodes, plies).await;
    }
}

async fn stored(nodes: &Nodes, game: Uuid) -> http::GameRecord {
    reqwest::get(format!("http://{}/api/games/{game}", nodes.any()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_fault_loses_or_doubles_anything_and_nobody_is_stranded() {
    let url = fresh_database(Db::Postgres).await;
    let mut nodes = Nodes::start(url.clone()).await;
    let started = Instant::now();

    // Games in every state, spread over the nodes.
    let mut tables = vec![
        rated_pair(&mut nodes, 1).await,
        rated_pair(&mut nodes, 2).await,
    ];
    let (arena, arena_table) = tournament_pair(&mut nodes).await;
    tables.push(arena_table);
    let host = create_player(nodes.any(), "Host").await;
    let mut host_client = signed_in_client(nodes.any(), &host).await;
    let (code, waiting) = open_private_room(&mut host_client, fischer(300, 2), false).await;
    let mut watchers = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        for k in 0..3 {
            let name = format!("Watcher {i}-{k}");
            let watch = ClientFrame::Watch { game: table.game };
            watchers.push(Watcher::new(&mut nodes, &name, table.game, watch).await);
        }
    }
    everyone_plays_on(&mut tables, &mut nodes, 2).await;

    // 1. kill -9 of the node that runs the first games and directs the arena; a new node joins.
    eprintln!("kill -9 n0 at {:?}", started.elapsed());
    nodes.take("n0").kill();
    drop(host_client);
    nodes.add(false);
    everyone_plays_on(&mut tables, &mut nodes, 3).await;

    // 2. A drain (SIGTERM) of another; a new node joins.
    eprintln!("drain n1 at {:?}", started.elapsed());
    nodes.take("n1").terminate();
    nodes.add(false);
    everyone_plays_on(&mut tables, &mut nodes, 3).await;

    // 3. Redis restarts, empty.
    eprintln!("Redis restart at {:?}", started.elapsed());
    nodes.redis.stop();
    tokio::time::sleep(Duration::from_secs(1)).await;
    nodes.redis.restart();
    everyone_plays_on(&mut tables, &mut nodes, 3).await;

    // 4. One node cut off Redis for a few seconds, its sockets open.
    eprintln!("relay paused at {:?}", started.elapsed());
    nodes.relay.pause(true);
    tokio::time::sleep(Duration::from_secs(3)).await;
    nodes.relay.pause(false);
    everyone_plays_on(&mut tables, &mut nodes, 3).await;

    // The waiting room outlived its node: a guest joins it by its code through another.
    let guest = create_player(nodes.any(), "Guest").await;
    let mut guest_client = signed_in_client(nodes.pick(), &guest).await;
    guest_client
        .send(ClientFrame::JoinRoom { code: code.clone() })
        .await;
    let seated = tokio::time::timeout(BACK, async {
        loop {
            match guest_client.next_or_close().await {
                Some(ServerFrame::Game(s)) if s.game == waiting => break *s,
                Some(ServerFrame::Error {
                    code: ErrorCode::RoomNotFound,
                    ..
                }) => {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    guest_client
                        .send(ClientFrame::JoinRoom { code: code.clone() })
                        .await;
                }
                Some(_) => {}
                None => panic!("the guest's socket closed"),
            }
        }
    })
    .await
    .expect("the waiting room was found");
    assert_eq!(seated.you, Some(Side::Blue));
    let mut room = Table::new(waiting, host, guest, &DEN_WIN_AT_PLY_13);
    room.seats[1].follower = Some(Follower::new(guest_client, seated));
    tables.push(room);

    // Every game to its end.
    while !tables.iter().all(Table::done) {
        everyone_plays_on(&mut tables, &mut nodes, 4).await;
    }
    eprintln!("every game played out at {:?}", started.elapsed());

    // The clients' view: each game ended once, by the den, as everyone saw it.
    for watcher in &mut watchers {
        let (winner, reason, moves) = watcher.follow_to_the_end(&mut nodes).await;
        assert_eq!(
            (winner, reason),
            (Some(Side::Red), Reason::Den),
            "{}",
            watcher.name
        );
        let table = tables.iter().find(|t| t.game == watcher.game).unwrap();
        assert_eq!(moves, table.script, "{}", watcher.name);
    }
    for table in &tables {
        for seat in &table.seats {
            let follower = seat.follower.as_ref().expect("connected at the end");
            assert_eq!(follower.gaps, 0, "a seat's gap not followed by a state");
        }
    }

    // The store's view: every acknowledged move once and in order, one end, one rating change.
    for table in &tables {
        let record = stored(&nodes, table.game).await;
        assert_eq!(
            record.moves, table.script,
            "{}: the moves as acknowledged",
            table.game
        );
        assert_eq!(record.status, GameStatus::Finished);
        assert_eq!(
            (record.winner, record.reason),
            (Some(Side::Red), Some(Reason::Den))
        );
    }
    for table in &tables[..2] {
        let record = stored(&nodes, table.game).await;
        assert!(record.rating_applied, "rated once");
        for seat in &table.seats {
            let points: Vec<http::RatingPoint> = reqwest::get(format!(
                "http://{}/api/players/{}/ratings?rules=classic",
                nodes.any(),
                seat.player.id
            ))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
            assert_eq!(points.len(), 1, "one rating change for one rated game");
        }
    }
    // The arena scored its game once: a win is 2 points.
    let red = tables[2].seats[0].player.id;
    let until = Instant::now() + BACK;
    loop {
        let shown: http::Tournament =
            reqwest::get(format!("http://{}/api/tournaments/{arena}", nodes.any()))
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
        let line = shown.standings.iter().find(|l| l.score.player == red);
        if let Some(line) = line {
            if line.score.points > 0 {
                assert_eq!(line.score.points, 2, "scored once: {:?}", shown.standings);
                break;
            }
        }
        assert!(Instant::now() < until, "the arena game is scored");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let reconnects: usize = tables
        .iter()
        .flat_map(|t| &t.seats)
        .map(|s| s.reconnects)
        .sum();
    eprintln!(
        "done at {:?}: {} games, {reconnects} reconnects of players",
        started.elapsed(),
        tables.len()
    );
    drop(nodes);
    drop_database(&url).await;
}
