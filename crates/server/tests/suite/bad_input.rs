//! Bad input of every class is refused with a clear error code while the connection
//! and the server stay up, and nothing changes.

use crate::common;

use crate::common::{spawn_app, GuestDuel, Ws};
use serde_json::json;

/// Two guests at a started classic-2 table: (white, black, table).
async fn started_table(app: &common::TestApp) -> (Ws, Ws, String) {
    let GuestDuel {
        table, mut w, b, ..
    } = app.guest_duel(json!({"variant": "classic-2"})).await;
    w.event("started").await;
    (w, b, table)
}

async fn moves_of(app: &common::TestApp, table: &str) -> usize {
    let g = app.get_json(&format!("/api/games/{table}"), None).await;
    g["moves"].as_array().unwrap().len()
}

#[tokio::test]
async fn malformed_messages_are_refused_and_the_connection_stays() {
    let app = spawn_app().await;
    let mut ws = app.ws(None).await;
    ws.send_text("this is not json").await;
    ws.expect_error("bad_message").await;
    ws.send_text("[1,2,3]").await;
    ws.expect_error("bad_message").await;
    ws.send(json!({"t": "teleport", "d": {}})).await;
    let e = ws.expect_error("unknown_type").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("teleport"));
    ws.send(json!({"t": "move", "d": {"table": "x", "path": 12, "ack": 1}}))
        .await;
    let e = ws.expect_error("bad_message").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("move"));
    ws.send(json!({"t": "watch", "d": {"since": 3}})).await;
    ws.expect_error("bad_message").await;
    let big = format!(r#"{{"t":"ping","d":{{"pad":"{}"}}}}"#, "x".repeat(10_000));
    ws.send_text(&big).await;
    ws.expect_error("too_large").await;
    ws.send(json!({"t": "watch", "d": {"table": "nope"}})).await;
    ws.expect_error("no_such_table").await;
    ws.assert_alive().await;
    assert_eq!(app.get("/healthz", None).await.status(), 200);
}

#[tokio::test]
async fn messages_longer_than_one_socket_read_arrive_whole() {
    let app = spawn_app().await;
    let mut ws = app.ws(None).await;
    // Just under the text limit, in one frame: answered.
    let pad = "x".repeat(4000);
    ws.send(json!({"t": "ping", "d": {"n": 7, "pad": pad}}))
        .await;
    let pong = ws.recv_until(|m| m["t"] == "pong").await;
    assert_eq!(pong["d"]["n"], 7);
    // Near the transport's limit (several reads of the socket): refused as too
    // large, and the next message is read from the right place.
    let big = format!(r#"{{"t":"ping","d":{{"pad":"{}"}}}}"#, "y".repeat(60_000));
    ws.send_text(&big).await;
    ws.expect_error("too_large").await;
    ws.send(json!({"t": "ping", "d": {"n": 8}})).await;
    let pong = ws.recv_until(|m| m["t"] == "pong").await;
    assert_eq!(pong["d"]["n"], 8);
}

#[tokio::test]
async fn moves_out_of_turn_of_other_marbles_illegal_and_by_spectators_are_refused() {
    let app = spawn_app().await;
    let (mut w, mut b, table) = started_table(&app).await;
    // Out of turn.
    b.send(json!({"t": "move", "d": {"table": table, "path": "e14-e13", "ack": 1}}))
        .await;
    let e = b.expect_error("not_your_turn").await;
    assert_eq!(e["d"]["ack"], 1);
    // Another player's marble.
    w.send(json!({"t": "move", "d": {"table": table, "path": "e14-e13", "ack": 2}}))
        .await;
    w.expect_error("not_your_marble").await;
    // Not a path.
    w.send(json!({"t": "move", "d": {"table": table, "path": "m3 to m4", "ack": 3}}))
        .await;
    w.expect_error("bad_move").await;
    // Against the rules.
    w.send(json!({"t": "move", "d": {"table": table, "path": "m3-m6", "ack": 4}}))
        .await;
    w.expect_error("illegal_move").await;
    // A spectator, logged in or not, cannot act for a seat.
    let sc = app.guest().await;
    let mut spectator = app.ws(Some(&sc)).await;
    spectator
        .send(json!({"t": "watch", "d": {"table": table}}))
        .await;
    spectator.recv_until(|m| m["t"] == "table").await;
    spectator
        .send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 5}}))
        .await;
    spectator.expect_error("not_seated").await;
    spectator
        .send(json!({"t": "resign", "d": {"table": table}}))
        .await;
    spectator.expect_error("not_seated").await;
    let mut anonymous = app.ws(None).await;
    anonymous
        .send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 6}}))
        .await;
    anonymous.expect_error("not_logged_in").await;
    // Nothing changed; the connections are up; a good move still works.
    assert_eq!(moves_of(&app, &table).await, 0);
    for c in [&mut w, &mut b, &mut spectator, &mut anonymous] {
        c.assert_alive().await;
    }
    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 7}}))
        .await;
    w.recv_until(|m| m["t"] == "ack" && m["d"]["ack"] == 7)
        .await;
    assert_eq!(moves_of(&app, &table).await, 1);
}

#[tokio::test]
async fn moves_on_a_finished_game_are_refused() {
    let app = spawn_app().await;
    let (mut w, mut b, table) = started_table(&app).await;
    w.send(json!({"t": "resign", "d": {"table": table}})).await;
    b.event("ended").await;
    b.send(json!({"t": "move", "d": {"table": table, "path": "e14-e13", "ack": 1}}))
        .await;
    b.expect_error("game_over").await;
    w.send(json!({"t": "resign", "d": {"table": table}})).await;
    w.expect_error("game_over").await;
    b.assert_alive().await;
    assert_eq!(moves_of(&app, &table).await, 0);
}

#[tokio::test]
async fn bad_tables_are_refused() {
    let app = spawn_app().await;
    let gc = app.guest().await;
    let mut ws = app.ws(Some(&gc)).await;
    ws.send(json!({"t": "create_table", "d": {"variant": "classic-5"}}))
        .await;
    let e = ws.expect_error("bad_variant").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("classic-2"));
    ws.send(json!({"t": "create_table", "d": {"variant": "classic-2", "time": {"minutes": 0, "increment": 5}}})).await;
    ws.expect_error("bad_time_control").await;
    ws.send(json!({"t": "create_table", "d": {"variant": "classic-2", "time": {"minutes": 5, "increment": 99}}})).await;
    ws.expect_error("bad_time_control").await;
    ws.send(json!({"t": "create_table", "d": {"variant": "classic-3", "seats": ["me", "open"]}}))
        .await;
    ws.expect_error("bad_seats").await;
    ws.send(json!({"t": "create_table", "d": {"variant": "classic-2", "seats": ["me", {"computer": 9}]}})).await;
    ws.expect_error("bad_seats").await;
    ws.send(json!({"t": "create_table", "d": {"variant": "classic-2", "rated": true}}))
        .await;
    ws.expect_error("rated_needs_accounts").await;
    ws.send(json!({"t": "quick_pair", "d": {"minutes": 7, "increment": 7}}))
        .await;
    ws.expect_error("bad_time_control").await;
    let mut anonymous = app.ws(None).await;
    anonymous
        .send(json!({"t": "create_table", "d": {"variant": "classic-2"}}))
        .await;
    anonymous.expect_error("not_logged_in").await;
    ws.assert_alive().await;
    let lobby = app.get_json("/api/tables", None).await;
    assert_eq!(lobby["tables"], json!([]), "nothing was created");
    // A flood of tables stops at five open ones.
    for _ in 0..5 {
        ws.create(json!({"variant": "classic-2"})).await;
    }
    ws.send(json!({"t": "create_table", "d": {"variant": "classic-2"}}))
        .await;
    ws.expect_error("too_many_tables").await;
    let lobby = app.get_json("/api/tables", None).await;
    assert_eq!(lobby["tables"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn seats_are_guarded() {
    let app = spawn_app().await;
    let (ac, bc, cc) = (app.guest().await, app.guest().await, app.guest().await);
    let mut a = app.ws(Some(&ac)).await;
    let mut b = app.ws(Some(&bc)).await;
    let mut c = app.ws(Some(&cc)).await;
    let table = a.create(json!({"variant": "classic-3"})).await;
    a.send(json!({"t": "join", "d": {"table": table}})).await;
    a.expect_error("already_seated").await;
    b.send(json!({"t": "join", "d": {"table": table, "seat": 0}}))
        .await;
    b.expect_error("seat_taken").await;
    b.send(json!({"t": "join", "d": {"table": table, "seat": 7}}))
        .await;
    b.expect_error("bad_seats").await;
    b.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    b.expect_error("not_started").await;
    b.send(json!({"t": "join", "d": {"table": table, "seat": 1}}))
        .await;
    b.send(json!({"t": "leave", "d": {"table": table}})).await;
    b.event("vacated").await;
    c.send(json!({"t": "join", "d": {"table": table, "seat": 1}}))
        .await;
    b.send(json!({"t": "join", "d": {"table": table, "seat": 2}}))
        .await;
    b.event("started").await;
    b.send(json!({"t": "leave", "d": {"table": table}})).await;
    b.expect_error("already_started").await;
}

#[tokio::test]
async fn floods_are_rate_limited_and_the_connection_stays() {
    let app = spawn_app().await;
    let mut ws = app.ws(None).await;
    for n in 0..200 {
        ws.send(json!({"t": "ping", "d": {"n": n}})).await;
    }
    ws.recv_until(|m| m["t"] == "error" && m["d"]["code"] == "rate_limited")
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    // Drain what was answered, then the connection still works.
    ws.send(json!({"t": "ping", "d": {"n": 9999}})).await;
    ws.recv_until(|m| m["t"] == "pong" && m["d"]["n"] == 9999)
        .await;
}
