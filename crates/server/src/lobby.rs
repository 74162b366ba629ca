//! The lobby: the registry of table tasks and the live list of open and live tables.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use tokio::sync::broadcast;

use crate::protocol::{ServerMsg, TableSummary};
use crate::table::TableHandle;

/// The registry of tables and the lobby list, with a broadcast of its changes.
#[derive(Debug)]
pub struct Lobby {
    tables: Mutex<HashMap<String, TableHandle>>,
    summaries: Mutex<BTreeMap<String, TableSummary>>,
    tx: broadcast::Sender<ServerMsg>,
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby::new()
    }
}

impl Lobby {
    /// An empty lobby.
    pub fn new() -> Self {
        Lobby {
            tables: Mutex::new(HashMap::new()),
            summaries: Mutex::new(BTreeMap::new()),
            tx: broadcast::channel(1024).0,
        }
    }

    /// Registers a table task.
    pub fn register(&self, handle: TableHandle) {
        self.tables
            .lock()
            .expect("lobby lock")
            .insert(handle.id.clone(), handle);
    }

    /// Forgets a table task (it has stopped).
    pub fn deregister(&self, id: &str) {
        self.tables.lock().expect("lobby lock").remove(id);
        self.remove(id);
    }

    /// The task of a table.
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.tables.lock().expect("lobby lock").get(id).cloned()
    }

    /// Every registered table task.
    pub fn handles(&self) -> Vec<TableHandle> {
        self.tables
            .lock()
            .expect("lobby lock")
            .values()
            .cloned()
            .collect()
    }

    /// Publishes a table's new state: listed while open or live, removed otherwise.
    pub fn publish(&self, summary: TableSummary) {
        if summary.status == "open" || summary.status == "live" {
            self.summaries
                .lock()
                .expect("lobby lock")
                .insert(summary.id.clone(), summary.clone());
            let _ = self.tx.send(ServerMsg::LobbyUpdate(summary));
        } else {
            self.remove(&summary.id);
        }
    }

    fn remove(&self, id: &str) {
        if self
            .summaries
            .lock()
            .expect("lobby lock")
            .remove(id)
            .is_some()
        {
            let _ = self.tx.send(ServerMsg::LobbyRemove {
                table: id.to_owned(),
            });
        }
    }

    /// The current list, ordered by table id.
    pub fn list(&self) -> Vec<TableSummary> {
        self.summaries
            .lock()
            .expect("lobby lock")
            .values()
            .cloned()
            .collect()
    }

    /// A receiver of lobby changes.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerMsg> {
        self.tx.subscribe()
    }
}
