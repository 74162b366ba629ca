//! Closing in the database the open tables a dead node left behind.
//!
//! An open table (waiting for players) holds a lease like a live one. When its node
//! dies, the other nodes drop its listing once its heartbeats stop ([`super::orphans`]),
//! and once its lease has lapsed one of them marks its game `aborted`, as a single node
//! does at its next start with the open tables it had: nobody played there, so there is
//! no result to keep and no game to take over, and a user looking at the table later
//! finds it called off rather than waiting for ever.

use crate::lobby::Lobby;
use crate::storage::{Storage, StorageResult};

/// Marks aborted every open game whose lease lapsed by `now` and takes it out of this
/// node's lobby list (the removal reaches the other nodes' lists like any other);
/// returns the games marked. Any node may run it at any time: each game is marked by
/// one node only (see [`Storage::abort_orphaned_open_games`]).
pub async fn close_orphaned_open_tables(
    storage: &Storage,
    lobby: &Lobby,
    now: i64,
) -> StorageResult<Vec<String>> {
    let closed = storage.abort_orphaned_open_games(now).await?;
    for id in &closed {
        if lobby.get(id).is_some() {
            // This node still runs it although its lease lapsed (it could not renew
            // in time): its task ends when it next finds the lease gone.
            tracing::warn!(table = %id, "an open table of this node lost its lease and was closed");
            continue;
        }
        tracing::info!(table = %id, "closed an open table whose node went away");
        lobby.forget_listed(id);
    }
    Ok(closed)
}
