//! Cleaning what nodes leave behind in the database: the open tables of a dead node,
//! and the leases of games that have ended.
//!
//! An open table (waiting for players) holds a lease like a live one. When its node
//! dies, the other nodes drop its listing once its heartbeats stop ([`super::orphans`]),
//! and once its lease has lapsed one of them marks its game `aborted`, as a single node
//! does at its next start with the open tables it had: nobody played there, so there is
//! no result to keep and no game to take over, and a user looking at the table later
//! finds it called off rather than waiting for ever.

use std::sync::Arc;

use tokio::sync::{broadcast, watch};

use super::lease::{Leases, LEASE_MS};
use crate::lobby::Lobby;
use crate::storage::{Storage, StorageResult};

/// Tells each table task of this node whose lease was lost (a renewal found it lapsed
/// or taken: the node was paused, or cut off from the database, for longer than the
/// lease) until `shutdown`: an open table then closes at once (its game is called
/// off by the sweep of any node), instead of staying listed here, and vouched for in
/// this node's heartbeats, until its next command.
pub fn spawn_close_lost(leases: &Leases, lobby: Arc<Lobby>, mut shutdown: watch::Receiver<bool>) {
    let mut lost = leases.subscribe_lost();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                table = lost.recv() => match table {
                    Ok(table) => {
                        if let Some(handle) = lobby.get(&table) {
                            handle.lease_lost().await;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        // Those tables still close at their next command.
                        tracing::warn!(missed = n, "lost leases went unheard");
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = shutdown.changed() => break,
            }
        }
    });
}

/// Marks aborted every open game whose lease lapsed by `now`, or that has no lease and
/// was made more than [`LEASE_MS`] ago, and takes it out of this node's lobby list (the removal reaches the other nodes' lists like any other);
/// returns the games marked. Any node may run it at any time: each game is marked by
/// one node only (see [`Storage::abort_orphaned_open_games`]).
pub async fn close_orphaned_open_tables(
    storage: &Storage,
    lobby: &Lobby,
    now: i64,
) -> StorageResult<Vec<String>> {
    let closed = storage
        .abort_orphaned_open_games(now, now - LEASE_MS)
        .await?;
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

/// Gives up the leases this node holds for games that have ended and whose task no
/// longer runs here (a finished table keeps its lease while it lingers, so that
/// commands from other nodes, such as a rematch, still reach it), deleting their rows;
/// then deletes the lapsed leases of ended games any node left (a node that died or
/// stopped after they ended). Returns the tables given up here. Without it, every table
/// a node ever ran would stay in its renewals and in the lease table.
///
/// A table just made (`open`) or taken over (`live`) is never given up: only games
/// stored as `finished` or `aborted` are.
pub async fn release_ended_tables(
    storage: &Storage,
    leases: &Leases,
    lobby: &Lobby,
    now: i64,
) -> StorageResult<Vec<String>> {
    let idle: Vec<String> = leases
        .held_tables()
        .into_iter()
        .filter(|t| lobby.get(t).is_none())
        .collect();
    let ended = if idle.is_empty() {
        Vec::new()
    } else {
        storage.ended_games(&idle).await?
    };
    for table in &ended {
        leases.release(table, true).await?;
    }
    storage.delete_lapsed_leases_of_ended_games(now).await?;
    Ok(ended)
}
