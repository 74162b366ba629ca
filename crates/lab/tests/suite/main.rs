//! The lab integration tests, built as one test binary so that the
//! workspace links one executable per crate instead of one per file.

mod common;

mod match_cli;
mod tune_cli;
