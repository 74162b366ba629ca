//! `stella serve`: runs the game server (HTTP, WebSocket, embedded web client).

use std::time::Duration;

use clap::Args;
use stella_server::{Application, Config};

/// Options of `stella serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Database: an SQLite file (created if missing) or a postgres:// URL.
    #[arg(long, default_value = "stella.db")]
    pub db: String,
    /// The message bus of a cluster, e.g. redis://10.0.0.5:6379: this node then runs
    /// with the others on the same PostgreSQL database (docs/deploy.md).
    #[arg(long)]
    pub bus: Option<String>,
    /// Mark the session cookie Secure (set this when served behind TLS).
    #[arg(long)]
    pub secure_cookies: bool,
    /// Another Origin allowed to call the server, e.g. https://play.example.org
    /// (repeatable; the server's own origin is always allowed).
    #[arg(long = "allow-origin")]
    pub allow_origin: Vec<String>,
    /// The URL browsers reach the server at, e.g. https://play.example.org; the Origin
    /// check compares with it (default: http:// and the --listen address).
    #[arg(long)]
    pub public_url: Option<String>,
    /// A reverse proxy whose X-Forwarded-For names the client address for the limits
    /// (repeatable; from anyone else the header is ignored).
    #[arg(long = "trusted-proxy")]
    pub trusted_proxy: Vec<std::net::IpAddr>,
    /// Password hashes (19 MiB each) running at once.
    #[arg(long, default_value_t = defaults().hash_concurrency)]
    pub max_password_checks: usize,
    /// Password checks waiting for a free slot; beyond, 503 with Retry-After.
    #[arg(long, default_value_t = defaults().hash_queue)]
    pub password_queue: usize,
    /// Failed logins in a row for one account before each further attempt waits
    /// (1 s, doubling).
    #[arg(long, default_value_t = defaults().login_free_failures)]
    pub login_failures_before_wait: u32,
    /// The longest wait between login attempts for one account, in seconds.
    #[arg(long, default_value_t = defaults().login_max_delay.as_secs())]
    pub login_max_wait_secs: u64,
    /// Open tables one user may hold (created or seated at).
    #[arg(long, default_value_t = defaults().max_open_tables)]
    pub max_open_tables: usize,
    /// Open or live tables with computer seats one user may have created.
    #[arg(long, default_value_t = defaults().max_computer_tables)]
    pub max_computer_tables: usize,
    /// Computer searches running at once on the server (default: cores - 1).
    #[arg(long, default_value_t = defaults().max_searches)]
    pub max_computer_searches: usize,
    /// Seconds an open table may wait with no one joining or leaving before it closes.
    #[arg(long, default_value_t = defaults().open_table_idle.as_secs())]
    pub open_table_idle_secs: u64,
    /// Outgoing messages a connection may have waiting before it counts as slow.
    #[arg(long, default_value_t = defaults().slow_client_queue)]
    pub slow_client_queue: usize,
    /// Seconds a connection may stay slow before it is closed.
    #[arg(long, default_value_t = defaults().slow_client_after.as_secs())]
    pub slow_client_secs: u64,
    /// Seconds a player of a 2-player game may be away before the opponent may claim
    /// the win.
    #[arg(long, default_value_t = defaults().abandon_after.as_secs(), value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub abandon_after_secs: u64,
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

/// Runs the server until Ctrl-C or SIGTERM; live games are stored and resume on the next start.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    stella_server::telemetry::init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let config = Config {
            listen: args.listen,
            database_url: args.db,
            bus_url: args.bus,
            secure_cookies: args.secure_cookies,
            allowed_origins: args.allow_origin,
            public_url: args.public_url,
            trusted_proxies: args.trusted_proxy,
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
            ..Config::default()
        };
        let app = Application::build(config).await?;
        eprintln!("stella serve: listening on http://{}", app.local_addr());
        let stop = app.shutdown_handle();
        tokio::spawn(async move {
            stop_signal().await;
            eprintln!("stella serve: stopping");
            stop.stop();
        });
        app.run_until_stopped().await?;
        Ok(())
    })
}
