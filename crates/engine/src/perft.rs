//! Perft: counting the leaves of the move tree, the move generator's contract.

use crate::moves::Move;
use crate::position::Position;

/// Number of move sequences of length `depth` from `pos` (bulk-counted at the last ply).
///
/// ```
/// use stella_engine::{perft, Position, Variant};
/// assert_eq!(perft(&Position::start(Variant::Classic2), 2), 196);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut total = 0;
            let turn = pos.turn();
            if pos.is_over() {
                return 0;
            }
            pos.for_each_move_of(turn, |mv| {
                let mut child = *pos;
                child.play_unchecked(&mv);
                total += perft(&child, depth - 1);
            });
            total
        }
    }
}

/// Perft split by first move: each legal move with the leaf count below it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = *pos;
            child.play_unchecked(&mv);
            (
                mv,
                if depth <= 1 {
                    1
                } else {
                    perft(&child, depth - 1)
                },
            )
        })
        .collect()
}
