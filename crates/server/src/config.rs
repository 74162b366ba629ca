//! Server configuration.

use std::time::Duration;

use crate::storage::WriterConfig;
use crate::table::LagPolicy;

/// Everything `stella serve` can set, with working defaults.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on; port 0 picks a free port (tests).
    pub listen: String,
    /// Database URL: an SQLite path or `sqlite:` URL, or a `postgres://` URL.
    pub database_url: String,
    /// The message bus of a cluster (`redis://HOST:PORT`); none runs a single node.
    pub bus_url: Option<String>,
    /// Mark the session cookie `Secure` (set when served behind TLS).
    pub secure_cookies: bool,
    /// The origin browsers reach the server at, e.g. `https://play.example.org`; the
    /// Origin check compares against it. None derives it from the bound address
    /// (`http://127.0.0.1:PORT`, also `http://localhost:PORT` on loopback).
    pub public_url: Option<String>,
    /// Origins allowed besides the public one, e.g. a development server's.
    pub allowed_origins: Vec<String>,
    /// Reverse proxies whose `X-Forwarded-For` names the client address for the limits.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Login, registration and guest attempts an address may make at once.
    pub auth_burst: u32,
    /// Attempts an address regains per minute.
    pub auth_per_minute: u32,
    /// WebSocket messages a connection may send at once.
    pub ws_burst: u32,
    /// WebSocket messages a connection regains per second.
    pub ws_per_second: u32,
    /// Largest HTTP request body, in bytes.
    pub max_body_bytes: usize,
    /// Lag compensation rules of the clocks.
    pub lag: LagPolicy,
    /// How long a finished table keeps answering before its task ends.
    pub finished_table_linger: Duration,
    /// Password hashes (argon2, 19 MiB each) that may run at once.
    pub hash_concurrency: usize,
    /// Password checks that may wait for a free hashing slot; beyond, `503`.
    pub hash_queue: usize,
    /// How long a password check waits for a free slot before `503`.
    pub hash_wait: Duration,
    /// Failed logins in a row an account may have before each further attempt waits.
    pub login_free_failures: u32,
    /// The longest wait between login attempts for one account (the wait doubles
    /// from one second with each failure).
    pub login_max_delay: Duration,
    /// Open tables one user may hold (created or seated at).
    pub max_open_tables: usize,
    /// Open or live tables with computer seats one user may have created.
    pub max_computer_tables: usize,
    /// Computer searches running at once on the whole server.
    pub max_searches: usize,
    /// An open table whose seats do not change for this long closes.
    pub open_table_idle: Duration,
    /// Outgoing messages a connection may have waiting before it counts as slow.
    pub slow_client_queue: usize,
    /// How long a connection may stay slow before it is closed.
    pub slow_client_after: Duration,
    /// How long a player of a 2-player game may be away before the opponent may
    /// claim the win.
    pub abandon_after: Duration,
    /// How moves are batched into database transactions.
    pub group_commit: WriterConfig,
    /// The puzzle file served (written by `stella puzzles`); none serves the set built
    /// into the web client.
    pub puzzles: Option<std::path::PathBuf>,
    /// Background reviews of finished games: workers and node budget per game.
    pub reviews: crate::review::ReviewSettings,
}

/// The default bound on computer searches: every core but one, so the server keeps a
/// core for its connections (at least one).
pub fn default_max_searches() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().saturating_sub(1))
        .unwrap_or(1)
        .max(1)
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".into(),
            database_url: "stella.db".into(),
            bus_url: None,
            secure_cookies: false,
            public_url: None,
            allowed_origins: Vec::new(),
            trusted_proxies: Vec::new(),
            auth_burst: 10,
            auth_per_minute: 10,
            ws_burst: 40,
            ws_per_second: 20,
            max_body_bytes: 16 * 1024,
            lag: LagPolicy::default(),
            finished_table_linger: Duration::from_secs(600),
            hash_concurrency: 2,
            hash_queue: 16,
            hash_wait: Duration::from_secs(3),
            login_free_failures: 5,
            login_max_delay: Duration::from_secs(15 * 60),
            max_open_tables: 5,
            max_computer_tables: 2,
            max_searches: default_max_searches(),
            open_table_idle: Duration::from_secs(15 * 60),
            slow_client_queue: 64,
            slow_client_after: Duration::from_secs(10),
            abandon_after: Duration::from_secs(60),
            group_commit: WriterConfig::default(),
            puzzles: None,
            reviews: crate::review::ReviewSettings::default(),
        }
    }
}

/// The origin (`scheme://host[:port]`) of a URL: no path, no trailing slash.
pub fn origin_of(url: &str) -> String {
    let url = url.trim();
    match url.find("://") {
        Some(i) => {
            let rest = &url[i + 3..];
            let host = rest.split(['/', '?', '#']).next().unwrap_or("");
            format!(
                "{}://{}",
                url[..i].to_ascii_lowercase(),
                host.to_ascii_lowercase()
            )
        }
        None => url.trim_end_matches('/').to_ascii_lowercase(),
    }
}

/// The origins the server itself is reached at: the configured public URL's, or
/// those derived from the bound address (on a loopback or unspecified address, both
/// `127.0.0.1` and `localhost`).
pub fn public_origins(public_url: Option<&str>, bound: std::net::SocketAddr) -> Vec<String> {
    if let Some(url) = public_url {
        return vec![origin_of(url)];
    }
    let port = bound.port();
    let ip = bound.ip();
    if ip.is_loopback() || ip.is_unspecified() {
        vec![
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
            format!("http://[::1]:{port}"),
        ]
    } else {
        vec![format!("http://{bound}")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_from_urls_and_addresses() {
        assert_eq!(
            origin_of("https://Play.Example.org/lobby?x"),
            "https://play.example.org"
        );
        assert_eq!(origin_of("http://h:8080/"), "http://h:8080");
        assert_eq!(
            public_origins(
                Some("https://play.example.org/"),
                "0.0.0.0:80".parse().unwrap()
            ),
            vec!["https://play.example.org"]
        );
        let local = public_origins(None, "127.0.0.1:8080".parse().unwrap());
        assert!(local.contains(&"http://localhost:8080".to_owned()));
        assert_eq!(
            public_origins(None, "192.0.2.7:9000".parse().unwrap()),
            vec!["http://192.0.2.7:9000"]
        );
    }
}
