//! What the CLI integration tests share: running the `stella` binary, servers and bots
//! as child processes, their HTTP and WebSocket clients, and clusters of servers.
#![allow(dead_code)]

pub mod bot;
pub mod cluster;
pub mod http;
pub mod proc;
pub mod serve;
pub mod ws;

use std::process::Command;

/// The `stella` binary under test.
pub const STELLA: &str = env!("CARGO_BIN_EXE_stella");

/// Runs `stella ARGS…` and returns (success, stdout, stderr).
pub fn stella(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(STELLA)
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The greedy move of the player to move in `game`, with its canonical path.
pub fn greedy(game: &stella_engine::Game) -> (stella_engine::Move, String) {
    let mv = stella_ai::greedy::greedy_move(game.position(), game.moves().len() as u64)
        .expect("a legal move");
    let path = game.position().path_of(&mv).to_string();
    (mv, path)
}
