//! The moves the tree considers at a node, best first by a cheap prior.

use crate::deadline::{deadline_moves, safe_moves};
use crate::rng::hash64;
use crate::tables::{tables, ColourTables};
use stella_engine::{Move, Position};

/// The moves the tree considers at `pos`, best first by the cheap prior:
/// never an eliminating move unless forced, leaving home when the deadline
/// is close, then most rows gained, rearmost marble first, then a seeded
/// fixed tie-break (the same order every time the position is met).
pub fn candidates(pos: &Position, seed: u64) -> Vec<Move> {
    let moves = unordered_candidates(pos);
    let t = tables(pos.turn());
    // Key, tie-break and place in the list: sorted without a stable sort's
    // buffer, equal keys and ties (the same move with different swaps)
    // keep the generator's order.
    let mut keyed: Vec<(i32, u64, u32)> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let (key, tie) = candidate_rank(t, pos.hash() ^ seed, m);
            (key, tie, i as u32)
        })
        .collect();
    keyed.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    keyed.into_iter().map(|k| moves[k.2 as usize]).collect()
}

/// The moves the tree considers at `pos` ([`candidates`]) in the
/// generator's order.
pub(super) fn unordered_candidates(pos: &Position) -> Vec<Move> {
    if pos.is_over() {
        return Vec::new();
    }
    deadline_moves(pos, safe_moves(pos))
}

/// The rank of the candidate move `m` by the mover's tables `t` (higher
/// first): the prior's key (rows gained, rearmost marble, off the centre
/// line), then the tie-break seeded by `salt` (the position's hash and
/// the search's seed).
#[inline]
fn candidate_rank(t: &ColourTables, salt: u64, m: &Move) -> (i32, u64) {
    (candidate_key(t, m), candidate_tie(salt, m))
}

/// The prior's key of the candidate move `m` ([`candidate_rank`]'s first part).
#[inline]
fn candidate_key(t: &ColourTables, m: &Move) -> i32 {
    let rows = &t.rows_to_go;
    let gain = rows[m.from.index()] as i32 - rows[m.to.index()] as i32;
    gain * 64 + rows[m.from.index()] as i32 * 2 - t.lateral[m.to.index()] as i32 / 2
}

/// The seeded tie-break of the candidate move `m` ([`candidate_rank`]'s
/// second part).
#[inline]
fn candidate_tie(salt: u64, m: &Move) -> u64 {
    hash64(salt ^ ((m.from.index() * 121 + m.to.index()) as u64))
}

/// Moves the best of the candidate moves `rest` of `pos` (by
/// [`candidate_rank`], the first of equals) to its front, the others
/// keeping their order: repeated on the rest behind it, this yields the
/// order of [`candidates`].
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
