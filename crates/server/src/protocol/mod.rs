//! The live protocol's messages and errors, independent of the transport that carries
//! them: tables, the lobby and pairing speak these types, and `ws` turns them into
//! WebSocket frames. On the wire each message is `{"t": type, "d": data}`; see
//! docs/protocol.md.

mod challenge;
mod error;
mod messages;

pub use challenge::{ChallengeEnd, ChallengeRequest, ChallengeView};
pub use error::{ErrorCode, ProtoError};
pub use messages::*;
