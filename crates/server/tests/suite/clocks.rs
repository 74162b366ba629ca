//! Clocks with an injected time source: increments, a flag exactly at zero, and the
//! flag ending the game for both players.

use crate::common::{place_of, spawn_app_at, GuestDuel};
use serde_json::json;

#[tokio::test]
async fn flag_exactly_at_zero_with_an_injected_clock() {
    // No lag refund, so the grace is exactly zero (docs/server.md).
    let (app, time) = spawn_app_at(1_000_000, Some(|c| c.lag.max_per_move_ms = 0)).await;
    let GuestDuel {
        table,
        mut w,
        mut b,
        started,
        ..
    } = app.timed_duel(1, 2).await;
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
    assert_eq!(place_of(&ended, "white")["place"], 1);

    // A move after the flag is refused.
    b.send(json!({"t": "move", "d": {"table": table, "path": "e14-e13", "ack": 2}}))
        .await;
    b.expect_error("game_over").await;
    let stored = app.get_json(&format!("/api/games/{table}"), None).await;
    assert_eq!(stored["reason"], "timeout-black");
}

#[tokio::test]
async fn a_late_move_is_a_flag() {
    let (app, time) = spawn_app_at(5_000, Some(|c| c.lag.max_per_move_ms = 0)).await;
    let GuestDuel {
        table,
        mut w,
        b: _b,
        ..
    } = app.timed_duel(1, 0).await;
    w.event("started").await;
    // Jump straight past the deadline and move at once: whichever comes first, the
    // timer or the move, white has lost on time.
    time.advance(61_000);
    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    let ended = w.event("ended").await;
    assert_eq!(ended["d"]["reason"], "timeout-white");
}
