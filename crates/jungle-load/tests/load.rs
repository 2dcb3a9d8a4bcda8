//! The load generator end to end: the real binary against a real server on 127.0.0.1:0.

use jungle_server::{Config, Server};
use serde_json::Value;
use tokio::process::Command;

async fn start_server() -> (Server, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("jungle-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join(format!("load-{}.db", rand_suffix()));
    let mut config = Config::for_tests(&format!("sqlite://{}", db.display()));
    // All the load generator's players come from one address.
    config.no_rate_limits = true;
    (Server::start(config).await.expect("server starts"), db)
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

async fn jungle_load(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jungle-load"))
        .args(args)
        .output()
        .await
        .expect("jungle-load runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plays_games_and_reports_one_json_line() {
    let (server, db) = start_server().await;
    let url = format!("ws://{}", server.addr());
    // Five moves a second per game: flat out, so few games would trip the server's flood
    // limit (100 frames per 20 s on a connection), as they should.
    let out = jungle_load(&[
        "--url",
        &url,
        "--games",
        "3",
        "--moves-per-s",
        "5",
        "--warmup",
        "1",
        "--duration",
        "2",
    ])
    .await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "jungle-load failed: {stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one line of figures: {stdout}");
    let report: Value = serde_json::from_str(lines[0]).expect("the line is JSON");
    assert_eq!(report["errors"], 0, "{report}\n{stderr}");
    assert_eq!(report["games"], 3);
    assert!(report["games_started"].as_u64() >= Some(3), "{report}");
    let moves = report["moves"].as_u64().expect("moves");
    assert!(moves > 0, "moves were played and timed: {report}");
    assert_eq!(report["latency_ms"]["samples"].as_u64(), Some(moves));
    let p50 = report["latency_ms"]["p50"].as_f64().expect("p50");
    let max = report["latency_ms"]["max"].as_f64().expect("max");
    assert!(p50 > 0.0 && p50 <= max, "{report}");
    assert!(report["server_rss_kib"].as_u64() > Some(0), "{report}");
    server.shutdown().await;
    let _ = std::fs::remove_file(db);
}

#[tokio::test]
async fn refuses_an_address_that_is_not_loopback() {
    let out = jungle_load(&["--url", "ws://192.0.2.1:8080", "--games", "1"]).await;
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a loopback address"), "{stderr}");
}
