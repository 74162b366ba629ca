//! Operations: the Prometheus metrics after real moves, and a graceful stop with a
//! move in flight (acknowledged, kept, sockets closed with going-away).

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::json;
use stella_engine::{Game, Variant};
use stella_server::storage::Storage;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

use crate::common::metrics::sample;
use crate::common::play::{next_greedy, play};
use crate::common::{spawn_app, spawn_app_with, Options};

#[tokio::test]
async fn metrics_count_the_moves_of_a_game() {
    let app = spawn_app().await;
    let (table, mut a, mut b) = app.rated_duel().await;
    let mut game = Game::new(Variant::Classic2);
    for ply in 1..=12u64 {
        let (mv, path) = next_greedy(&game);
        let (mover, other) = if ply % 2 == 1 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        play(mover, &mut [other], &table, &path, ply as usize, ply).await;
        game.play(&mv).expect("legal");
    }
    let res = app.get("/metrics", None).await;
    assert_eq!(res.status(), 200);
    let kind = res.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(kind.starts_with("text/plain"), "{kind}");
    let text = res.text().await.unwrap();
    assert_eq!(sample(&text, "stella_moves_total"), 12.0);
    assert_eq!(sample(&text, "stella_move_ack_seconds_count"), 12.0);
    assert_eq!(
        sample(&text, "stella_move_ack_seconds_bucket{le=\"+Inf\"}"),
        12.0
    );
    assert_eq!(sample(&text, "stella_commit_batch_moves_sum"), 12.0);
    assert!(sample(&text, "stella_commit_seconds_count") >= 1.0);
    assert_eq!(sample(&text, "stella_commit_failures_total"), 0.0);
    assert_eq!(sample(&text, "stella_connections"), 2.0);
    assert_eq!(sample(&text, "stella_tables"), 1.0);
    assert!(
        text.contains("# TYPE stella_move_ack_seconds histogram"),
        "{text}"
    );
    drop((a, b));
    // The gauge follows connections that close.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let text = app.metrics().await;
        if sample(&text, "stella_connections") == 0.0 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{text}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_move_in_flight_when_the_server_stops_is_acknowledged_and_kept() {
    // A long commit window keeps the move waiting for its transaction while the stop
    // begins.
    let app = spawn_app_with(Options {
        config: Some(|c| c.group_commit.window = Duration::from_millis(500)),
        ..Options::default()
    })
    .await;
    let database_url = app.database_url.clone();
    let (table, mut a, _b) = app.rated_duel().await;
    let (_, path) = next_greedy(&Game::new(Variant::Classic2));
    a.send(json!({"t": "move", "d": {"table": table, "path": path, "ack": 7}}))
        .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let stopping = tokio::spawn(app.stop());

    let mut acked = false;
    let close = loop {
        let frame = tokio::time::timeout(Duration::from_secs(20), a.stream.next())
            .await
            .expect("a frame within 20 s")
            .expect("the socket ends with a close frame")
            .expect("a frame");
        match frame {
            Message::Text(t) => {
                let m: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                assert_ne!(m["t"], "error", "{m}");
                if m["t"] == "ack" && m["d"]["ack"] == 7 {
                    acked = true;
                }
            }
            Message::Close(frame) => break frame,
            _ => {}
        }
    };
    assert!(
        acked,
        "the move in flight was not acknowledged before the close"
    );
    let close = close.expect("a close code");
    assert_eq!(close.code, CloseCode::Away, "{close:?}");
    let _dir = stopping.await.unwrap();

    let storage = Storage::connect(&database_url).await.unwrap();
    let moves = storage.moves(&table).await.unwrap();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0].path, path);
    storage.close().await;
}
