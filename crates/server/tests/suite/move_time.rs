//! Untimed tables have a time per move: when it passes, the seat to move has flagged
//! (with an injected clock).

use crate::common::spawn_app_at;
use serde_json::json;

#[tokio::test]
async fn an_untimed_table_flags_the_idle_seat_after_its_time_per_move() {
    let (app, time) = spawn_app_at(1_000_000, None).await;
    let (wc, bc) = (app.guest().await, app.guest().await);
    let mut w = app.ws(Some(&wc)).await;
    let mut b = app.ws(Some(&bc)).await;

    w.send(json!({"t": "create_table", "d": {"variant": "classic-2", "move_time": 42}}))
        .await;
    let e = w.expect_error("bad_time_control").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("300"));

    let table = w
        .create(json!({"variant": "classic-2", "move_time": 300}))
        .await;
    let snap = w.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["move_time"], 300);
    b.send(json!({"t": "join", "d": {"table": table}})).await;
    let started = b.event("started").await;
    assert!(started["d"]["clock"].is_null(), "untimed");
    assert_eq!(started["d"]["move_deadline"], 1_300_000);

    // White moves after 4 minutes; black then has 5 minutes from that move.
    time.advance(240_000);
    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    let moved = w.event("moved").await;
    assert_eq!(moved["d"]["move_deadline"], 1_540_000);
    time.advance(299_999);
    b.assert_alive().await;
    time.advance(1);
    let ended = w.event("ended").await;
    assert_eq!(ended["d"]["reason"], "timeout-black");
    assert_eq!(b.event("ended").await["d"], ended["d"]);
}
