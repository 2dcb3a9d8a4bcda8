use clap::Parser;
use jungle_server::{Config, Server};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    if config.log_json {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .json()
            .init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
    // Every connection is a descriptor; take the whole hard limit rather than the often
    // small soft one (as Go's runtime does), and say what it is.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(open_files = limit, "open-file limit"),
        Err(e) => tracing::warn!(error = %e, "could not raise the open-file limit"),
    }
    match Server::start(config).await {
        Ok(server) => {
            server.run_until_signal().await;
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            tracing::error!("{e}");
            eprintln!("jungle-server: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
