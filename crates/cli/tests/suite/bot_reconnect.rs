//! `stella bot` survives a server crash: while the bot (driving `stella engine`) plays a
//! computer seat, `stella serve` is killed with SIGKILL and started again on the same
//! SQLite file and port; the bot reconnects by itself, follows its table again, the
//! game is played to its end, and the bot goes on to its next computer games (one
//! after another: each game's end lets the bot ask for the next).

use std::path::Path;
use std::time::{Duration, Instant};

use stella_test_support::free_port;

use crate::common::bot::{bot_account, computer_games, spawn_bot};
use crate::common::http::Http;
use crate::common::proc::Proc;
use crate::common::serve::{serve, tail};

/// `stella serve` on `port` with the SQLite file `db`, logging to `log` (appended).
fn serve_sqlite(port: u16, db: &Path, log: &Path) -> Proc {
    serve(port, &db.display().to_string(), &[], log)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_reconnects_after_the_server_is_killed_and_finishes_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let http = Http::local(free_port());
    let db = dir.path().join("stella.db");
    let server_log = dir.path().join("server.log");
    let mut server = serve_sqlite(http.port, &db, &server_log);
    http.wait_ready().await;

    let (_, token) = bot_account(&http).await;
    let bot_log = dir.path().join("bot.log");
    let mut bot = spawn_bot(&http, &token, 3, &bot_log);

    // Some moves into its game against the computer seat, the server dies.
    let deadline = Instant::now() + Duration::from_secs(120);
    let (id, before) = loop {
        if let Some(g) = computer_games(&http).await.first() {
            let id = g["id"].as_str().unwrap().to_owned();
            let replay = http.get_json(&format!("/api/games/{id}")).await;
            let moves = replay["moves"].as_array().map_or(0, Vec::len);
            assert_ne!(g["status"], "finished", "the game ended before the crash");
            if moves >= 12 {
                break (id, moves);
            }
        }
        assert!(
            Instant::now() < deadline,
            "no game under way; the bot's log:\n{}",
            tail(&bot_log)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    server.kill();
    let connections_before = std::fs::read_to_string(&bot_log)
        .unwrap()
        .matches("bot: connected")
        .count();

    // The server stays down long enough for the bot to fail to reconnect and wait.
    tokio::time::sleep(Duration::from_secs(2)).await;
    // Same file, same port: the game resumes and the bot comes back by itself.
    let _server = serve_sqlite(http.port, &db, &server_log);
    http.wait_ready().await;
    let deadline = Instant::now() + Duration::from_secs(300);
    let finished = loop {
        let games = computer_games(&http).await;
        if games.len() == 3 && games.iter().all(|g| g["status"] == "finished") {
            break games;
        }
        assert!(
            bot.try_wait().is_none(),
            "the bot stopped; its log:\n{}",
            tail(&bot_log)
        );
        assert!(
            Instant::now() < deadline,
            "the game did not end; the bot's log:\n{}\nthe server's log:\n{}",
            tail(&bot_log),
            tail(&server_log)
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert!(
        finished.iter().any(|g| g["id"] == id.as_str()),
        "{finished:?}"
    );
    let replay = http.get_json(&format!("/api/games/{id}")).await;
    let moves = replay["moves"].as_array().unwrap().len();
    assert!(
        moves > before + 20,
        "{before} moves before the crash, {moves} in all"
    );
    let reason = replay["reason"].as_str().unwrap_or_default().to_owned();
    assert!(
        !reason.starts_with("timeout") && !reason.starts_with("abandon") && reason != "resigned",
        "the game ended by {reason}; the bot's log:\n{}",
        tail(&bot_log)
    );
    let log = std::fs::read_to_string(&bot_log).unwrap();
    assert!(
        log.matches("bot: connected").count() > connections_before,
        "the bot never reconnected:\n{log}"
    );
    assert!(log.contains("bot: cannot connect"), "{log}");
    assert!(bot.try_wait().is_none(), "the bot keeps running");
}
