//! `stella bot` survives a server crash: while the bot (driving `stella engine`) plays a
//! computer seat, `stella serve` is killed with SIGKILL and started again on the same
//! SQLite file and port; the bot reconnects by itself, follows its table again, the
//! game is played to its end, and the bot goes on to its next computer games (one
//! after another: each game's end lets the bot ask for the next).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::bot::{free_port, log_file, tail, Http, Proc};

const STELLA: &str = env!("CARGO_BIN_EXE_stella");

/// `stella serve` on `port` with the database `db`, logging to `log` (appended).
fn serve(port: u16, db: &Path, log: &Path) -> Proc {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .unwrap();
    Proc(
        Command::new(STELLA)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--db"])
            .arg(db)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    )
}

async fn wait_ready(http: &Http) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !http
        .client
        .get(format!("{}/healthz", http.base))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        assert!(Instant::now() < deadline, "server not ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn get(http: &Http, path: &str) -> Value {
    http.send(reqwest::Method::GET, path, None, None)
        .await
        .json()
        .await
        .unwrap_or(Value::Null)
}

/// The bot's games against a computer seat.
async fn computer_games(http: &Http) -> Vec<Value> {
    let games = get(http, "/api/users/robo/games").await;
    games["games"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|g| {
            g["seats"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["player"]["kind"] == "computer"))
        })
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_reconnects_after_the_server_is_killed_and_finishes_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let db = dir.path().join("stella.db");
    let server_log = dir.path().join("server.log");
    let mut server = serve(port, &db, &server_log);
    let http = Http {
        client: reqwest::Client::new(),
        base: format!("http://127.0.0.1:{port}"),
    };
    wait_ready(&http).await;

    let owner = http.register("robo").await;
    let res = http
        .send(
            reqwest::Method::POST,
            "/api/bot",
            Some(&owner),
            Some(json!({})),
        )
        .await;
    assert_eq!(res.status(), 200);
    let made: Value = http
        .send(
            reqwest::Method::POST,
            "/api/tokens",
            Some(&owner),
            Some(json!({"label": "stella engine"})),
        )
        .await
        .json()
        .await
        .unwrap();
    let token = made["token"].as_str().unwrap().to_owned();
    let bot_log = dir.path().join("bot.log");
    let mut bot = Proc(
        Command::new(STELLA)
            .args(["bot", "--url", &http.base, "--token", &token])
            .args([
                "--max-think-ms",
                "30",
                "--computer-games",
                "3",
                "--computer-level",
                "1",
            ])
            .arg("--engine")
            .arg(format!("{STELLA} engine"))
            .stdout(Stdio::null())
            .stderr(log_file(&bot_log))
            .spawn()
            .unwrap(),
    );

    // Some moves into its game against the computer seat, the server dies.
    let deadline = Instant::now() + Duration::from_secs(120);
    let (id, before) = loop {
        if let Some(g) = computer_games(&http).await.first() {
            let id = g["id"].as_str().unwrap().to_owned();
            let replay = get(&http, &format!("/api/games/{id}")).await;
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
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let connections_before = std::fs::read_to_string(&bot_log)
        .unwrap()
        .matches("bot: connected")
        .count();

    // The server stays down long enough for the bot to fail to reconnect and wait.
    tokio::time::sleep(Duration::from_secs(2)).await;
    // Same file, same port: the game resumes and the bot comes back by itself.
    let _server = serve(port, &db, &server_log);
    wait_ready(&http).await;
    let deadline = Instant::now() + Duration::from_secs(300);
    let finished = loop {
        let games = computer_games(&http).await;
        if games.len() == 3 && games.iter().all(|g| g["status"] == "finished") {
            break games;
        }
        assert!(
            bot.0.try_wait().unwrap().is_none(),
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
    let replay = get(&http, &format!("/api/games/{id}")).await;
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
    assert!(bot.0.try_wait().unwrap().is_none(), "the bot keeps running");
}
