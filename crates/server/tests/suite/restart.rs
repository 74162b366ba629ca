//! A restarted server resumes live games where they stood, without charging the
//! downtime to any clock, and keeping each table's settings (invitation, time per move).

use std::sync::Arc;

use crate::common::{spawn_app_with, Options};
use serde_json::json;
use stella_server::ManualTime;

#[tokio::test]
async fn restart_resumes_live_games_without_charging_downtime() {
    let time = Arc::new(ManualTime::new(1_000_000));
    let opts = |database_url| Options {
        manual_time: Some(time.clone()),
        database_url,
        config: Some(|c| c.lag.max_per_move_ms = 0),
        ..Options::default()
    };
    let app = spawn_app_with(opts(None)).await;
    let database_url = app.database_url.clone();
    let (wc, bc) = (app.register("wanda").await, app.register("bert").await);
    let mut w = app.ws(Some(&wc)).await;
    let mut b = app.ws(Some(&bc)).await;
    let table = w
        .create(
            json!({"variant": "classic-2", "rated": true, "time": {"minutes": 3, "increment": 2}}),
        )
        .await;
    b.send(json!({"t": "join", "d": {"table": table}})).await;
    b.event("started").await;
    time.advance(4_000);
    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    w.recv_until(|m| m["t"] == "ack").await;
    time.advance(7_000);
    b.send(json!({"t": "move", "d": {"table": table, "path": "e14-e13", "ack": 1}}))
        .await;
    b.recv_until(|m| m["t"] == "ack").await;
    time.advance(3_000); // white has thought 3 s when the server stops
    let moved = w.event("moved").await;
    let moved = if moved["d"]["ply"] == 2 {
        moved
    } else {
        w.event("moved").await
    };
    let v = moved["d"]["v"].as_u64().unwrap();
    drop((w, b));

    let dir = app.stop().await;
    time.advance(3_600_000); // an hour of downtime
    let app = spawn_app_with(Options {
        dir: Some(dir),
        ..opts(Some(database_url))
    })
    .await;

    let mut w = app.ws(Some(&wc)).await;
    w.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = w.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["status"], "live");
    assert_eq!(snap["d"]["moves"], json!(["m4-m5", "e14-e13"]));
    assert_eq!(snap["d"]["turn"], "white");
    assert_eq!(snap["d"]["v"], v, "event versions survive the restart");
    // 180 - 4 + 2 = 178 s for white, 180 - 7 + 2 = 175 s for black; neither the hour
    // nor the 3 s before the stop were charged.
    assert_eq!(
        snap["d"]["clock"]["remaining_ms"],
        json!([178_000, 175_000])
    );
    assert_eq!(snap["d"]["clock"]["running"], 0);

    // The game goes on.
    let mut b = app.ws(Some(&bc)).await;
    b.send(json!({"t": "watch", "d": {"table": table, "since": v}}))
        .await;
    b.assert_alive().await;
    time.advance(1_000);
    w.send(json!({"t": "move", "d": {"table": table, "path": "m5-m6", "ack": 2}}))
        .await;
    w.recv_until(|m| m["t"] == "ack").await;
    let moved = b.event("moved").await;
    assert_eq!(moved["d"]["v"], v + 1);
    assert_eq!(
        moved["d"]["clock"]["remaining_ms"],
        json!([179_000, 175_000])
    );
    // The lobby lists it as live.
    let lobby = app.get_json("/api/tables", None).await;
    assert_eq!(lobby["tables"][0]["id"], table.as_str());
    assert_eq!(lobby["tables"][0]["status"], "live");
}

#[tokio::test]
async fn a_resumed_private_untimed_table_keeps_its_invitation_and_move_deadline() {
    let time = Arc::new(ManualTime::new(1_000_000));
    let opts = |database_url| Options {
        manual_time: Some(time.clone()),
        database_url,
        ..Options::default()
    };
    let app = spawn_app_with(opts(None)).await;
    let database_url = app.database_url.clone();
    let (wc, bc) = (app.register("wanda").await, app.register("bert").await);
    let stranger = app.register("sid").await;
    let mut w = app.ws(Some(&wc)).await;
    let mut b = app.ws(Some(&bc)).await;
    w.send(json!({"t": "create_table", "d": {"variant": "classic-2", "private": true, "move_time": 300}}))
        .await;
    let created = w.recv_until(|m| m["t"] == "table_created").await;
    let table = created["d"]["table"].as_str().unwrap().to_owned();
    let invite = created["d"]["invite"].as_str().unwrap().to_owned();
    b.send(json!({"t": "join", "d": {"table": table, "invite": invite}}))
        .await;
    b.event("started").await;
    time.advance(100_000);
    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    let moved = w.event("moved").await;
    // Black has until 5 minutes after white's move.
    let deadline = 1_100_000 + 300_000;
    assert_eq!(moved["d"]["move_deadline"], deadline);
    drop((w, b));

    let dir = app.stop().await;
    time.advance(120_000); // two minutes of downtime, inside black's five
    let app = spawn_app_with(Options {
        dir: Some(dir),
        ..opts(Some(database_url))
    })
    .await;

    // Still out of the lobby, and still closed to whoever lacks the invitation.
    let lobby = app.get_json("/api/tables", None).await;
    assert_eq!(
        lobby["tables"],
        json!([]),
        "a resumed private table is not listed"
    );
    let mut s = app.ws(Some(&stranger)).await;
    s.send(json!({"t": "watch", "d": {"table": table}})).await;
    s.expect_error("invitation_required").await;
    s.send(json!({"t": "watch", "d": {"table": table, "invite": invite}}))
        .await;
    let snap = s.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["private"], true);
    assert_eq!(snap["d"]["move_time"], 300);
    assert_eq!(
        snap["d"]["move_deadline"], deadline,
        "the deadline survives"
    );

    // The deadline is the one set before the stop, not a fresh five minutes.
    let mut b = app.ws(Some(&bc)).await;
    b.send(json!({"t": "watch", "d": {"table": table}})).await;
    b.recv_until(|m| m["t"] == "table").await;
    time.advance(179_999);
    b.assert_alive().await;
    time.advance(1);
    let ended = b.event("ended").await;
    assert_eq!(ended["d"]["reason"], "timeout-black");
}
