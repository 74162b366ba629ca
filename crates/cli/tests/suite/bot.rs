//! `stella bot` on the real binaries: a bot account's token drives `stella engine`
//! through `stella bot`; the bot accepts a person's challenge and plays the game to its
//! end against the person's client, plays a game against a computer seat, and once its
//! token is revoked the server refuses it and the bot stops.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use stella_engine::{Colour, Game, MovePath, Variant};
use stella_test_support::free_port;

use crate::common::bot::{bot_account, computer_games, spawn_bot, BOT};
use crate::common::greedy;
use crate::common::http::Http;
use crate::common::serve::{serve, tail};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_plays_a_person_and_a_computer_seat_and_stops_when_its_token_is_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let http = Http::local(free_port());
    let db = dir.path().join("stella.db");
    let _server = serve(
        http.port,
        &db.display().to_string(),
        &[],
        &dir.path().join("server.log"),
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    http.wait_ready().await;

    // The bot account and its token.
    let (owner, token) = bot_account(&http).await;
    let bot_log = dir.path().join("bot.log");
    let mut bot = spawn_bot(&http, &token, 1, &bot_log);

    // A person challenges the bot once it is connected, and plays greedily.
    let person = http.register("pat").await;
    let mut p = http.ws(&person).await;
    let table = loop {
        p.send(json!({"t": "challenge", "d": {"to": BOT, "time": {"minutes": 2, "increment": 1}}}))
            .await;
        let m = p
            .recv_until(|m| {
                ["challenge", "error", "challenge_accepted"]
                    .contains(&m["t"].as_str().unwrap_or(""))
            })
            .await;
        if m["t"] == "error" {
            assert_eq!(m["d"]["code"], "cannot_challenge", "{m}");
            assert!(
                Instant::now() < deadline + Duration::from_secs(30),
                "the bot never came online"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        let accepted = p
            .recv_until(|m| m["t"] == "challenge_accepted" || m["t"] == "challenge_ended")
            .await;
        assert_eq!(accepted["t"], "challenge_accepted", "{accepted}");
        break accepted["d"]["table"].as_str().unwrap().to_owned();
    };
    p.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = p.recv_until(|m| m["t"] == "table").await;
    let mine: Colour = snap["d"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"]["name"] == "pat")
        .unwrap()["colour"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let mut game = Game::new(Variant::Classic2);
    let mut ack = 0;
    let ended = loop {
        if !game.is_over() && game.turn() == mine && game.moves().len() == ack {
            let (_, path) = greedy(&game);
            ack = game.moves().len() + 1;
            p.send(json!({"t": "move", "d": {"table": table, "path": path, "ack": ack, "confirm": true}}))
                .await;
        }
        let m = p.recv().await;
        match (m["t"].as_str(), m["d"]["type"].as_str()) {
            (Some("event"), Some("moved")) => {
                let path: MovePath = m["d"]["path"].as_str().unwrap().parse().unwrap();
                game.play_path(&path).expect("the server's moves are legal");
                if game.turn() == mine {
                    ack = game.moves().len();
                }
            }
            (Some("event"), Some("ended")) => break m,
            (Some("error"), _) => panic!("the person's move was refused: {m}"),
            _ => {}
        }
    };
    let bot_moves = game.moves().len() / 2;
    assert!(bot_moves >= 20, "the bot moved {bot_moves} times");
    let reason = ended["d"]["reason"].as_str().unwrap();
    assert!(
        !reason.starts_with("timeout") && !reason.starts_with("abandoned"),
        "{reason}; the bot's log:\n{}",
        tail(&bot_log)
    );

    // Its game against the computer seat also ends.
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let games = computer_games(&http).await;
        if let Some(g) = games.first().filter(|g| g["status"] == "finished") {
            let record = http
                .get_json(&format!("/api/games/{}", g["id"].as_str().unwrap()))
                .await;
            assert!(record["moves"].as_array().unwrap().len() >= 40, "{record}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the computer game did not end: {games:?}; the bot's log:\n{}",
            tail(&bot_log)
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    // A table that invites bots gets the bot at its free seat.
    // The bot may sit before the creator's snapshot is taken: then the snapshot
    // shows the game live and no `started` event follows.
    p.send(json!({"t": "create_table", "d": {"variant": "classic-2", "bots": true}}))
        .await;
    let start = p
        .recv_until(|m| {
            m["t"] == "error"
                || (m["t"] == "table" && m["d"]["status"] == "live")
                || (m["t"] == "event" && m["d"]["type"] == "started")
        })
        .await;
    assert_ne!(
        start["t"], "error",
        "creating the table was refused: {start}"
    );
    let invited = if start["t"] == "table" {
        &start["d"]["id"]
    } else {
        &start["d"]["table"]
    };
    let invited = invited.as_str().unwrap().to_owned();
    p.send(json!({"t": "resign", "d": {"table": invited}}))
        .await;
    let ended = p
        .recv_until(|m| {
            m["t"] == "error"
                || (m["t"] == "event"
                    && m["d"]["type"] == "ended"
                    && m["d"]["table"] == invited.as_str())
        })
        .await;
    assert_eq!(ended["t"], "event", "the resignation was refused: {ended}");

    // Revoking the token ends the bot's connection; it is refused and stops.
    let tokens: Value = http
        .send(reqwest::Method::GET, "/api/tokens", Some(&owner), None)
        .await
        .json()
        .await
        .unwrap();
    let id = tokens["tokens"][0]["id"].as_str().unwrap();
    assert_eq!(
        http.send(
            reqwest::Method::DELETE,
            &format!("/api/tokens/{id}"),
            Some(&owner),
            None
        )
        .await
        .status(),
        204
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = bot.try_wait() {
            break s;
        }
        assert!(Instant::now() < deadline, "the bot did not stop");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(!status.success());
    let log = std::fs::read_to_string(&bot_log).unwrap();
    assert!(log.contains("refused the token"), "{log}");
}
