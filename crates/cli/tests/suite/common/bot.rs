//! `stella bot` as a child process: a bot account with a token, and the bot driving
//! `stella engine` with it.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use super::http::Http;
use super::proc::Proc;
use super::STELLA;

/// The name of the bot account.
pub const BOT: &str = "robo";

/// Registers the bot account [`BOT`] on the server of `http` and makes a token of it:
/// (the owner's session cookie, the token).
pub async fn bot_account(http: &Http) -> (String, String) {
    let owner = http.register(BOT).await;
    let res = http
        .send(
            reqwest::Method::POST,
            "/api/bot",
            Some(&owner),
            Some(json!({})),
        )
        .await;
    assert_eq!(res.status(), 200, "the account becomes a bot");
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
    let token = made["token"].as_str().expect("a token").to_owned();
    (owner, token)
}

/// `stella bot` on the server of `http` with `token`, driving `stella engine` for at
/// most 30 ms a move and asking for `computer_games` games against a level-1 computer
/// seat, its log written to `log`.
pub fn spawn_bot(http: &Http, token: &str, computer_games: u32, log: &Path) -> Proc {
    Proc::spawn(
        Command::new(STELLA)
            .args(["bot", "--url", &http.base, "--token", token])
            .args(["--max-think-ms", "30"])
            .args(["--computer-games", &computer_games.to_string()])
            .args(["--computer-level", "1"])
            .arg("--engine")
            .arg(format!("{STELLA} engine"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).expect("bot log")),
        "stella bot",
    )
}

/// The bot's games against a computer seat, as its games list shows them.
pub async fn computer_games(http: &Http) -> Vec<Value> {
    let games = http.get_json(&format!("/api/users/{BOT}/games")).await;
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
