//! The ai integration tests, built as one test binary so that the
//! workspace links one executable per crate instead of one per file.

mod best_reply_out_of_the_game;
mod deadline_replay;
mod final_approach;
mod play;
mod progress_guard;
mod protocol;
