//! The live WebSocket at `/ws`: decoding frames and the per-connection task. The
//! message types live in [`crate::protocol`] and are re-exported here.

mod backlog;
mod connection;
mod decode;
mod feeds;
mod rate;
mod write;

pub use crate::protocol::*;
pub use connection::ws_handler;
pub use decode::{decode_client_msg, MAX_TEXT_BYTES};
pub use rate::TokenBucket;
