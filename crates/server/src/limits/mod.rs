//! Limits on what one client, one user or everyone together can make the server
//! hold or compute (each configurable in [`crate::Config`]; see docs/server.md).

mod hashing;

pub use hashing::{GateError, HashGate};
