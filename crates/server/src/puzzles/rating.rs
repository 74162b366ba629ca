//! Glicko-2 puzzle ratings (the `skillratings` crate, τ = 0.5): an attempt is a game
//! between the player and the puzzle, won by the player when solved. Both ratings move.

use serde::Serialize;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// Deviation a puzzle's own rating starts with: the rating of its finish length is a
/// fair guess, so it starts surer than a new player's 350.
pub const NEW_PUZZLE_DEVIATION: f64 = 100.0;

/// A Glicko-2 rating on the familiar scale.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, sqlx::FromRow)]
pub struct PuzzleRating {
    /// Rating (1500 for a new player).
    pub rating: f64,
    /// Rating deviation: how unsure the rating is (350 for a new player).
    pub deviation: f64,
    /// Volatility: how erratic the results are (0.06 to begin with).
    pub volatility: f64,
}

impl PuzzleRating {
    /// A new player's rating: 1500 ± 350.
    pub const NEW_PLAYER: PuzzleRating = PuzzleRating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// A puzzle's first rating: the one in the puzzle file, ± [`NEW_PUZZLE_DEVIATION`].
    pub fn new_puzzle(rating: f64) -> PuzzleRating {
        PuzzleRating {
            rating,
            deviation: NEW_PUZZLE_DEVIATION,
            volatility: 0.06,
        }
    }
}

impl From<PuzzleRating> for Glicko2Rating {
    fn from(r: PuzzleRating) -> Self {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Glicko2Rating> for PuzzleRating {
    fn from(r: Glicko2Rating) -> Self {
        PuzzleRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// The player's and the puzzle's ratings after one attempt.
pub fn rate_attempt(
    player: PuzzleRating,
    puzzle: PuzzleRating,
    solved: bool,
) -> (PuzzleRating, PuzzleRating) {
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (p, q) = glicko2(
        &player.into(),
        &puzzle.into(),
        &outcome,
        &Glicko2Config::new(),
    );
    (p.into(), q.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solving_raises_the_player_and_lowers_the_puzzle() {
        let puzzle = PuzzleRating::new_puzzle(1500.0);
        let (p, q) = rate_attempt(PuzzleRating::NEW_PLAYER, puzzle, true);
        assert!(p.rating > 1500.0 && q.rating < 1500.0);
        assert!(p.deviation < 350.0);
        let (p, q) = rate_attempt(PuzzleRating::NEW_PLAYER, puzzle, false);
        assert!(p.rating < 1500.0 && q.rating > 1500.0);
    }

    #[test]
    fn glickmans_worked_example_without_the_other_games() {
        // Two players at 1500 ± 350: the winner goes to 1662 ± 290 (as in the
        // skillratings documentation of the same formula).
        let (p, q) = rate_attempt(PuzzleRating::NEW_PLAYER, PuzzleRating::NEW_PLAYER, true);
        assert_eq!(p.rating.round(), 1662.0);
        assert_eq!(p.deviation.round(), 290.0);
        assert_eq!(q.rating.round(), 1338.0);
    }
}
