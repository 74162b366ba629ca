//! Clocks with an injected time source: increments, a flag exactly at zero, and the
//! flag ending the game for both players.

use std::sync::Arc;

use crate::common::{spawn_app_with, Options};
use serde_json::json;
use stella_server::ManualTime;

#[tokio::test]
async fn flag_exactly_at_zero_with_an_injected_clock() {
    let time = Arc::new(ManualTime::new(1_000_000));
    let app = spawn_app_with(Options {
        manual_time: Some(time.clone()),
        // No lag refund, so the grace is exactly zero (docs/server.md).
        config: Some(|c| c.lag.max_per_move_ms = 0),
        ..Options::default()
    })
    .await;
    let (wc, bc) = (app.guest().await, app.guest().await);
    let mut w = app.ws(Some(&wc)).await;
    let mut b = app.ws(Some(&bc)).await;
    let table = w
        .create(json!({"variant": "classic-2", "time": {"minutes": 1, "increment": 2}}))
        .await;
    b.send(json!({"t": "join", "d": {"table": table}})).await;
    let started = b.event("started").await;
    assert_eq!(
        started["d"]["clock"]["remaining_ms"],
        json!([60_000, 60_000])
    );
    assert_eq!(started["d"]["clock"]["running"], 0);

    // White thinks 10 s: 60 - 10 + 2 = 52 s left.
    time.advance(10_000);
    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    let moved = w.event("moved").await;
    assert_eq!(moved["d"]["clock"]["remaining_ms"], json!([52_000, 60_000]));
    assert_eq!(moved["d"]["clock"]["running"], 1);

    // Black at 1 ms left is still in the game...
    time.advance(59_999);
    b.assert_alive().await;
    w.assert_alive().await;
    // ...and at exactly zero has flagged, without sending anything.
    time.advance(1);
    let ended = w.event("ended").await;
    assert_eq!(ended["d"]["reason"], "timeout-black");
    let ended_b = b.event("ended").await;
    assert_eq!(ended["d"], ended_b["d"]);
    let white = ended["d"]["places"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["colour"] == "white")
        .unwrap()
        .clone();
    assert_eq!(white["place"], 1);

    // A move after the flag is refused.
    b.send(json!({"t": "move", "d": {"table": table, "path": "e14-e13", "ack": 2}}))
        .await;
    b.expect_error("game_over").await;
    let stored: serde_json::Value = app
        .get(&format!("/api/games/{table}"), None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(stored["reason"], "timeout-black");
}

#[tokio::test]
async fn a_late_move_is_a_flag() {
    let time = Arc::new(ManualTime::new(5_000));
    let app = spawn_app_with(Options {
        manual_time: Some(time.clone()),
        config: Some(|c| c.lag.max_per_move_ms = 0),
        ..Options::default()
    })
    .await;
    let (wc, bc) = (app.guest().await, app.guest().await);
    let mut w = app.ws(Some(&wc)).await;
    let mut b = app.ws(Some(&bc)).await;
    let table = w
        .create(json!({"variant": "classic-2", "time": {"minutes": 1, "increment": 0}}))
        .await;
    b.send(json!({"t": "join", "d": {"table": table}})).await;
    w.event("started").await;
    // Jump straight past the deadline and move at once: whichever comes first, the
    // timer or the move, white has lost on time.
    time.advance(61_000);
    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    let ended = w.event("ended").await;
    assert_eq!(ended["d"]["reason"], "timeout-white");
}
