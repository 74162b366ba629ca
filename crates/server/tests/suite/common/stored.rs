//! What the cluster tests wait for: a table listed in a node's lobby, a game stored
//! with a given status.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use stella_server::storage::Storage;

use super::TestApp;

/// Whether `app` lists table `id` in its lobby.
pub fn listed(app: &TestApp, id: &str) -> bool {
    app.state.lobby.list().iter().any(|t| t.id == id)
}

/// Waits up to 5 s for `app` to list table `id`; `who` names the node in the failure.
pub async fn until_listed(app: &TestApp, id: &str, who: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !listed(app, id) {
        assert!(Instant::now() < deadline, "{who} lists the table");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The stored status of game `id`.
pub async fn status(storage: &Storage, id: &str) -> String {
    storage
        .game(id)
        .await
        .expect("database answers")
        .unwrap_or_else(|| panic!("game {id} stored"))
        .status
}

/// Waits up to `limit` for game `id` to be stored with `want`; returns how long it took.
pub async fn until_status(storage: &Storage, id: &str, want: &str, limit: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let now = status(storage, id).await;
        if now == want {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < limit,
            "game {id} is {now}, not {want}, after {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
