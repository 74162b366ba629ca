//! Logging setup for the binary.

/// Logs to stderr, filtered by `RUST_LOG` (default `info`). Request bodies, passwords
/// and session tokens are never logged.
pub fn init() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
