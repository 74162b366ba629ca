//! Limits on what one user or one connection can make the server hold: open tables,
//! tables with computer seats, tables nobody joins, live sockets of ended sessions,
//! the watch set of a connection, clients that never read, and forged lag.

use crate::common;

use crate::common::{spawn_app_at, spawn_app_with, GuestDuel, Options, Ws};
use serde_json::json;

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
    let m = ws
        .try_create(json!({"variant": "classic-6", "seats": vec!["open"; 6]}))
        .await;
    assert_eq!(m["d"]["code"], "bad_seats", "{m}");
    let mut tables = Vec::new();
    for _ in 0..3 {
        tables.push(ws.create(json!({"variant": "classic-6"})).await);
    }
    let m = ws.try_create(json!({"variant": "classic-6"})).await;
    assert_eq!(m["d"]["code"], "too_many_tables", "{m}");
    // A second connection of the same user counts against the same limit.
    let mut other = app.ws(Some(&me)).await;
    let m = other.try_create(json!({"variant": "classic-2"})).await;
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
        let m = ws
            .try_create(json!({"variant": "classic-2", "seats": seats}))
            .await;
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
    let (app, clock) = spawn_app_at(
        1_000_000,
        Some(|c| c.open_table_idle = std::time::Duration::from_secs(600)),
    )
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

/// Reads until the server closes the connection; panics if it stays open `secs`.
async fn expect_closed(ws: &mut Ws, secs: u64) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        match tokio::time::timeout_at(deadline, ws.stream.next()).await {
            Err(_) => panic!("the connection is still open after {secs} s"),
            Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return,
            Ok(Some(Ok(_))) => {}
        }
    }
}

#[tokio::test]
async fn ending_a_session_ends_its_sockets_at_once() {
    let app = spawn_app_with(Options::default()).await;
    // Logout.
    let cookie = app.register("vera").await;
    let mut first = app.ws(Some(&cookie)).await;
    let mut second = app.ws(Some(&cookie)).await;
    let other = app.register("walt").await;
    let mut bystander = app.ws(Some(&other)).await;
    let res = app.post("/api/logout", Some(&cookie), json!({})).await;
    assert_eq!(res.status(), 204);
    for ws in [&mut first, &mut second] {
        ws.expect_error("session_ended").await;
        expect_closed(ws, 5).await;
    }
    bystander.assert_alive().await;
    // A login that replaces the session presented with it.
    let mut walt = app.ws(Some(&other)).await;
    let res = app
        .post(
            "/api/login",
            Some(&other),
            json!({"username": "walt", "password": "correct horse"}),
        )
        .await;
    assert_eq!(res.status(), 200);
    walt.expect_error("session_ended").await;
    expect_closed(&mut walt, 5).await;
    expect_closed(&mut bystander, 5).await;
    // A socket opened with the new session works.
    let fresh = common::session_cookie(&res).expect("cookie");
    let mut again = app.ws(Some(&fresh)).await;
    again.create(json!({"variant": "classic-2"})).await;
}

#[tokio::test]
async fn an_expired_session_ends_its_sockets() {
    let (app, clock) = spawn_app_at(1_000_000, None).await;
    let cookie = app.guest().await;
    let mut ws = app.ws(Some(&cookie)).await;
    clock.advance(stella_server::accounts::SESSION_TTL_MS - 1);
    ws.assert_alive().await;
    clock.advance(2);
    ws.expect_error("session_ended").await;
    expect_closed(&mut ws, 5).await;
}

/// Waits until the server-wide watch count is `n`.
async fn watches_become(app: &common::TestApp, n: usize) {
    use std::sync::atomic::Ordering;
    for _ in 0..200 {
        if app.state.watches.load(Ordering::Relaxed) == n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!(
        "watches stayed at {}, expected {n}",
        app.state.watches.load(Ordering::Relaxed)
    );
}

#[tokio::test]
async fn closed_and_finished_tables_leave_the_watch_set() {
    let app = spawn_app_with(Options {
        config: Some(|c| {
            c.finished_table_linger = std::time::Duration::from_millis(200);
            c.ws_burst = 10_000;
            c.ws_per_second = 10_000;
        }),
        ..Options::default()
    })
    .await;
    let me = app.guest().await;
    let mut ws = app.ws(Some(&me)).await;
    for _ in 0..40 {
        let table = ws.create(json!({"variant": "classic-6"})).await;
        ws.send(json!({"t": "leave", "d": {"table": table}})).await;
        ws.event("closed").await;
    }
    watches_become(&app, 0).await;
    // A finished table leaves once it stops answering.
    let table = ws
        .create(json!({"variant": "classic-2", "seats": ["me", {"computer": 1}]}))
        .await;
    watches_become(&app, 1).await;
    ws.send(json!({"t": "resign", "d": {"table": table}})).await;
    ws.event("ended").await;
    watches_become(&app, 0).await;
    // A table watched again after its first watch ended is followed anew.
    let a = ws.create(json!({"variant": "classic-3"})).await;
    ws.send(json!({"t": "unwatch", "d": {"table": a}})).await;
    ws.send(json!({"t": "watch", "d": {"table": a}})).await;
    ws.recv_until(|m| m["t"] == "table").await;
    watches_become(&app, 1).await;
    ws.assert_alive().await;
}

#[tokio::test]
async fn a_client_that_never_reads_is_closed() {
    use tokio::net::TcpSocket;
    let app = spawn_app_with(Options {
        config: Some(|c| {
            c.slow_client_queue = 4;
            c.slow_client_after = std::time::Duration::from_secs(1);
            c.ws_burst = 10_000;
            c.ws_per_second = 10_000;
            c.max_open_tables = 100;
        }),
        ..Options::default()
    })
    .await;
    // Fill the lobby, so each lobby snapshot is large.
    let host = app.guest().await;
    let mut h = app.ws(Some(&host)).await;
    for _ in 0..60 {
        h.create(json!({"variant": "classic-6"})).await;
    }
    // A client with a tiny receive buffer that asks for snapshots and never reads.
    let socket = TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("buffer size");
    let tcp = socket
        .connect(format!("127.0.0.1:{}", app.port).parse().unwrap())
        .await
        .expect("connect");
    let (stream, _) = tokio_tungstenite::client_async(
        format!("ws://127.0.0.1:{}/ws", app.port),
        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
    )
    .await
    .expect("handshake");
    let mut slow = Ws { stream };
    for _ in 0..400 {
        slow.send(json!({"t": "lobby_subscribe"})).await;
    }
    let started = std::time::Instant::now();
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    expect_closed(&mut slow, 10).await;
    assert!(started.elapsed() < std::time::Duration::from_secs(13));
    // Everyone else carries on.
    h.assert_alive().await;
}

#[tokio::test]
async fn unsolicited_pongs_earn_no_lag_refund() {
    use tokio_tungstenite::tungstenite::Message;
    let (app, clock) = spawn_app_at(1_000_000, None).await;
    let GuestDuel {
        table,
        mut w,
        b: _b,
        ..
    } = app.timed_duel(1, 2).await;
    // Pongs the server never asked for, claiming a long round trip (the connection is
    // 1.2 s old: a stamp-based measure would read 0 as a 1.2 s round trip). Reading
    // meanwhile answers the server's own pings at once.
    let since = std::time::Instant::now();
    while since.elapsed() < std::time::Duration::from_millis(1_200) {
        w.assert_alive().await;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    for payload in [0u64, 1, 5, 100, u64::MAX] {
        for _ in 0..4 {
            use futures_util::SinkExt;
            w.stream
                .send(Message::Pong(payload.to_be_bytes().to_vec().into()))
                .await
                .expect("pong");
        }
    }
    w.assert_alive().await;
    clock.advance(10_000);
    w.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    let moved = w.event("moved").await;
    let white = moved["d"]["clock"]["remaining_ms"][0].as_i64().unwrap();
    // 60 - 10 + 2 s; the only lag the server may credit is what its own pings
    // measured on this loopback (milliseconds; the forged pongs would have earned the
    // full 500 ms refund).
    assert!((52_000..52_250).contains(&white), "white has {white} ms");
}
