//! A real server on 127.0.0.1:0 with either store, and clients that speak `jungle-protocol`:
//! typed frames on the WebSocket and typed answers over HTTP. Raw JSON is only for tests that
//! send malformed input on purpose (`send_json`, `post_json`).
//!
//! Long (about 700 lines): the harness every test module uses (a server, its clients, their
//! helpers).
#![allow(dead_code, unused_imports)]

use std::time::Duration;

mod bots;
mod nodes;
mod smtp;
pub use bots::*;
pub use nodes::*;
pub use smtp::*;

use futures_util::{SinkExt, StreamExt};
pub use jungle_protocol::http;
pub use jungle_protocol::{
    ClientFrame, ClockSpec, ColorChoice, ErrorCode, GameState, GameStatus, Reason, Ruleset,
    ServerFrame, Side, Uuid,
};
use jungle_server::{Config, Server};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Waits for the first frame matching a pattern (skipping others) and evaluates to `$out` with
/// the pattern's bindings: `expect_frame!(c, ServerFrame::Moved { mv, .. } => mv)`; without
/// `=> $out` it only waits.
#[macro_export]
macro_rules! expect_frame {
    ($client:expr, $pattern:pat if $guard:expr) => {
        expect_frame!($client, $pattern if $guard => {})
    };
    ($client:expr, $pattern:pat) => {
        expect_frame!($client, $pattern => {})
    };
    ($client:expr, $pattern:pat => $out:expr) => {
        expect_frame!($client, $pattern if true => $out)
    };
    ($client:expr, $pattern:pat if $guard:expr => $out:expr) => {{
        let mut skipped = Vec::new();
        loop {
            let next = tokio::time::timeout($crate::common::WAIT, $client.next_or_close()).await;
            match next {
                Ok(Some($pattern)) if $guard => break $out,
                Ok(Some(other)) => skipped.push(other),
                Ok(None) => panic!(
                    "socket closed while waiting for {}; skipped {skipped:?}",
                    stringify!($pattern)
                ),
                Err(_) => panic!(
                    "no {} within the wait; skipped {skipped:?}",
                    stringify!($pattern)
                ),
            }
        }
    }};
}

/// How long a test waits for an expected frame before failing.
pub const WAIT: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// Runs a scenario against both stores: `both_stores!(scenario);` makes `scenario::sqlite` and
/// `scenario::postgres` tests.
#[macro_export]
macro_rules! both_stores {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name($crate::common::Db::Sqlite).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$name($crate::common::Db::Postgres).await;
            }
        }
    )*};
}

pub struct TestServer {
    server: Option<Server>,
    pub config: Config,
    pub addr: std::net::SocketAddr,
}

/// A fresh, empty database of the given kind.
pub async fn fresh_database(db: Db) -> String {
    let name = format!("jungle_test_{}", uuid::Uuid::new_v4().simple());
    match db {
        Db::Sqlite => {
            let dir = std::env::temp_dir().join("jungle-tests");
            std::fs::create_dir_all(&dir).unwrap();
            format!("sqlite://{}", dir.join(format!("{name}.db")).display())
        }
        Db::Postgres => {
            let admin = std::env::var("JUNGLE_TEST_POSTGRES")
                .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
            sqlx::any::install_default_drivers();
            let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&admin)
                .await
                .unwrap_or_else(|e| {
                    panic!("PostgreSQL must be reachable at {admin} for these tests: {e}")
                });
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&mut conn)
                .await
                .expect("create test database");
            let base = admin.rsplit_once('/').expect("database url has a path").0;
            format!("{base}/{name}")
        }
    }
}

/// Best effort: a test that failed leaves its database behind for a look.
pub async fn drop_database(url: &str) {
    if let Some(path) = url.strip_prefix("sqlite://") {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
    } else if let Some((base, name)) = url.rsplit_once('/') {
        let admin = format!("{base}/test");
        if let Ok(mut conn) = <sqlx::AnyConnection as sqlx::Connection>::connect(&admin).await {
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
                .execute(&mut conn)
                .await;
        }
    }
}

impl TestServer {
    pub async fn start(db: Db) -> TestServer {
        Self::start_with(db, |_| {}).await
    }

    /// Starts with settings adjusted by `tune` (shorter grace periods and the like).
    pub async fn start_with(db: Db, tune: impl FnOnce(&mut Config)) -> TestServer {
        let url = fresh_database(db).await;
        let mut config = Config::for_tests(&url);
        tune(&mut config);
        Self::start_config(config).await
    }

    pub async fn start_config(config: Config) -> TestServer {
        let server = Server::start(config.clone()).await.expect("server starts");
        let addr = server.addr();
        TestServer {
            server: Some(server),
            config,
            addr,
        }
    }

    /// Shuts down gracefully and starts again on the same database and a new port.
    pub async fn restart(&mut self) {
        self.server.take().expect("running").shutdown().await;
        let server = Server::start(self.config.clone())
            .await
            .expect("server restarts");
        self.addr = server.addr();
        self.server = Some(server);
    }

    /// Games in progress whose room sleeps.
    pub fn games_asleep(&self) -> usize {
        self.server.as_ref().map_or(0, |s| s.games_asleep())
    }

    /// Waits (up to 10 s) until `count` games sleep.
    pub async fn until_asleep(&self, count: usize) {
        for _ in 0..100 {
            if self.games_asleep() == count {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("{} games asleep, not {count}", self.games_asleep());
    }

    /// Where `/metrics` is served when it has an address of its own.
    pub fn metrics_addr(&self) -> Option<std::net::SocketAddr> {
        self.server.as_ref().and_then(|s| s.metrics_addr())
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// A typed answer to `GET path`, which must succeed.
    pub async fn get<T: DeserializeOwned>(&self, path: &str) -> T {
        let response = reqwest::get(self.url(path)).await.expect("GET");
        assert_eq!(response.status().as_u16(), 200, "GET {path}");
        response.json().await.expect("a typed answer")
    }

    /// The status of `GET path`, and its error message when it failed.
    pub async fn get_status(&self, path: &str) -> (u16, Option<String>) {
        status_and_error(reqwest::get(self.url(path)).await.expect("GET")).await
    }

    /// POSTs raw JSON (for malformed input): the status, and the error message if any.
    pub async fn post_json(&self, path: &str, body: Value) -> (u16, Option<String>) {
        let response = reqwest::Client::new()
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .expect("POST");
        status_and_error(response).await
    }

    pub async fn player(&self, name: &str) -> Player {
        create_player(self.addr, name).await
    }

    /// A player with an account (for rated games), its username made unique from `name`.
    pub async fn account(&self, name: &str) -> Player {
        create_account(self.addr, name).await
    }

    /// A player with the account `username`, exactly (see [`account_named`]).
    pub async fn account_named(&self, username: &str) -> Player {
        account_named(self.addr, username, None).await
    }

    /// A connection signed in as `player`, past its `welcome`.
    pub async fn client(&self, player: &Player) -> Client {
        signed_in_client(self.addr, player).await
    }

    /// A connection that has not said hello.
    pub async fn raw_client(&self) -> Client {
        raw_client(self.addr).await
    }

    pub async fn shutdown(mut self) {
        if let Some(server) = self.server.take() {
            server.shutdown().await;
        }
        drop_database(&self.config.database_url).await;
    }
}

/// An answer's status, and its error message when it is an `ApiError`.
async fn status_and_error(response: reqwest::Response) -> (u16, Option<String>) {
    let status = response.status().as_u16();
    let error = response
        .json::<http::ApiError>()
        .await
        .ok()
        .map(|e| e.error);
    (status, error)
}

pub async fn create_player(addr: std::net::SocketAddr, name: &str) -> Player {
    let response = reqwest::Client::new()
        .post(format!("http://{addr}/api/players"))
        .json(&http::NewPlayer {
            name: Some(name.into()),
        })
        .send()
        .await
        .expect("POST /api/players");
    assert_eq!(response.status().as_u16(), 201);
    let created: http::CreatedPlayer = response.json().await.unwrap();
    Player {
        id: created.id,
        token: created.token,
    }
}

/// A WebSocket opened with one extra request header (`origin`, `x-forwarded-for`, …), or the
/// handshake's error when the server refuses it.
pub async fn connect_with_header(
    addr: std::net::SocketAddr,
    name: &'static str,
    value: &str,
) -> Result<WebSocketStream<MaybeTlsStream<TcpStream>>, tokio_tungstenite::tungstenite::Error> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}/ws").into_client_request()?;
    request
        .headers_mut()
        .insert(name, value.parse().expect("a valid header value"));
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(ws, _)| ws)
}

pub async fn raw_client(addr: std::net::SocketAddr) -> Client {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("websocket connects");
    Client { ws, player: None }
}

pub async fn signed_in_client(addr: std::net::SocketAddr, player: &Player) -> Client {
    let mut client = raw_client(addr).await;
    client
        .send(ClientFrame::Hello {
            token: player.token.clone(),
        })
        .await;
    let id = expect_frame!(client, ServerFrame::Welcome { player, .. } => player.id);
    assert_eq!(id, player.id);
    client.player = Some(player.clone());
    client
}

/// The server binary in a child process (so it can be killed with SIGKILL).
pub struct ServerProcess {
    child: std::process::Child,
    pub addr: std::net::SocketAddr,
}

impl ServerProcess {
    pub fn start(database_url: &str) -> ServerProcess {
        ServerProcess::start_with_args(database_url, &[])
    }

    /// Started with `extra` arguments after the address and database.
    pub fn start_with_args(database_url: &str, extra: &[&str]) -> ServerProcess {
        use std::io::{BufRead, BufReader};
        // Known in the server's own tests (the bridge's tests share these helpers but not this).
        #[allow(clippy::option_env_unwrap)]
        let binary = option_env!("CARGO_BIN_EXE_jungle-server")
            .expect("the server's binary is known in jungle-server's tests only");
        let mut child = std::process::Command::new(binary)
            .args([
                "--addr",
                "127.0.0.1:0",
                "--database-url",
                database_url,
                "--log-json",
            ])
            .args(extra)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("server binary starts");
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut lines = stdout.lines();
        let addr: std::net::SocketAddr = loop {
            let line = lines
                .next()
                .expect("server output")
                .expect("readable output");
            let entry: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            if entry["fields"]["message"] == "jungle arena listening" {
                break entry["fields"]["addr"].as_str().unwrap().parse().unwrap();
            }
        };
        // Keep draining the output so the server never blocks on a full pipe; kept in
        // `$JUNGLE_TEST_SERVER_LOGS/<port>.log` when that is set, to read after a failure.
        let keep = std::env::var_os("JUNGLE_TEST_SERVER_LOGS").and_then(|dir| {
            let path = std::path::Path::new(&dir).join(format!("{}.log", addr.port()));
            std::fs::File::create(path).ok()
        });
        std::thread::spawn(move || {
            use std::io::Write;
            let mut keep = keep;
            for line in lines.map_while(Result::ok) {
                if let Some(file) = keep.as_mut() {
                    let _ = writeln!(file, "{line}");
                }
            }
        });
        ServerProcess { child, addr }
    }

    /// The server's resident memory, in bytes (Linux).
    pub fn resident_bytes(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc entry");
        let kib: u64 = status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc/<pid>/status");
        kib * 1024
    }

    /// SIGTERM: the server's graceful shutdown (a drain, with several nodes); waits for it.
    pub fn terminate(mut self) {
        let status = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill -TERM");
        assert!(status.success());
        self.child.wait().expect("reaped");
    }

    /// SIGKILL: no shutdown, no flushing, nothing.
    pub fn kill(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Clone, Debug)]
pub struct Player {
    pub id: Uuid,
    pub token: String,
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub player: Option<Player>,
}

impl Client {
    pub async fn send(&mut self, frame: ClientFrame) {
        let text = serde_json::to_string(&frame).expect("frames serialize");
        self.ws.send(Message::text(text)).await.expect("send");
    }

    /// Raw JSON, for malformed input on purpose.
    pub async fn send_json(&mut self, frame: Value) {
        self.ws
            .send(Message::text(frame.to_string()))
            .await
            .expect("send");
    }

    pub async fn send_raw(&mut self, message: Message) {
        self.ws.send(message).await.expect("send");
    }

    /// The next frame, or `None` when the socket closed. Fails the test after `WAIT` (WebSocket
    /// pings in between do not extend the wait).
    pub async fn next(&mut self) -> Option<ServerFrame> {
        tokio::time::timeout(WAIT, self.next_or_close())
            .await
            .expect("a frame within the wait")
    }

    /// The next frame, however long it takes; `None` once the socket closed.
    pub async fn next_or_close(&mut self) -> Option<ServerFrame> {
        let read = async {
            loop {
                match self.ws.next().await? {
                    Ok(Message::Text(text)) => {
                        return Some(serde_json::from_str(&text).unwrap_or_else(|e| {
                            panic!("the server sent a frame the protocol lacks: {e}: {text}")
                        }))
                    }
                    Ok(Message::Close(_)) | Err(_) => return None,
                    Ok(_) => continue,
                }
            }
        };
        read.await
    }

    /// The next full game state.
    pub async fn expect_game(&mut self) -> GameState {
        expect_frame!(self, ServerFrame::Game(state) => *state)
    }

    /// The next full game state, or the next refusal's code, whichever comes first.
    pub async fn next_game_or_error(&mut self) -> Result<GameState, ErrorCode> {
        loop {
            match self.next().await.expect("a game or an error") {
                ServerFrame::Game(state) => return Ok(*state),
                ServerFrame::Error { code, .. } => return Err(code),
                _ => {}
            }
        }
    }

    /// The next turn played: its move text and the number of turns played since.
    pub async fn expect_moved(&mut self) -> (String, usize) {
        expect_frame!(self, ServerFrame::Moved { mv, ply, .. } => (mv, ply))
    }

    /// The legal moves that came with the next turn played.
    pub async fn expect_moved_legal(&mut self) -> (String, Vec<String>) {
        expect_frame!(self, ServerFrame::Moved { mv, legal, .. } => (mv, legal))
    }

    /// The next end of a game.
    pub async fn expect_over(&mut self) -> GameOver {
        expect_frame!(self, ServerFrame::GameOver { winner, reason, rated, rating_change, status, .. } => GameOver { winner, reason, rated, rating_change, status })
    }

    /// Expects an error frame with this code; returns its message.
    pub async fn expect_error(&mut self, code: ErrorCode) -> String {
        let (got, message) =
            expect_frame!(self, ServerFrame::Error { code, message, .. } => (code, message));
        assert_eq!(got, code, "{message}");
        message
    }

    /// Waits for the close frame and returns its code.
    pub async fn expect_close(&mut self) -> Option<u16> {
        loop {
            let message = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("closed within the wait");
            match message {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code.into()),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    }

    pub async fn mv(&mut self, game: Uuid, mv: &str) {
        self.send(ClientFrame::Move {
            game,
            mv: mv.into(),
            blur: false,
        })
        .await;
    }

    /// Asks for the game's state again; its clocks (red, blue) in milliseconds.
    pub async fn expect_game_state_clocks(&mut self, game: Uuid) -> (u64, u64) {
        self.send(ClientFrame::Watch { game }).await;
        let state = self.expect_game().await;
        (state.clocks.red_ms, state.clocks.blue_ms)
    }

    pub fn player_id(&self) -> Uuid {
        self.player.as_ref().expect("signed in").id
    }
}

/// How a game ended, from its `game_over` frame.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOver {
    pub winner: Option<Side>,
    pub reason: Reason,
    pub rated: bool,
    pub rating_change: Option<jungle_protocol::RatingChange>,
    pub status: GameStatus,
}

/// A seek for these settings.
pub fn seek(rules: Ruleset, clock: ClockSpec, rated: bool) -> ClientFrame {
    ClientFrame::Seek {
        rules,
        clock,
        rated,
        computer_after_s: None,
    }
}

/// A classic game against the computer at `level`, 5 minutes a side; `color` is the human's.
pub fn vs_computer(level: u8, color: ColorChoice) -> ClientFrame {
    ClientFrame::PlayComputer {
        rules: Ruleset::Classic,
        clock: fischer(300, 0),
        level,
        color,
        position: None,
    }
}

/// A game against the computer at `level` from a set-up `position` (`color`: the human's).
pub fn computer_from(position: &str, level: u8, color: ColorChoice) -> ClientFrame {
    ClientFrame::PlayComputer {
        rules: Ruleset::Classic,
        clock: fischer(300, 0),
        level,
        color,
        position: Some(position.to_owned()),
    }
}

/// `host` (an account) opens a rated private room with `clock` (over days, say) that `guest`
/// (an account) joins: the host plays Red. Both clients are past the game's first state.
pub async fn private_game_between(
    server: &TestServer,
    host: &Player,
    guest: &Player,
    clock: ClockSpec,
) -> (Client, Client, Uuid) {
    let mut red = server.client(host).await;
    let (code, game) = open_private_room(&mut red, clock, true).await;
    red.expect_game().await;
    let mut blue = server.client(guest).await;
    blue.send(ClientFrame::JoinRoom { code }).await;
    let state = blue.expect_game().await;
    assert_eq!(state.status, GameStatus::Active);
    assert_eq!(state.clock, clock);
    expect_frame!(red, ServerFrame::Game(state) if state.status == GameStatus::Active);
    (red, blue, game)
}

/// `host` opens a classic private room (the host plays Red); its code and game id.
pub async fn open_private_room(host: &mut Client, clock: ClockSpec, rated: bool) -> (String, Uuid) {
    host.send(ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock,
        rated,
        color: ColorChoice::Red,
        position: None,
    })
    .await;
    expect_frame!(host, ServerFrame::Room { code, game, .. } => (code, game))
}

pub fn fischer(base_s: u32, inc_s: u32) -> ClockSpec {
    ClockSpec::Fischer { base_s, inc_s }
}

/// The tests' one HTTP request helper: `method path` with a bearer token (none when `token`
/// is empty) and an optional JSON body; the status and the JSON answer (`null` if none).
pub async fn call(
    server: &impl Reachable,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = reqwest::Client::new().request(method, server.at(path));
    if !token.is_empty() {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Two players matched by quick-match: returns (red, blue, game id) after both got `game`.
pub async fn matched_pair(server: &TestServer, seek: ClientFrame) -> (Client, Client, Uuid) {
    matched_pair_at(server.addr, seek).await
}

/// The password every test account has.
pub const PASSWORD: &str = "correct horse battery";

/// A guest made permanent, so that it may play rated games: its username is `name` with a
/// number that keeps it unique on the server (`Alice7`).
pub async fn create_account(addr: std::net::SocketAddr, name: &str) -> Player {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let username: String = format!("{}{n}", name.replace(' ', "_"))
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(20)
        .collect();
    account_named(addr, &username, None).await
}

/// The one way the tests make an account: a guest called `username` claims that username
/// with [`PASSWORD`] (its token is then the account's first session), from `forwarded_for`
/// when the server trusts this loopback proxy (`X-Forwarded-For`).
pub async fn account_named(
    addr: std::net::SocketAddr,
    username: &str,
    forwarded_for: Option<&str>,
) -> Player {
    let client = reqwest::Client::new();
    let through = |request: reqwest::RequestBuilder| match forwarded_for {
        Some(address) => request.header("X-Forwarded-For", address),
        None => request,
    };
    let guest: http::CreatedPlayer = through(client.post(format!("http://{addr}/api/players")))
        .json(&json!({ "name": username }))
        .send()
        .await
        .expect("POST /api/players")
        .json()
        .await
        .expect("a new player");
    let response = through(client.post(format!("http://{addr}/api/account")))
        .bearer_auth(&guest.token)
        .json(&http::Credentials {
            username: username.into(),
            password: PASSWORD.into(),
        })
        .send()
        .await
        .expect("POST /api/account");
    assert_eq!(
        response.status().as_u16(),
        201,
        "{:?}",
        response.text().await
    );
    Player {
        id: guest.id,
        token: guest.token,
    }
}

/// A sign-in attempt (`POST /api/session`), from `forwarded_for` when the server trusts this
/// loopback proxy, with a device cookie when given: the answer as it came.
pub async fn sign_in(
    addr: std::net::SocketAddr,
    username: &str,
    password: &str,
    forwarded_for: Option<&str>,
    device: Option<&str>,
) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(format!("http://{addr}/api/session"))
        .json(&http::Credentials {
            username: username.into(),
            password: password.into(),
        });
    if let Some(address) = forwarded_for {
        request = request.header("X-Forwarded-For", address);
    }
    if let Some(device) = device {
        request = request.header("Cookie", format!("jungle_device={device}"));
    }
    request.send().await.expect("POST /api/session")
}

pub async fn matched_pair_at(
    addr: std::net::SocketAddr,
    seek: ClientFrame,
) -> (Client, Client, Uuid) {
    let rated = matches!(seek, ClientFrame::Seek { rated: true, .. });
    let (a, b) = if rated {
        (
            create_account(addr, "Alice").await,
            create_account(addr, "Bob").await,
        )
    } else {
        (
            create_player(addr, "Alice").await,
            create_player(addr, "Bob").await,
        )
    };
    let mut ca = signed_in_client(addr, &a).await;
    let mut cb = signed_in_client(addr, &b).await;
    ca.send(seek.clone()).await;
    expect_frame!(ca, ServerFrame::Seeking { .. });
    cb.send(seek).await;
    let ga = ca.expect_game().await;
    let gb = cb.expect_game().await;
    assert_eq!(ga.game, gb.game);
    if ga.you == Some(Side::Red) {
        assert_eq!(gb.you, Some(Side::Blue));
        (ca, cb, ga.game)
    } else {
        assert_eq!(gb.you, Some(Side::Red));
        (cb, ca, ga.game)
    }
}

pub fn classic_seek() -> ClientFrame {
    seek(Ruleset::Classic, fischer(300, 3), true)
}

/// Plays `moves` alternately, red first, each side waiting for the `moved` echo.
pub async fn play(red: &mut Client, blue: &mut Client, game: Uuid, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut *red, &mut *blue)
        } else {
            (&mut *blue, &mut *red)
        };
        mover.mv(game, mv).await;
        let (echo, ply) = mover.expect_moved().await;
        assert_eq!(echo, *mv);
        let (seen, seen_ply) = other.expect_moved().await;
        assert_eq!(seen, *mv);
        assert_eq!(seen_ply, ply);
    }
}

/// Red walks its leopard into Blue's den at ply 21, after each side shuffles harmlessly.
pub const DEN_WIN_AT_PLY_21: [&str; 21] = [
    "g1f1", "a9b9", "a1b1", "g9f9", "f1g1", "b8b7", "b1a1", "f8e8", "e3d3", "b9a9", "d3d4", "f9g9",
    "d4d5", "b7b8", "d5d6", "e8f8", "d6d7", "a9b9", "d7d8", "g9f9", "d8d9",
];

/// The same walk without the shuffles: the den is entered at ply 13.
pub const DEN_WIN_AT_PLY_13: [&str; 13] = [
    "e3d3", "a9b9", "d3d4", "g9f9", "d4d5", "b8b7", "d5d6", "f8e8", "d6d7", "b9a9", "d7d8", "f9g9",
    "d8d9",
];
