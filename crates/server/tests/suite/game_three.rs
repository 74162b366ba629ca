//! A classic-3 table where one resignation ends the game for everyone.

use crate::common;

use crate::common::play::{next_greedy, play};
use crate::common::spawn_app_for_scripts;
use serde_json::json;
use stella_engine::{Game, Variant};

#[tokio::test]
async fn classic_three_resignation_ends_the_game_for_all() {
    let app = spawn_app_for_scripts().await;
    let (mut clients, table) = app.seated_guests("classic-3", 3).await;
    // Seats: 0 white, 1 blue, 2 yellow. Play one round.
    let mut game = Game::new(Variant::Classic3);
    for seat in 0..3 {
        let (mv, path) = next_greedy(&game);
        let (left, rest) = clients.split_at_mut(seat);
        let (mover, right) = rest.split_first_mut().unwrap();
        let mut others: Vec<&mut common::Ws> = left.iter_mut().chain(right.iter_mut()).collect();
        play(mover, &mut others, &table, &path, seat + 1, seat as u64 + 1).await;
        game.play(&mv).unwrap();
    }
    // Blue resigns, out of turn: resigning needs no turn.
    clients[1]
        .send(json!({"t": "resign", "d": {"table": table}}))
        .await;
    let mut results = Vec::new();
    for c in clients.iter_mut() {
        results.push(c.event("ended").await["d"].clone());
    }
    assert!(results.iter().all(|r| r == &results[0]));
    assert_eq!(results[0]["reason"], "resigned-blue");
    let places = results[0]["places"].as_array().unwrap();
    let blue = places.iter().find(|p| p["colour"] == "blue").unwrap();
    assert_eq!(blue["place"], 3, "whoever resigns is last");
    assert!(
        places.iter().all(|p| p["rating_after"].is_null()),
        "casual game"
    );

    // The game is over for everyone.
    clients[0]
        .send(json!({"t": "move", "d": {"table": table, "path": "m3-m4", "ack": 9}}))
        .await;
    let e = clients[0].expect_error("game_over").await;
    assert_eq!(e["d"]["ack"], 9);
    let stored = app.get_json(&format!("/api/games/{table}"), None).await;
    assert_eq!(stored["status"], "finished");
    assert_eq!(stored["reason"], "resigned-blue");
}
