//! The parts of a cluster that concern people rather than tables: the shared quick
//! pairing queue, challenges and who is online, ended sessions, the per-user table
//! limits, and the heartbeats that clear the lobby of a dead node's open tables. Started once the server's state
//! exists.

use super::bus::BusError;
use super::challenges::ClusterChallenges;
use super::orphans::spawn_orphan_sweep;
use super::pairing::ClusterPairing;
use super::quota::ClusterQuota;
use super::sessions::spawn_session_relay;
use crate::state::AppState;

/// Starts this node's social parts; `state` must have joined the cluster.
pub async fn start(state: &AppState) -> Result<(), BusError> {
    let Some(node) = state.cluster() else {
        return Ok(());
    };
    let pairing = ClusterPairing::start(
        node.bus.clone(),
        node.id.clone(),
        state.deps.shutdown.clone(),
    )
    .await?;
    state.pairing.join_cluster(pairing);
    let challenges =
        ClusterChallenges::start(node.bus.clone(), node.id.clone(), state.clone()).await?;
    state.challenges.join_cluster(challenges);
    spawn_session_relay(node.bus.clone(), node.id.clone(), state.clone()).await?;
    state.table_quota.join_cluster(ClusterQuota::start(
        node.bus.clone(),
        state.lobby.clone(),
        state.deps.shutdown.clone(),
    ));
    spawn_orphan_sweep(
        node.bus.clone(),
        node.id.clone(),
        state.lobby.clone(),
        state.deps.shutdown.clone(),
    )
    .await
}
