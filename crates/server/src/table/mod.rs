//! Live tables: one task per table owns the game, the seats, the clocks, the chat and
//! the numbered event log; everything else talks to it through a [`TableHandle`]. The
//! rules live in a pure core (`core`), the task around it does the I/O (`actor`).

mod actor;
mod chat;
mod clock;
mod command;
mod core;
mod create;
mod presence;
mod ratings;
mod resume;
mod seat;

pub use actor::TableDeps;
pub use chat::{BURST as CHAT_BURST, MAX_CHARS as CHAT_MAX_CHARS};
pub use clock::{Clock, ClockView, LagPolicy, Press, StoredClock, TimeControl, TimeControlError};
pub use command::{Command, TableHandle, WatchReply};
pub use create::{create_table, NewTable};
pub use presence::Presence;
pub use resume::{resume_table, resume_tables};
pub use seat::{Occupant, Seat};
