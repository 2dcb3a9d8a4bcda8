use clap::Parser;
use jungle_server::{Config, Server};
use tracing_subscriber::EnvFilter;

#[cfg(unix)]
mod allocator;

/// mimalloc rather than the C library's allocator: the server makes and drops many small
/// buffers per move among larger ones (JSON lists, Redis commands), and glibc's allocator
/// spent much of its time merging freed chunks again (see docs/benchmarks.md). Very large
/// blocks bypass it (see `allocator`).
#[cfg(unix)]
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::Allocator;
#[cfg(not(unix))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    runtime.enable_all();
    #[cfg(unix)]
    runtime.on_thread_park(allocator::collect_when_idle);
    runtime
        .build()
        .expect("the runtime starts")
        .block_on(serve())
}

async fn serve() -> std::process::ExitCode {
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
    match config.command.clone() {
        Some(jungle_server::admin::Command::Admin(action)) => return admin(&config, action).await,
        Some(jungle_server::admin::Command::Puzzles(action)) => {
            use jungle_server::admin::PuzzlesAction;
            // Pure computation: off the runtime's threads.
            let mined = tokio::task::spawn_blocking(move || match action {
                PuzzlesAction::Mine(args) => jungle_puzzles::mine::run(&args),
                PuzzlesAction::Recheck(args) => jungle_puzzles::mine::recheck(&args),
                PuzzlesAction::Themes(args) => jungle_puzzles::mine::rethemes(&args),
                PuzzlesAction::Rejudge(args) => jungle_puzzles::mine::rejudge(&args),
                PuzzlesAction::Balance(args) => jungle_puzzles::mine::rebalance(&args),
            })
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
            return match mined {
                Ok(report) => {
                    eprint!("{report}");
                    std::process::ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("jungle-server puzzles: {e}");
                    std::process::ExitCode::FAILURE
                }
            };
        }
        None => {}
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

/// Runs one `admin` action on the configured database and prints what it did.
async fn admin(
    config: &Config,
    action: jungle_server::admin::AdminAction,
) -> std::process::ExitCode {
    let store = match jungle_store::Store::open_for_command(&config.database_url).await {
        Ok(store) => store,
        Err(e) => {
            eprintln!("jungle-server admin: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = jungle_server::admin::run(&store, &config.public_url(config.addr), action).await;
    store.close().await;
    match result {
        Ok(out) => {
            print!("{out}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("jungle-server admin: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
