//! Keeps docker-compose.yml and the Dockerfile honest: no Docker engine runs on our machines, so
//! the server's real flags are checked against them, and the binary is started with the compose
//! environment (database switched to a temporary SQLite file) and must become healthy.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// `KEY: value` pairs under the server service's `environment:` block.
fn compose_environment() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(format!("{ROOT}/docker-compose.yml")).unwrap();
    let mut in_server = false;
    let mut in_env = false;
    let mut pairs = Vec::new();
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if indent == 2 && trimmed.ends_with(':') {
            in_server = trimmed == "server:";
            in_env = false;
            continue;
        }
        if in_server && indent == 4 {
            in_env = trimmed == "environment:";
            continue;
        }
        if in_server && in_env && indent == 6 {
            let (key, value) = trimmed.split_once(':').expect("KEY: value");
            pairs.push((
                key.trim().to_owned(),
                value.trim().trim_matches('"').to_owned(),
            ));
        }
    }
    assert!(
        !pairs.is_empty(),
        "the server service has an environment block"
    );
    pairs
}

/// Replaces `${NAME:-default}` with its default, as compose does when NAME is unset.
fn with_defaults(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').expect("closing brace") + start;
        let inner = &rest[start + 2..end];
        out.push_str(inner.split_once(":-").map_or("", |(_, d)| d));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

fn help_text() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_jungle-server"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_compose_and_dockerfile_setting_is_a_real_server_setting() {
    let help = help_text();
    let known = |key: &str| key == "RUST_LOG" || help.contains(&format!("[env: {key}="));
    for (key, _) in compose_environment() {
        assert!(
            known(&key),
            "docker-compose.yml sets {key}, which jungle-server does not read"
        );
    }
    let dockerfile = std::fs::read_to_string(format!("{ROOT}/Dockerfile")).unwrap();
    for word in dockerfile.split_whitespace() {
        if let Some((key, _)) = word.split_once('=') {
            if key.starts_with("JUNGLE_") || key == "DATABASE_URL" {
                assert!(
                    known(key),
                    "the Dockerfile sets {key}, which jungle-server does not read"
                );
            }
        }
    }
    assert!(dockerfile.contains("/healthz"), "the image checks /healthz");
    assert!(
        dockerfile.contains("USER jungle"),
        "the image runs as a non-root user"
    );
    let compose = std::fs::read_to_string(format!("{ROOT}/docker-compose.yml")).unwrap();
    assert!(
        compose.contains("/healthz") && compose.contains("db-data:"),
        "health check and named volume"
    );
}

#[test]
fn the_server_starts_healthy_with_the_compose_environment() {
    let dir = std::env::temp_dir().join(format!("jungle-compose-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_jungle-server"));
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    for (key, value) in compose_environment() {
        command.env(&key, with_defaults(&value));
    }
    // The one change: no PostgreSQL container here, and a free loopback port.
    command
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.join("compose.db").display()),
        )
        .env("JUNGLE_ADDR", "127.0.0.1:0")
        .env("JUNGLE_STATIC_DIR", format!("{ROOT}/static"))
        .stdout(Stdio::piped());
    let mut child = command.spawn().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut addr = None;
    for line in stdout.lines() {
        let line = line.unwrap();
        let entry: serde_json::Value =
            serde_json::from_str(&line).expect("JUNGLE_LOG_JSON gives JSON lines");
        if entry["fields"]["message"] == "jungle arena listening" {
            addr = entry["fields"]["addr"].as_str().map(str::to_owned);
            break;
        }
        assert!(Instant::now() < deadline, "no listening line within 30 s");
    }
    let addr = addr.expect("the server reported its address");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let status = runtime.block_on(async {
        reqwest::get(format!("http://{addr}/healthz"))
            .await
            .map(|r| r.status().as_u16())
    });
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(status.unwrap(), 200);
}
