//! `stella serve` as a child process on a free loopback port, and its log.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use super::proc::Proc;
use super::STELLA;

/// The ports [`free_port`] hands out: below Linux's default ephemeral range
/// (32768–60999), from which the kernel picks the source port of every
/// outgoing connection and the port of every `bind` to port 0.
const LISTEN_PORTS: std::ops::Range<u16> = 20_000..32_700;

/// A loopback port free at the time of asking, outside the ephemeral
/// range: the tests stop servers and start them again on the same port,
/// and while one is down a client reconnecting to it, or a listener of
/// another test, could otherwise be given that very port and keep the
/// server from coming back. Each call takes the next port of a walk
/// through [`LISTEN_PORTS`] that starts at a place set by the process id,
/// so that test processes running side by side take different ports.
pub fn free_port() -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(u32::MAX);
    let span = u32::from(LISTEN_PORTS.end - LISTEN_PORTS.start);
    let _ = NEXT.compare_exchange(
        u32::MAX,
        std::process::id().wrapping_mul(2_654_435_761) % span,
        Ordering::Relaxed,
        Ordering::Relaxed,
    );
    for _ in 0..span {
        let k = NEXT.fetch_add(1, Ordering::Relaxed) % span;
        let port = LISTEN_PORTS.start + k as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port in {LISTEN_PORTS:?}");
}

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
