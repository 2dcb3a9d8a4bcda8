//! Accounts, tokens and streams of the Bot and Board APIs, for the tests that play through
//! them (the API's own tests, and the `jungle bot` bridge's).

use super::*;
use jungle_protocol::bot::CreatedApiToken;
use serde_json::{json, Value};

pub const PASSWORD: &str = "correct horse battery";

/// Where a test reaches a server: the embedded one, or a node's own process.
pub trait Reachable {
    fn http_addr(&self) -> std::net::SocketAddr;

    fn at(&self, path: &str) -> String {
        format!("http://{}{}", self.http_addr(), path)
    }
}

impl Reachable for TestServer {
    fn http_addr(&self) -> std::net::SocketAddr {
        self.addr
    }
}

impl Reachable for ServerProcess {
    fn http_addr(&self) -> std::net::SocketAddr {
        self.addr
    }
}

async fn profile(server: &impl Reachable, player: &Player) -> http::PlayerProfile {
    reqwest::get(server.at(&format!("/api/players/{}", player.id)))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// An account and a session token for it (what `POST /api/session` gives a program).
pub async fn signed_in(server: &impl Reachable, name: &str) -> (Player, String, String) {
    let player = create_account(server.http_addr(), name).await;
    let username = profile(server, &player).await.username.expect("an account");
    let session: http::SignedIn = reqwest::Client::new()
        .post(server.at("/api/session"))
        .json(&http::Credentials {
            username: username.clone(),
            password: PASSWORD.into(),
        })
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    (player, username, session.token)
}

pub async fn new_token(server: &impl Reachable, session: &str, scopes: &[&str]) -> CreatedApiToken {
    let (status, body) = call(
        server,
        reqwest::Method::POST,
        "/api/tokens",
        session,
        Some(json!({ "description": "my engine", "scopes": scopes })),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    serde_json::from_value(body).unwrap()
}

/// A session for an account that exists (the matched players of `matched_pair`).
pub async fn session_for(server: &impl Reachable, player: &Player) -> String {
    let profile = profile(server, player).await;
    let session: http::SignedIn = reqwest::Client::new()
        .post(server.at("/api/session"))
        .json(&http::Credentials {
            username: profile.username.expect("an account"),
            password: PASSWORD.into(),
        })
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    session.token
}

/// A game stream's lines as they come.
pub struct Lines {
    response: reqwest::Response,
    buffer: String,
}

impl Lines {
    pub async fn open(server: &impl Reachable, path: &str, token: &str) -> Lines {
        let response = reqwest::Client::new()
            .get(server.at(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(response.headers()["content-type"], "application/x-ndjson");
        Lines {
            response,
            buffer: String::new(),
        }
    }

    /// The next line within `wait`, if one comes (keep-alives aside).
    pub async fn next_within(&mut self, wait: std::time::Duration) -> Option<Value> {
        tokio::time::timeout(wait, self.next()).await.ok().flatten()
    }

    /// The next line that is not a keep-alive; `None` once the stream ended.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.find('\n') {
                let line: String = self.buffer.drain(..=end).collect();
                if line.trim().is_empty() {
                    continue;
                }
                return Some(serde_json::from_str(&line).expect("a JSON line"));
            }
            let chunk =
                tokio::time::timeout(std::time::Duration::from_secs(10), self.response.chunk())
                    .await
                    .expect("a line within 10 s")
                    .unwrap()?;
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }
}

/// A bot: an account upgraded, with a token that plays and challenges.
pub async fn bot(server: &impl Reachable, name: &str) -> (Player, String) {
    let (player, _, session) = signed_in(server, name).await;
    let token = new_token(server, &session, &["bot:play", "challenge:write"])
        .await
        .token;
    let (status, _) = call(
        server,
        reqwest::Method::POST,
        "/api/bot/account/upgrade",
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200);
    (player, token)
}

/// An arena for bots made by the account `host` (30 minutes, classic, 1 or more minutes a
/// side): its id.
pub async fn bots_arena(server: &impl Reachable, host: &Player, base_s: u32) -> String {
    let made: Value = reqwest::Client::new()
        .post(server.at("/api/tournaments"))
        .bearer_auth(&host.token)
        .json(
            &json!({ "name": "Engines' night", "rules": "classic", "bots": true,
            "clock": { "kind": "fischer", "base_s": base_s, "inc_s": 2 }, "minutes": 30 }),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    made["id"].as_str().expect("an arena made").to_owned()
}
