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
        if trimmed.starts_with('#') || trimmed.is_empty() {
            continue;
        }
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

/// The binary carries its client: started from an empty directory, with no settings, it
/// serves the app, its files (compressed as the browser accepts, revalidated by ETag) and
/// client routes, and a real 404 for anything else.
#[test]
fn the_binary_serves_its_client_from_any_directory() {
    let dir = std::env::temp_dir().join(format!("jungle-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungle-server"))
        .env_clear()
        .current_dir(&dir)
        .args(["--addr", "127.0.0.1:0", "--log-json"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let addr = stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(&line.unwrap()).unwrap())
        .find(|entry| entry["fields"]["message"] == "jungle arena listening")
        .and_then(|entry| entry["fields"]["addr"].as_str().map(str::to_owned))
        .expect("the server reported its address");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let fetched: Vec<(String, u16, String, usize)> = runtime.block_on(async {
        let mut out = Vec::new();
        for path in [
            "/",
            "/js/main.js",
            "/css/app.css",
            "/favicon.ico",
            "/g/6f1c1f0e-3c4d-4e3f-8a7b-1c2d3e4f5a6b",
            "/r/ABC234",
            "/rules/classic",
            "/nope",
            "/js/../../Cargo.toml",
        ] {
            let response = reqwest::get(format!("http://{addr}{path}")).await.unwrap();
            let status = response.status().as_u16();
            let kind = response
                .headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_default();
            let body = response.bytes().await.unwrap();
            out.push((path.to_owned(), status, kind, body.len()));
        }
        out
    });
    // Compressed as the browser accepts, and not sent again while the copy is current.
    let (packed, encoding, etag, revalidated) = runtime.block_on(async {
        let client = reqwest::Client::new();
        let url = format!("http://{addr}/js/main.js");
        let response = client
            .get(&url)
            .header("accept-encoding", "gzip, deflate, br")
            .send()
            .await
            .unwrap();
        let encoding = response.headers()["content-encoding"]
            .to_str()
            .unwrap()
            .to_owned();
        let etag = response.headers()["etag"].to_str().unwrap().to_owned();
        let packed = response.bytes().await.unwrap().len();
        let again = client
            .get(&url)
            .header("accept-encoding", "gzip, deflate, br")
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        let revalidated = (again.status().as_u16(), again.bytes().await.unwrap().len());
        (packed, encoding, etag, revalidated)
    });
    // Every file the page names by content is kept a year; the page itself is revalidated
    // and its policy lets its import map (and nothing else inline) run.
    let (page_caching, policy, import_map, named) = runtime.block_on(async {
        let page = reqwest::get(format!("http://{addr}/")).await.unwrap();
        let caching = page.headers()["cache-control"].to_str().unwrap().to_owned();
        let policy = page.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        let text = page.text().await.unwrap();
        let (_, rest) = text.split_once("<script type=\"importmap\">").unwrap();
        let import_map = rest.split_once("</script>").unwrap().0.to_owned();
        let mut addresses: Vec<String> = serde_json::from_str::<serde_json::Value>(&import_map)
            .unwrap()["imports"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        for attribute in ["href=\"", "src=\""] {
            for piece in text.split(attribute).skip(1) {
                addresses.push(piece.split('"').next().unwrap().to_owned());
            }
        }
        let mut named = Vec::new();
        for address in addresses.iter().filter(|a| a.matches('.').count() >= 2) {
            let response = reqwest::get(format!("http://{addr}{address}"))
                .await
                .unwrap();
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .map(|v| v.to_str().unwrap().to_owned())
            };
            named.push((
                address.clone(),
                response.status().as_u16(),
                header("cache-control"),
                header("content-security-policy"),
            ));
        }
        (caching, policy, import_map, named)
    });
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let status = |p: &str| fetched.iter().find(|f| f.0 == p).unwrap().clone();
    for page in [
        "/",
        "/g/6f1c1f0e-3c4d-4e3f-8a7b-1c2d3e4f5a6b",
        "/r/ABC234",
        "/rules/classic",
    ] {
        let (_, code, kind, len) = status(page);
        assert_eq!(
            (code, kind.as_str()),
            (200, "text/html; charset=utf-8"),
            "{page}"
        );
        assert!(len > 500, "{page} is the app's page");
    }
    assert_eq!(status("/js/main.js").1, 200);
    assert!(status("/js/main.js").2.contains("javascript"));
    assert_eq!(status("/css/app.css").2, "text/css; charset=utf-8");
    assert_eq!(encoding, "br");
    assert!(
        packed * 3 < status("/js/main.js").3,
        "{packed} bytes packed"
    );
    assert!(etag.starts_with('"'), "a strong ETag: {etag}");
    assert_eq!(revalidated, (304, 0));
    assert_eq!(page_caching, "no-cache");
    use base64::Engine as _;
    use sha2::Digest as _;
    let digest = base64::engine::general_purpose::STANDARD
        .encode(sha2::Sha256::digest(import_map.as_bytes()));
    assert!(
        policy.contains(&format!("script-src 'self' 'sha256-{digest}'")),
        "{policy}"
    );
    assert!(named.len() > 40, "modules, styles, font: {}", named.len());
    assert!(named.iter().any(|n| n.0.starts_with("/js/main.")));
    assert!(named.iter().any(|n| n.0.starts_with("/css/app.")));
    assert!(named
        .iter()
        .any(|n| n.0.starts_with("/fonts/jungle-glyphs.")));
    for (address, status, caching, policy) in &named {
        assert_eq!(*status, 200, "{address}");
        assert_eq!(
            caching.as_deref(),
            Some("public, max-age=31536000, immutable"),
            "{address}"
        );
        assert_eq!(*policy, None, "{address}: a file, no document");
    }
    assert_eq!(status("/favicon.ico").1, 200);
    assert_eq!(status("/nope").1, 404);
    assert!(status("/nope").2.starts_with("text/html"));
    assert_eq!(status("/js/../../Cargo.toml").1, 404);
}
