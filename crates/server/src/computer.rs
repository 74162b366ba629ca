//! Computer seats: the seam between a table and whatever chooses a computer's move.
//!
//! A table calls [`ComputerPlayer::choose`] inside `tokio::task::spawn_blocking`, so a
//! search never runs on the async threads. [`StellaAi`] plays with the `stella_ai`
//! search at the seat's level, within the thinking time the table grants from the
//! seat's clock.

use stella_ai::SystemClock;
use stella_engine::{Game, Move};

/// Chooses moves for computer seats.
pub trait ComputerPlayer: Send + Sync + std::fmt::Debug {
    /// The move for the player to move in `game`, at `level` (1–8), thinking at most
    /// about `think_ms` milliseconds. None when there is no legal move.
    fn choose(&self, game: &Game, level: u8, think_ms: i64) -> Option<Move>;
}

/// The `stella_ai` computer player: `best_move_in_game` at the seat's level, with the
/// game's history (for repetition) and the table's thinking budget as a cap.
#[derive(Debug, Default, Clone, Copy)]
pub struct StellaAi;

impl ComputerPlayer for StellaAi {
    fn choose(&self, game: &Game, level: u8, think_ms: i64) -> Option<Move> {
        let clock = SystemClock::new();
        let seed = rand::random::<u64>();
        stella_ai::best_move_in_game(
            game,
            level.clamp(1, 8),
            seed,
            &clock,
            Some(think_ms.max(1) as u64),
        )
    }
}

/// The quickest computer player: `stella_ai`'s one-ply greedy move (most distance
/// gained, leaves home before the deadline, never eliminates itself by choice). Used
/// by load tests and test scripts.
#[derive(Debug, Default, Clone, Copy)]
pub struct Greedy;

impl ComputerPlayer for Greedy {
    fn choose(&self, game: &Game, _level: u8, _think_ms: i64) -> Option<Move> {
        stella_ai::greedy::greedy_move(game.position(), game.moves().len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    #[test]
    fn computer_players_choose_legal_moves() {
        let game = Game::new(Variant::Classic3);
        for player in [&StellaAi as &dyn ComputerPlayer, &Greedy] {
            let mv = player.choose(&game, 1, 200).expect("a move at the start");
            assert!(game.legal_moves().contains(&mv));
        }
    }
}
