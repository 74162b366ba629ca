//! One node of a cluster: its id, bus, leases and router, and the background work that
//! keeps them in step (lease renewal, take-overs, event relays, the shared lobby list).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};

use super::bus::{next_message, Bus, BusError};
use super::lease::Leases;
use super::proxy::remote_handle;
use super::routing::Router;
use super::takeover::spawn_takeover;
use crate::lobby::Lobby;
use crate::protocol::{ProtoError, ServerMsg, TableSummary};
use crate::storage::Storage;
use crate::table::{TableDeps, TableHandle};
use crate::time::TimeSource;

/// The bus channel of lobby changes.
const LOBBY_CHANNEL: &str = "stella:lobby";

/// A lobby change as it travels between nodes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "l", rename_all = "snake_case")]
enum LobbyChange {
    Update { from: String, summary: TableSummary },
    Remove { from: String, table: String },
}

/// This node's part in a cluster.
#[derive(Debug)]
pub struct ClusterNode {
    /// The node's id, fresh at each start.
    pub id: String,
    /// The bus.
    pub bus: Bus,
    /// The leases this node holds.
    pub leases: Arc<Leases>,
    /// Commands and events between nodes.
    pub router: Arc<Router>,
    storage: Storage,
    time: Arc<dyn TimeSource>,
}

impl ClusterNode {
    /// Joins the cluster on the bus at `bus_url`, with a fresh node id.
    pub async fn connect(
        bus_url: &str,
        storage: Storage,
        lobby: Arc<Lobby>,
        time: Arc<dyn TimeSource>,
        shutdown: watch::Receiver<bool>,
    ) -> Result<ClusterNode, BusError> {
        let id = crate::ids::random_id(10);
        let bus = Bus::connect(bus_url, storage.metrics().clone(), shutdown).await?;
        let leases = Arc::new(Leases::new(storage.clone(), id.clone(), time.clone()));
        let router = Router::start(bus.clone(), id.clone(), lobby)
            .await
            .map_err(|e| BusError::Unreachable(e.message))?;
        Ok(ClusterNode {
            id,
            bus,
            leases,
            router,
            storage,
            time,
        })
    }

    /// Starts the background work: lease renewal, taking over tables nobody runs,
    /// relaying the events of every table started here, and sharing the lobby list.
    pub async fn run(&self, deps: &TableDeps) -> Result<(), BusError> {
        let shutdown = deps.shutdown.clone();
        self.leases.spawn_renewal(shutdown.clone());
        super::cleanup::spawn_close_lost(&self.leases, deps.lobby.clone(), shutdown.clone());
        spawn_takeover(
            deps.clone(),
            self.leases.clone(),
            Some(self.router.clone()),
            shutdown.clone(),
        );
        self.spawn_relays(deps.lobby.clone(), shutdown.clone());
        self.spawn_lobby_sync(deps.lobby.clone(), shutdown).await
    }

    fn spawn_relays(&self, lobby: Arc<Lobby>, mut shutdown: watch::Receiver<bool>) {
        let mut registered = lobby.subscribe_registered();
        let router = self.router.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    handle = registered.recv() => match handle {
                        Ok(handle) => {
                            if let Err(e) = router.relay_events(&handle).await {
                                tracing::warn!(table = %handle.id, error = %e, "could not relay a table");
                            }
                        }
                        Err(broadcast::error::RecvError::Lagged(n)) => {
                            tracing::error!(missed = n, "table relays fell behind");
                        }
                        Err(broadcast::error::RecvError::Closed) => break,
                    },
                    _ = shutdown.changed() => break,
                }
            }
        });
    }

    /// Sends this node's lobby changes to the others and applies theirs.
    async fn spawn_lobby_sync(
        &self,
        lobby: Arc<Lobby>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<(), BusError> {
        let mut remote = self.bus.subscribe_ready(LOBBY_CHANNEL).await?;
        let mut local = lobby.subscribe();
        let bus = self.bus.clone();
        let me = self.id.clone();
        let storage = self.storage.clone();
        let time = self.time.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    msg = local.recv() => {
                        let change = match msg {
                            Ok(ServerMsg::LobbyUpdate(summary)) if lobby.get(&summary.id).is_some() => {
                                LobbyChange::Update { from: me.clone(), summary }
                            }
                            Ok(ServerMsg::LobbyRemove { table }) => {
                                // A table that stopped here because another node took it
                                // over stays listed: its new node lists it.
                                let now = time.now_ms();
                                let elsewhere = storage.lease(&table).await.ok().flatten()
                                    .is_some_and(|l| l.node != me && l.expires_ms > now);
                                if elsewhere {
                                    continue;
                                }
                                LobbyChange::Remove { from: me.clone(), table }
                            }
                            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => continue,
                            Err(broadcast::error::RecvError::Closed) => break,
                        };
                        let payload = serde_json::to_vec(&change).expect("lobby changes serialize");
                        if let Err(e) = bus.publish(LOBBY_CHANNEL, &payload).await {
                            tracing::warn!(error = %e, "could not share a lobby change");
                        }
                    }
                    change = next_message(&mut remote, "lobby changes") => {
                        let Some(change) = change else { break };
                        match change {
                            LobbyChange::Update { from, summary } if from != me => {
                                lobby.publish(summary)
                            }
                            LobbyChange::Remove { from, table }
                                if from != me && lobby.get(&table).is_none() =>
                            {
                                lobby.forget_listed(&table);
                            }
                            _ => {}
                        }
                    }
                    _ = shutdown.changed() => break,
                }
            }
        });
        Ok(())
    }

    /// A handle to `table` when another node runs it now; None when nobody does.
    pub async fn remote_table(&self, table: &str) -> Result<Option<TableHandle>, ProtoError> {
        let lease = self.storage.lease(table).await.map_err(|e| {
            tracing::error!(error = %e, "could not read a table lease");
            unreachable_db()
        })?;
        let now = self.time.now_ms();
        match lease {
            Some(l) if l.expires_ms > now && l.node != self.id => Ok(Some(remote_handle(
                self.router.clone(),
                l.node,
                table.to_owned(),
            ))),
            Some(_) => {
                // Held by nobody, or by this node without its task running: a live
                // game is between two nodes for a moment.
                let game = self.storage.game(table).await.map_err(|e| {
                    tracing::error!(error = %e, "could not read a game");
                    unreachable_db()
                })?;
                if game.is_some_and(|g| g.status == "live") {
                    Err(ProtoError::new(
                        crate::protocol::ErrorCode::Unavailable,
                        "the table is moving to another server; try again in a moment",
                    ))
                } else {
                    Ok(None)
                }
            }
            None => Ok(None),
        }
    }

    /// Why this node cannot serve now, if it cannot: the bus is down.
    pub fn trouble(&self) -> Option<&'static str> {
        (!self.bus.healthy()).then_some("message bus unreachable")
    }

    /// Hands every table over to the other nodes (a graceful stop).
    pub async fn hand_over(&self) {
        if let Err(e) = self.leases.release_all().await {
            tracing::error!(error = %e, "could not hand the tables over");
        }
    }
}

fn unreachable_db() -> ProtoError {
    ProtoError::new(
        crate::protocol::ErrorCode::Unavailable,
        "the database is unreachable; try again",
    )
}
