//! The cli integration tests, built as one test binary so that the
//! workspace links one executable per crate instead of one per file.

mod common;

mod ai_cli;
mod bot;
mod bot_reconnect;
mod cluster_kill;
mod kill_restart;
mod perft_cli;
mod puzzles_cli;
mod serve_operations;
