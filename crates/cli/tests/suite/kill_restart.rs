//! Fault test on the real binaries: `stella serve` is killed with SIGKILL while games
//! are being played by `stella-lab loadtest`, restarted on the same SQLite file and port;
//! the simulated players reconnect on their own and resync. Then every move the server
//! acknowledged must be in its replay of the game, and every game must have gone on
//! after the restart.
//!
//! The default test plays 100 games (200 clients) and runs in about a minute on two
//! cores; `KILL_RESTART_GAMES=N` changes the count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use stella_test_support::free_port;

use crate::common::http::Http;
use crate::common::proc::Proc;
use crate::common::serve::serve;
use crate::common::STELLA;

/// The `stella-lab` binary, built beside `stella` by `cargo test --workspace`
/// (or `cargo build -p stella-lab`).
fn lab_binary() -> PathBuf {
    let lab =
        Path::new(STELLA).with_file_name(format!("stella-lab{}", std::env::consts::EXE_SUFFIX));
    assert!(
        lab.exists(),
        "{} is missing: build it first (cargo build -p stella-lab)",
        lab.display()
    );
    lab
}

/// `stella serve` on `port` with the SQLite file `db`, logging to `log` (appended).
fn serve_sqlite(port: u16, db: &Path, log: &Path) -> Proc {
    serve(port, &format!("sqlite://{}", db.display()), &[], log)
}

/// Connection-level errors expected when the server dies under the clients.
fn expected_error(kind: &str) -> bool {
    kind.starts_with("ws:") || kind == "move:unanswered_at_disconnect"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_play_loses_no_acknowledged_move_and_games_go_on() {
    let games: usize = std::env::var("KILL_RESTART_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("stella.db");
    let server_log = dir.path().join("server.log");
    let report: PathBuf = dir.path().join("report.json");
    let http = Http::local(free_port());
    let port = http.port;

    let mut server = serve_sqlite(port, &db, &server_log);
    http.wait_ready().await;

    // Players: a move every ~150 ms per game, clients started over 3 s; the run lasts
    // long enough for play before the kill and well after the restart.
    let duration = 24;
    let mut load = Proc::spawn(
        Command::new(lab_binary())
            .args([
                "loadtest",
                "--url",
                &format!("http://127.0.0.1:{port}"),
                "--clients",
                &(2 * games).to_string(),
                "--duration",
                &duration.to_string(),
                "--think-ms",
                "150",
                "--ramp",
                "3",
                "--time",
                "30+10",
                "--report-json",
                report.to_str().unwrap(),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
        "stella-lab loadtest",
    );

    // Let every game get going, then kill the server outright (SIGKILL).
    tokio::time::sleep(Duration::from_secs(8)).await;
    let lobby = http.get_json("/api/tables").await;
    let live_before = lobby["tables"]
        .as_array()
        .map_or(0, |t| t.iter().filter(|t| t["status"] == "live").count());
    server.kill();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let server = serve_sqlite(port, &db, &server_log);
    http.wait_ready().await;

    // The load test stops by itself at its deadline.
    let child = load.take();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .unwrap()
        .expect("loadtest output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}");
    assert!(out.status.success(), "loadtest failed:\n{stdout}");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report written"))
            .expect("report JSON");

    assert!(
        live_before >= games * 9 / 10,
        "only {live_before} of {games} games were live at the kill"
    );
    let errors = summary["errors"].as_object().unwrap();
    let unexpected: BTreeMap<_, _> = errors.iter().filter(|(k, _)| !expected_error(k)).collect();
    assert!(unexpected.is_empty(), "unexpected errors: {unexpected:?}");
    assert!(
        summary["reconnects"].as_u64().unwrap() >= (2 * games) as u64,
        "every client reconnects: {}",
        summary["reconnects"]
    );

    // Every acknowledged move is in the server's replay, at its ply.
    let logs = summary["games"].as_array().unwrap();
    let tables: BTreeSet<&str> = logs.iter().filter_map(|g| g["table"].as_str()).collect();
    let mut acked_total = 0;
    let mut interrupted = BTreeSet::new();
    for id in &tables {
        let replay = http.get_json(&format!("/api/games/{id}")).await;
        let stored: Vec<&str> = replay["moves"]
            .as_array()
            .unwrap_or_else(|| panic!("no moves in replay of {id}: {replay}"))
            .iter()
            .map(|m| m["path"].as_str().unwrap())
            .collect();
        for log in logs.iter().filter(|g| g["table"] == *id) {
            for a in log["acked"].as_array().unwrap() {
                let ply = a[0].as_u64().unwrap() as usize;
                let path = a[1].as_str().unwrap();
                assert_eq!(
                    stored.get(ply - 1).copied(),
                    Some(path),
                    "table {id}: acknowledged move {ply} {path} is not stored"
                );
                acked_total += 1;
            }
            // A game the server died under went on after the restart: more moves
            // were played after the client's resync, or it ended.
            if log["disconnects"].as_u64().unwrap() > 0 {
                interrupted.insert(*id);
                let at = log["ply_at_resync"].as_u64().expect("resynced");
                let last = log["last_ply"].as_u64().unwrap();
                assert!(
                    last > at || log["ended"] == true,
                    "table {id} did not go on after the restart (ply {at}, {log})"
                );
                assert!(
                    stored.len() as u64 >= last,
                    "table {id}: the client saw {last} plies, the server stored {}",
                    stored.len()
                );
            }
        }
    }
    eprintln!(
        "{} tables, {} interrupted by the kill, {} acknowledged moves checked, {} live at the kill",
        tables.len(),
        interrupted.len(),
        acked_total,
        live_before
    );
    assert!(
        interrupted.len() >= games * 9 / 10,
        "only {} games were interrupted by the kill",
        interrupted.len()
    );
    drop(server);
}
