//! Measures the database writer alone: how many stored moves per second the batching writer
//! commits, without sockets or rooms. `cargo run --release -p jungle-server --example
//! writer_bench -- sqlite:///tmp/writer.db 200000`
use std::time::Instant;

use jungle_protocol::ClockSpec;
use jungle_store::persist::{Persister, Write};
use jungle_store::{MoveRecord, NewGame, Store, StoredClock};

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .unwrap_or_else(|| "sqlite:///tmp/writer-bench.db".into());
    let moves: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let store = Store::open(&url).await.expect("database");
    let (persister, _task) = Persister::start(store.clone());
    let games = 2000;
    let players = [
        store.create_player("a", &format!("{:064}", 1)).await,
        store.create_player("b", &format!("{:064}", 2)).await,
    ];
    let (red, blue) = match players {
        [Ok(r), Ok(b)] => (r.id, b.id),
        _ => panic!("players"),
    };
    let mut ids = Vec::new();
    for _ in 0..games {
        let id = uuid::Uuid::new_v4();
        ids.push(id);
        let game = NewGame {
            id,
            ..NewGame::casual(red, blue, ClockSpec::CLASSIC_PER_MOVE)
        };
        persister.write(Write::StartGame(game)).await.unwrap();
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (g, id) in ids.into_iter().enumerate() {
        let persister = persister.clone();
        let per_game = moves / games;
        tasks.push(tokio::spawn(async move {
            for ply in 0..per_game {
                let record = MoveRecord {
                    ply: ply as i64,
                    mv: "a3a4".into(),
                    clock: StoredClock::default(),
                    blurred: false,
                    played_at: 0,
                };
                persister.write(Write::Turn(id, record)).await.unwrap();
            }
            g
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} moves in {:.2} s: {:.0} moves/s",
        moves,
        secs,
        moves as f64 / secs
    );
}
