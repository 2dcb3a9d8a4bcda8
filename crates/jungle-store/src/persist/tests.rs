//! The writer against both stores: turns on the clock go through the move log and reach
//! `moves` by a game's end or a fold, and every read of a game sees them all the while.

use jungle_protocol::{ClockSpec, GameStatus, Reason};
use jungle_rules::Side;
use sqlx::Row;
use uuid::Uuid;

use super::*;
use crate::{NewGame, StoredClock};

fn turn(ply: i64) -> MoveRecord {
    MoveRecord {
        ply,
        mv: format!("t{ply}"),
        clock: StoredClock {
            red_ms: 1000 - ply,
            ..Default::default()
        },
        blurred: false,
        played_at: 0,
    }
}

fn new_game(red: Uuid, blue: Uuid, clock: ClockSpec) -> NewGame {
    NewGame::casual(red, blue, clock)
}

fn finish(game: Uuid, plies: i64) -> Write {
    Write::Finish(FinishRecord {
        game,
        status: GameStatus::Finished,
        winner: Some(Side::Red),
        reason: Reason::Resign,
        plies,
        apply_rating: false,
    })
}

async fn count(store: &Store, table: &str, game: Uuid) -> i64 {
    sqlx::query(&format!(
        "SELECT COUNT(*) AS n FROM {table} WHERE game_id = $1"
    ))
    .bind(game.to_string())
    .fetch_one(store.pool())
    .await
    .expect("count")
    .try_get("n")
    .expect("n")
}

async fn plies(store: &Store, game: Uuid) -> Vec<i64> {
    let record = store.game(game).await.expect("read").expect("the game");
    record.moves.iter().map(|m| m.ply).collect()
}

async fn log_rows(store: &Store) -> i64 {
    sqlx::query("SELECT COUNT(*) AS n FROM move_log")
        .fetch_one(store.pool())
        .await
        .expect("count")
        .try_get("n")
        .expect("n")
}

/// Two accounts, `{prefix}red` and `{prefix}blue`.
async fn two_players(store: &Store, prefix: &str) -> (crate::PlayerRecord, crate::PlayerRecord) {
    let mut made = Vec::new();
    for (n, side) in ["red", "blue"].iter().enumerate() {
        let player = store
            .create_player(&format!("{prefix}{side}"), &format!("{:064}", n + 1))
            .await
            .expect("player");
        made.push(player);
    }
    let blue = made.pop().expect("blue");
    (made.pop().expect("red"), blue)
}

async fn turns_go_through_the_log(store: Store) {
    let (red, blue) = two_players(&store, "log").await;
    let logs = store.is_embedded();

    // A stop left two turns of a game in the log (SQLite's: PostgreSQL's stays empty).
    let before = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    let mut tx = store.pool().begin().await.expect("begin");
    store.insert_game(&mut tx, &before).await.expect("game");
    if logs {
        store
            .append_to_log(&mut tx, &[(before.id, turn(0)), (before.id, turn(1))])
            .await
            .expect("logged before");
    } else {
        store
            .insert_moves(&mut tx, &[(before.id, turn(0)), (before.id, turn(1))])
            .await
            .expect("stored before");
    }
    tx.commit().await.expect("commit");

    let (writer, hold) = Persister::start(store.clone());
    let write = |w: Write| {
        let writer = writer.clone();
        async move { writer.write(w).await.expect("committed") }
    };

    // A game's turns are read back while it lasts, one taken back.
    let here = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    write(Write::StartGame(here.clone())).await;
    for ply in 0..5 {
        write(Write::Turn(here.id, turn(ply))).await;
    }
    if logs {
        assert_eq!(
            count(&store, "moves", here.id).await,
            0,
            "turns wait in the log"
        );
    }
    assert_eq!(plies(&store, here.id).await, vec![0, 1, 2, 3, 4]);
    write(Write::TakeBack {
        game: here.id,
        kept: 3,
        undone: vec!["t3".into(), "t4".into()],
    })
    .await;
    assert_eq!(plies(&store, here.id).await, vec![0, 1, 2]);

    // Ends put every turn into `moves`: the writer's own and those a stop left behind, each
    // as it was read while the game went on (the time of its own commit included).
    write(Write::Turn(before.id, turn(2))).await;
    write(Write::Turn(here.id, turn(3))).await;
    let while_playing = store
        .game(here.id)
        .await
        .expect("read")
        .expect("game")
        .moves;
    assert!(while_playing.iter().all(|m| m.played_at > 0));
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    assert!(matches!(
        write(finish(here.id, 4)).await,
        Written::Finished(_)
    ));
    assert!(matches!(
        write(finish(before.id, 3)).await,
        Written::Finished(_)
    ));
    assert_eq!(count(&store, "moves", here.id).await, 4);
    assert_eq!(count(&store, "moves", before.id).await, 3);
    assert_eq!(plies(&store, here.id).await, vec![0, 1, 2, 3]);
    assert_eq!(plies(&store, before.id).await, vec![0, 1, 2]);
    let ended = store
        .game(here.id)
        .await
        .expect("read")
        .expect("game")
        .moves;
    assert_eq!(ended, while_playing);
    let last = &ended[3];
    assert_eq!(
        *last,
        MoveRecord {
            played_at: last.played_at,
            ..turn(3)
        }
    );

    // A correspondence turn skips the log.
    let days = new_game(red.id, blue.id, ClockSpec::Days { days: 3 });
    write(Write::StartGame(days.clone())).await;
    write(Write::CorrespondenceTurn(days.id, turn(0))).await;
    assert_eq!(count(&store, "moves", days.id).await, 1);
    assert_eq!(count(&store, "move_log", days.id).await, 0);

    // A long game: the log is folded a game at a time as it grows, and stays short.
    let long = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    write(Write::StartGame(long.clone())).await;
    let total = super::unfolded::FOLD_AFTER + 3_000;
    for wave in (0..total).collect::<Vec<_>>().chunks(1_000) {
        let mut writes = tokio::task::JoinSet::new();
        for &ply in wave {
            writes.spawn(write(Write::Turn(long.id, turn(ply))));
        }
        writes.join_all().await;
    }
    let read = plies(&store, long.id).await;
    assert_eq!(read, (0..total).collect::<Vec<_>>());
    if logs {
        let (kept, moved) = (
            log_rows(&store).await,
            count(&store, "moves", long.id).await,
        );
        assert!(moved > 0, "some turns were folded");
        assert!(
            kept <= super::unfolded::FOLD_AFTER + 2_048,
            "the log stays short: {kept}"
        );
    }
    assert!(matches!(
        write(finish(long.id, total)).await,
        Written::Finished(_)
    ));
    assert_eq!(count(&store, "moves", long.id).await, total);

    // A write the database refuses (a turn of no game) fails alone, in whatever batch it
    // fell: the turns committed beside it all stay, and reach `moves` at the end.
    let beside = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    write(Write::StartGame(beside.clone())).await;
    let mut writes = tokio::task::JoinSet::new();
    for ply in 0..20 {
        writes.spawn(write(Write::Turn(beside.id, turn(ply))));
    }
    let refused = writer.write(Write::Turn(Uuid::new_v4(), turn(0))).await;
    assert!(refused.is_err(), "a turn of no game is refused");
    writes.join_all().await;
    write(Write::Turn(beside.id, turn(20))).await;
    assert_eq!(plies(&store, beside.id).await, (0..21).collect::<Vec<_>>());
    assert!(matches!(
        write(finish(beside.id, 21)).await,
        Written::Finished(_)
    ));
    assert_eq!(count(&store, "moves", beside.id).await, 21);

    // A fold of the whole log (at a stop) changes no game.
    let going = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    write(Write::StartGame(going.clone())).await;
    write(Write::Turn(going.id, turn(0))).await;
    write(Write::Turn(going.id, turn(1))).await;
    store.fold_move_log().await.expect("fold");
    assert_eq!(log_rows(&store).await, 0);
    assert_eq!(count(&store, "moves", going.id).await, 2);
    assert_eq!(plies(&store, going.id).await, vec![0, 1]);
    assert_eq!(plies(&store, long.id).await.len() as i64, total);

    // The writer folds what is left in the log when it stops.
    let last = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    write(Write::StartGame(last.clone())).await;
    write(Write::Turn(last.id, turn(0))).await;
    drop(writer);
    assert!(hold.close(std::time::Duration::from_secs(10)).await);
    assert_eq!(log_rows(&store).await, 0);
    assert_eq!(count(&store, "moves", last.id).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turns_go_through_the_log_on_sqlite() {
    let (store, _dir) = Store::temporary(None).await;
    turns_go_through_the_log(store).await;
}

/// Turns committed through the writer's own SQLite connection are stored as the pool stores
/// them: the same types in every column, and the same records read back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turns_through_the_writers_own_connection_read_back_as_the_pools() {
    let (store, _dir) = Store::temporary(None).await;
    assert!(
        store.open_direct_turns().expect("opens").is_some(),
        "an SQLite file gets the writer's own connection"
    );
    let (red, blue) = two_players(&store, "own").await;
    // Every column different, so that no two could be swapped unseen.
    let blurred = |ply| MoveRecord {
        ply,
        mv: format!("m{ply}"),
        clock: StoredClock {
            red_ms: 1000 + ply,
            blue_ms: 2000 + ply,
            red_timeouts: 3,
            blue_timeouts: 4,
        },
        blurred: ply % 2 == 1,
        played_at: 1_700_000_000_000 + ply,
    };
    // The writer folds the log whole after its first batch, before it takes the second: once
    // the second is committed, the pool's turns stay in the log.
    let (writer, hold) = Persister::start(store.clone());
    let direct = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    writer
        .write(Write::StartGame(direct.clone()))
        .await
        .expect("started");
    writer
        .write(Write::Turn(direct.id, blurred(0)))
        .await
        .expect("committed");
    // One game's turns through the pool, in a transaction of the test's own.
    let pooled = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    let mut tx = store.pool().begin().await.expect("begin");
    store.insert_game(&mut tx, &pooled).await.expect("game");
    let turns: Vec<_> = (0..3).map(|ply| (pooled.id, blurred(ply))).collect();
    store.append_to_log(&mut tx, &turns).await.expect("logged");
    tx.commit().await.expect("commit");
    // The other's through the writer, whose batches of turns alone take its own connection.
    for ply in 1..3 {
        writer
            .write(Write::Turn(direct.id, blurred(ply)))
            .await
            .expect("committed");
    }
    let types = |game: Uuid| {
        let store = store.clone();
        async move {
            sqlx::query(
                "SELECT typeof(game_id) || typeof(ply) || typeof(mv) || typeof(red_ms)
                 || typeof(blue_ms) || typeof(red_timeouts) || typeof(blue_timeouts)
                 || typeof(played_at) || typeof(blurred) AS types
                 FROM move_log WHERE game_id = $1 ORDER BY ply",
            )
            .bind(game.to_string())
            .fetch_all(store.pool())
            .await
            .expect("types")
            .iter()
            .map(|row| row.try_get::<String, _>("types").expect("types"))
            .collect::<Vec<_>>()
        }
    };
    let pooled_types = types(pooled.id).await;
    assert_eq!(pooled_types.len(), 3);
    assert_eq!(types(direct.id).await, pooled_types);
    let read = |game| {
        let store = store.clone();
        async move { store.game(game).await.expect("read").expect("game").moves }
    };
    let written: Vec<_> = (0..3).map(blurred).collect();
    assert_eq!(read(direct.id).await, written);
    assert_eq!(read(pooled.id).await, written);
    drop(writer);
    assert!(hold.close(std::time::Duration::from_secs(10)).await);
    // The stop folds both games' turns into `moves` alike.
    assert_eq!(read(direct.id).await, read(pooled.id).await);
    assert_eq!(count(&store, "moves", direct.id).await, 3);
}

/// The writer's own connection left inside a transaction (a rollback that failed): it is
/// closed, which lets its write lock go, and the batch it could not take is committed through
/// the pool instead of being refused; so is every batch after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stuck_own_connection_is_closed_and_the_pool_takes_its_batch() {
    let (store, _dir, games, mut conns) = games_and_own_connection("stuck", 1).await;
    let game = &games[0];
    conns
        .direct
        .as_mut()
        .expect("own connection")
        .hold_a_transaction_open();
    let mut unfolded = Unfolded::new(true);
    let first = Write::Turn(game.id, turn(0));
    let written = commit(&store, &[&first], &mut unfolded, &mut conns)
        .await
        .expect("the pool commits what the stuck connection could not");
    assert!(matches!(written[..], [Written::Done]));
    assert!(conns.direct.is_none(), "the stuck connection is closed");
    assert!(
        unfolded.wants_whole_fold(),
        "what the failed commit remembered is not trusted until the log is folded whole"
    );
    let second = Write::Turn(game.id, turn(1));
    commit(&store, &[&second], &mut unfolded, &mut conns)
        .await
        .expect("and the next batch too");
    assert_eq!(
        plies_stored(&store, game.id).await,
        vec![0, 1],
        "both turns are stored"
    );
}

/// A fresh SQLite store with `count` games between two players, and the writer's connections
/// with its own SQLite connection open.
async fn games_and_own_connection(
    name: &str,
    count: usize,
) -> (Store, crate::TempDir, Vec<NewGame>, Connections) {
    let (store, dir) = Store::temporary(None).await;
    let (red, blue) = two_players(&store, name).await;
    let games: Vec<_> = (0..count)
        .map(|_| new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE))
        .collect();
    let mut tx = store.pool().begin().await.expect("begin");
    for game in &games {
        store.insert_game(&mut tx, game).await.expect("game");
    }
    tx.commit().await.expect("commit");
    let direct = store
        .open_direct_turns()
        .expect("opens")
        .expect("an SQLite file gets the writer's own connection");
    let conns = Connections {
        held: Held::default(),
        direct: Some(direct),
    };
    (store, dir, games, conns)
}

/// The plies of `game` a reader sees, in order.
async fn plies_stored(store: &Store, game: Uuid) -> Vec<i64> {
    let record = store.game(game).await.expect("read").expect("game");
    record.moves.iter().map(|m| m.ply).collect()
}

/// A fresh PostgreSQL database for one test; the admin connection drops it afterwards.
async fn postgres_store() -> (Store, sqlx::AnyConnection, String) {
    let admin = std::env::var("JUNGLE_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    sqlx::any::install_default_drivers();
    let name = format!("jungle_unit_{}", Uuid::new_v4().simple());
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&admin)
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL must be reachable at {admin}: {e}"));
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .expect("create database");
    let base = admin.rsplit_once('/').expect("a database in the url").0;
    let store = Store::open(&format!("{base}/{name}")).await.expect("store");
    (store, conn, name)
}

async fn drop_postgres_store(store: Store, mut conn: sqlx::AnyConnection, name: String) {
    store.close().await;
    let _ = sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut conn)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turns_go_through_the_log_on_postgres() {
    let (store, conn, name) = postgres_store().await;
    turns_go_through_the_log(store.clone()).await;
    drop_postgres_store(store, conn, name).await;
}

/// The writer's own connections to database `name` (named in `Store::for_writer_thread`),
/// with their state.
async fn writer_connections(admin: &mut sqlx::AnyConnection, name: &str) -> Vec<(i64, String)> {
    sqlx::query(&format!(
        "SELECT pid::BIGINT AS pid, state FROM pg_stat_activity \
         WHERE datname = '{name}' AND application_name = 'jungle-writer'"
    ))
    .fetch_all(admin)
    .await
    .expect("activity")
    .iter()
    .map(|row| (row.get::<i64, _>("pid"), row.get::<String, _>("state")))
    .collect()
}

/// The writer keeps its PostgreSQL connection between commits, outside any transaction; when
/// the database closes it (a restart, an administrator), the next commit fails, is retried on a
/// fresh connection, and nothing is lost or doubled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_connection_cut_by_postgres_loses_no_turn() {
    let (store, mut admin, name) = postgres_store().await;
    let (red, blue) = two_players(&store, "cut").await;
    let (writer, hold) = Persister::start(store.clone());
    let game = new_game(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE);
    writer
        .write(Write::StartGame(game.clone()))
        .await
        .expect("start");
    writer
        .write(Write::Turn(game.id, turn(0)))
        .await
        .expect("turn 0");

    // The connection it kept, and none left inside a transaction.
    let before = writer_connections(&mut admin, &name).await;
    assert_eq!(before.len(), 1, "one connection kept: {before:?}");
    assert_eq!(before[0].1, "idle", "kept outside a transaction");
    sqlx::query(&format!("SELECT pg_terminate_backend({})", before[0].0))
        .execute(&mut admin)
        .await
        .expect("terminate");
    for _ in 0..100 {
        if writer_connections(&mut admin, &name).await.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        writer_connections(&mut admin, &name).await.is_empty(),
        "the connection is gone"
    );

    for ply in 1..4 {
        writer
            .write(Write::Turn(game.id, turn(ply)))
            .await
            .expect("committed on a fresh connection");
    }
    assert_eq!(plies(&store, game.id).await, vec![0, 1, 2, 3]);
    let after = writer_connections(&mut admin, &name).await;
    assert!(
        after.iter().all(|(pid, _)| *pid != before[0].0) && !after.is_empty(),
        "a fresh connection: {after:?}"
    );
    assert!(hold.close(std::time::Duration::from_secs(5)).await);
    drop_postgres_store(store, admin, name).await;
}

/// A batch of more turns than one kept statement holds goes through the writer's own
/// connection in several statements; every turn is stored once, in order, and the log's row
/// numbers the writer remembers are the rows it wrote (the fold that follows finds them).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_larger_than_one_statement_is_stored_whole_through_the_own_connection() {
    let (store, _dir, games, mut conns) = games_and_own_connection("large", 2).await;
    let mut unfolded = Unfolded::new(true);
    // 2 games × 20 plies: 40 turns, more than two statements' worth, interleaved.
    let writes: Vec<Write> = (0..20)
        .flat_map(|ply| games.iter().map(move |g| Write::Turn(g.id, turn(ply))))
        .collect();
    let batch: Vec<&Write> = writes.iter().collect();
    let written = commit(&store, &batch, &mut unfolded, &mut conns)
        .await
        .expect("commits");
    assert_eq!(written.len(), 40);
    assert!(written.iter().all(|w| matches!(w, Written::Done)));
    assert!(conns.direct.is_some(), "the own connection took it");
    // The row numbers of a batch appended in several statements are the rows it wrote (the
    // writer clears the log below them once folded).
    let direct = conns.direct.as_mut().expect("own connection");
    let tx = direct.begin().expect("begin");
    let turns: Vec<_> = (23..60).map(|ply| (games[0].id, turn(ply))).collect();
    let first = DirectTurns::append_to_log(&store, &tx, &turns).expect("appends");
    let (low, high, count): (i64, i64, i64) = tx
        .query_row(
            "SELECT MIN(rowid), MAX(rowid), COUNT(*) FROM move_log WHERE ply >= 23",
            [],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .expect("reads the log");
    assert_eq!((first, first + 36, 37), (low, high, count));
    drop(tx);
    // Every turn committed stays readable, once.
    for ply in 20..23 {
        let more: Vec<Write> = games.iter().map(|g| Write::Turn(g.id, turn(ply))).collect();
        let batch: Vec<&Write> = more.iter().collect();
        commit(&store, &batch, &mut unfolded, &mut conns)
            .await
            .expect("commits");
    }
    for game in &games {
        assert_eq!(
            plies_stored(&store, game.id).await,
            (0..23).collect::<Vec<_>>(),
            "every turn once, in order"
        );
    }
}
