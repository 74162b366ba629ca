//! The 1-ply greedy player: the move that gains the most distance towards the
//! goal (rows towards the goal's tip), ties to the rearmost marble, then to a
//! seeded random draw. Never an eliminating move while another exists. It is
//! the baseline of the benchmarks and the heart of the lowest level.

use crate::deadline::playable_moves;
use crate::rng::Rng;
use crate::tables::tables;
use stella_engine::{Move, Position};

/// Rows towards the goal tip that `mv` gains for the player to move.
pub(crate) fn gain(position: &Position, mv: &Move) -> i32 {
    let t = tables(position.turn());
    t.rows_to_go[mv.from.index()] as i32 - t.rows_to_go[mv.to.index()] as i32
}

/// The greedy move: most rows gained, then the rearmost marble, then a seeded
/// random tie-break; it leaves home in time for the deadline. `None` when
/// there is no legal move.
pub fn greedy_move(position: &Position, seed: u64) -> Option<Move> {
    let t = tables(position.turn());
    let mut rng = Rng::new(seed ^ position.hash());
    playable_moves(position)
        .into_iter()
        .map(|m| {
            let key = (
                gain(position, &m),
                t.rows_to_go[m.from.index()],
                rng.next_u64(),
            );
            (key, m)
        })
        .max_by_key(|(k, _)| *k)
        .map(|(_, m)| m)
}

/// A move for a test game that mixes greedy play with chance: one of
/// `moves` drawn at random one time in `one_in`, else the greedy move
/// (`ply` its seed). `None` when `moves` is empty.
#[cfg(test)]
pub(crate) fn mixed_move(
    position: &Position,
    moves: &[Move],
    rng: &mut Rng,
    ply: u64,
    one_in: u64,
) -> Option<Move> {
    let random = *moves.get(rng.below(moves.len().max(1) as u64) as usize)?;
    if rng.below(one_in) == 0 {
        Some(random)
    } else {
        Some(greedy_move(position, ply).unwrap_or(random))
    }
}

/// Plays one [`mixed_move`] of `position`'s legal moves; `false` (and no
/// move) when the game is over or the player to move has none.
#[cfg(test)]
pub(crate) fn play_mixed(position: &mut Position, rng: &mut Rng, ply: u64, one_in: u64) -> bool {
    if position.is_over() {
        return false;
    }
    let moves = position.legal_moves();
    match mixed_move(position, &moves, rng, ply, one_in) {
        Some(mv) => {
            position.play_unchecked(&mv);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    #[test]
    fn greedy_moves_forward() {
        let pos = Position::start(Variant::Classic2);
        let mv = greedy_move(&pos, 1).unwrap();
        assert!(gain(&pos, &mv) >= 2);
    }
}
