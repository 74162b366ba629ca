//! Perft: counting the leaves of the move tree, the move generator's contract.

use crate::colour::Colour;
use crate::movegen::classic_count_with_dependencies;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::JumpRule;

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
        2 if pos.variant().jump_rule() == JumpRule::Classic && !pos.variant().masters_swap() => {
            perft2_classic(pos)
        }
        _ => sum_children(pos, depth, perft),
    }
}

/// Perft with plain bulk counting at the last ply (every leaf's parent counts
/// all its children's moves from scratch); the reference for [`perft`].
pub fn perft_plain(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => sum_children(pos, depth, perft_plain),
    }
}

/// Plays every legal move of `pos` and adds `count(child, depth - 1)`.
fn sum_children(pos: &Position, depth: u32, count: fn(&Position, u32) -> u64) -> u64 {
    let mut total = 0;
    if pos.is_over() {
        return 0;
    }
    pos.for_each_move_of(pos.turn(), |mv| {
        let mut child = *pos;
        child.play_unchecked(&mv);
        total += count(&child, depth - 1);
    });
    total
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

/// The next player, each of its marbles with its move count and the holes
/// that count depends on, and how many entries are used.
type MarbleCounts = (Colour, [(crate::Hole, u32, crate::Bitboard); 15], usize);

/// Perft 2 with incremental bulk counting (classic jumps, no swap): the next
/// player's per-marble counts are computed once in `pos`, with the holes each
/// depends on; after each of our moves only the marbles that looked at the
/// two holes that changed are counted again. Exact, and much faster.
fn perft2_classic(pos: &Position) -> u64 {
    if pos.is_over() {
        return 0;
    }
    let mut cache: Option<MarbleCounts> = None;
    let mut total = 0;
    pos.for_each_move_of(pos.turn(), |mv| {
        let mut child = *pos;
        child.play_unchecked(&mv);
        if child.is_over() {
            return;
        }
        let next = child.turn();
        if cache.map(|c| c.0) != Some(next) {
            let ctx = pos.context(next);
            let mut entries = [(mv.from, 0, crate::Bitboard::EMPTY); 15];
            let mut n = 0;
            for from in pos.marbles(next) {
                let (count, looked) = classic_count_with_dependencies(&ctx, from);
                entries[n] = (from, count, looked);
                n += 1;
            }
            cache = Some((next, entries, n));
        }
        let (_, entries, n) = cache.as_ref().expect("cache filled above");
        let changed = crate::Bitboard::from_hole(mv.from).with(mv.to);
        if child.occupied() != pos.occupied() ^ changed || child.marbles(next) != pos.marbles(next)
        {
            // An elimination removed marbles: count from scratch.
            total += child.count_moves();
            return;
        }
        let ctx = child.context(next);
        for &(from, count, looked) in &entries[..*n] {
            total += if (looked & changed).is_empty() {
                count as u64
            } else {
                classic_count_with_dependencies(&ctx, from).0 as u64
            };
        }
    });
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn naive2(pos: &Position) -> u64 {
        pos.legal_moves()
            .iter()
            .map(|mv| {
                let mut child = *pos;
                child.play_unchecked(mv);
                child.count_moves()
            })
            .sum()
    }

    #[test]
    fn incremental_bulk_count_matches_the_plain_one() {
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        for variant in [
            Variant::Classic2,
            Variant::Classic3,
            Variant::Classic4,
            Variant::Classic6,
            Variant::Fifteen2,
            Variant::Pairs3x2,
        ] {
            let mut pos = Position::start(variant);
            for _ in 0..200 {
                if pos.is_over() {
                    break;
                }
                assert_eq!(perft(&pos, 2), naive2(&pos), "{pos}");
                let moves = pos.legal_moves();
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos.play_unchecked(&moves[(rng % moves.len() as u64) as usize]);
            }
        }
    }
}
