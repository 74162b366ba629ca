//! The server integration tests, built as one test binary so that the
//! workspace links one executable per crate instead of one per file.

mod common;

mod abandon;
mod abort;
mod accounts;
mod auth_limits;
mod bad_input;
mod bots;
mod challenge;
mod chat;
mod clocks;
mod cluster;
mod cluster_cleanup;
mod cluster_lapse;
mod cluster_limits;
mod cluster_social;
mod computer;
mod computer_failure;
mod game_three;
mod game_two;
mod move_time;
mod operations;
mod pg_locks;
mod private_table;
mod puzzles;
mod reconnect;
mod rematch;
mod resign_finished;
mod resource_limits;
mod restart;
mod reviews;
mod sql_injection;
