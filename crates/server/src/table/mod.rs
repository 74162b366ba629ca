//! Live tables: one task per table owns the game, the seats, the clocks and the
//! numbered event log; everything else talks to it through a [`TableHandle`].

mod actor;
mod clock;
mod command;
mod create;
mod ratings;
mod resume;
mod seat;

pub use actor::TableDeps;
pub use clock::{Clock, ClockView, LagPolicy, Press, StoredClock, TimeControl, TimeControlError};
pub use command::{Command, TableHandle, WatchReply};
pub use create::{create_table, NewTable};
pub use resume::resume_tables;
pub use seat::{Occupant, Seat};
