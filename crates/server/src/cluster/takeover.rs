//! Taking over tables nobody runs: the live games of a node that died (its leases
//! lapsed) or stopped gracefully (it released them). Every node scans for them; the
//! lease decides which node gets each one, and the game resumes from the database with
//! the time it stood still charged to nobody.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::cleanup::{close_orphaned_open_tables, release_ended_tables};
use super::lease::{Leases, RENEW_EVERY_MS};
use super::routing::Router;
use crate::storage::StorageResult;
use crate::table::{resume_table, TableDeps, TableHandle};

/// Takes the lease of every live game without a holder and resumes it here; returns
/// the tables taken.
pub async fn take_over_orphans(
    deps: &TableDeps,
    leases: &Leases,
) -> StorageResult<Vec<TableHandle>> {
    let mut taken = Vec::new();
    let now = deps.time.now_ms();
    for id in deps.storage.orphaned_live_games(now).await? {
        if deps.lobby.get(&id).is_some() {
            // Still running here under a lease that lapsed: its next write finds the
            // lease gone and stops it; a later scan resumes it afresh.
            continue;
        }
        if leases.acquire(&id).await?.is_none() {
            continue;
        }
        let Some(game) = deps.storage.game(&id).await? else {
            leases.release(&id, true).await?;
            continue;
        };
        match resume_table(deps, &game).await? {
            Ok(()) => {
                tracing::info!(table = %id, node = %leases.node(), "took a table over");
                if let Some(handle) = deps.lobby.get(&id) {
                    taken.push(handle);
                }
            }
            Err(why) => {
                tracing::error!(table = %id, %why, "could not resume a table taken over");
                leases.release(&id, false).await?;
            }
        }
    }
    Ok(taken)
}

/// Scans for tables to take over every [`RENEW_EVERY_MS`] until `shutdown` turns true;
/// with a router, the events of each table taken are relayed to the other nodes. Each
/// scan also closes the open tables of dead nodes ([`close_orphaned_open_tables`]) and
/// gives up the leases of ended games ([`release_ended_tables`]).
pub fn spawn_takeover(
    deps: TableDeps,
    leases: Arc<Leases>,
    router: Option<Arc<Router>>,
    mut shutdown: watch::Receiver<bool>,
) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(RENEW_EVERY_MS));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.changed() => break,
            }
            match take_over_orphans(&deps, &leases).await {
                Ok(taken) => {
                    if let Some(router) = &router {
                        for handle in taken {
                            if let Err(e) = router.relay_events(&handle).await {
                                tracing::warn!(table = %handle.id, error = %e, "could not relay a table");
                            }
                        }
                    }
                }
                Err(e) => tracing::error!(error = %e, "could not scan for tables to take over"),
            }
            let now = deps.time.now_ms();
            if let Err(e) = close_orphaned_open_tables(&deps.storage, &deps.lobby, now).await {
                tracing::error!(error = %e, "could not close the open tables of dead nodes");
            }
            if let Err(e) = release_ended_tables(&deps.storage, &leases, &deps.lobby, now).await {
                tracing::error!(error = %e, "could not give up the leases of ended games");
            }
        }
    });
}
