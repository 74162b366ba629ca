//! Logging setup for the binary.

/// Logs to stderr, filtered by `RUST_LOG` (default `info`): human-readable lines, or
/// one JSON object per line when `json` is set. Request bodies, passwords and session
/// tokens are never logged.
pub fn init(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().flatten_event(true).try_init()
    } else {
        builder.try_init()
    };
}
