//! Puzzles on the server: the puzzle set it serves (the one built into the web client,
//! or an operator's file given with `stella serve --puzzles`), and Glicko-2 puzzle
//! ratings of logged-in players, earned by attempts the server checks move by move.
//! See docs/puzzles.md.

mod check;
mod file;
mod rating;
mod routes;
mod set;

pub use check::{check_attempt, AttemptError, MAX_ATTEMPT_MOVES};
pub use file::{rating_of, Puzzle, PuzzleFile, FORMAT};
pub use rating::{rate_attempt, PuzzleRating, NEW_PUZZLE_DEVIATION};
pub use routes::routes;
pub use set::{PuzzleSet, PuzzleSetError, MAX_PUZZLES, MAX_PUZZLE_FILE_BYTES};
