//! The moves the tree considers at a node, and the cheap prior that brings
//! them forward best first.

use crate::deadline::playable_moves;
use crate::rng::hash64;
use crate::tables::{tables, ColourTables};
use stella_engine::{Move, Position};

/// The moves the tree considers at `pos`, in the generator's order: never
/// an eliminating move unless forced, leaving home when the deadline is
/// close.
pub(super) fn unordered_candidates(pos: &Position) -> Vec<Move> {
    if pos.is_over() {
        return Vec::new();
    }
    playable_moves(pos)
}

/// The prior's key of the candidate move `m` by the mover's tables `t`
/// (higher first): rows gained, rearmost marble, off the centre line.
#[inline]
fn candidate_key(t: &ColourTables, m: &Move) -> i32 {
    let rows = &t.rows_to_go;
    let gain = rows[m.from.index()] as i32 - rows[m.to.index()] as i32;
    gain * 64 + rows[m.from.index()] as i32 * 2 - t.lateral[m.to.index()] as i32 / 2
}

/// The tie-break of the candidate move `m` among equal keys (higher
/// first), seeded by `salt` (the position's hash and the search's seed):
/// the same order every time the position is met.
#[inline]
fn candidate_tie(salt: u64, m: &Move) -> u64 {
    hash64(salt ^ ((m.from.index() * 121 + m.to.index()) as u64))
}

/// Moves the best of the candidate moves `rest` of `pos` (by key, then
/// tie-break, the first of equals) to its front, the others keeping their
/// order: repeated on the rest behind it, this hands the candidates out
/// best first without sorting the many a node never tries.
pub(super) fn bring_best_forward(rest: &mut [Move], pos: &Position, seed: u64) {
    let t = tables(pos.turn());
    let salt = pos.hash() ^ seed;
    let mut best = 0;
    let mut best_rank = (i32::MIN, 0);
    for (i, m) in rest.iter().enumerate() {
        // A move whose key is below the best's loses whatever its
        // tie-break, so that is not computed.
        let key = candidate_key(t, m);
        if i > 0 && key < best_rank.0 {
            continue;
        }
        let rank = (key, candidate_tie(salt, m));
        if i == 0 || rank > best_rank {
            best = i;
            best_rank = rank;
        }
    }
    rest[..=best].rotate_right(1);
}

/// The candidates sorted at once, for the tests to check the order
/// [`bring_best_forward`] hands them out in.
#[cfg(test)]
pub(super) mod sorted {
    use super::*;

    /// The moves the tree considers at `pos`, best first by the prior.
    pub(in crate::mcts) fn candidates(pos: &Position, seed: u64) -> Vec<Move> {
        let moves = unordered_candidates(pos);
        let t = tables(pos.turn());
        let salt = pos.hash() ^ seed;
        // Key, tie-break and place in the list: sorted without a stable
        // sort's buffer, equal keys and ties (the same move with different
        // swaps) keep the generator's order.
        let mut keyed: Vec<(i32, u64, u32)> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| (candidate_key(t, m), candidate_tie(salt, m), i as u32))
            .collect();
        keyed.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        keyed.into_iter().map(|k| moves[k.2 as usize]).collect()
    }
}
