//! Limits on the tables one user holds: open tables they created or sit at, and open
//! or live tables with computer seats they created. A check and the creation it allows
//! are made atomic by a reservation, so parallel requests (from several connections of
//! one user) cannot slip past the limit together.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
}

/// A place held for one table being created or joined; released when dropped (by
/// then the lobby counts the table itself).
#[derive(Debug)]
pub struct Reservation {
    pending: Arc<Mutex<HashMap<String, Pending>>>,
    user: String,
    computer: bool,
}

impl Drop for Reservation {
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

impl TableQuota {
    /// Holds a place for one more open table of `user` (with computer seats when
    /// `computer`), or says which limit it would pass.
    pub fn reserve(
        &self,
        lobby: &Lobby,
        limits: TableLimits,
        user: &str,
        computer: bool,
    ) -> Result<Reservation, ProtoError> {
        let mut pending = self.pending.lock().expect("quota lock");
        let held = lobby.holdings(user);
        let p = pending.get(user).copied().unwrap_or_default();
        let open = held.open_tables + p.open;
        if open >= limits.open_tables {
            return Err(ProtoError::new(
                ErrorCode::TooManyTables,
                format!(
                    "you already hold {open} open tables (the most is {}); leave one or wait \
                     for one to start",
                    limits.open_tables
                ),
            ));
        }
        let with_computers = held.computer_tables + p.computer;
        if computer && with_computers >= limits.computer_tables {
            return Err(ProtoError::new(
                ErrorCode::TooManyComputerTables,
                format!(
                    "you already have {with_computers} tables with computer seats (the most is \
                     {}); finish or resign one first",
                    limits.computer_tables
                ),
            ));
        }
        let entry = pending.entry(user.to_owned()).or_default();
        entry.open += 1;
        if computer {
            entry.computer += 1;
        }
        Ok(Reservation {
            pending: self.pending.clone(),
            user: user.to_owned(),
            computer,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_count_until_dropped() {
        let lobby = Lobby::new();
        let quota = TableQuota::default();
        let limits = TableLimits {
            open_tables: 3,
            computer_tables: 1,
        };
        let a = quota.reserve(&lobby, limits, "u", true).expect("first");
        let err = quota.reserve(&lobby, limits, "u", true).unwrap_err();
        assert_eq!(err.code, ErrorCode::TooManyComputerTables);
        let b = quota.reserve(&lobby, limits, "u", false).expect("second");
        let _c = quota.reserve(&lobby, limits, "u", false).expect("third");
        let err = quota.reserve(&lobby, limits, "u", false).unwrap_err();
        assert_eq!(err.code, ErrorCode::TooManyTables);
        assert!(quota.reserve(&lobby, limits, "v", true).is_ok(), "per user");
        drop(a);
        drop(b);
        assert!(quota.reserve(&lobby, limits, "u", true).is_ok());
    }
}
