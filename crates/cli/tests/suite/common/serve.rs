//! `stella serve` as a child process on a free loopback port, and its log.

use std::path::Path;
use std::process::{Command, Stdio};

use super::proc::Proc;
use super::STELLA;

/// `stella serve` listening on `port` with the database `db` and `extra` arguments,
/// its warnings appended to `log`.
pub fn serve(port: u16, db: &str, extra: &[&str], log: &Path) -> Proc {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .expect("server log");
    Proc::spawn(
        Command::new(STELLA)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .args(["--db", db])
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(log),
        "stella serve",
    )
}

/// The last 30 lines of a log, for failure messages.
pub fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}
