//! Driving games from tests with the engine and the greedy player.
#![allow(dead_code, missing_docs)]

use serde_json::{json, Value};
use stella_engine::{Game, Move};

use super::Ws;

/// Sends `path` from `mover` and waits until the mover has its ack and every client in
/// `others` has seen the `moved` event of `ply`. Returns the mover's moved event, and
/// the `ended` event if the mover saw it on the way.
pub async fn play(
    mover: &mut Ws,
    others: &mut [&mut Ws],
    table: &str,
    path: &str,
    ply: usize,
    ack: u64,
) -> (Value, Option<Value>) {
    mover
        .send(json!({"t": "move", "d": {"table": table, "path": path, "ack": ack}}))
        .await;
    let mut acked = false;
    let mut moved = None;
    let mut ended = None;
    while !(acked && moved.is_some()) {
        let m = mover.recv().await;
        match m["t"].as_str() {
            Some("ack") if m["d"]["ack"] == ack => acked = true,
            Some("event") if m["d"]["type"] == "moved" && m["d"]["ply"] == ply as u64 => {
                moved = Some(m)
            }
            Some("event") if m["d"]["type"] == "ended" => ended = Some(m),
            Some("error") => panic!("move {path} refused: {m}"),
            _ => {}
        }
    }
    for o in others.iter_mut() {
        o.recv_until(|m| {
            m["t"] == "event" && m["d"]["type"] == "moved" && m["d"]["ply"] == ply as u64
        })
        .await;
    }
    (moved.expect("moved event"), ended)
}

/// The greedy move of the player to move, with its canonical path.
pub fn next_greedy(game: &Game) -> (Move, String) {
    let mv = stella_ai::greedy::greedy_move(game.position(), game.moves().len() as u64)
        .expect("a legal move");
    let path = game.position().path_of(&mv).to_string();
    (mv, path)
}
