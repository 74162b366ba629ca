//! Listings of tables whose node went away.
//!
//! Every node publishes a heartbeat each [`HEARTBEAT_EVERY`]: the ids (and creators) of
//! the open tables and the tables with computer seats it runs. A node forgets the listing of an open table run
//! elsewhere that no node has vouched for in [`SILENT_AFTER`]: its node died (open
//! tables are not taken over: nobody plays there yet), or the table's removal was lost
//! on the bus. Live tables stay listed: another node takes them over and lists them
//! again. The creators in the heartbeat let the per-user table limits count the tables
//! a user made on other nodes.
//!
//! Every [`FULL_EVERY`]th heartbeat also carries the listings of the node's open
//! tables; a node that does not list one of them lists it: a node started after the
//! table was made learns of it, and a listing forgotten while its node could not send
//! heartbeats comes back. A listing never replaces one already there (the heartbeat
//! may be older than the change that put it there).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use super::bus::{next_message, Bus, BusError};
use super::lease::LEASE_MS;
use crate::lobby::Lobby;
use crate::protocol::{PlayerView, TableSummary};

/// The bus channel of the heartbeats.
const CHANNEL: &str = "stella:heartbeat";
/// How often a node publishes its heartbeat.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);
/// How long the listing of an open table run elsewhere lasts without a heartbeat
/// naming it: the lease time, so that a node is given up for its open tables as for
/// its live ones, and a few lost or late heartbeats forget nothing.
pub const SILENT_AFTER: Duration = Duration::from_millis(LEASE_MS as u64);
/// Every how many heartbeats the open tables' listings go along.
pub const FULL_EVERY: u32 = 5;
/// The most tables one heartbeat names (a bound on its size; a node listing more
/// tables than this leaves the rest to the ordinary lobby messages).
const MAX_NAMED: usize = 50_000;

/// One listed table in a heartbeat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Named {
    id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
}

/// A node's heartbeat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Heartbeat {
    node: String,
    tables: Vec<Named>,
    /// The listings of the node's open tables (every [`FULL_EVERY`]th heartbeat).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    open: Vec<TableSummary>,
}

/// When each table listed here but run elsewhere was last vouched for.
#[derive(Debug, Default)]
struct Vouches {
    last: HashMap<String, Instant>,
}

impl Vouches {
    /// Records a heartbeat heard at `at`.
    fn heard(&mut self, beat: &Heartbeat, at: Instant) {
        for t in &beat.tables {
            if let Some(last) = self.last.get_mut(&t.id) {
                *last = at;
            } else if self.last.len() < MAX_NAMED * 4 {
                self.last.insert(t.id.clone(), at);
            }
        }
    }

    /// Of the open tables run elsewhere and listed here, `listed`, those nobody has
    /// vouched for in [`SILENT_AFTER`] by `now` (a table seen for the first time counts
    /// from now). Tables no longer listed are forgotten.
    fn silent(&mut self, listed: &[String], now: Instant) -> Vec<String> {
        let mut silent = Vec::new();
        let mut kept = HashMap::with_capacity(listed.len());
        for id in listed {
            let last = self.last.get(id).copied().unwrap_or(now);
            if now.saturating_duration_since(last) >= SILENT_AFTER {
                silent.push(id.clone());
            } else {
                kept.insert(id.clone(), last);
            }
        }
        self.last = kept;
        silent
    }
}

/// This node's heartbeat: the listed tables it runs that the other nodes need to hear
/// of, with their creators: the open ones (for the lobby) and those with computer
/// seats (for the per-user limit on them). Live tables of people are left out: their
/// listings outlive a dead node until another node takes them over.
fn heartbeat(node: &str, lobby: &Lobby, full: bool) -> Heartbeat {
    let mine: Vec<TableSummary> = lobby
        .list()
        .into_iter()
        .filter(|s| lobby.get(&s.id).is_some())
        .collect();
    let open = if full {
        mine.iter()
            .filter(|s| s.status == "open")
            .take(MAX_NAMED)
            .cloned()
            .collect()
    } else {
        Vec::new()
    };
    let tables = mine
        .into_iter()
        .filter(|s| lobby.get(&s.id).is_some())
        .filter(|s| {
            s.status == "open"
                || s.seats
                    .iter()
                    .any(|seat| matches!(seat.player, PlayerView::Computer { .. }))
        })
        .take(MAX_NAMED)
        .map(|s| Named {
            owner: lobby.owner(&s.id),
            id: s.id,
        })
        .collect();
    Heartbeat {
        node: node.to_owned(),
        tables,
        open,
    }
}

/// Lists the open tables of another node's heartbeat, `open`, that this node does
/// not list (nor run).
fn relist(open: Vec<TableSummary>, lobby: &Lobby) {
    for summary in open {
        let missing = summary.status == "open"
            && lobby.listed(&summary.id).is_none()
            && lobby.get(&summary.id).is_none();
        if missing {
            lobby.publish(summary);
        }
    }
}

/// Publishes this node's heartbeats, hears the others', and forgets the listings of
/// open tables nobody vouches for, until `shutdown`.
pub async fn spawn_orphan_sweep(
    bus: Bus,
    node: String,
    lobby: Arc<Lobby>,
    mut shutdown: watch::Receiver<bool>,
) -> Result<(), BusError> {
    let mut rx = bus.subscribe_ready(CHANNEL).await?;
    tokio::spawn(async move {
        let mut vouches = Vouches::default();
        let mut tick = tokio::time::interval(HEARTBEAT_EVERY);
        let mut beats: u32 = 0;
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    let full = beats.is_multiple_of(FULL_EVERY);
                    beats = beats.wrapping_add(1);
                    let beat = serde_json::to_vec(&heartbeat(&node, &lobby, full)).expect("heartbeats serialize");
                    if let Err(e) = bus.publish(CHANNEL, &beat).await {
                        tracing::warn!(error = %e, "could not publish the heartbeat");
                        // Without the bus, nobody's heartbeat arrives: forget nothing.
                        continue;
                    }
                    let listed: Vec<String> = lobby
                        .list()
                        .into_iter()
                        .filter(|s| s.status == "open" && lobby.get(&s.id).is_none())
                        .map(|s| s.id)
                        .collect();
                    for id in vouches.silent(&listed, Instant::now()) {
                        tracing::info!(table = %id, "forgetting an open table no node lists");
                        lobby.forget_listed(&id);
                    }
                }
                beat = next_message::<Heartbeat>(&mut rx, "heartbeats") => {
                    let Some(beat) = beat else { break };
                    if beat.node != node {
                        vouches.heard(&beat, Instant::now());
                        let Heartbeat { tables, open, .. } = beat;
                        relist(open, &lobby);
                        for t in &tables {
                            if let Some(owner) = &t.owner {
                                lobby.set_listed_owner(&t.id, owner);
                            }
                        }
                    }
                }
                _ = shutdown.changed() => break,
            }
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beat(ids: &[&str]) -> Heartbeat {
        Heartbeat {
            node: "n".into(),
            tables: ids
                .iter()
                .map(|id| Named {
                    id: (*id).into(),
                    owner: None,
                })
                .collect(),
            open: Vec::new(),
        }
    }

    #[test]
    fn a_listing_nobody_vouches_for_is_silent_after_the_grace() {
        let t0 = Instant::now();
        let mut v = Vouches::default();
        let listed = vec!["a".to_string(), "b".to_string()];
        // First seen now: not silent yet.
        assert!(v.silent(&listed, t0).is_empty());
        v.heard(&beat(&["a"]), t0 + Duration::from_secs(2));
        let later = t0 + SILENT_AFTER;
        assert_eq!(v.silent(&listed, later), vec!["b".to_string()]);
        // b's listing is forgotten; a, vouched for at 2 s, is silent from 2 s + SILENT_AFTER.
        let listed = vec!["a".to_string()];
        assert!(v.silent(&listed, later + Duration::from_secs(1)).is_empty());
        assert_eq!(
            v.silent(&listed, t0 + Duration::from_secs(2) + SILENT_AFTER),
            listed
        );
    }

    #[test]
    fn tables_no_longer_listed_are_forgotten() {
        let t0 = Instant::now();
        let mut v = Vouches::default();
        v.heard(&beat(&["a", "b"]), t0);
        v.silent(&["a".to_string()], t0);
        assert_eq!(v.last.len(), 1);
    }

    fn summary(id: &str, status: &str) -> TableSummary {
        TableSummary {
            id: id.into(),
            variant: "classic-2".into(),
            time: None,
            rated: false,
            status: status.into(),
            seats: Vec::new(),
            private: false,
            move_time: None,
            connected: Vec::new(),
            bots: false,
        }
    }

    #[test]
    fn missing_open_tables_are_listed_and_present_ones_left_alone() {
        let lobby = Lobby::new();
        lobby.publish(summary("started", "live"));
        relist(
            vec![
                summary("started", "open"),
                summary("missing", "open"),
                summary("odd", "live"),
            ],
            &lobby,
        );
        assert_eq!(lobby.listed("started").unwrap().status, "live");
        assert_eq!(lobby.listed("missing").unwrap().status, "open");
        assert!(lobby.listed("odd").is_none());
    }

    #[test]
    fn heartbeats_keep_their_form_on_the_wire() {
        let mut b = beat(&["a"]);
        b.tables[0].owner = Some("u".into());
        b.open.push(summary("a", "open"));
        let bytes = serde_json::to_vec(&b).unwrap();
        assert_eq!(serde_json::from_slice::<Heartbeat>(&bytes).unwrap(), b);
    }
}
