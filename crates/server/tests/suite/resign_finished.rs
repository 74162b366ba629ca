//! At a table of three, a player who is out of the game (eliminated by going home
//! after the deadline, or arrived) can no longer resign; the others still can.

use crate::common::play::next_greedy;
use crate::common::{spawn_app_for_scripts, Ws};
use serde_json::json;
use stella_engine::{Game, Variant};

/// The colours of classic-3's seats in play order.
const COLOURS: [&str; 3] = ["white", "blue", "yellow"];

/// Sends a move from the seat to move and waits until every client saw it.
async fn send_move(clients: &mut [Ws], seat: usize, table: &str, path: &str, ply: usize) {
    clients[seat]
        .send(
            json!({"t": "move", "d": {"table": table, "path": path, "ack": ply, "confirm": true}}),
        )
        .await;
    for c in clients.iter_mut() {
        let m = c
            .recv_until(|m| {
                (m["t"] == "event" && m["d"]["type"] == "moved" && m["d"]["ply"] == ply as u64)
                    || m["t"] == "error"
            })
            .await;
        assert_eq!(m["t"], "event", "move {path} refused: {m}");
    }
}

#[tokio::test]
async fn a_finished_player_cannot_resign_at_a_table_of_three() {
    let app = spawn_app_for_scripts().await;
    let (mut clients, table) = app.seated_guests("classic-3", 3).await;
    // Greedy play until one seat can step back into its home after the deadline (which
    // eliminates it) and does, or until one seat arrives.
    let mut game = Game::new(Variant::Classic3);
    let out = loop {
        assert!(!game.is_over(), "the game ended before anyone finished");
        let mover = game.turn();
        let seat = COLOURS
            .iter()
            .position(|c| *c == mover.to_string())
            .unwrap();
        let eliminating = game
            .legal_moves()
            .into_iter()
            .find(|m| game.would_eliminate(m));
        let (mv, path) = match eliminating {
            Some(mv) => {
                let path = game.position().path_of(&mv).to_string();
                (mv, path)
            }
            None => next_greedy(&game),
        };
        let ply = game.moves().len() + 1;
        send_move(&mut clients, seat, &table, &path, ply).await;
        game.play(&mv).unwrap();
        if !game.position().is_active(mover) {
            break seat;
        }
    };
    assert!(!game.is_over(), "two players are still in the game");

    clients[out]
        .send(json!({"t": "resign", "d": {"table": table}}))
        .await;
    let e = clients[out].expect_error("not_in_game").await;
    let message = e["d"]["message"].as_str().unwrap();
    assert!(message.contains("finished"), "{message}");

    // The game goes on, and a player still in it may resign.
    let other = (out + 1) % 3;
    clients[other]
        .send(json!({"t": "resign", "d": {"table": table}}))
        .await;
    let ended = clients[out].event("ended").await;
    let colour = COLOURS[other];
    assert_eq!(ended["d"]["reason"], format!("resigned-{colour}"));
}
