//! Computer seats play their turns off the async threads; a lobby subscriber sees the
//! table appear and change live.

use crate::common::spawn_app;
use serde_json::json;

#[tokio::test]
async fn a_computer_seat_answers_and_the_lobby_updates_live() {
    let app = spawn_app().await;
    let watcher_cookie = app.guest().await;
    let mut lobby = app.ws(Some(&watcher_cookie)).await;
    lobby.send(json!({"t": "lobby_subscribe"})).await;
    let list = lobby.recv_until(|m| m["t"] == "lobby").await;
    assert_eq!(list["d"]["tables"], json!([]));

    let me = app.guest().await;
    let mut ws = app.ws(Some(&me)).await;
    let table = ws
        .create(json!({"variant": "classic-3", "seats": ["me", {"computer": 2}, {"computer": 1}]}))
        .await;
    let snap = ws.recv_until(|m| m["t"] == "table").await;
    assert_eq!(
        snap["d"]["status"], "live",
        "every seat was taken at creation"
    );
    let update = lobby
        .recv_until(|m| m["t"] == "lobby_update" && m["d"]["status"] == "live")
        .await;
    assert_eq!(update["d"]["id"], table.as_str());
    assert_eq!(
        update["d"]["seats"][1]["player"],
        json!({"kind": "computer", "level": 2})
    );

    ws.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    // Blue and yellow (computers) answer in turn; then it is white's turn again.
    let blue = ws
        .recv_until(|m| m["t"] == "event" && m["d"]["ply"] == 2)
        .await;
    assert_eq!(blue["d"]["colour"], "blue");
    let yellow = ws
        .recv_until(|m| m["t"] == "event" && m["d"]["ply"] == 3)
        .await;
    assert_eq!(yellow["d"]["colour"], "yellow");
    assert_eq!(yellow["d"]["turn"], "white");

    // Resigning ends it, and the lobby drops the table.
    ws.send(json!({"t": "resign", "d": {"table": table}})).await;
    ws.event("ended").await;
    let removed = lobby.recv_until(|m| m["t"] == "lobby_remove").await;
    assert_eq!(removed["d"]["table"], table.as_str());
}

#[tokio::test]
async fn quick_pairing_starts_a_classic_two_game() {
    let app = spawn_app().await;
    let (a, b) = (app.register("quincy").await, app.register("rachel").await);
    let mut wa = app.ws(Some(&a)).await;
    let mut wb = app.ws(Some(&b)).await;
    wa.send(json!({"t": "quick_pair", "d": {"minutes": 3, "increment": 2}}))
        .await;
    wa.assert_alive().await;
    wb.send(json!({"t": "quick_pair", "d": {"minutes": 3, "increment": 2}}))
        .await;
    let pa = wa.recv_until(|m| m["t"] == "paired").await;
    let pb = wb.recv_until(|m| m["t"] == "paired").await;
    assert_eq!(pa["d"]["table"], pb["d"]["table"]);
    let table = pa["d"]["table"].as_str().unwrap().to_owned();
    wa.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = wa.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["status"], "live");
    assert_eq!(snap["d"]["variant"], "classic-2");
    assert_eq!(snap["d"]["rated"], true);
    assert_eq!(snap["d"]["time"], json!({"minutes": 3, "increment": 2}));
    assert_eq!(snap["d"]["seats"][0]["player"]["name"], "quincy");
}
