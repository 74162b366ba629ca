//! Aborting over real WebSockets: until every seat has made its first move a player
//! may call a rated game off; it gets no result and changes no rating.

use crate::common::spawn_app;
use serde_json::json;

#[tokio::test]
async fn an_abort_before_the_first_moves_changes_no_rating() {
    let app = spawn_app().await;
    let (table, mut a, mut b) = app.rated_duel().await;
    a.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    a.recv_until(|m| m["t"] == "ack").await;

    // Black has not moved yet: black may abort.
    b.send(json!({"t": "abort", "d": {"table": table}})).await;
    for ws in [&mut a, &mut b] {
        let aborted = ws.event("aborted").await;
        assert_eq!(aborted["d"]["seat"], 1);
    }
    a.send(json!({"t": "move", "d": {"table": table, "path": "m3-m4", "ack": 2}}))
        .await;
    a.expect_error("game_over").await;
    let game = app.get_json(&format!("/api/games/{table}"), None).await;
    assert_eq!(game["status"], "aborted");
    assert!(game["reason"].is_null(), "no result");
    for name in ["ana", "boris"] {
        let r = app
            .get_json(&format!("/api/users/{name}/ratings"), None)
            .await;
        assert_eq!(r["ratings"], json!([]), "{name}: no rating change");
        assert_eq!(r["history"], json!([]));
    }
}

#[tokio::test]
async fn after_every_first_move_the_game_cannot_be_aborted() {
    let app = spawn_app().await;
    let c = app.guest().await;
    let d = app.guest().await;
    let mut c = app.ws(Some(&c)).await;
    let mut d = app.ws(Some(&d)).await;
    let table = c.create(json!({"variant": "classic-2"})).await;
    d.send(json!({"t": "join", "d": {"table": table}})).await;
    c.event("started").await;
    c.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    c.recv_until(|m| m["t"] == "ack").await;
    d.send(json!({"t": "move", "d": {"table": table, "path": "e14-e13", "ack": 1}}))
        .await;
    let m = d.recv_until(|m| m["t"] == "ack" || m["t"] == "error").await;
    assert_eq!(m["t"], "ack", "{m}");
    c.send(json!({"t": "abort", "d": {"table": table}})).await;
    let e = c.expect_error("too_late_to_abort").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("first move"));
}
