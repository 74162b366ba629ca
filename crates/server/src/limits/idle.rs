//! Closing tables nobody joins: an open table whose seats have not changed for the
//! configured time is closed by taking every seated person out of it (the table closes
//! when its last person leaves, as when they leave themselves).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::lobby::Lobby;
use crate::time::{next_jump, TimeSource};

/// Starts the task that closes open tables idle for `idle`; it ends with the server.
pub fn spawn_idle_closer(
    lobby: Arc<Lobby>,
    time: Arc<dyn TimeSource>,
    idle: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    let idle_ms = idle.as_millis() as i64;
    let every = (idle / 10).clamp(Duration::from_millis(100), Duration::from_secs(30));
    let mut jumps = time.jumps();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = next_jump(&mut jumps) => {}
                _ = shutdown.changed() => break,
            }
            for (table, people) in lobby.idle_open_tables(time.now_ms(), idle_ms) {
                let Some(handle) = lobby.get(&table) else {
                    continue;
                };
                tracing::info!(%table, "closing a table nobody joined");
                for person in people {
                    // A person may have left or the game started meanwhile: the table
                    // answers with an error and stays as it is.
                    let _ = handle.leave(person).await;
                }
            }
        }
    });
}
