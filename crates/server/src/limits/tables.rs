//! Limits on the tables one user holds: open tables they created or sit at, and open
//! or live tables with computer seats they created. A check and the creation it allows
//! are made atomic by a reservation, so parallel requests (from several connections of
//! one user) cannot slip past the limit together. In a cluster the reservation is also
//! counted in Redis ([`ClusterQuota`]), so requests spread over several nodes cannot
//! either.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::cluster::quota::{ClusterHold, ClusterQuota};
use crate::lobby::Lobby;
use crate::protocol::{ErrorCode, ProtoError};

/// How many tables of each kind one user may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableLimits {
    /// Open tables created or seated at.
    pub open_tables: usize,
    /// Open or live tables with computer seats, created.
    pub computer_tables: usize,
}

#[derive(Debug, Default, Clone, Copy)]
struct Pending {
    open: usize,
    computer: usize,
}

/// Table creations and joins in progress, per user.
#[derive(Debug, Default)]
pub struct TableQuota {
    pending: Arc<Mutex<HashMap<String, Pending>>>,
    cluster: OnceLock<Arc<ClusterQuota>>,
}

/// A place held for one table being created or joined; released by
/// [`Reservation::done`] or when dropped (by then the lobby counts the table itself).
#[derive(Debug)]
pub struct Reservation {
    _here: LocalReservation,
    cluster: Option<ClusterHold>,
}

impl Reservation {
    /// Releases the place once the creation or join of `table` is over; in a cluster,
    /// after the table counts in Redis (see [`ClusterHold::done`]).
    pub async fn done(self, table: &str) {
        if let Some(hold) = self.cluster {
            hold.done(Some(table)).await;
        }
    }
}

/// The place held on this node.
#[derive(Debug)]
struct LocalReservation {
    pending: Arc<Mutex<HashMap<String, Pending>>>,
    user: String,
    computer: bool,
}

impl Drop for LocalReservation {
    fn drop(&mut self) {
        let mut pending = self.pending.lock().expect("quota lock");
        if let Some(p) = pending.get_mut(&self.user) {
            p.open = p.open.saturating_sub(1);
            if self.computer {
                p.computer = p.computer.saturating_sub(1);
            }
            if p.open == 0 && p.computer == 0 {
                pending.remove(&self.user);
            }
        }
    }
}

/// The refusal of a table past the open tables limit, with `open` held.
pub(crate) fn too_many_tables(open: usize, limits: TableLimits) -> ProtoError {
    ProtoError::new(
        ErrorCode::TooManyTables,
        format!(
            "you already hold {open} open tables (the most is {}); leave one or wait \
             for one to start",
            limits.open_tables
        ),
    )
}

/// The refusal of a table past the computer tables limit, with `held` held.
pub(crate) fn too_many_computer_tables(held: usize, limits: TableLimits) -> ProtoError {
    ProtoError::new(
        ErrorCode::TooManyComputerTables,
        format!(
            "you already have {held} tables with computer seats (the most is \
             {}); finish or resign one first",
            limits.computer_tables
        ),
    )
}

impl TableQuota {
    /// Counts the reservations in Redis too, shared with every node (once, at start).
    pub fn join_cluster(&self, quota: Arc<ClusterQuota>) {
        let _ = self.cluster.set(quota);
    }

    /// Holds a place for one more open table of `user` (with computer seats when
    /// `computer`), or says which limit it would pass: on this node, then in a cluster
    /// on every node.
    pub async fn reserve(
        &self,
        lobby: &Lobby,
        limits: TableLimits,
        user: &str,
        computer: bool,
    ) -> Result<Reservation, ProtoError> {
        let here = self.reserve_here(lobby, limits, user, computer)?;
        let cluster = match self.cluster.get() {
            Some(quota) => Some(quota.reserve(user, limits, computer).await?),
            None => None,
        };
        Ok(Reservation {
            _here: here,
            cluster,
        })
    }

    /// Holds a place on this node (the lobby's count and the requests under way here).
    fn reserve_here(
        &self,
        lobby: &Lobby,
        limits: TableLimits,
        user: &str,
        computer: bool,
    ) -> Result<LocalReservation, ProtoError> {
        let mut pending = self.pending.lock().expect("quota lock");
        let held = lobby.holdings(user);
        let p = pending.get(user).copied().unwrap_or_default();
        let open = held.open_tables + p.open;
        if open >= limits.open_tables {
            return Err(too_many_tables(open, limits));
        }
        let with_computers = held.computer_tables + p.computer;
        if computer && with_computers >= limits.computer_tables {
            return Err(too_many_computer_tables(with_computers, limits));
        }
        let entry = pending.entry(user.to_owned()).or_default();
        entry.open += 1;
        if computer {
            entry.computer += 1;
        }
        Ok(LocalReservation {
            pending: self.pending.clone(),
            user: user.to_owned(),
            computer,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reservations_count_until_dropped() {
        let lobby = Lobby::new();
        let quota = TableQuota::default();
        let limits = TableLimits {
            open_tables: 3,
            computer_tables: 1,
        };
        let a = quota
            .reserve(&lobby, limits, "u", true)
            .await
            .expect("first");
        let err = quota.reserve(&lobby, limits, "u", true).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::TooManyComputerTables);
        let b = quota
            .reserve(&lobby, limits, "u", false)
            .await
            .expect("second");
        let _c = quota
            .reserve(&lobby, limits, "u", false)
            .await
            .expect("third");
        let err = quota.reserve(&lobby, limits, "u", false).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::TooManyTables);
        assert!(
            quota.reserve(&lobby, limits, "v", true).await.is_ok(),
            "per user"
        );
        drop(a);
        drop(b);
        assert!(quota.reserve(&lobby, limits, "u", true).await.is_ok());
    }
}
