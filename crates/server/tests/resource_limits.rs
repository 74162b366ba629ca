//! Limits on what one user or one connection can make the server hold: open tables,
//! tables with computer seats, tables nobody joins, live sockets of ended sessions,
//! the watch set of a connection, clients that never read, and forged lag.

mod common;

use std::sync::Arc;

use common::{spawn_app_with, Options, Ws};
use serde_json::{json, Value};
use stella_server::ManualTime;

/// Sends `create_table` and returns the answer (`table_created` or `error`).
async fn try_create(ws: &mut Ws, d: Value) -> Value {
    ws.send(json!({"t": "create_table", "d": d})).await;
    ws.recv_until(|m| m["t"] == "table_created" || m["t"] == "error")
        .await
}

#[tokio::test]
async fn one_user_holds_a_bounded_number_of_open_tables() {
    let app = spawn_app_with(Options {
        config: Some(|c| c.max_open_tables = 3),
        ..Options::default()
    })
    .await;
    let me = app.guest().await;
    let mut ws = app.ws(Some(&me)).await;
    // A table of only open seats would be held by nobody: refused.
    let m = try_create(
        &mut ws,
        json!({"variant": "classic-6", "seats": vec!["open"; 6]}),
    )
    .await;
    assert_eq!(m["d"]["code"], "bad_seats", "{m}");
    let mut tables = Vec::new();
    for _ in 0..3 {
        tables.push(ws.create(json!({"variant": "classic-6"})).await);
    }
    let m = try_create(&mut ws, json!({"variant": "classic-6"})).await;
    assert_eq!(m["d"]["code"], "too_many_tables", "{m}");
    // A second connection of the same user counts against the same limit.
    let mut other = app.ws(Some(&me)).await;
    let m = try_create(&mut other, json!({"variant": "classic-2"})).await;
    assert_eq!(m["d"]["code"], "too_many_tables", "{m}");
    // Joining someone else's open table is holding one too.
    let host = app.guest().await;
    let mut host_ws = app.ws(Some(&host)).await;
    let theirs = host_ws.create(json!({"variant": "classic-3"})).await;
    ws.send(json!({"t": "join", "d": {"table": theirs}})).await;
    ws.expect_error("too_many_tables").await;
    // Leaving one frees a place.
    ws.send(json!({"t": "leave", "d": {"table": tables[0]}}))
        .await;
    ws.event("closed").await;
    ws.send(json!({"t": "join", "d": {"table": theirs}})).await;
    ws.recv_until(|m| m["t"] == "event" && m["d"]["type"] == "seated" && m["d"]["seat"] == 1)
        .await;
}

#[tokio::test]
async fn one_user_runs_a_bounded_number_of_computer_tables() {
    let app = spawn_app_with(Options {
        config: Some(|c| c.max_computer_tables = 2),
        ..Options::default()
    })
    .await;
    let me = app.guest().await;
    let mut ws = app.ws(Some(&me)).await;
    let first = ws
        .create(json!({"variant": "classic-2", "seats": ["me", {"computer": 8}]}))
        .await;
    ws.create(json!({"variant": "classic-3", "seats": ["me", {"computer": 8}, "open"]}))
        .await;
    for seats in [
        json!(["me", {"computer": 1}]),
        json!([{"computer": 8}, {"computer": 8}]),
    ] {
        let m = try_create(&mut ws, json!({"variant": "classic-2", "seats": seats})).await;
        assert_eq!(m["d"]["code"], "too_many_computer_tables", "{m}");
        assert!(m["d"]["message"].as_str().unwrap().contains("computer"));
    }
    // A table of people only is not limited by it.
    ws.create(json!({"variant": "classic-2"})).await;
    // Finishing one frees a place.
    ws.send(json!({"t": "resign", "d": {"table": first}})).await;
    ws.recv_until(|m| {
        m["t"] == "event" && m["d"]["type"] == "ended" && m["d"]["table"] == first.as_str()
    })
    .await;
    ws.create(json!({"variant": "classic-2", "seats": ["me", {"computer": 1}]}))
        .await;
}

#[tokio::test]
async fn a_table_nobody_joins_closes_after_the_idle_time() {
    let clock = Arc::new(ManualTime::new(1_000_000));
    let app = spawn_app_with(Options {
        manual_time: Some(clock.clone()),
        config: Some(|c| c.open_table_idle = std::time::Duration::from_secs(600)),
        ..Options::default()
    })
    .await;
    let me = app.guest().await;
    let mut ws = app.ws(Some(&me)).await;
    let idle = ws.create(json!({"variant": "classic-3"})).await;
    clock.advance(300_000);
    let joined = ws.create(json!({"variant": "classic-2"})).await;
    let guest = app.guest().await;
    let mut other = app.ws(Some(&guest)).await;
    clock.advance(200_000);
    // A join resets the idle time of the table it changes.
    let busy = other.create(json!({"variant": "classic-3"})).await;
    clock.advance(99_000);
    ws.send(json!({"t": "join", "d": {"table": busy}})).await;
    ws.recv_until(|m| {
        m["t"] == "event" && m["d"]["type"] == "seated" && m["d"]["table"] == busy.as_str()
    })
    .await;
    clock.advance(102_000);
    let closed = ws
        .recv_until(|m| m["t"] == "event" && m["d"]["type"] == "closed")
        .await;
    assert_eq!(closed["d"]["table"], idle.as_str());
    // The other tables are still listed as open.
    ws.send(json!({"t": "lobby_subscribe"})).await;
    let lobby = ws.recv_until(|m| m["t"] == "lobby").await;
    let ids: Vec<&str> = lobby["d"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert!(!ids.contains(&idle.as_str()), "{ids:?}");
    assert!(ids.contains(&joined.as_str()) && ids.contains(&busy.as_str()));
}
