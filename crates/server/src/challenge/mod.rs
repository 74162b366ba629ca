//! Direct challenges: an account challenges another account, by name, to a classic-2
//! game. The challenged user hears of it on every connection; accepting starts a
//! private table with both seated; declining, taking it back, the challenger's
//! connection closing or [`EXPIRES_AFTER_MS`] passing ends it, and both are told.
//! In a cluster the two may be connected to different nodes (see
//! [`crate::cluster::challenges`]).

mod actions;
mod expiry;
mod registry;

pub use actions::{accept, accept_here, cancel, challenge, decline};
pub use registry::{Challenges, Online, Relayed, EXPIRES_AFTER_MS, MAX_INCOMING, MAX_OUTGOING};
