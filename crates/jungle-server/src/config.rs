//! Configuration from flags and environment. The long names and variables are a contract: the
//! compose file and scripts use them.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Parser;

pub use jungle_rooms::chat_line::ChatMode;

#[derive(Clone, Debug, Parser)]
#[command(
    name = "jungle-server",
    version,
    about = "The Jungle Arena game server"
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "JUNGLE_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// sqlite://PATH or postgres://… ; the default is an SQLite file jungle.db in the working
    /// directory, created on first start.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://jungle.db",
        global = true
    )]
    pub database_url: String,

    /// Comma-separated origins allowed to open the WebSocket (e.g. https://jungle.example).
    /// Default: the server's own address. Clients that send no Origin (non-browsers) are allowed.
    #[arg(long, env = "JUNGLE_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Seconds a disconnected player may stay away before forfeiting (`abandoned`).
    #[arg(long, env = "JUNGLE_DISCONNECT_GRACE_S", default_value_t = 30)]
    pub disconnect_grace_s: u64,

    /// Seconds a game over days may have nobody in it before it leaves memory (it stays in
    /// the database and comes back on its next event, or when its clock runs out).
    #[arg(long, env = "JUNGLE_IDLE_GAME_S", default_value_t = 600)]
    pub idle_game_s: u64,

    /// Seconds each side has to make its first move before the game is `aborted`.
    #[arg(long, env = "JUNGLE_ABORT_S", default_value_t = 30)]
    pub abort_s: u64,

    /// Seconds between WebSocket pings; a socket silent for two intervals is treated as gone.
    #[arg(long, env = "JUNGLE_PING_INTERVAL_S", default_value_t = 10)]
    pub ping_interval_s: u64,

    /// The public base URL used in room links; default: http://ADDR.
    #[arg(long, env = "JUNGLE_PUBLIC_URL", global = true)]
    pub public_url: Option<String>,

    /// Send mail (a player's turn in a correspondence game, to a confirmed address) through
    /// this SMTP relay: smtp://HOST[:PORT], plain (TLS is the relay's job). Off when absent.
    #[arg(long, env = "JUNGLE_SMTP_URL")]
    pub smtp_url: Option<String>,

    /// The sender of the server's mails.
    #[arg(
        long,
        env = "JUNGLE_MAIL_FROM",
        default_value = "Jungle Arena <noreply@localhost>"
    )]
    pub mail_from: String,

    /// Serve the browser client from this directory instead of the copy built into the binary
    /// (for working on the client without rebuilding).
    #[arg(long, env = "JUNGLE_STATIC_DIR")]
    pub static_dir: Option<String>,

    /// Reverse proxies (addresses, or blocks such as 172.16.0.0/12) whose `X-Forwarded-For`
    /// header names the client; from anyone else the header is ignored. Behind a proxy on the
    /// same host: 127.0.0.1; in Docker behind the host's proxy: the bridge network's block.
    #[arg(
        long = "trusted-proxy",
        env = "JUNGLE_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<jungle_web::client_addr::AddressBlock>,

    /// Kernel send buffer per connection, in KiB (0: the kernel's own, which grows to 4 MiB):
    /// bounds the memory a client that stops reading pins, and how soon its sends stall.
    #[arg(long, env = "JUNGLE_SEND_BUFFER_KIB", default_value_t = 128)]
    pub send_buffer_kib: usize,

    /// Most simultaneous connections (HTTP and WebSocket) from one IP address.
    #[arg(long, env = "JUNGLE_MAX_CONNECTIONS_PER_IP", default_value_t = 64)]
    pub max_connections_per_ip: usize,

    /// Most simultaneous connections in all; default: the open-file limit less 64 (kept for the
    /// database and files, so the server never runs out of descriptors).
    #[arg(long, env = "JUNGLE_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,

    /// Seconds a connection has to send a request's headers, counted from when it opened or
    /// was last answered (an idle connection is closed after it), and then as long again for
    /// the request's body (a late one is answered 408 and its connection closed).
    #[arg(long, env = "JUNGLE_HEADER_TIMEOUT_S", default_value_t = 10)]
    pub header_timeout_s: u64,

    /// Serve `/metrics` on this address only (e.g. 127.0.0.1:9100), not on the public one.
    /// Without it, `/metrics` is served on the public address.
    #[arg(long, env = "JUNGLE_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,

    /// Turn off the rate limits per player and per address (docs/security.md): only for load
    /// tests, whose thousands of players all come from one address.
    #[arg(long, env = "JUNGLE_NO_RATE_LIMITS")]
    pub no_rate_limits: bool,

    /// Take Web Push subscriptions whose endpoint is plain HTTP on this machine: only for
    /// tests, which run their own push service on loopback. Without it, endpoints are HTTPS.
    #[arg(long, env = "JUNGLE_PUSH_LOOPBACK_ENDPOINTS", hide = true)]
    pub push_loopback_endpoints: bool,

    /// Do not mine finished games for puzzles in the background (they are mined once each, at
    /// the lowest CPU priority, on engine tables no game is waiting for).
    #[arg(long, env = "JUNGLE_NO_PUZZLE_MINING")]
    pub no_puzzle_mining: bool,

    /// Game chat: `all` (preset phrases and free text) or `presets-only`.
    #[arg(long, env = "JUNGLE_CHAT", value_enum, default_value_t = ChatMode::All)]
    pub chat: ChatMode,

    /// A recurring public arena, repeatable: `every=hourly,rules=classic,clock=3+2,minutes=55`
    /// (keys: name, rules, clock as M+S or Ns per move, every hourly|daily, at MM or HH:MM
    /// UTC, minutes, rated true|false). In the environment, schedules are separated by `;`.
    #[arg(long = "schedule", env = "JUNGLE_SCHEDULE", value_delimiter = ';')]
    pub schedules: Vec<jungle_tournaments::schedule::Schedule>,

    /// Several nodes: the Redis they coordinate through (e.g. redis://127.0.0.1:6379). Every
    /// node shares one PostgreSQL; without this the server is a single node and needs no Redis.
    #[arg(long, env = "JUNGLE_REDIS_URL")]
    pub redis_url: Option<String>,

    /// This node's name among several (default: a random one).
    #[arg(long, env = "JUNGLE_NODE_ID")]
    pub node_id: Option<String>,

    /// Log as JSON lines instead of human-readable text.
    #[arg(long, env = "JUNGLE_LOG_JSON")]
    pub log_json: bool,

    /// Without a command: serve. `admin …`: moderate, on the same database.
    #[command(subcommand)]
    pub command: Option<crate::admin::Command>,

    /// The time games see: the real time, unless a test moves it forward by days.
    #[arg(skip)]
    pub time: jungle_rooms::time_source::TimeSource,
}

impl Config {
    /// Defaults for an embedded test server (port 0, the given database), without background
    /// puzzle mining (a test that wants it turns it on). The environment is not read: a
    /// developer's `JUNGLE_*` variables must not change what tests see.
    pub fn for_tests(database_url: &str) -> Config {
        use clap::{CommandFactory, FromArgMatches};
        let command = Config::command().mut_args(|arg| arg.env(None));
        let matches = command.get_matches_from([
            "jungle-server",
            "--addr",
            "127.0.0.1:0",
            "--database-url",
            database_url,
            "--no-puzzle-mining",
        ]);
        Config::from_arg_matches(&matches).expect("the test settings are valid")
    }

    /// The base of links the server hands out: `--public-url`, else `http://ADDR`.
    pub fn public_url(&self, addr: SocketAddr) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{addr}"))
            .trim_end_matches('/')
            .to_owned()
    }

    pub fn disconnect_grace(&self) -> Duration {
        Duration::from_secs(self.disconnect_grace_s)
    }

    pub fn idle_game(&self) -> Duration {
        Duration::from_secs(self.idle_game_s.max(1))
    }

    pub fn abort_after(&self) -> Duration {
        Duration::from_secs(self.abort_s)
    }

    pub fn header_timeout(&self) -> Duration {
        Duration::from_secs(self.header_timeout_s.max(1))
    }

    /// The global connection cap: as configured, or the open-file limit less 64.
    pub fn max_connections(&self) -> usize {
        self.max_connections.unwrap_or_else(|| {
            let (soft, _hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap_or((1024, 1024));
            (soft as usize).saturating_sub(64).max(64)
        })
    }

    pub fn ping_interval(&self) -> Duration {
        Duration::from_secs(self.ping_interval_s.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_settings_ignore_the_environment() {
        // Only this test sets these variables; nothing else in this binary reads them.
        std::env::set_var("JUNGLE_ABORT_S", "1");
        std::env::set_var("JUNGLE_STATIC_DIR", "/nowhere");
        let config = Config::for_tests("sqlite://x.db");
        std::env::remove_var("JUNGLE_ABORT_S");
        std::env::remove_var("JUNGLE_STATIC_DIR");
        assert_eq!(config.abort_s, 30);
        assert_eq!(config.static_dir, None);
        assert_eq!(config.database_url, "sqlite://x.db");
        assert_eq!(config.addr.port(), 0);
    }
}
