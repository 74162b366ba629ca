//! A client that drops its connection comes back and gets exactly what it missed; the
//! clock kept running meanwhile.

use crate::common::{spawn_app_at, GuestDuel};
use serde_json::json;

#[tokio::test]
async fn reconnect_resyncs_missed_events_and_clock_keeps_running() {
    let (app, time) = spawn_app_at(0, Some(|c| c.lag.max_per_move_ms = 0)).await;
    let GuestDuel {
        table,
        mut w,
        mut b,
        white_cookie: wc,
        black_cookie: bc,
        started,
    } = app.timed_duel(5, 0).await;
    let v_started = started["d"]["v"].as_u64().unwrap();

    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    let seen = b.event("moved").await;
    let v_seen = seen["d"]["v"].as_u64().unwrap();
    assert_eq!(v_seen, v_started + 1);

    // Watcher connection drops: white hears that black is away.
    drop(b);
    let absent = w.event("absent").await;
    assert_eq!(absent["d"]["seat"], 1);
    let v_absent = absent["d"]["v"].as_u64().unwrap();
    assert_eq!(v_absent, v_seen + 1);
    // A spectator watching all along sees the same events.
    let mut spectator = app.ws(None).await;
    spectator
        .send(json!({"t": "watch", "d": {"table": table}}))
        .await;
    let snap = spectator.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["v"], v_absent);
    assert_eq!(snap["d"]["absent"][0]["seat"], 1);

    // Black's clock runs while black is away: 30 s pass, black is still disconnected.
    time.advance(30_000);
    let mut b = app.ws(Some(&bc)).await;
    b.send(json!({"t": "watch", "d": {"table": table, "since": v_seen}}))
        .await;
    // Black missed only the news of his own absence, then is back.
    assert_eq!(b.event("absent").await["d"]["v"], v_absent);
    assert_eq!(b.event("present").await["d"]["v"], v_absent + 1);
    b.assert_alive().await;
    b.send(json!({"t": "move", "d": {"table": table, "path": "e14-e13", "ack": 2}}))
        .await;
    let moved = b.event("moved").await;
    assert_eq!(
        moved["d"]["clock"]["remaining_ms"][1], 270_000,
        "downtime of a dropped connection is charged"
    );

    // White drops, black... no: white misses two events while away.
    drop(w);
    let v_before = b.event("absent").await["d"]["v"].as_u64().unwrap();
    time.advance(1_000);
    let mut w2 = app.ws(Some(&wc)).await;
    // White plays from another connection (a second tab), then the first resyncs.
    w2.send(json!({"t": "move", "d": {"table": table, "path": "m5-m6", "ack": 3}}))
        .await;
    w2.recv_until(|m| m["t"] == "ack").await;
    b.send(json!({"t": "move", "d": {"table": table, "path": "e13-e12", "ack": 4}}))
        .await;
    b.recv_until(|m| m["t"] == "ack").await;
    let mut w3 = app.ws(Some(&wc)).await;
    w3.send(json!({"t": "watch", "d": {"table": table, "since": v_before}}))
        .await;
    let e1 = w3.recv().await;
    let e2 = w3.recv().await;
    assert_eq!(e1["d"]["v"], v_before + 1);
    assert_eq!(e1["d"]["path"], "m5-m6");
    assert_eq!(e2["d"]["v"], v_before + 2);
    assert_eq!(e2["d"]["path"], "e13-e12");
    assert_eq!(w3.event("present").await["d"]["v"], v_before + 3);

    // A reconnect without a version gets the whole table.
    let mut w4 = app.ws(Some(&wc)).await;
    w4.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = w4.recv_until(|m| m["t"] == "table").await;
    assert_eq!(
        snap["d"]["moves"],
        json!(["m4-m5", "e14-e13", "m5-m6", "e13-e12"])
    );
    assert_eq!(snap["d"]["turn"], "white");
    assert_eq!(snap["d"]["v"], v_before + 3);
    spectator
        .recv_until(|m| m["t"] == "event" && m["d"]["v"] == v_before + 3)
        .await;
}
