//! `stella bot` on the real binaries: a bot account's token drives `stella engine`
//! through `stella bot`; the bot accepts a person's challenge and plays the game to its
//! end against the person's client, plays a game against a computer seat, and once its
//! token is revoked the server refuses it and the bot stops.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use stella_engine::{Colour, Game, MovePath, Variant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const STELLA: &str = env!("CARGO_BIN_EXE_stella");

/// A child process killed when dropped.
pub(crate) struct Proc(pub(crate) Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The last lines of a log, for failure messages.
pub(crate) fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

pub(crate) fn log_file(path: &Path) -> std::fs::File {
    std::fs::File::create(path).unwrap()
}

/// An HTTP client of one server.
pub(crate) struct Http {
    pub(crate) client: reqwest::Client,
    pub(crate) base: String,
}

impl Http {
    pub(crate) async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> reqwest::Response {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(c) = cookie {
            req = req.header("cookie", c);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        req.send().await.unwrap()
    }

    pub(crate) async fn register(&self, name: &str) -> String {
        let res = self
            .send(
                reqwest::Method::POST,
                "/api/register",
                None,
                Some(json!({"username": name, "password": "correct horse"})),
            )
            .await;
        assert_eq!(res.status(), 201);
        let cookie = res.headers()["set-cookie"].to_str().unwrap();
        cookie.split(';').next().unwrap().to_owned()
    }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Ws, msg: Value) {
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
}

async fn recv(ws: &mut Ws) -> Value {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("a message within 60 s")
            .expect("open")
            .expect("a frame");
        if let Message::Text(t) = frame {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_plays_a_person_and_a_computer_seat_and_stops_when_its_token_is_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let _server = Proc(
        Command::new(STELLA)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--db"])
            .arg(dir.path().join("stella.db"))
            .stdout(Stdio::null())
            .stderr(log_file(&dir.path().join("server.log")))
            .spawn()
            .unwrap(),
    );
    let http = Http {
        client: reqwest::Client::new(),
        base: format!("http://127.0.0.1:{port}"),
    };
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

    // The bot account and its token.
    let owner = http.register("robo").await;
    assert_eq!(
        http.send(
            reqwest::Method::POST,
            "/api/bot",
            Some(&owner),
            Some(json!({}))
        )
        .await
        .status(),
        200
    );
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
            .args([
                "bot",
                "--url",
                &http.base,
                "--token",
                &token,
                "--max-think-ms",
                "30",
            ])
            .args(["--computer-games", "1", "--computer-level", "1"])
            .arg("--engine")
            .arg(format!("{STELLA} engine"))
            .stdout(Stdio::null())
            .stderr(log_file(&bot_log))
            .spawn()
            .unwrap(),
    );

    // A person challenges the bot once it is connected, and plays greedily.
    let person = http.register("pat").await;
    let mut req = format!("ws://127.0.0.1:{port}/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut().insert("cookie", person.parse().unwrap());
    let (mut p, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let table = loop {
        send(
            &mut p,
            json!({"t": "challenge", "d": {"to": "robo", "time": {"minutes": 2, "increment": 1}}}),
        )
        .await;
        let m = loop {
            let m = recv(&mut p).await;
            if ["challenge", "error", "challenge_accepted"].contains(&m["t"].as_str().unwrap_or(""))
            {
                break m;
            }
        };
        if m["t"] == "error" {
            assert_eq!(m["d"]["code"], "cannot_challenge", "{m}");
            assert!(
                Instant::now() < deadline + Duration::from_secs(30),
                "the bot never came online"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        let accepted = loop {
            let m = recv(&mut p).await;
            if m["t"] == "challenge_accepted" || m["t"] == "challenge_ended" {
                break m;
            }
        };
        assert_eq!(accepted["t"], "challenge_accepted", "{accepted}");
        break accepted["d"]["table"].as_str().unwrap().to_owned();
    };
    send(&mut p, json!({"t": "watch", "d": {"table": table}})).await;
    let snap = loop {
        let m = recv(&mut p).await;
        if m["t"] == "table" {
            break m;
        }
    };
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
            let mv =
                stella_ai::greedy::greedy_move(game.position(), game.moves().len() as u64).unwrap();
            let path = game.position().path_of(&mv).to_string();
            ack = game.moves().len() + 1;
            send(&mut p, json!({"t": "move", "d": {"table": table, "path": path, "ack": ack, "confirm": true}})).await;
        }
        let m = recv(&mut p).await;
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
        let games: Value = http
            .send(reqwest::Method::GET, "/api/users/robo/games", None, None)
            .await
            .json()
            .await
            .unwrap();
        let computer_game = games["games"].as_array().unwrap().iter().find(|g| {
            g["seats"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["player"]["kind"] == "computer")
        });
        if let Some(g) = computer_game.filter(|g| g["status"] == "finished") {
            let record: Value = http
                .send(
                    reqwest::Method::GET,
                    &format!("/api/games/{}", g["id"].as_str().unwrap()),
                    None,
                    None,
                )
                .await
                .json()
                .await
                .unwrap();
            assert!(record["moves"].as_array().unwrap().len() >= 40, "{record}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the computer game did not end: {games}; the bot's log:\n{}",
            tail(&bot_log)
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    // A table that invites bots gets the bot at its free seat.
    send(
        &mut p,
        json!({"t": "create_table", "d": {"variant": "classic-2", "bots": true}}),
    )
    .await;
    let started = loop {
        let m = recv(&mut p).await;
        if m["t"] == "error" {
            panic!("{m}");
        }
        if m["t"] == "event" && m["d"]["type"] == "started" {
            break m;
        }
    };
    let invited = started["d"]["table"].as_str().unwrap().to_owned();
    send(&mut p, json!({"t": "resign", "d": {"table": invited}})).await;
    loop {
        let m = recv(&mut p).await;
        if m["t"] == "event" && m["d"]["type"] == "ended" && m["d"]["table"] == invited.as_str() {
            break;
        }
    }

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
        if let Some(s) = bot.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the bot did not stop");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(!status.success());
    let log = std::fs::read_to_string(&bot_log).unwrap();
    assert!(log.contains("refused the token"), "{log}");
}
