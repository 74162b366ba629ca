//! The leases one node holds, kept alive by a renewal loop.
//!
//! A lease lasts [`LEASE_MS`] (5 s) and is renewed every [`RENEW_EVERY_MS`] (1 s): four
//! renewals can fail (a database hiccup, a long pause) before the table is lost, while
//! the tables of a node that died are taken over within about six seconds (the rest of
//! the lease, then the next scan of the taking node). A node stops acting for a table
//! [`SAFETY_MS`] before its own last renewal runs out, so that it has stopped before
//! another node, whose clock may run up to that much ahead, can take it; the epoch check
//! in every move's transaction keeps even a node that missed that moment from storing
//! anything after a take-over.
//!
//! The number of leases held is kept in the storage's metrics (`stella_leases_held`)
//! after every take, renewal and release.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use crate::storage::{Fence, GameRow, LeaseRow, SeatRow, Storage, StorageResult};
use crate::time::{Millis, TimeSource};

/// How long a lease lasts from its last renewal.
pub const LEASE_MS: Millis = 5_000;
/// How often the holder renews its leases.
pub const RENEW_EVERY_MS: u64 = 1_000;
/// How long before its lease runs out a node stops acting for a table.
pub const SAFETY_MS: Millis = 1_000;

/// The proof a node holds a table, carried by every fenced write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseToken {
    /// The table.
    pub table: String,
    /// The holding node.
    pub node: String,
    /// The epoch of this holding.
    pub epoch: i64,
}

#[derive(Debug, Clone, Copy)]
struct Held {
    epoch: i64,
    /// Until when this node may act for the table (lease expiry less [`SAFETY_MS`]).
    act_until: Millis,
}

/// The leases held by one node.
#[derive(Debug)]
pub struct Leases {
    storage: Storage,
    node: String,
    time: Arc<dyn TimeSource>,
    held: Mutex<HashMap<String, Held>>,
    lost: broadcast::Sender<String>,
}

impl Leases {
    /// The leases of `node` (none held yet).
    pub fn new(storage: Storage, node: impl Into<String>, time: Arc<dyn TimeSource>) -> Self {
        Leases {
            storage,
            node: node.into(),
            time,
            held: Mutex::new(HashMap::new()),
            lost: broadcast::channel(256).0,
        }
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Takes the lease of `table` when it is free or lapsed; None when another node
    /// holds it.
    pub async fn acquire(&self, table: &str) -> StorageResult<Option<LeaseToken>> {
        let now = self.time.now_ms();
        let row = self
            .storage
            .acquire_lease(table, &self.node, now, now + LEASE_MS)
            .await?;
        Ok(row.map(|row| {
            self.hold(&row);
            LeaseToken {
                table: table.to_owned(),
                node: self.node.clone(),
                epoch: row.epoch,
            }
        }))
    }

    /// Stores a new table's game and seats together with its first lease (one
    /// transaction), which this node holds from then on.
    pub async fn insert_game(
        &self,
        game: &GameRow,
        seats: &[SeatRow],
    ) -> StorageResult<LeaseToken> {
        let now = self.time.now_ms();
        let row = self
            .storage
            .insert_game_leased(game, seats, &self.node, now + LEASE_MS)
            .await?;
        self.hold(&row);
        Ok(LeaseToken {
            table: game.id.clone(),
            node: self.node.clone(),
            epoch: row.epoch,
        })
    }

    fn hold(&self, row: &LeaseRow) {
        self.held.lock().expect("lease lock").insert(
            row.table_id.clone(),
            Held {
                epoch: row.epoch,
                act_until: row.expires_ms - SAFETY_MS,
            },
        );
        self.report_count();
    }

    /// Puts the number of leases held in the metrics.
    fn report_count(&self) {
        self.storage.metrics().set_leases_held(self.count());
    }

    /// The token of `table` while this node may still act for it: held, and not within
    /// [`SAFETY_MS`] of running out since the last successful renewal.
    pub fn token(&self, table: &str) -> Option<LeaseToken> {
        let now = self.time.now_ms();
        let held = self.held.lock().expect("lease lock");
        held.get(table)
            .filter(|h| now < h.act_until)
            .map(|h| LeaseToken {
                table: table.to_owned(),
                node: self.node.clone(),
                epoch: h.epoch,
            })
    }

    /// The fence of a write of `table` now (see [`Fence`]), while this node may still
    /// act for it ([`Self::token`]).
    pub fn fence(&self, table: &str) -> Option<Fence> {
        self.token(table).map(|t| Fence {
            node: t.node,
            epoch: t.epoch,
            now: self.time.now_ms(),
        })
    }

    /// The tables this node holds.
    pub fn held_tables(&self) -> Vec<String> {
        self.held
            .lock()
            .expect("lease lock")
            .keys()
            .cloned()
            .collect()
    }

    /// How many tables this node holds.
    pub fn count(&self) -> usize {
        self.held.lock().expect("lease lock").len()
    }

    /// A receiver of the ids of tables this node lost (its lease lapsed or was taken).
    pub fn subscribe_lost(&self) -> broadcast::Receiver<String> {
        self.lost.subscribe()
    }

    /// Renews every lease once. Tables the database no longer lists as held by this
    /// node are dropped and announced as lost; on a database error nothing changes, so
    /// the tokens run out on their own. A table taken while the renewal was on its way
    /// is left as its take set it.
    pub async fn renew_once(&self) -> StorageResult<()> {
        let asked = self.epochs();
        let now = self.time.now_ms();
        let rows = self
            .storage
            .renew_leases(&self.node, now, now + LEASE_MS)
            .await?;
        self.apply_renewal(&asked, &rows);
        Ok(())
    }

    /// The epoch of every table held now.
    fn epochs(&self) -> HashMap<String, i64> {
        let held = self.held.lock().expect("lease lock");
        held.iter().map(|(t, h)| (t.clone(), h.epoch)).collect()
    }

    /// Applies the answer of a renewal asked while the tables `asked` were held: a table
    /// renewed under its epoch acts until its new expiry; one that was asked for and not
    /// renewed is lost; one taken since (not in `asked`) keeps its own expiry.
    fn apply_renewal(&self, asked: &HashMap<String, i64>, rows: &[LeaseRow]) {
        let mut lost = Vec::new();
        {
            let mut held = self.held.lock().expect("lease lock");
            let renewed: HashMap<&str, &LeaseRow> =
                rows.iter().map(|r| (r.table_id.as_str(), r)).collect();
            held.retain(|table, h| match renewed.get(table.as_str()) {
                Some(row) if row.epoch == h.epoch => {
                    h.act_until = row.expires_ms - SAFETY_MS;
                    true
                }
                _ if asked.get(table) != Some(&h.epoch) => true,
                _ => {
                    lost.push(table.clone());
                    false
                }
            });
        }
        self.report_count();
        for table in lost {
            tracing::warn!(%table, node = %self.node, "lost the lease of a table");
            let _ = self.lost.send(table);
        }
    }

    /// Gives `table` up at once (its game ended, or the node hands it over).
    pub async fn release(&self, table: &str, finished: bool) -> StorageResult<()> {
        let held = self.held.lock().expect("lease lock").remove(table);
        self.report_count();
        if let Some(h) = held {
            if finished {
                self.storage
                    .delete_lease(table, &self.node, h.epoch)
                    .await?;
            } else {
                self.storage
                    .release_lease(table, &self.node, h.epoch)
                    .await?;
            }
        }
        Ok(())
    }

    /// Gives every held table up (a graceful stop), so that other nodes take them over
    /// without waiting for the leases to run out.
    pub async fn release_all(&self) -> StorageResult<()> {
        let tables: Vec<String> = self
            .held
            .lock()
            .expect("lease lock")
            .keys()
            .cloned()
            .collect();
        for table in tables {
            self.release(&table, false).await?;
        }
        Ok(())
    }

    /// Renews the leases every [`RENEW_EVERY_MS`] until `shutdown` turns true.
    pub fn spawn_renewal(self: &Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let leases = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(RENEW_EVERY_MS));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        if let Err(e) = leases.renew_once().await {
                            tracing::error!(error = %e, "could not renew table leases");
                        }
                    }
                    _ = shutdown.changed() => break,
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::ManualTime;

    async fn storage() -> (tempfile::TempDir, Storage) {
        let dir = tempfile::tempdir().unwrap();
        let url = dir.path().join("leases.db");
        let storage = Storage::connect(url.to_str().unwrap()).await.unwrap();
        (dir, storage)
    }

    #[tokio::test]
    async fn a_token_runs_out_before_the_lease_without_renewal() {
        let (_dir, storage) = storage().await;
        let time = Arc::new(ManualTime::new(10_000));
        let leases = Leases::new(storage, "a", time.clone());
        let token = leases.acquire("t1").await.unwrap().unwrap();
        assert_eq!(token.epoch, 1);
        assert_eq!(leases.token("t1"), Some(token));
        time.advance(LEASE_MS - SAFETY_MS);
        assert_eq!(leases.token("t1"), None);
    }

    #[tokio::test]
    async fn a_taken_table_is_announced_as_lost() {
        let (_dir, storage) = storage().await;
        let time = Arc::new(ManualTime::new(10_000));
        let a = Leases::new(storage.clone(), "a", time.clone());
        let b = Leases::new(storage, "b", time.clone());
        a.acquire("t1").await.unwrap().unwrap();
        assert_eq!(b.acquire("t1").await.unwrap(), None);
        time.advance(LEASE_MS);
        let taken = b.acquire("t1").await.unwrap().unwrap();
        assert_eq!(taken.epoch, 2);
        let mut lost = a.subscribe_lost();
        a.renew_once().await.unwrap();
        assert_eq!(lost.try_recv().unwrap(), "t1");
        assert_eq!(a.count(), 0);
        assert_eq!(leases_held(&a), 0.0);
    }

    fn leases_held(leases: &Leases) -> f64 {
        let text = leases.storage.metrics().render(0);
        text.lines()
            .find_map(|l| l.strip_prefix("stella_leases_held "))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no stella_leases_held in\n{text}"))
    }

    #[tokio::test]
    async fn a_table_taken_while_a_renewal_is_on_its_way_is_not_lost() {
        let (_dir, storage) = storage().await;
        let time = Arc::new(ManualTime::new(10_000));
        let a = Leases::new(storage.clone(), "a", time.clone());
        let mut lost = a.subscribe_lost();
        a.acquire("t1").await.unwrap().unwrap();
        // The renewal is asked for t1; t2 is taken before its answer, which lists t1 only.
        let asked = a.epochs();
        a.acquire("t2").await.unwrap().unwrap();
        time.advance(500);
        let now = time.now_ms();
        let rows: Vec<LeaseRow> = storage
            .renew_leases("a", now, now + LEASE_MS)
            .await
            .unwrap()
            .into_iter()
            .filter(|r| r.table_id == "t1")
            .collect();
        a.apply_renewal(&asked, &rows);
        assert!(lost.try_recv().is_err(), "no table lost");
        assert_eq!(a.count(), 2);
        assert!(a.token("t2").is_some());
        // A table that was asked for and is missing from the answer is lost.
        a.apply_renewal(&a.epochs(), &rows);
        assert_eq!(lost.try_recv().unwrap(), "t2");
        assert_eq!(a.count(), 1);
    }

    #[tokio::test]
    async fn the_metrics_count_the_leases_held() {
        let (_dir, storage) = storage().await;
        let time = Arc::new(ManualTime::new(10_000));
        let a = Leases::new(storage, "a", time.clone());
        a.acquire("t1").await.unwrap().unwrap();
        a.acquire("t2").await.unwrap().unwrap();
        assert_eq!(leases_held(&a), 2.0);
        a.renew_once().await.unwrap();
        assert_eq!(leases_held(&a), 2.0);
        a.release("t1", false).await.unwrap();
        assert_eq!(leases_held(&a), 1.0);
    }

    #[tokio::test]
    async fn a_new_game_is_stored_with_its_lease() {
        let (_dir, storage) = storage().await;
        let time = Arc::new(ManualTime::new(10_000));
        let a = Leases::new(storage.clone(), "a", time.clone());
        let game = GameRow::open("t1", "classic-2", None, 10_000);
        let token = a.insert_game(&game, &[]).await.unwrap();
        assert_eq!((token.node.as_str(), token.epoch), ("a", 1));
        assert_eq!(a.token("t1"), Some(token));
        let row = storage.lease("t1").await.unwrap().unwrap();
        assert_eq!(row.expires_ms, 10_000 + LEASE_MS);
        assert_eq!(storage.game("t1").await.unwrap().unwrap().status, "open");
        // The same id again stores neither the game nor a lease.
        assert!(a.insert_game(&game, &[]).await.is_err());
        assert_eq!(storage.lease("t1").await.unwrap().unwrap().epoch, 1);
    }

    #[tokio::test]
    async fn a_game_starts_only_while_open_and_under_its_lease() {
        let (_dir, storage) = storage().await;
        let time = Arc::new(ManualTime::new(10_000));
        let a = Leases::new(storage.clone(), "a", time.clone());
        for id in ["ok", "aborted", "lapsed", "taken"] {
            a.insert_game(&GameRow::open(id, "classic-2", None, 10_000), &[])
                .await
                .unwrap();
        }
        let fence = |table: &str| a.fence(table).unwrap();
        let (ok, aborted, lapsed) = (fence("ok"), fence("aborted"), fence("lapsed"));
        let mut taken = fence("taken");
        storage.abort_game("aborted", 10_500).await.unwrap();
        // The same lease read at a later time than its expiry.
        let lapsed = Fence {
            now: 10_000 + LEASE_MS,
            ..lapsed
        };
        taken.epoch += 1;
        for (table, fence, started) in [
            ("aborted", aborted, false),
            ("lapsed", lapsed, false),
            ("taken", taken, false),
            ("ok", ok.clone(), true),
            ("ok", ok, false),
        ] {
            assert_eq!(
                storage
                    .start_game(table, 11_000, None, 2, Some(&fence))
                    .await
                    .unwrap(),
                started,
                "{table}"
            );
        }
        let status = |id: &'static str| {
            let storage = storage.clone();
            async move { storage.game(id).await.unwrap().unwrap().status }
        };
        assert_eq!(status("ok").await, "live");
        assert_eq!(status("aborted").await, "aborted");
        assert_eq!(status("lapsed").await, "open");
        assert_eq!(status("taken").await, "open");
        // Without a lease (a single node) only the status counts.
        storage
            .insert_game(&GameRow::open("single", "classic-2", None, 1), &[])
            .await
            .unwrap();
        assert!(storage
            .start_game("single", 5, None, 2, None)
            .await
            .unwrap());
        assert!(!storage
            .start_game("single", 6, None, 2, None)
            .await
            .unwrap());
    }

    #[tokio::test]
    async fn a_released_table_is_free_at_once() {
        let (_dir, storage) = storage().await;
        let time = Arc::new(ManualTime::new(10_000));
        let a = Leases::new(storage.clone(), "a", time.clone());
        let b = Leases::new(storage, "b", time.clone());
        a.acquire("t1").await.unwrap().unwrap();
        a.release_all().await.unwrap();
        assert_eq!(b.acquire("t1").await.unwrap().unwrap().epoch, 2);
    }
}
