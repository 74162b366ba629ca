//! Limits on what one client, one user or everyone together can make the server
//! hold or compute (each configurable in [`crate::Config`]; see docs/server.md).

mod client_addr;
mod hashing;
mod idle;
mod searches;
mod sessions;
mod tables;
mod throttle;

pub use client_addr::client_addr;
pub use hashing::{GateError, HashGate};
pub use idle::spawn_idle_closer;
pub use searches::QueuedComputer;
pub use sessions::{LiveSessions, SessionTie};
pub(crate) use tables::{too_many_computer_tables, too_many_tables};
pub use tables::{Reservation, TableLimits, TableQuota};
pub use throttle::LoginThrottle;
