//! Room timers under `tokio::time::pause()`: aborts, flags, per-move passes and abandonment,
//! at exactly the times the rules give.

use std::sync::Arc;
use std::time::Duration;

use jungle_protocol::{ClockSpec, ServerFrame};
use jungle_rules::Ruleset;
use tokio::sync::{mpsc, watch, Notify};
use tokio::time::advance;
use uuid::Uuid;

use super::*;
use jungle_game::rating::Glicko;
use jungle_store::persist::{Persister, Write};
use jungle_store::{PlayerRecord, RatingRecord, Store, WaitingRoom};

struct Setup {
    room: RoomHandle,
    red: (Connection, mpsc::Receiver<Outbound>),
    blue: (Connection, mpsc::Receiver<Outbound>),
    writes: Arc<std::sync::Mutex<Vec<Write>>>,
    _shutdown: watch::Sender<bool>,
}

fn connection(id: u64, name: &str) -> (Connection, mpsc::Receiver<Outbound>) {
    let (tx, rx) = mpsc::channel(256);
    let conn = Connection {
        id,
        player: PlayerRecord {
            id: Uuid::new_v4(),
            name: name.into(),
            disconnects: 0,
            bot: false,
        },
        tx,
        too_slow: Arc::new(Notify::new()),
        addr: std::net::Ipv4Addr::LOCALHOST.into(),
        remote: None,
    };
    (conn, rx)
}

type WriteLog = Arc<std::sync::Mutex<Vec<Write>>>;

/// Rooms' surroundings with a recording writer; time is paused from here on.
async fn context() -> (Arc<RoomContext>, WriteLog, watch::Sender<bool>) {
    let (store, _dir) = Store::temporary(None).await;
    tokio::time::pause();
    let (persister, writes) = Persister::recording();
    let (shutdown_tx, shutdown) = watch::channel(false);
    let limits = Arc::new(jungle_limits::Limits::new(true));
    let ctx = Arc::new(RoomContext {
        persister,
        engines: crate::engine_pool::EnginePool::new(1),
        rooms: Rooms::default(),
        time: Default::default(),
        notices: Arc::new(crate::notices::NoNotices),
        fair_play: crate::fair_play::FairPlay::new(
            Default::default(),
            store.clone(),
            crate::fair_play::OtherNodes::new(None),
        ),
        limits,
        game_end: Arc::new([Arc::new(crate::fair_play::assessor::Assessor::start(
            crate::engine_pool::EnginePool::new(1),
            store.clone(),
            shutdown.clone(),
        )) as _]),
        store,
        timing: Timing::new(Duration::from_secs(30), Duration::from_secs(30)),
        shutdown,
        claims: crate::reach::Claims::new(None),
    });
    (ctx, writes, shutdown_tx)
}

/// A matchmade room with two connected players; time is paused from here on.
async fn setup(clock: ClockSpec) -> Setup {
    setup_with(clock, connection(1, "Red"), connection(2, "Blue")).await
}

/// As [`setup`], with the players' connections given.
async fn setup_with(
    clock: ClockSpec,
    red: (Connection, mpsc::Receiver<Outbound>),
    blue: (Connection, mpsc::Receiver<Outbound>),
) -> Setup {
    let (ctx, writes, shutdown_tx) = context().await;
    let seat = |c: &Connection| SeatPlayer {
        player: c.player.clone(),
        rating: RatingRecord::from_glicko(Glicko::default(), 0),
        computer: None,
    };
    let settings = RoomSettings {
        rules: Ruleset::Classic,
        clock,
        rated: true,
    };
    let room = open::matched(ctx, Uuid::new_v4(), settings, seat(&red.0), seat(&blue.0));
    for conn in [&red.0, &blue.0] {
        room.send(RoomCommand::Join {
            conn: Box::new(conn.clone()),
            intent: JoinIntent::Watch,
        })
        .await;
    }
    let mut s = Setup {
        room,
        red,
        blue,
        writes,
        _shutdown: shutdown_tx,
    };
    assert!(matches!(next(&mut s.red.1).await, ServerFrame::Game(_)));
    assert!(matches!(next(&mut s.blue.1).await, ServerFrame::Game(_)));
    // Each arrival is announced to those already there.
    while !quiet(&mut s.red.1).await {}
    while !quiet(&mut s.blue.1).await {}
    s
}

async fn next(rx: &mut mpsc::Receiver<Outbound>) -> ServerFrame {
    match rx.recv().await.expect("the room is alive") {
        Outbound::Text(text) => serde_json::from_str(&text).expect("a frame"),
        Outbound::Do(_) => panic!("unexpected room change"),
    }
}

/// Nothing has arrived yet (lets the room run first).
async fn quiet(rx: &mut mpsc::Receiver<Outbound>) -> bool {
    tokio::task::yield_now().await;
    tokio::time::sleep(Duration::from_millis(1)).await;
    rx.try_recv().is_err()
}

async fn play(s: &mut Setup, conn: u64, mv: &str) {
    let player = if conn == 1 {
        s.red.0.player.id
    } else {
        s.blue.0.player.id
    };
    s.room
        .send(RoomCommand::Act {
            conn_id: conn,
            player,
            action: Box::new(Action::Move {
                text: mv.into(),
                lag: Duration::ZERO,
                blurred: false,
            }),
        })
        .await;
    assert!(matches!(
        next(&mut s.red.1).await,
        ServerFrame::Moved { .. }
    ));
    assert!(matches!(
        next(&mut s.blue.1).await,
        ServerFrame::Moved { .. }
    ));
}

fn game_over(frame: ServerFrame) -> (Option<jungle_rules::Side>, jungle_protocol::Reason) {
    match frame {
        ServerFrame::GameOver { winner, reason, .. } => (winner, reason),
        other => panic!("expected game_over, got {other:?}"),
    }
}

#[tokio::test]
async fn a_missing_first_move_aborts_after_thirty_seconds() {
    let mut s = setup(ClockSpec::Fischer {
        base_s: 300,
        inc_s: 0,
    })
    .await;
    advance(Duration::from_secs(29)).await;
    assert!(quiet(&mut s.red.1).await, "not yet");
    advance(Duration::from_secs(2)).await;
    assert_eq!(
        game_over(next(&mut s.red.1).await),
        (None, jungle_protocol::Reason::Aborted)
    );
    assert!(s
        .writes
        .lock()
        .unwrap()
        .iter()
        .any(|w| matches!(w, Write::Finish(_))));
}

#[tokio::test]
async fn the_flag_falls_when_the_time_is_spent() {
    let mut s = setup(ClockSpec::Fischer {
        base_s: 60,
        inc_s: 0,
    })
    .await;
    play(&mut s, 1, "g3g4").await;
    play(&mut s, 2, "a7a6").await;
    advance(Duration::from_secs(59)).await;
    assert!(quiet(&mut s.blue.1).await, "Red still has a second");
    advance(Duration::from_secs(2)).await;
    assert_eq!(
        game_over(next(&mut s.blue.1).await),
        (
            Some(jungle_rules::Side::Blue),
            jungle_protocol::Reason::Timeout
        )
    );
}

/// A member on another node, whose frames that node's outbox would carry: here they go
/// straight to the connection's queue.
#[derive(Debug)]
struct OtherNode {
    round_trip: Duration,
    to: mpsc::Sender<Outbound>,
}

impl Fanout for OtherNode {
    fn node(&self) -> &str {
        "elsewhere"
    }

    fn round_trip(&self) -> Duration {
        self.round_trip
    }

    fn frames(&self, _conns: Vec<u64>, text: &Utf8Bytes) {
        self.to.try_send(Outbound::text(text.clone())).unwrap();
    }
}

/// The clocks the next `moved` frame shows.
async fn clocks_after_move(rx: &mut mpsc::Receiver<Outbound>) -> jungle_protocol::Clocks {
    match next(rx).await {
        ServerFrame::Moved { clocks, .. } => clocks,
        other => panic!("expected a move, got {other:?}"),
    }
}

#[tokio::test]
async fn a_player_on_another_node_is_credited_the_round_trip_between_nodes() {
    let round_trip = Duration::from_millis(40);
    let (mut blue, blue_rx) = connection(2, "Blue");
    blue.remote = Some(Arc::new(OtherNode {
        round_trip,
        to: blue.tx.clone(),
    }));
    let fischer = ClockSpec::Fischer {
        base_s: 60,
        inc_s: 0,
    };
    let mut s = setup_with(fischer, connection(1, "Red"), (blue, blue_rx)).await;
    play(&mut s, 1, "g3g4").await;
    play(&mut s, 2, "a7a6").await;
    // Red, here, thinks 5 s; Blue, elsewhere, 10 s: both clocks were full before.
    advance(Duration::from_secs(5)).await;
    play(&mut s, 1, "g4g5").await;
    advance(Duration::from_secs(10)).await;
    s.room
        .send(RoomCommand::Act {
            conn_id: 2,
            player: s.blue.0.player.id,
            action: Box::new(Action::Move {
                text: "a6a5".into(),
                lag: Duration::ZERO,
                blurred: false,
            }),
        })
        .await;
    let clocks = clocks_after_move(&mut s.red.1).await;
    assert_eq!(clocks.red_ms, 55_000, "a player here: no credit");
    assert_eq!(
        clocks.blue_ms,
        50_000 + round_trip.as_millis() as u64,
        "a player elsewhere: the round trip credited"
    );
}

#[tokio::test]
async fn per_move_turns_are_passed_until_the_fourth_timeout() {
    let mut s = setup(ClockSpec::CLASSIC_PER_MOVE).await;
    play(&mut s, 1, "g3g4").await;
    play(&mut s, 2, "a7a6").await;
    for round in 1..=3 {
        // Red lets its turn run out; Blue answers at once.
        advance(Duration::from_secs(30)).await;
        match next(&mut s.blue.1).await {
            ServerFrame::Moved { mv, clocks, .. } => {
                assert_eq!(mv, "pass");
                assert_eq!(clocks.red_timeouts, round);
            }
            other => panic!("expected a pass, got {other:?}"),
        }
        next(&mut s.red.1).await;
        let shuffle = ["g9g8", "g8g9", "g9g8"][round as usize - 1];
        play(&mut s, 2, shuffle).await;
    }
    advance(Duration::from_secs(30)).await;
    assert_eq!(
        game_over(next(&mut s.blue.1).await),
        (
            Some(jungle_rules::Side::Blue),
            jungle_protocol::Reason::Timeout
        )
    );
}

#[tokio::test]
async fn leaving_for_longer_than_the_grace_period_loses() {
    let mut s = setup(ClockSpec::Fischer {
        base_s: 600,
        inc_s: 0,
    })
    .await;
    play(&mut s, 1, "g3g4").await;
    play(&mut s, 2, "a7a6").await;
    s.room.send(RoomCommand::Leave { conn_id: 2 }).await;
    match next(&mut s.red.1).await {
        ServerFrame::Presence {
            online,
            abandon_in_ms,
            ..
        } => {
            assert!(!online);
            assert_eq!(abandon_in_ms, Some(30_000));
        }
        other => panic!("expected presence, got {other:?}"),
    }
    advance(Duration::from_secs(29)).await;
    assert!(quiet(&mut s.red.1).await);
    advance(Duration::from_secs(2)).await;
    assert_eq!(
        game_over(next(&mut s.red.1).await),
        (
            Some(jungle_rules::Side::Red),
            jungle_protocol::Reason::Abandoned
        )
    );
}

fn host_seat(conn: &Connection) -> SeatPlayer {
    SeatPlayer {
        player: conn.player.clone(),
        rating: RatingRecord::from_glicko(Glicko::default(), 0),
        computer: None,
    }
}

/// Lets a room run what the advanced clock made due.
async fn settle() {
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
}

fn forgot(writes: &WriteLog, code: &str) -> bool {
    writes
        .lock()
        .unwrap()
        .iter()
        .any(|w| matches!(w, Write::CloseRoom(c) if c == code))
}

#[tokio::test]
async fn an_unjoined_private_room_expires_after_an_hour_and_is_forgotten() {
    let (ctx, writes, _shutdown) = context().await;
    let (host, _host_rx) = connection(1, "Host");
    let settings = RoomSettings {
        rules: Ruleset::Classic,
        clock: ClockSpec::CLASSIC_PER_MOVE,
        rated: false,
    };
    let (_room, code) = open::private(
        ctx.clone(),
        settings,
        host_seat(&host),
        jungle_protocol::ColorChoice::Random,
        jungle_rules::Position::start(),
    )
    .await
    .expect("under the cap");
    advance(Duration::from_secs(3599)).await;
    settle().await;
    assert!(ctx.rooms.by_code(&code).is_some(), "still waiting");
    assert!(!forgot(&writes, &code));
    advance(Duration::from_secs(2)).await;
    settle().await;
    assert!(ctx.rooms.by_code(&code).is_none(), "closed after an hour");
    assert!(forgot(&writes, &code), "the stored room is deleted");
    assert_eq!(
        ctx.rooms.held(host.player.id, HoldKind::WaitingRoom),
        0,
        "the expired room no longer counts against its host"
    );
}

#[tokio::test]
async fn a_restored_room_keeps_the_time_it_already_waited() {
    let (ctx, writes, _shutdown) = context().await;
    let (host, _host_rx) = connection(1, "Host");
    let saved = |code: &str| WaitingRoom {
        code: code.to_owned(),
        game: Uuid::new_v4(),
        host: host.player.id,
        ruleset: Ruleset::Classic,
        clock: ClockSpec::CLASSIC_PER_MOVE,
        rated: false,
        color: jungle_protocol::ColorChoice::Blue,
        created_at: 0,
        start: None,
    };
    // Waited 50 minutes before the restart: 10 are left.
    let waited = Duration::from_secs(50 * 60);
    open::restored_private(ctx.clone(), &saved("HALF22"), host_seat(&host), waited);
    // Waited a day (longer than this machine may have been up): it closes at once.
    let day = Duration::from_secs(24 * 3600);
    open::restored_private(ctx.clone(), &saved("OLD234"), host_seat(&host), day);
    advance(Duration::from_millis(1)).await;
    settle().await;
    assert!(ctx.rooms.by_code("OLD234").is_none(), "its hour was up");
    assert!(forgot(&writes, "OLD234"));
    advance(Duration::from_secs(9 * 60)).await;
    settle().await;
    assert!(ctx.rooms.by_code("HALF22").is_some(), "still waiting");
    advance(Duration::from_secs(61)).await;
    settle().await;
    assert!(
        ctx.rooms.by_code("HALF22").is_none(),
        "closed ten minutes on"
    );
    assert!(forgot(&writes, "HALF22"));
}
