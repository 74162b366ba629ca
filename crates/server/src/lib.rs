//! # stella-server
//!
//! The Stella game server: accounts, a live lobby, tables of 2 to 6 with clocks,
//! computer seats, ratings and game history, over axum and one WebSocket at `/ws`
//! (see docs/protocol.md and docs/server.md).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use stella_server::{Application, Config};
//! let app = Application::build(Config::default()).await?;
//! println!("listening on port {}", app.port());
//! app.run_until_stopped().await?;
//! # Ok(()) }
//! ```

#![forbid(unsafe_code)]

pub mod accounts;
pub mod app;
pub mod bots;
pub mod challenge;
pub mod cluster;
pub mod computer;
pub mod config;
pub mod drain;
pub mod error;
pub mod http;
pub mod ids;
pub mod limits;
pub mod lobby;
pub mod monitoring;
pub mod pairing;
pub mod protocol;
pub mod puzzles;
pub mod rating;
pub mod review;
pub mod state;
pub mod storage;
pub mod table;
pub mod telemetry;
pub mod time;
pub mod ws;

pub use app::{Application, ShutdownHandle, StartError};
pub use config::Config;
pub use time::{ManualTime, SystemTimeSource, TimeSource};
