//! Computer seats: the seam between a table and whatever chooses a computer's move.
//!
//! A table calls [`ComputerPlayer::choose`] inside `tokio::task::spawn_blocking`, so a
//! search never runs on the async threads. [`GreedyFallback`] is the built-in player
//! used until the `stella_ai` crate offers a best-move function; it is deliberately
//! simple and plays the same at every level.

use stella_engine::{Game, Move};

/// Chooses moves for computer seats.
pub trait ComputerPlayer: Send + Sync + std::fmt::Debug {
    /// The move for the player to move in `game`, at `level` (1–8), thinking at most
    /// about `think_ms` milliseconds. None when there is no legal move.
    fn choose(&self, game: &Game, level: u8, think_ms: i64) -> Option<Move>;
}

/// FALLBACK computer player (not the real AI): plays the legal move that most reduces
/// the mover's total distance to goal, avoiding moves that would eliminate it; ties go
/// to the move found first.
#[derive(Debug, Default, Clone, Copy)]
pub struct GreedyFallback;

impl ComputerPlayer for GreedyFallback {
    fn choose(&self, game: &Game, _level: u8, _think_ms: i64) -> Option<Move> {
        greedy_move(game)
    }
}

/// The greedy fallback's choice (see [`GreedyFallback`]); also used by tests to script
/// players.
pub fn greedy_move(game: &Game) -> Option<Move> {
    let me = game.turn();
    let position = game.position();
    let mut best: Option<(bool, u32, Move)> = None;
    for mv in game.legal_moves() {
        let mut after = *position;
        after.play_unchecked(&mv);
        let key = (game.would_eliminate(&mv), after.distance_to_goal(me));
        if best.is_none_or(|(e, d, _)| key < (e, d)) {
            best = Some((key.0, key.1, mv));
        }
    }
    best.map(|(_, _, mv)| mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    #[test]
    fn greedy_moves_forward() {
        let game = Game::new(Variant::Classic2);
        let mv = GreedyFallback.choose(&game, 1, 0).expect("a move at the start");
        let before = game.position().distance_to_goal(game.turn());
        let mut after = *game.position();
        after.play_unchecked(&mv);
        assert!(after.distance_to_goal(game.turn()) < before);
    }
}
