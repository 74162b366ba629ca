//! `stella serve`: runs the game server (HTTP, WebSocket, embedded web client).

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
    /// Mark the session cookie Secure (set this when served behind TLS).
    #[arg(long)]
    pub secure_cookies: bool,
    /// Another Origin allowed to call the server, e.g. https://play.example.org
    /// (repeatable; the server's own origin is always allowed).
    #[arg(long = "allow-origin")]
    pub allow_origin: Vec<String>,
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
            secure_cookies: args.secure_cookies,
            allowed_origins: args.allow_origin,
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
