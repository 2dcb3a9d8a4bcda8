//! Nothing acknowledged is lost: a SIGKILLed server resumes every game where its last
//! acknowledged move left it, and finished games and rating changes are neither lost nor
//! counted twice. The database going away for a few seconds loses nothing either.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::common::*;
use tokio::net::{TcpListener, TcpStream};

async fn get<T: serde::de::DeserializeOwned>(addr: std::net::SocketAddr, path: &str) -> T {
    reqwest::get(format!("http://{addr}{path}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn moves_of(addr: std::net::SocketAddr, game: Uuid) -> Vec<String> {
    get::<http::GameRecord>(addr, &format!("/api/games/{game}"))
        .await
        .moves
}

async fn kill_9_loses_nothing_acknowledged(db: Db) {
    let url = fresh_database(db).await;
    let server = ServerProcess::start(&url);
    let addr = server.addr;

    // A rated game played to the end: its result and rating change must survive exactly once.
    let (mut red, mut blue, finished) = matched_pair_at(addr, classic_seek()).await;
    play(&mut red, &mut blue, finished, &DEN_WIN_AT_PLY_21[..20]).await;
    red.mv(finished, DEN_WIN_AT_PLY_21[20]).await;
    let over = blue.expect_over().await;
    let change = over.rating_change;
    assert!(change.is_some(), "{over:?}");
    let winner = red.player.clone().unwrap();

    // Two games in progress; in the second, one more move is in flight when the server dies.
    let (mut r1, mut b1, g1) = matched_pair_at(addr, classic_seek()).await;
    play(&mut r1, &mut b1, g1, &["g3g4", "a7a6", "g4g5"]).await;
    let (mut r2, mut b2, g2) = matched_pair_at(addr, classic_seek()).await;
    play(&mut r2, &mut b2, g2, &["a3a4", "g7g6"]).await;
    r2.mv(g2, "a4a5").await;
    server.kill();

    let server = ServerProcess::start(&url);
    let addr = server.addr;
    assert_eq!(moves_of(addr, g1).await, ["g3g4", "a7a6", "g4g5"]);
    let g2_moves = moves_of(addr, g2).await;
    assert!(
        g2_moves == ["a3a4", "g7g6"] || g2_moves == ["a3a4", "g7g6", "a4a5"],
        "acknowledged moves kept, the unacknowledged one at most once: {g2_moves:?}"
    );
    // The players come back to their games and play on.
    let mut b1 = signed_in_client(addr, b1.player.as_ref().unwrap()).await;
    let state = b1.expect_game().await;
    assert_eq!(state.moves, ["g3g4", "a7a6", "g4g5"]);
    let mut r1 = signed_in_client(addr, r1.player.as_ref().unwrap()).await;
    r1.expect_game().await;
    play(&mut b1, &mut r1, g1, &["a6a5"]).await;
    assert_eq!(moves_of(addr, g1).await.len(), 4);

    let record: http::GameRecord = get(addr, &format!("/api/games/{finished}")).await;
    assert_eq!(record.status, GameStatus::Finished);
    assert_eq!(record.rating_change, change);
    let profile: http::PlayerProfile = get(addr, &format!("/api/players/{}", winner.id)).await;
    assert_eq!(
        profile.ratings["classic"].games, 1,
        "the rating change counted once"
    );
    assert_eq!(profile.stats.wins, 1);
    drop(server);
    drop_database(&url).await;
}

both_stores!(kill_9_loses_nothing_acknowledged);

/// A TCP proxy in front of PostgreSQL that can cut every connection and refuse new ones.
struct Outage {
    up: Arc<AtomicBool>,
    cut: tokio::sync::watch::Sender<u64>,
    addr: std::net::SocketAddr,
}

impl Outage {
    async fn start(target: &str) -> Outage {
        let target: std::sync::Arc<str> = target.into();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let up = Arc::new(AtomicBool::new(true));
        let (cut, cuts) = tokio::sync::watch::channel(0u64);
        let accepting = up.clone();
        tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    return;
                };
                if !accepting.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let mut cuts = cuts.clone();
                // Only cuts after this connection opened concern it.
                cuts.borrow_and_update();
                let target = target.clone();
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(&*target).await else {
                        return;
                    };
                    let (mut client, mut server) = (client, server);
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cuts.changed() => {}
                    }
                });
            }
        });
        Outage { up, cut, addr }
    }

    fn down(&self) {
        self.up.store(false, Ordering::SeqCst);
        self.cut.send_modify(|n| *n += 1);
    }

    fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_outage_loses_nothing() {
    let direct = fresh_database(Db::Postgres).await;
    // postgres://user@HOST:PORT/db: the proxy stands between the server and that address.
    let host_port = direct
        .split_once('@')
        .and_then(|(_, rest)| rest.split('/').next())
        .expect("the test database URL names a host")
        .to_owned();
    let proxy = Outage::start(&host_port).await;
    let through_proxy = direct.replace(&host_port, &proxy.addr.to_string());
    assert_ne!(
        direct, through_proxy,
        "the test database is reached through the proxy"
    );
    let config = jungle_server::Config::for_tests(&through_proxy);
    let server = TestServer::start_config(config).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;

    proxy.down();
    red.mv(game, "g4g5").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    proxy.restore();
    // The move is acknowledged once it is stored, and the game goes on.
    assert_eq!(red.expect_moved().await.0, "g4g5");
    assert_eq!(blue.expect_moved().await.0, "g4g5");
    play(&mut blue, &mut red, game, &["a6a5"]).await;
    assert_eq!(
        moves_of(server.addr, game).await,
        ["g3g4", "a7a6", "g4g5", "a6a5"]
    );

    // A game ending during an outage is recorded once it is back.
    proxy.down();
    red.send(ClientFrame::Resign { game }).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    proxy.restore();
    assert_eq!(blue.expect_over().await.reason, Reason::Resign);
    let record: http::GameRecord = get(server.addr, &format!("/api/games/{game}")).await;
    assert_eq!(record.reason, Some(Reason::Resign));
    server.shutdown().await;
    drop_database(&direct).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_ip_connection_limit_holds() {
    let server = TestServer::start_with(Db::Sqlite, |c| c.max_connections_per_ip = 3).await;
    let url = format!("ws://{}/ws", server.addr);
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(
            tokio_tungstenite::connect_async(&url)
                .await
                .expect("within the limit")
                .0,
        );
    }
    let refused = tokio_tungstenite::connect_async(&url).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 429)
        }
        other => panic!("expected HTTP 429, got {other:?}"),
    }
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        tokio_tungstenite::connect_async(&url).await.is_ok(),
        "a freed slot can be used again"
    );
    server.shutdown().await;
}
