//! `stella bot`: plays online as a bot account. It connects to the server's `/ws`
//! with the account's API token, accepts the challenges made to it, plays its tables
//! with an engine program (docs/engine-protocol.md; one process per table), and
//! reconnects on its own when the connection drops. See docs/bot-api.md.

mod engine;
mod session;

use std::time::Duration;

use clap::Args;

pub use session::Settings;

/// Options of `stella bot`.
#[derive(Args, Debug, Clone)]
pub struct BotArgs {
    /// The server, e.g. `https://play.example.org` (or its `ws://…/ws` address).
    #[arg(long)]
    pub url: String,
    /// The bot account's API token (POST /api/tokens).
    #[arg(long)]
    pub token: String,
    /// The engine command, run with the shell, e.g. "stella engine".
    #[arg(long)]
    pub engine: String,
    /// Games played at once; further challenges are declined.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=16))]
    pub max_games: u64,
    /// Longest think per move, in milliseconds (less when the clock is short).
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(10..=600_000))]
    pub max_think_ms: u64,
    /// Also play this many casual classic-2 games against a computer seat of
    /// `--computer-level`, one after another.
    #[arg(long, default_value_t = 0)]
    pub computer_games: u64,
    /// The level (1–8) of the computer seat of `--computer-games`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub computer_level: u8,
}

/// The WebSocket address of `url`: `http(s)://host` becomes `ws(s)://host/ws`.
pub fn ws_url(url: &str) -> String {
    let url = url.trim_end_matches('/');
    if url.starts_with("ws://") || url.starts_with("wss://") {
        return url.to_owned();
    }
    let rest = url
        .strip_prefix("https://")
        .map(|r| format!("wss://{r}"))
        .or_else(|| url.strip_prefix("http://").map(|r| format!("ws://{r}")))
        .unwrap_or_else(|| format!("ws://{url}"));
    format!("{rest}/ws")
}

/// Pause before the n-th reconnection (n from 0): 0.5 s doubling up to 15 s.
pub fn reconnect_delay(attempt: u32) -> Duration {
    Duration::from_millis((500u64 << attempt.min(5)).min(15_000))
}

/// Runs the bot until the token is refused or Ctrl-C.
pub fn run(args: BotArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let settings = Settings {
            url: ws_url(&args.url),
            token: args.token,
            engine: args.engine,
            max_games: args.max_games as usize,
            max_think: Duration::from_millis(args.max_think_ms),
            computer_games: args.computer_games,
            computer_level: args.computer_level,
        };
        tokio::select! {
            r = session::run(settings) => r,
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_become_websocket_addresses() {
        assert_eq!(ws_url("http://127.0.0.1:8080"), "ws://127.0.0.1:8080/ws");
        assert_eq!(
            ws_url("https://play.example.org/"),
            "wss://play.example.org/ws"
        );
        assert_eq!(ws_url("ws://h:1/ws"), "ws://h:1/ws");
        assert_eq!(ws_url("localhost:9"), "ws://localhost:9/ws");
    }

    #[test]
    fn reconnection_waits_grow_and_stop_growing() {
        assert_eq!(reconnect_delay(0), Duration::from_millis(500));
        assert_eq!(reconnect_delay(1), Duration::from_millis(1000));
        assert_eq!(reconnect_delay(9), Duration::from_millis(15_000));
    }
}
