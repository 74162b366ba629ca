//! The puzzle file written by `stella puzzles` (format `stella-puzzles/1`).

use serde::{Deserialize, Serialize};

/// Format name written in every puzzle file.
pub const FORMAT: &str = "stella-puzzles/1";

/// One puzzle: the player to move finishes in exactly `moves` moves at best.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Puzzle {
    /// `GAME-PLY`: the game it comes from and the moves played before it.
    pub id: String,
    /// The position string.
    pub position: String,
    /// Moves of the shortest finish (proved).
    pub moves: usize,
    /// The puzzle's rating on the Glicko-2 scale: longer finishes rate higher.
    pub rating: f64,
    /// The game it comes from.
    pub game: String,
    /// Moves played in that game before the position.
    pub ply: usize,
}

/// A puzzle file.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct PuzzleFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// The puzzles, oldest game first.
    pub puzzles: Vec<Puzzle>,
}

/// The rating of a puzzle whose shortest finish takes `moves` moves: 1300
/// for two moves, 200 more per move (a longer finish has more ways to go wrong).
pub fn rating_of(moves: usize) -> f64 {
    1300.0 + 200.0 * (moves.saturating_sub(2) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longer_finishes_rate_higher() {
        assert_eq!(rating_of(2), 1300.0);
        assert_eq!(rating_of(5), 1900.0);
    }
}
