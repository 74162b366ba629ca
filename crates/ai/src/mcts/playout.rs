//! The playout's move: greedy, now and then a random forward one.

use crate::deadline::{deadline_moves, every_move_counts, safe_moves};
use crate::rng::Rng;
use crate::tables::tables;
use stella_engine::{movegen, Bitboard, Move, Position};

/// A playout move: usually the greedy one (most rows gained, rearmost marble,
/// random tie-break), with chance `epsilon` a random forward move. `scratch`
/// is a reusable list for the random choice. Where every legal move is
/// allowed ([`every_move_counts`]) the greedy move is chosen as the
/// generator hands the moves out, without building their list; the choice
/// and the random draws are the same either way.
pub(super) fn playout_move(
    pos: &Position,
    rng: &mut Rng,
    epsilon: f64,
    scratch: &mut Vec<Move>,
) -> Option<Move> {
    let listed = !every_move_counts(pos);
    if listed {
        *scratch = deadline_moves(pos, safe_moves(pos));
        if scratch.is_empty() {
            return None;
        }
    }
    // The mover's tables, read once: `gain` would look them up per move.
    let t = tables(pos.turn());
    let gain = |m: &Move| t.rows_to_go[m.from.index()] as i32 - t.rows_to_go[m.to.index()] as i32;
    if rng.unit() < epsilon {
        if !listed {
            scratch.clear();
            pos.for_each_move_of(pos.turn(), |m| scratch.push(m));
            if scratch.is_empty() {
                return None;
            }
        }
        let forward = scratch.iter().filter(|m| gain(m) > 0).count();
        let pick = |k: usize, forward_only: bool| {
            scratch
                .iter()
                .filter(|m| !forward_only || gain(m) > 0)
                .nth(k)
                .copied()
        };
        return if forward == 0 {
            pick(rng.below(scratch.len() as u64) as usize, false)
        } else {
            pick(rng.below(forward as u64) as usize, true)
        };
    }
    // Every move draws one random tie-break, in the generator's order; a
    // move ranked below the best so far by gain and rearmost marble loses
    // whatever it draws, so its draw is skipped rather than computed.
    let mut best: Option<((i32, u8, u64), Move)> = None;
    // `k`: the move's place in the generator's order, from 1.
    let consider = |best: &mut Option<((i32, u8, u64), Move)>, m: Move, k: u64| {
        let rank = (gain(&m), t.rows_to_go[m.from.index()]);
        if best.is_some_and(|((g, r, _), _)| rank < (g, r)) {
            return;
        }
        let key = (rank.0, rank.1, rng.peek(k));
        if best.is_none_or(|(k, _)| key >= k) {
            *best = Some((key, m));
        }
    };
    let mut drawn = 0u64;
    let ctx = (!listed).then(|| pos.context(pos.turn()));
    if listed {
        for &m in scratch.iter() {
            drawn += 1;
            consider(&mut best, m, drawn);
        }
    } else if let Some(ctx) = ctx.filter(|c| c.swap_targets.is_empty()) {
        // Marble by marble, as the generator orders them: only the
        // destinations that can still reach the best rank so far are
        // looked at, each with its place in the order; the others are
        // counted.
        for from in pos.marbles(pos.turn()) {
            let dests = movegen::destinations(&ctx, from);
            let rows = t.rows_to_go[from.index()];
            let open = match best {
                None => dests,
                Some(((g, r, _), _)) => {
                    let least_gain = if rows >= r { g } else { g + 1 };
                    match usize::try_from(i32::from(rows) - least_gain) {
                        Ok(k) => dests & t.rows_at_most[k.min(16)],
                        Err(_) => Bitboard::EMPTY,
                    }
                }
            };
            for to in open {
                let before = (dests.0 & ((1u128 << to.index()) - 1)).count_ones();
                consider(
                    &mut best,
                    Move::new(from, to),
                    drawn + u64::from(before) + 1,
                );
            }
            drawn += u64::from(dests.count());
        }
    } else {
        pos.for_each_move_of(pos.turn(), |m| {
            drawn += 1;
            consider(&mut best, m, drawn);
        });
    }
    rng.skip(drawn);
    best.map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::tests::greedy_game;
    use stella_engine::Variant;

    /// The greedy playout move as first written, after the epsilon draw:
    /// every move the playout may play draws a tie-break in the
    /// generator's order, and the highest (rows gained, rows of its
    /// marble, draw) wins, the later of equals.
    fn greedy_reference(pos: &Position, rng: &mut Rng) -> Option<Move> {
        rng.unit();
        let t = tables(pos.turn());
        let moves = deadline_moves(pos, safe_moves(pos));
        let mut best: Option<((i32, u8, u64), Move)> = None;
        for m in moves {
            let from = t.rows_to_go[m.from.index()];
            let gain = i32::from(from) - i32::from(t.rows_to_go[m.to.index()]);
            let key = (gain, from, rng.next_u64());
            if best.is_none_or(|(k, _)| key >= k) {
                best = Some((key, m));
            }
        }
        best.map(|b| b.1)
    }

    #[test]
    fn the_greedy_playout_move_and_draws_are_the_reference_ones() {
        let mut compared = 0;
        for variant in Variant::ALL {
            for (ply, pos) in greedy_game(variant, 150).iter().enumerate() {
                if pos.is_over() {
                    continue;
                }
                for seed in 0..3u64 {
                    let mut fast = Rng::new(seed * 1_000 + ply as u64);
                    let mut slow = fast.clone();
                    let mut scratch = Vec::new();
                    let mv = playout_move(pos, &mut fast, 0.0, &mut scratch);
                    assert_eq!(mv, greedy_reference(pos, &mut slow), "{pos}");
                    assert_eq!(fast.next_u64(), slow.next_u64(), "{pos}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 3_000, "{compared}");
    }
}
