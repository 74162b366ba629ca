//! A player who leaves a live 2-player game: the opponent hears `absent`, may claim
//! the win after a minute away, and hears `present` if they come back first (with an
//! injected clock).

use crate::common::spawn_app_at;
use serde_json::json;

#[tokio::test]
async fn an_absent_opponent_can_be_beaten_by_claim_after_a_minute() {
    let (app, time) = spawn_app_at(1_000_000, None).await;
    let (wc, bc) = (app.register("wanda").await, app.register("bert").await);
    let mut w = app.ws(Some(&wc)).await;
    let mut b = app.ws(Some(&bc)).await;
    let table = w
        .create(json!({"variant": "classic-2", "time": {"minutes": 5, "increment": 0}}))
        .await;
    b.send(json!({"t": "join", "d": {"table": table}})).await;
    b.event("started").await;
    w.event("started").await;

    // Bert closes his only connection: Wanda sees the countdown.
    drop(b);
    let absent = w.event("absent").await;
    assert_eq!(absent["d"]["seat"], 1);
    assert_eq!(absent["d"]["since"], 1_000_000);
    assert_eq!(absent["d"]["claim_at"], 1_060_000);
    // The lobby says who is connected.
    let lobby = app.get_json("/api/tables", None).await;
    assert_eq!(lobby["tables"][0]["connected"], json!([true, false]));
    w.send(json!({"t": "claim_win", "d": {"table": table}}))
        .await;
    let e = w.expect_error("cannot_claim").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("60 s"));

    // He comes back within the minute: the countdown is off.
    time.advance(30_000);
    let mut b = app.ws(Some(&bc)).await;
    b.send(json!({"t": "watch", "d": {"table": table}})).await;
    b.recv_until(|m| m["t"] == "table").await;
    assert_eq!(w.event("present").await["d"]["seat"], 1);
    let lobby = app.get_json("/api/tables", None).await;
    assert_eq!(lobby["tables"][0]["connected"], json!([true, true]));
    time.advance(40_000);
    w.send(json!({"t": "claim_win", "d": {"table": table}}))
        .await;
    let e = w.expect_error("cannot_claim").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("connected"));

    // He leaves again; a minute later Wanda claims the win.
    drop(b);
    let absent = w.event("absent").await;
    assert_eq!(absent["d"]["claim_at"], 1_130_000);
    time.advance(59_999);
    w.send(json!({"t": "claim_win", "d": {"table": table}}))
        .await;
    w.expect_error("cannot_claim").await;
    time.advance(1);
    w.send(json!({"t": "claim_win", "d": {"table": table}}))
        .await;
    let ended = w.event("ended").await;
    let reason = ended["d"]["reason"].as_str().unwrap();
    assert!(reason.starts_with("abandoned-"), "{reason}");
    let res = app.get(&format!("/api/games/{table}"), None).await;
    let text = res.text().await.unwrap();
    let stored: serde_json::Value = serde_json::from_str(&text).expect(&text);
    assert_eq!(stored["reason"], reason, "{stored}");
}
