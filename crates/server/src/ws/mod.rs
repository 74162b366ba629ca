//! The live WebSocket at `/ws`: message types, decoding, the per-connection task.

mod connection;
mod decode;
mod error;
mod messages;
mod rate;

pub use connection::ws_handler;
pub use decode::{decode_client_msg, MAX_TEXT_BYTES};
pub use error::{ErrorCode, ProtoError};
pub use messages::*;
pub use rate::TokenBucket;
