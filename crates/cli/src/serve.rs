//! `stella serve`: runs the game server (HTTP, WebSocket, embedded web client).

use std::time::Duration;

use clap::Args;
use stella_server::storage::WriterConfig;
use stella_server::{Application, Config};

/// Options of `stella serve`. Every option can also be set by the environment
/// variable named beside it in `--help` (`STELLA_` and the option's name); a flag
/// given on the command line wins.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "STELLA_LISTEN")]
    pub listen: String,
    /// Database: an SQLite file (created if missing) or a postgres:// URL.
    #[arg(long, default_value = "stella.db", env = "STELLA_DB")]
    pub db: String,
    /// The message bus of a cluster, e.g. redis://10.0.0.5:6379: this node then runs
    /// with the others on the same PostgreSQL database (docs/deploy.md).
    #[arg(long, env = "STELLA_BUS")]
    pub bus: Option<String>,
    /// Mark the session cookie Secure (set this when served behind TLS).
    #[arg(long, env = "STELLA_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// Another Origin allowed to call the server, e.g. `https://play.example.org`
    /// (repeatable; the server's own origin is always allowed).
    #[arg(
        long = "allow-origin",
        env = "STELLA_ALLOW_ORIGIN",
        value_delimiter = ','
    )]
    pub allow_origin: Vec<String>,
    /// The URL browsers reach the server at, e.g. `https://play.example.org`; the Origin
    /// check compares with it (default: `http://` and the `--listen` address).
    #[arg(long, env = "STELLA_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// A reverse proxy whose X-Forwarded-For names the client address for the limits
    /// (repeatable; from anyone else the header is ignored).
    #[arg(
        long = "trusted-proxy",
        env = "STELLA_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    pub trusted_proxy: Vec<std::net::IpAddr>,
    /// Password hashes (19 MiB each) running at once.
    #[arg(long, default_value_t = defaults().hash_concurrency, env = "STELLA_MAX_PASSWORD_CHECKS")]
    pub max_password_checks: usize,
    /// Password checks waiting for a free slot; beyond, 503 with Retry-After.
    #[arg(long, default_value_t = defaults().hash_queue, env = "STELLA_PASSWORD_QUEUE")]
    pub password_queue: usize,
    /// Failed logins in a row for one account before each further attempt waits
    /// (1 s, doubling).
    #[arg(long, default_value_t = defaults().login_free_failures, env = "STELLA_LOGIN_FAILURES_BEFORE_WAIT")]
    pub login_failures_before_wait: u32,
    /// The longest wait between login attempts for one account, in seconds.
    #[arg(long, default_value_t = defaults().login_max_delay.as_secs(), env = "STELLA_LOGIN_MAX_WAIT_SECS")]
    pub login_max_wait_secs: u64,
    /// Open tables one user may hold (created or seated at).
    #[arg(long, default_value_t = defaults().max_open_tables, env = "STELLA_MAX_OPEN_TABLES")]
    pub max_open_tables: usize,
    /// Open or live tables with computer seats one user may have created.
    #[arg(long, default_value_t = defaults().max_computer_tables, env = "STELLA_MAX_COMPUTER_TABLES")]
    pub max_computer_tables: usize,
    /// Computer searches running at once on the server (default: cores - 1).
    #[arg(long, default_value_t = defaults().max_searches, env = "STELLA_MAX_COMPUTER_SEARCHES")]
    pub max_computer_searches: usize,
    /// Seconds an open table may wait with no one joining or leaving before it closes.
    #[arg(long, default_value_t = defaults().open_table_idle.as_secs(), env = "STELLA_OPEN_TABLE_IDLE_SECS")]
    pub open_table_idle_secs: u64,
    /// Outgoing messages a connection may have waiting before it counts as slow.
    #[arg(long, default_value_t = defaults().slow_client_queue, env = "STELLA_SLOW_CLIENT_QUEUE")]
    pub slow_client_queue: usize,
    /// Seconds a connection may stay slow before it is closed.
    #[arg(long, default_value_t = defaults().slow_client_after.as_secs(), env = "STELLA_SLOW_CLIENT_SECS")]
    pub slow_client_secs: u64,
    /// Seconds a player of a 2-player game may be away before the opponent may claim
    /// the win.
    #[arg(long, default_value_t = defaults().abandon_after.as_secs(), value_parser = clap::value_parser!(u64).range(1..=86_400), env = "STELLA_ABANDON_AFTER_SECS")]
    pub abandon_after_secs: u64,
    /// Microseconds a stored move waits for others to share its database transaction.
    #[arg(long, default_value_t = u64::try_from(defaults().group_commit.window.as_micros()).unwrap_or(u64::MAX), env = "STELLA_COMMIT_WINDOW_US", value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub commit_window_us: u64,
    /// The most moves stored in one database transaction.
    #[arg(long, default_value_t = defaults().group_commit.max_batch as u64, env = "STELLA_COMMIT_MAX_MOVES", value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub commit_max_moves: u64,
    /// A puzzle file (written by `stella puzzles`) to serve instead of the set built
    /// into the web client; checked at start.
    #[arg(long, env = "STELLA_PUZZLES")]
    pub puzzles: Option<std::path::PathBuf>,
    /// Finished games reviewed at once in the background (each on one thread); 0 turns
    /// the server's reviews off.
    #[arg(long, default_value_t = defaults().reviews.workers as u64, env = "STELLA_REVIEW_WORKERS", value_parser = clap::value_parser!(u64).range(0..=16))]
    pub review_workers: u64,
    /// Nodes the review of one game may search in all (shared by its moves).
    #[arg(long, default_value_t = defaults().reviews.game_nodes, env = "STELLA_REVIEW_NODES", value_parser = clap::value_parser!(u64).range(10_000..=1_000_000_000))]
    pub review_nodes: u64,
    /// Log lines as human-readable text or as one JSON object per line.
    #[arg(long, value_enum, default_value_t = LogFormat::Text, env = "STELLA_LOG_FORMAT")]
    pub log_format: LogFormat,
}

/// How `stella serve` writes its log to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line (for log collectors).
    Json,
}

/// The server configuration the options describe.
pub fn config(args: &ServeArgs) -> Config {
    Config {
        listen: args.listen.clone(),
        database_url: args.db.clone(),
        bus_url: args.bus.clone(),
        secure_cookies: args.secure_cookies,
        allowed_origins: args.allow_origin.clone(),
        public_url: args.public_url.clone(),
        trusted_proxies: args.trusted_proxy.clone(),
        hash_concurrency: args.max_password_checks.max(1),
        hash_queue: args.password_queue,
        login_free_failures: args.login_failures_before_wait,
        login_max_delay: Duration::from_secs(args.login_max_wait_secs),
        max_open_tables: args.max_open_tables,
        max_computer_tables: args.max_computer_tables,
        max_searches: args.max_computer_searches.max(1),
        open_table_idle: Duration::from_secs(args.open_table_idle_secs),
        slow_client_queue: args.slow_client_queue,
        slow_client_after: Duration::from_secs(args.slow_client_secs),
        abandon_after: Duration::from_secs(args.abandon_after_secs),
        group_commit: WriterConfig {
            window: Duration::from_micros(args.commit_window_us),
            max_batch: usize::try_from(args.commit_max_moves).unwrap_or(usize::MAX),
            ..WriterConfig::default()
        },
        puzzles: args.puzzles.clone(),
        reviews: stella_server::review::ReviewSettings {
            workers: usize::try_from(args.review_workers).unwrap_or(16),
            game_nodes: args.review_nodes,
        },
        ..Config::default()
    }
}

fn defaults() -> Config {
    Config::default()
}

/// Waits for Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Runs the server until Ctrl-C or SIGTERM, then stops gracefully: no new
/// connections, moves being stored are stored and acknowledged, sockets close with
/// "going away", live games resume on the next start.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let json = args.log_format == LogFormat::Json;
    stella_server::telemetry::init(json);
    // In JSON mode every line on stderr is a JSON object; in text mode the two
    // status lines stay plain for people and scripts.
    let say = move |text: String| {
        if json {
            tracing::info!("{text}");
        } else {
            eprintln!("stella serve: {text}");
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let config = config(&args);
        let app = Application::build(config).await?;
        say(format!("listening on http://{}", app.local_addr()));
        let stop = app.shutdown_handle();
        tokio::spawn(async move {
            stop_signal().await;
            say("stopping".into());
            stop.stop();
        });
        app.run_until_stopped().await?;
        say("stopped".into());
        Ok(())
    })
}
