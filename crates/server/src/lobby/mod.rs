//! The lobby: the registry of table tasks and the live list of open and live tables,
//! with who created each table and when its seats last changed (for the limits on what
//! one user may hold and for closing tables nobody joins).

mod index;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::protocol::{PlayerView, ServerMsg, TableSummary};
use crate::table::TableHandle;
use crate::time::{Millis, SystemTimeSource, TimeSource};

use index::UserTables;

/// The registry of tables and the lobby list, with a broadcast of its changes.
#[derive(Debug)]
pub struct Lobby {
    tables: Mutex<HashMap<String, TableHandle>>,
    summaries: Mutex<BTreeMap<String, TableSummary>>,
    /// Open and live private tables: never listed or broadcast.
    private: Mutex<HashMap<String, TableSummary>>,
    owners: Mutex<HashMap<String, String>>,
    /// The tables each user created or sits at (kept by [`Lobby::reindex`]).
    /// Locks are taken in the order `owners`, `summaries`, `holders`.
    holders: Mutex<UserTables>,
    seats_changed: Mutex<HashMap<String, Millis>>,
    time: Arc<dyn TimeSource>,
    tx: broadcast::Sender<ServerMsg>,
    registered: broadcast::Sender<TableHandle>,
}

/// What one user holds in the lobby now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Holdings {
    /// Open tables the user created or sits at.
    pub open_tables: usize,
    /// Open or live tables with computer seats the user created.
    pub computer_tables: usize,
}

fn has_human(summary: &TableSummary, user_id: &str) -> bool {
    summary
        .seats
        .iter()
        .any(|s| matches!(&s.player, PlayerView::Human { id, .. } if id == user_id))
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby::new()
    }
}

impl Lobby {
    /// An empty lobby on the system clock.
    pub fn new() -> Self {
        Lobby::with_time(Arc::new(SystemTimeSource))
    }

    /// An empty lobby reading `time` for when seats change.
    pub fn with_time(time: Arc<dyn TimeSource>) -> Self {
        Lobby {
            tables: Mutex::new(HashMap::new()),
            summaries: Mutex::new(BTreeMap::new()),
            private: Mutex::new(HashMap::new()),
            owners: Mutex::new(HashMap::new()),
            holders: Mutex::new(UserTables::default()),
            seats_changed: Mutex::new(HashMap::new()),
            time,
            tx: broadcast::channel(1024).0,
            registered: broadcast::channel(1024).0,
        }
    }

    /// Records `user_id` as the creator of a registered table; false (and nothing
    /// recorded) when the table has already stopped.
    pub fn set_owner(&self, table: &str, user_id: &str) -> bool {
        {
            let tables = self.tables.lock().expect("lobby lock");
            if !tables.contains_key(table) {
                return false;
            }
            self.owners
                .lock()
                .expect("lobby lock")
                .insert(table.to_owned(), user_id.to_owned());
        }
        self.reindex(table);
        true
    }

    /// The creator of a table run here, if recorded.
    pub fn owner(&self, table: &str) -> Option<String> {
        self.owners.lock().expect("lobby lock").get(table).cloned()
    }

    /// Records `user_id` as the creator of a listed table another node runs (as that
    /// node reports it), so that the per-user limits count it here too; false (and
    /// nothing recorded) when the table is run here or not listed.
    pub fn set_listed_owner(&self, table: &str, user_id: &str) -> bool {
        {
            let tables = self.tables.lock().expect("lobby lock");
            if tables.contains_key(table) {
                return false;
            }
            let mut owners = self.owners.lock().expect("lobby lock");
            if !self
                .summaries
                .lock()
                .expect("lobby lock")
                .contains_key(table)
            {
                return false;
            }
            owners.insert(table.to_owned(), user_id.to_owned());
        }
        self.reindex(table);
        true
    }

    /// Links `table` to its creator and the people listed in its seats, as they are
    /// now; called after every change of either.
    fn reindex(&self, table: &str) {
        let owners = self.owners.lock().expect("lobby lock");
        let summaries = self.summaries.lock().expect("lobby lock");
        let seated = summaries
            .get(table)
            .into_iter()
            .flat_map(|s| s.seats.iter())
            .filter_map(|seat| match &seat.player {
                PlayerView::Human { id, .. } => Some(id.as_str()),
                _ => None,
            });
        let owner = owners.get(table).map(String::as_str);
        self.holders
            .lock()
            .expect("lobby lock")
            .set(table, owner.into_iter().chain(seated));
    }

    /// What `user_id` holds now (see [`Holdings`]); looks at that user's tables only.
    pub fn holdings(&self, user_id: &str) -> Holdings {
        let owners = self.owners.lock().expect("lobby lock");
        let summaries = self.summaries.lock().expect("lobby lock");
        let holders = self.holders.lock().expect("lobby lock");
        let mut held = Holdings::default();
        for s in holders.tables(user_id).filter_map(|t| summaries.get(t)) {
            let created = owners.get(&s.id).is_some_and(|o| o == user_id);
            if s.status == "open" && (created || has_human(s, user_id)) {
                held.open_tables += 1;
            }
            let computers = s
                .seats
                .iter()
                .any(|seat| matches!(seat.player, PlayerView::Computer { .. }));
            if created && computers {
                held.computer_tables += 1;
            }
        }
        held
    }

    /// Open tables whose seats have not changed for `idle_ms`, with the people
    /// seated at each.
    pub fn idle_open_tables(&self, now: Millis, idle_ms: Millis) -> Vec<(String, Vec<String>)> {
        let changed = self.seats_changed.lock().expect("lobby lock");
        let summaries = self.summaries.lock().expect("lobby lock");
        summaries
            .values()
            .filter(|s| s.status == "open")
            .filter(|s| changed.get(&s.id).is_some_and(|&at| now - at >= idle_ms))
            .map(|s| {
                let people = s
                    .seats
                    .iter()
                    .filter_map(|seat| match &seat.player {
                        PlayerView::Human { id, .. } => Some(id.clone()),
                        _ => None,
                    })
                    .collect();
                (s.id.clone(), people)
            })
            .collect()
    }

    /// Registers a table task.
    pub fn register(&self, handle: TableHandle) {
        self.tables
            .lock()
            .expect("lobby lock")
            .insert(handle.id.clone(), handle.clone());
        let _ = self.registered.send(handle);
    }

    /// A receiver of every table task registered from now on.
    pub fn subscribe_registered(&self) -> broadcast::Receiver<TableHandle> {
        self.registered.subscribe()
    }

    /// Takes a table out of the list (one another node ran, which has ended).
    pub fn forget_listed(&self, id: &str) {
        self.seats_changed.lock().expect("lobby lock").remove(id);
        if !self.tables.lock().expect("lobby lock").contains_key(id) {
            self.owners.lock().expect("lobby lock").remove(id);
        }
        self.remove(id);
    }

    /// Forgets a table task (it has stopped).
    pub fn deregister(&self, id: &str) {
        self.tables.lock().expect("lobby lock").remove(id);
        self.owners.lock().expect("lobby lock").remove(id);
        self.seats_changed.lock().expect("lobby lock").remove(id);
        self.private.lock().expect("lobby lock").remove(id);
        self.remove(id);
    }

    /// How many table tasks are registered.
    pub fn table_count(&self) -> usize {
        self.tables.lock().expect("lobby lock").len()
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
            let previous = self
                .summaries
                .lock()
                .expect("lobby lock")
                .insert(summary.id.clone(), summary.clone());
            if previous.is_none_or(|p| p.seats != summary.seats) {
                self.seats_changed
                    .lock()
                    .expect("lobby lock")
                    .insert(summary.id.clone(), self.time.now_ms());
                self.reindex(&summary.id);
            }
            let _ = self.tx.send(ServerMsg::LobbyUpdate(summary));
        } else {
            self.remove(&summary.id);
        }
    }

    /// Records a private table's new state (kept while open or live, never listed).
    pub fn publish_private(&self, summary: TableSummary) {
        let mut private = self.private.lock().expect("lobby lock");
        if summary.status == "open" || summary.status == "live" {
            private.insert(summary.id.clone(), summary);
        } else {
            private.remove(&summary.id);
        }
    }

    /// Every open or live table, the private ones included (for counting what one
    /// user plays; never sent to clients).
    pub fn list_all(&self) -> Vec<TableSummary> {
        let mut all = self.list();
        all.extend(self.private.lock().expect("lobby lock").values().cloned());
        all
    }

    fn remove(&self, id: &str) {
        let removed = self
            .summaries
            .lock()
            .expect("lobby lock")
            .remove(id)
            .is_some();
        // Also after an owner was forgotten (deregister, forget_listed).
        self.reindex(id);
        if removed {
            let _ = self.tx.send(ServerMsg::LobbyRemove {
                table: id.to_owned(),
            });
        }
    }

    /// The listing of table `id`, if listed.
    pub fn listed(&self, id: &str) -> Option<TableSummary> {
        self.summaries.lock().expect("lobby lock").get(id).cloned()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SeatView;

    fn computer_table(id: &str, status: &str) -> TableSummary {
        TableSummary {
            id: id.into(),
            variant: "classic-2".into(),
            time: None,
            rated: false,
            status: status.into(),
            seats: vec![
                SeatView {
                    seat: 0,
                    colour: "red".into(),
                    player: PlayerView::Open,
                },
                SeatView {
                    seat: 1,
                    colour: "green".into(),
                    player: PlayerView::Computer { level: 3 },
                },
            ],
            private: false,
            move_time: None,
            connected: vec![false, true],
            bots: false,
        }
    }

    #[test]
    fn a_listed_table_of_another_node_counts_for_its_creator() {
        let lobby = Lobby::new();
        assert!(
            !lobby.set_listed_owner("t1", "u"),
            "nothing recorded for a table that is not listed"
        );
        lobby.publish(computer_table("t1", "open"));
        assert!(lobby.set_listed_owner("t1", "u"));
        assert_eq!(
            lobby.holdings("u"),
            Holdings {
                open_tables: 1,
                computer_tables: 1
            }
        );
        lobby.publish(computer_table("t1", "live"));
        assert_eq!(lobby.holdings("u").open_tables, 0);
        assert_eq!(lobby.holdings("u").computer_tables, 1);
        lobby.forget_listed("t1");
        assert_eq!(lobby.holdings("u"), Holdings::default());
        assert_eq!(lobby.owner("t1"), None, "forgotten with its listing");
    }

    fn seated(table: &str, status: &str, player: &str) -> TableSummary {
        let mut s = computer_table(table, status);
        s.seats[0].player = PlayerView::Human {
            id: player.into(),
            name: player.into(),
            guest: true,
            bot: false,
        };
        s.seats[1].player = PlayerView::Open;
        s
    }

    #[test]
    fn holdings_follow_seats_and_listings_of_each_user_only() {
        let lobby = Lobby::new();
        lobby.publish(seated("t1", "open", "ann"));
        lobby.publish(seated("t2", "open", "ann"));
        lobby.publish(seated("t3", "open", "bob"));
        assert_eq!(lobby.holdings("ann").open_tables, 2);
        assert_eq!(lobby.holdings("bob").open_tables, 1);
        // Ann's seat at t2 is taken by Cy.
        lobby.publish(seated("t2", "open", "cy"));
        assert_eq!(lobby.holdings("ann").open_tables, 1);
        assert_eq!(lobby.holdings("cy").open_tables, 1);
        // A table that starts is no longer open; one that ends is no longer listed.
        lobby.publish(seated("t1", "live", "ann"));
        assert_eq!(lobby.holdings("ann").open_tables, 0);
        lobby.publish(seated("t3", "finished", "bob"));
        assert_eq!(lobby.holdings("bob"), Holdings::default());
        assert_eq!(lobby.holders.lock().unwrap().tables("bob").count(), 0);
    }
}
