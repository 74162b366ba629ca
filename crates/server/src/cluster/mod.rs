//! Several nodes, one site: the parts that let more than one `stella serve` process run
//! the same tables.
//!
//! - [`lease`]: each live table is run by exactly one node, which holds the table's
//!   lease row in the database and renews it; every write of a move is fenced by the
//!   lease epoch, so a node that lost a table stores nothing more for it.
//! - [`bus`]: Redis publish/subscribe between the nodes, reconnecting on its own.
//! - [`routing`]: a command for a table run by another node travels over the bus to
//!   that node and its answer comes back; the events of every table a node runs are
//!   published with their version numbers, so a watcher on any node sees the same
//!   numbered log and `watch since` resyncs anywhere.
//! - [`takeover`]: the live games whose lease lapsed or was released are resumed by
//!   another node from the database.
//!
//! - [`node`]: one node's part, started by `stella serve --bus`; [`proxy`] makes a
//!   table run elsewhere look like a local one to the WebSocket code.
//!
//! - [`pairing`]: the quick pairing queue shared by every node, in Redis.
//! - [`challenges`]: who is online on which node, and challenges between accounts
//!   connected to different nodes.
//! - [`sessions`]: a session ended on one node closes its sockets on every node.
//! - [`orphans`]: heartbeats naming each node's listed tables; the open tables of a
//!   node that went silent leave the other nodes' lobby lists; [`cleanup`] marks their
//!   games aborted in the database once their leases lapsed.
//! - [`quota`]: the per-user table limits counted in Redis, one atomic check for every
//!   node.
//! - [`social`]: starts those once the server's state exists.
//!
//! A single node without a bus uses none of this.

pub mod bus;
pub mod challenges;
pub mod cleanup;
pub mod lease;
pub mod node;
pub mod orphans;
pub mod pairing;
pub mod proxy;
pub mod quota;
pub mod routing;
pub mod sessions;
pub mod social;
pub mod takeover;

pub use bus::{Bus, BusError};
pub use lease::{LeaseToken, Leases, LEASE_MS, RENEW_EVERY_MS, SAFETY_MS};
pub use node::ClusterNode;
pub use routing::{RemoteCommand, Router};
pub use takeover::{spawn_takeover, take_over_orphans};
