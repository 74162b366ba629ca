//! A computer seat whose search fails (panics, or finds nothing) is asked once more,
//! then plays the quickest legal move: the table never waits on a dead search.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::common::{spawn_app_with, Options};
use serde_json::json;
use stella_engine::{Game, Move};
use stella_server::computer::ComputerPlayer;

/// A search that always fails, counting how often it was asked.
#[derive(Debug, Default)]
struct BrokenSearch {
    panics: bool,
    calls: AtomicUsize,
}

impl ComputerPlayer for BrokenSearch {
    fn choose(&self, _game: &Game, _level: u8, _think_ms: i64) -> Option<Move> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if self.panics {
            panic!("the search crashed");
        }
        None
    }
}

async fn computer_still_moves(search: Arc<BrokenSearch>) {
    let app = spawn_app_with(Options {
        computer: Some(search.clone()),
        ..Options::default()
    })
    .await;
    let me = app.guest().await;
    let mut ws = app.ws(Some(&me)).await;
    let table = ws
        .create(json!({"variant": "classic-2", "seats": ["me", {"computer": 3}]}))
        .await;
    let snap = ws.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["status"], "live");
    ws.send(json!({"t": "move", "d": {"table": table, "path": "m4-m5", "ack": 1}}))
        .await;
    let reply = ws
        .recv_until(|m| m["t"] == "event" && m["d"]["ply"] == 2)
        .await;
    assert_eq!(reply["d"]["colour"], "black");
    assert_eq!(reply["d"]["turn"], "white");
    assert_eq!(
        search.calls.load(Ordering::SeqCst),
        2,
        "one retry, then the fallback move"
    );
    // The game goes on normally.
    ws.send(json!({"t": "move", "d": {"table": table, "path": "m3-m4", "ack": 2}}))
        .await;
    let next = ws
        .recv_until(|m| m["t"] == "event" && m["d"]["ply"] == 4)
        .await;
    assert_eq!(next["d"]["colour"], "black");
}

#[tokio::test]
async fn a_computer_seat_whose_search_panics_still_moves() {
    computer_still_moves(Arc::new(BrokenSearch {
        panics: true,
        ..BrokenSearch::default()
    }))
    .await;
}

#[tokio::test]
async fn a_computer_seat_whose_search_finds_nothing_still_moves() {
    computer_still_moves(Arc::new(BrokenSearch::default())).await;
}
