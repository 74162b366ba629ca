//! Rematch over real WebSockets: when every person of a finished table accepts, a new
//! table with the same settings and the seats rotated starts, and everyone watching
//! hears of it; the offer lapses when a player leaves.

use crate::common::{spawn_app, TestApp, Ws};
use serde_json::{json, Value};

/// A finished rated classic-2 game between two registered players (`ana` resigned).
async fn finished(app: &TestApp) -> (String, Ws, Ws) {
    let (table, mut a, mut b) = app.rated_duel().await;
    a.send(json!({"t": "resign", "d": {"table": table}})).await;
    a.event("ended").await;
    b.event("ended").await;
    (table, a, b)
}

fn human_name(seat: &Value) -> &str {
    seat["player"]["name"].as_str().unwrap_or("")
}

#[tokio::test]
async fn a_rematch_starts_a_new_table_with_rotated_seats() {
    let app = spawn_app().await;
    let (table, mut a, mut b) = finished(&app).await;
    let cs = app.guest().await;
    let mut spectator = app.ws(Some(&cs)).await;
    spectator
        .send(json!({"t": "watch", "d": {"table": table}}))
        .await;
    spectator.recv_until(|m| m["t"] == "table").await;

    // Spectators cannot ask; before both accept nothing starts.
    spectator
        .send(json!({"t": "rematch", "d": {"table": table}}))
        .await;
    spectator.expect_error("not_seated").await;
    b.send(json!({"t": "rematch", "d": {"table": table}})).await;
    let offered = a.event("rematch_offered").await;
    assert_eq!(offered["d"]["accepted"].as_array().unwrap().len(), 1);

    a.send(json!({"t": "rematch", "d": {"table": table}})).await;
    let mut new_ids = Vec::new();
    for ws in [&mut a, &mut b, &mut spectator] {
        let started = ws.event("rematch_started").await;
        assert_eq!(
            started["d"]["table"],
            table.as_str(),
            "the event's own table"
        );
        new_ids.push(started["d"]["id"].as_str().unwrap().to_owned());
    }
    assert!(new_ids.iter().all(|id| *id == new_ids[0] && *id != table));
    let new_table = &new_ids[0];

    // Same settings, seats rotated: boris is white now; the game is on.
    a.send(json!({"t": "watch", "d": {"table": new_table}}))
        .await;
    let snap = a.recv_until(|m| m["t"] == "table").await["d"].clone();
    assert_eq!(snap["status"], "live");
    assert_eq!(snap["variant"], "classic-2");
    assert_eq!(snap["rated"], true);
    assert_eq!(snap["time"], json!({"minutes": 5, "increment": 3}));
    assert_eq!(human_name(&snap["seats"][0]), "boris");
    assert_eq!(human_name(&snap["seats"][1]), "ana");
    b.send(json!({"t": "move", "d": {"table": new_table, "path": "m4-m5", "ack": 1}}))
        .await;
    b.recv_until(|m| m["t"] == "ack").await;

    // The old table answers that its rematch is under way.
    a.send(json!({"t": "rematch", "d": {"table": table}})).await;
    let e = a.expect_error("rematch_over").await;
    assert!(e["d"]["message"]
        .as_str()
        .unwrap()
        .contains(new_table.as_str()));
}

#[tokio::test]
async fn a_rematch_offer_lapses_when_a_player_leaves() {
    let app = spawn_app().await;
    let (table, mut a, mut b) = finished(&app).await;
    a.send(json!({"t": "rematch", "d": {"table": table}})).await;
    b.event("rematch_offered").await;
    b.send(json!({"t": "leave", "d": {"table": table}})).await;
    a.event("rematch_lapsed").await;
    b.send(json!({"t": "rematch", "d": {"table": table}})).await;
    b.expect_error("rematch_over").await;
    // A rematch before the end is refused with a reason.
    let c = app.guest().await;
    let d = app.guest().await;
    let mut c = app.ws(Some(&c)).await;
    let mut d = app.ws(Some(&d)).await;
    let live = c.create(json!({"variant": "classic-2"})).await;
    d.send(json!({"t": "join", "d": {"table": live}})).await;
    c.event("started").await;
    c.send(json!({"t": "rematch", "d": {"table": live}})).await;
    c.expect_error("not_finished").await;
}
