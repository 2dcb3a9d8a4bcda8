//! Failover nobody notices (issue 24): three nodes over Redis and one PostgreSQL. The host of
//! a private room plays on the node that runs it, the guest on another, spectators on every
//! node. The owner dies (kill -9) or drains (SIGTERM): every member whose socket stayed open
//! gets the whole state from the new owner without doing anything, the host comes back through
//! any node, and the game goes on to its end. Nobody loses by abandonment or on time.

use std::time::{Duration, Instant};

use crate::common::*;

/// How long a node's games take to be adopted, at most (a lease of a few beats).
const ADOPTION: Duration = Duration::from_secs(8);

enum Stop {
    Kill,
    Drain,
}

/// `nodes` of them (2 or 3): the game runs on the first, the guest plays on the second, the
/// host comes back through the last, and someone watches on each.
async fn members_stay_in_the_game_when_its_node_stops(nodes: usize, stop: Stop) {
    let url = fresh_database(Db::Postgres).await;
    let mut cluster: Vec<ServerProcess> = ["a", "b", "c"][..nodes]
        .iter()
        .map(|name| node(&url, name))
        .collect();
    let addrs: Vec<_> = cluster.iter().map(|n| n.addr).collect();
    let (a, b, last) = (cluster.remove(0), addrs[1], addrs[nodes - 1]);
    let host_player = create_player(a.addr, "Host").await;
    let mut host = signed_in_client(a.addr, &host_player).await;
    let (code, game) = open_private_room(&mut host, fischer(300, 2), false).await;
    let mut guest = signed_in_client(b, &create_player(b, "Guest").await).await;
    guest
        .send(ClientFrame::JoinRoom { code: code.clone() })
        .await;
    let seated = expect_frame!(guest, ServerFrame::Game(s) if s.game == game => *s);
    assert_eq!(seated.you, Some(Side::Blue));
    let mut guest = Follower::new(guest, seated);
    expect_frame!(host, ServerFrame::Game(s) if s.status == GameStatus::Active);
    // Friends with the link watch, one on each node.
    let by_code = || ClientFrame::JoinRoom { code: code.clone() };
    let mut watchers = Vec::new();
    for (i, addr) in addrs.iter().enumerate() {
        let name = format!("Watcher{i}");
        watchers.push(Follower::enter(*addr, &name, game, by_code()).await);
    }
    let walk = DEN_WIN_AT_PLY_13;
    for (ply, mv) in walk[..4].iter().enumerate() {
        if ply % 2 == 0 {
            host.mv(game, mv).await;
        } else {
            guest.client.mv(game, mv).await;
        }
        guest
            .until("the move", WAIT, |g| g.moves().len() == ply + 1)
            .await;
        expect_frame!(host, ServerFrame::Moved { .. });
    }
    let states_before = guest.states;

    let stopped = Instant::now();
    match stop {
        Stop::Kill => a.kill(),
        Stop::Drain => a.terminate(),
    }
    drop(host);
    // The guest does nothing: the whole state reaches it from the game's new owner.
    guest
        .until("the state from the new owner", ADOPTION, |g| {
            g.states > states_before
        })
        .await;
    let taken_over = stopped.elapsed();
    assert_eq!(guest.state.you, Some(Side::Blue));
    assert_eq!(guest.state.status, GameStatus::Active);
    assert_eq!(guest.moves(), &walk[..4]);
    for watcher in &mut watchers[1..] {
        watcher
            .until("the spectator's state", ADOPTION, |w| w.states > 1)
            .await;
        assert_eq!(watcher.moves(), &walk[..4]);
    }
    // The host comes back through the last node, whichever one runs the game now.
    let (mut host, state) = back_in_game(last, &host_player, game).await;
    assert_eq!(state.you, Some(Side::Red));
    assert_eq!(state.moves, &walk[..4]);
    for (ply, mv) in walk.iter().enumerate().skip(4) {
        if ply % 2 == 0 {
            host.mv(game, mv).await;
        } else {
            guest.client.mv(game, mv).await;
        }
        guest
            .until("the move", WAIT, |g| g.moves().len() == ply + 1)
            .await;
    }
    guest.until("the end", WAIT, |g| g.over.is_some()).await;
    assert_eq!(guest.over, Some((Some(Side::Red), Reason::Den)));
    for watcher in &mut watchers[1..] {
        watcher.until("the end", WAIT, |w| w.over.is_some()).await;
        assert_eq!(watcher.over, Some((Some(Side::Red), Reason::Den)));
        assert_eq!(watcher.moves(), walk);
    }
    // The store holds the game once, ended as played.
    let record: http::GameRecord = reqwest::get(format!("http://{b}/api/games/{game}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(record.moves.len(), walk.len());
    eprintln!("the guest had the game back {taken_over:?} after the stop");
    drop(cluster);
    drop_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn members_on_every_node_stay_in_a_game_whose_node_is_killed() {
    members_stay_in_the_game_when_its_node_stops(3, Stop::Kill).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn members_on_every_node_stay_in_a_game_whose_node_drains() {
    members_stay_in_the_game_when_its_node_stops(3, Stop::Drain).await;
}

/// With two nodes the guest's own node adopts the game: its proxy hands the members to the
/// room there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_two_nodes_the_guests_node_takes_the_killed_nodes_game() {
    members_stay_in_the_game_when_its_node_stops(2, Stop::Kill).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_two_nodes_the_guests_node_takes_the_drained_nodes_game() {
    members_stay_in_the_game_when_its_node_stops(2, Stop::Drain).await;
}

/// A private room still waiting for its guest when its node stops: another node reopens it
/// under the same code, the guest's join by that code (sent at once, through any node) seats
/// them, and the host finds the game through any node.
async fn a_waiting_room_outlives_its_node(stop: Stop) {
    let url = fresh_database(Db::Postgres).await;
    let (a, b, c) = (node(&url, "a"), node(&url, "b"), node(&url, "c"));
    let host_player = create_player(a.addr, "Host").await;
    let mut host = signed_in_client(a.addr, &host_player).await;
    let (code, game) = open_private_room(&mut host, fischer(300, 2), false).await;
    let waiting = host.expect_game().await;
    assert_eq!(waiting.status, GameStatus::Waiting);
    let mut guest = signed_in_client(b.addr, &create_player(b.addr, "Guest").await).await;
    let stopped = Instant::now();
    match stop {
        Stop::Kill => a.kill(),
        Stop::Drain => a.terminate(),
    }
    drop(host);
    guest.send(ClientFrame::JoinRoom { code }).await;
    let seated = tokio::time::timeout(ADOPTION, async {
        expect_frame!(guest, ServerFrame::Game(s) if s.game == game => *s)
    })
    .await
    .expect("the room reopened within the adoption time");
    assert_eq!(
        (seated.you, seated.status),
        (Some(Side::Blue), GameStatus::Active)
    );
    eprintln!(
        "the guest was seated {:?} after the stop",
        stopped.elapsed()
    );
    let (mut host, state) = back_in_game(c.addr, &host_player, game).await;
    assert_eq!(
        (state.you, state.status),
        (Some(Side::Red), GameStatus::Active)
    );
    play(&mut host, &mut guest, game, &["g3g4", "a7a6"]).await;
    drop((b, c));
    drop_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_room_outlives_its_killed_node() {
    a_waiting_room_outlives_its_node(Stop::Kill).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_room_outlives_its_drained_node() {
    a_waiting_room_outlives_its_node(Stop::Drain).await;
}

/// A player who comes back the moment their game's node drains, before any node has taken the
/// game over, is put back in it by their welcome alone once one has (a real client sends
/// nothing more: a cold run behind nginx lost such games by abandonment). With `nodes` 2 the
/// node they came back to adopts the game; with 3, whichever does.
async fn a_player_back_before_the_adoption_is_put_back_in_the_game(nodes: usize) {
    let url = fresh_database(Db::Postgres).await;
    let mut cluster: Vec<ServerProcess> = ["a", "b", "c"][..nodes]
        .iter()
        .map(|name| node(&url, name))
        .collect();
    let (a, b, last) = (cluster.remove(0), cluster[0].addr, cluster[nodes - 2].addr);
    let host_player = create_player(a.addr, "Host").await;
    let mut host = signed_in_client(a.addr, &host_player).await;
    let (code, game) = open_private_room(&mut host, fischer(300, 2), false).await;
    let mut guest = signed_in_client(b, &create_player(b, "Guest").await).await;
    guest.send(ClientFrame::JoinRoom { code }).await;
    expect_frame!(guest, ServerFrame::Game(s) if s.status == GameStatus::Active);
    expect_frame!(host, ServerFrame::Game(s) if s.status == GameStatus::Active);
    let walk = DEN_WIN_AT_PLY_13;
    play(&mut host, &mut guest, game, &walk[..2]).await;

    let stopped = Instant::now();
    a.terminate();
    drop(host);
    // Back at once, while no node holds the game: hello, and nothing else.
    let mut host = signed_in_client(last, &host_player).await;
    let state = tokio::time::timeout(ADOPTION, async {
        expect_frame!(host, ServerFrame::Game(s) if s.game == game && s.you.is_some() => *s)
    })
    .await
    .expect("the game's state reached the player who came back");
    assert_eq!(state.you, Some(Side::Red));
    assert_eq!(state.status, GameStatus::Active);
    assert_eq!(state.moves, &walk[..2]);
    eprintln!("back in the game {:?} after the drain", stopped.elapsed());
    // The guest, whose socket stayed open, has it too; the game goes on to its end.
    expect_frame!(guest, ServerFrame::Game(s) if s.game == game && s.you == Some(Side::Blue));
    play(&mut host, &mut guest, game, &walk[2..]).await;
    let over =
        expect_frame!(host, ServerFrame::GameOver { winner, reason, .. } => (winner, reason));
    assert_eq!(over, (Some(Side::Red), Reason::Den));
    drop(cluster);
    drop_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_two_nodes_a_player_back_before_the_adoption_is_put_back_in_the_game() {
    a_player_back_before_the_adoption_is_put_back_in_the_game(2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_three_nodes_a_player_back_before_the_adoption_is_put_back_in_the_game() {
    a_player_back_before_the_adoption_is_put_back_in_the_game(3).await;
}

/// Issue 49, point 5: whoever comes back through a surviving node at any moment of a failover
/// gets the game, a player by their hello alone, a spectator by a hello and a watch: while the
/// dead owner still holds the game's lease, once it has lapsed, and after another node has
/// taken the lease but before the game runs there. That last moment is held open here: the
/// new owner reads the players' ratings to resume the game, and a lock on them makes it
/// wait. A join that reached the new owner in that moment was dropped, and the news
/// of the adoption then named the owner the member's node already knew: a player saw their
/// welcome and never the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everyone_back_at_any_moment_of_a_failover_gets_the_game() {
    use sqlx::Connection;
    let url = fresh_database(Db::Postgres).await;
    let (a, b, c) = (node(&url, "a"), node(&url, "b"), node(&url, "c"));
    let (b, c) = (b.addr, c.addr);
    let host_player = create_account(a.addr, "Host").await;
    let guest_player = create_account(a.addr, "Guest").await;
    let mut host = signed_in_client(a.addr, &host_player).await;
    let mut guest = signed_in_client(a.addr, &guest_player).await;
    host.send(ClientFrame::Challenge {
        to: guest_player.id,
        rules: Ruleset::Classic,
        clock: fischer(300, 2),
        rated: false,
        color: ColorChoice::Red,
    })
    .await;
    let id = expect_frame!(guest, ServerFrame::Challenged { challenge } => challenge.id);
    guest.send(ClientFrame::AcceptChallenge { id }).await;
    let game =
        expect_frame!(guest, ServerFrame::Game(s) if s.status == GameStatus::Active => s.game);
    expect_frame!(host, ServerFrame::Game(s) if s.game == game);
    play(&mut host, &mut guest, game, &["g3g4", "a7a6"]).await;
    let mut fans = Vec::new();
    for i in 0..8 {
        fans.push(create_player(b, &format!("Fan{i}")).await);
    }
    let leases = jungle_cluster::Cluster::connect(REDIS, None, &url)
        .await
        .expect("Redis");
    let owner = || async { leases.owner(game).await.expect("Redis answers") };
    sqlx::any::install_default_drivers();
    let mut lock = sqlx::AnyConnection::connect(&url)
        .await
        .expect("PostgreSQL");
    for statement in ["BEGIN", "LOCK TABLE ratings IN ACCESS EXCLUSIVE MODE"] {
        sqlx::query(statement).execute(&mut lock).await.unwrap();
    }

    a.kill();
    drop((host, guest));
    let mut back: Vec<(String, Client)> = Vec::new();
    let mut fans = fans.into_iter();
    let mut watch_from = |addr, moment: &str| {
        let fan = fans.next().expect("fans enough");
        let what = format!("a spectator at {addr} {moment}");
        async move {
            let mut client = signed_in_client(addr, &fan).await;
            client.send(ClientFrame::Watch { game }).await;
            (what, client)
        }
    };
    // The dead owner still holds the lease.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        owner().await.as_deref(),
        Some("a"),
        "a's lease has not lapsed"
    );
    let moment = "while the dead owner holds the lease";
    back.push((
        format!("the host at {b} {moment}"),
        signed_in_client(b, &host_player).await,
    ));
    back.push((
        format!("the guest at {c} {moment}"),
        signed_in_client(c, &guest_player).await,
    ));
    back.push(watch_from(b, moment).await);
    back.push(watch_from(c, moment).await);
    // The lease lapsed; nobody has taken it yet.
    let until = Instant::now() + ADOPTION;
    while owner().await.is_some() {
        assert!(Instant::now() < until, "a's lease lapses");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    back.push(watch_from(b, "with no lease").await);
    back.push(watch_from(c, "with no lease").await);
    // Another node took it, and waits for the lock to resume the game.
    let adopter = loop {
        match owner().await {
            Some(node) if node != "a" => break node,
            _ => {}
        }
        assert!(Instant::now() < until, "another node takes the lease");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let taken = Instant::now();
    let moment = format!("after {adopter} took the lease, before the game runs there");
    back.push(watch_from(b, &moment).await);
    back.push(watch_from(c, &moment).await);
    // Less than a lease's time: the new owner renews only once the game runs.
    tokio::time::sleep(Duration::from_millis(1_500).saturating_sub(taken.elapsed())).await;
    sqlx::query("ROLLBACK").execute(&mut lock).await.unwrap();
    back.push(watch_from(b, "after the adoption").await);
    back.push(watch_from(c, "after the adoption").await);

    let mut left_out = Vec::new();
    for (what, client) in &mut back {
        let state = tokio::time::timeout(ADOPTION, async {
            expect_frame!(client, ServerFrame::Game(s) if s.game == game => *s)
        })
        .await;
        match state {
            Ok(state) => assert_eq!(state.moves, ["g3g4", "a7a6"], "{what}"),
            Err(_) => left_out.push(what.clone()),
        }
    }
    assert!(left_out.is_empty(), "no game for {left_out:#?}");
    assert_eq!(owner().await.as_deref(), Some(adopter.as_str()));
    // The players play on, each through their own node.
    let mut players = back.drain(..2).map(|(_, client)| client);
    let (mut host, mut guest) = (players.next().unwrap(), players.next().unwrap());
    play(&mut host, &mut guest, game, &["g4g5"]).await;
    drop_database(&url).await;
}
