//! Server configuration.

use std::time::Duration;

use crate::table::LagPolicy;

/// Everything `stella serve` can set, with working defaults.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on; port 0 picks a free port (tests).
    pub listen: String,
    /// Database URL: an SQLite path or `sqlite:` URL, or a `postgres://` URL.
    pub database_url: String,
    /// Mark the session cookie `Secure` (set when served behind TLS).
    pub secure_cookies: bool,
    /// Origins allowed besides the server's own, e.g. `https://play.example.org`.
    pub allowed_origins: Vec<String>,
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".into(),
            database_url: "stella.db".into(),
            secure_cookies: false,
            allowed_origins: Vec::new(),
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
        }
    }
}
