//! The engine integration tests, built as one test binary so that the
//! workspace links one executable per crate instead of one per file.

mod common;

mod game_end;
mod moves;
mod perft_files;
mod random_games;
