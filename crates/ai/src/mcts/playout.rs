//! The playout's move: greedy, now and then a random forward one.

use crate::deadline::{barred_home, every_move_counts, playable_moves};
use crate::rng::{hash64, Rng};
use crate::tables::{tables, ColourTables};
use stella_engine::movegen::{self, MoveContext};
use stella_engine::{Bitboard, Hole, Move, Position, Variant};

/// A playout move with its key: rows gained, the marble's rows to go and
/// its tie-break ([`tie_break`]) packed into one number ([`key_of`]), so
/// that the highest key wins in one comparison.
type Ranked = (u128, Move);

/// The rank of a move gaining `gain` rows with a marble `rows` rows from
/// the goal, as one number ordered as the pair `(gain, rows)`: the gain
/// (at least −16) offset to stay positive, above the rows.
#[inline]
fn rank_of(gain: i32, rows: u8) -> u64 {
    ((gain + 64) as u64) << 8 | u64::from(rows)
}

/// The key of a move of rank `rank` ([`rank_of`]) and tie-break `tie`,
/// ordered as the pair `(rank, tie)`.
#[inline]
fn key_of(rank: u64, tie: u64) -> u128 {
    u128::from(rank) << 64 | u128::from(tie)
}

/// The rank ([`rank_of`]) within a key ([`key_of`]).
#[inline]
fn rank_in(key: u128) -> u64 {
    (key >> 64) as u64
}

/// How a playout finds the moves it may play.
enum Moves {
    /// Every legal move, marble by marble from the jump floods, without
    /// the destinations in `barred` for a marble outside them (the home
    /// after the deadline; if that leaves no move, none barred).
    Floods(Bitboard),
    /// Every legal move as the generator hands them out (swap moves too).
    Generated,
    /// The list of [`playable_moves`], already in the scratch list.
    Listed,
}

/// A playout move: usually the greedy one (most rows gained, rearmost marble,
/// random tie-break), with chance `epsilon` a random forward move. `scratch`
/// is a reusable list for the random choice. Where the moves kept are all
/// the legal moves ([`every_move_counts`]), or all but those entering the
/// home after the deadline ([`barred_home`]), the greedy move is chosen
/// marble by marble from the floods, without building their list, and the
/// marbles too near the goal to match the best move found are not flooded
/// at all; the choice and the random draws are the same as from the list.
pub(super) fn playout_move(
    pos: &Position,
    rng: &mut Rng,
    epsilon: f64,
    scratch: &mut Vec<Move>,
) -> Option<Move> {
    let ctx = pos.context(pos.turn());
    let barred = if every_move_counts(pos) {
        Some(Bitboard::EMPTY)
    } else {
        barred_home(pos)
    };
    let moves = match barred {
        Some(b) if ctx.swap_targets.is_empty() => Moves::Floods(b),
        Some(b) if b.is_empty() => Moves::Generated,
        _ => {
            *scratch = playable_moves(pos);
            if scratch.is_empty() {
                return None;
            }
            Moves::Listed
        }
    };
    // A listed position with no move returns before any draw; so does a
    // barred one, whose list would have been empty.
    let before = rng.clone();
    let chosen = choose(pos, &ctx, moves, rng, epsilon, scratch);
    if chosen.is_none() && barred.is_some_and(|b| !b.is_empty()) {
        *rng = before;
    }
    chosen
}

/// The playout move among `moves` (see [`playout_move`]).
fn choose(
    pos: &Position,
    ctx: &MoveContext,
    moves: Moves,
    rng: &mut Rng,
    epsilon: f64,
    scratch: &mut Vec<Move>,
) -> Option<Move> {
    // The mover's tables, read once rather than per move.
    let t = tables(pos.turn());
    if rng.unit() < epsilon {
        return match moves {
            Moves::Floods(barred) => random_by_floods(pos, ctx, t, rng, barred).or_else(|| {
                // Every move enters the barred home: then all of them count.
                let any = !barred.is_empty();
                any.then(|| random_by_floods(pos, ctx, t, rng, Bitboard::EMPTY))
                    .flatten()
            }),
            Moves::Generated => {
                scratch.clear();
                pos.for_each_move_of(pos.turn(), |m| scratch.push(m));
                random_from_list(scratch, t, rng)
            }
            Moves::Listed => random_from_list(scratch, t, rng),
        };
    }
    // One draw breaks every tie: each move's tie-break is a hash of it and
    // the move, so that the moves may be looked at in any order.
    let draw = rng.next_u64();
    let best = match moves {
        Moves::Floods(barred) => match greedy_by_floods(pos, ctx, t, draw, barred) {
            // Every move enters the barred home: then all of them count.
            None if !barred.is_empty() => greedy_by_floods(pos, ctx, t, draw, Bitboard::EMPTY),
            found => found,
        },
        Moves::Generated => {
            let mut best = None;
            pos.for_each_move_of(pos.turn(), |m| consider(&mut best, t, draw, m));
            best
        }
        Moves::Listed => {
            let mut best = None;
            for &m in scratch.iter() {
                consider(&mut best, t, draw, m);
            }
            best
        }
    };
    best.map(|(_, m)| m)
}

/// A random move of `moves` (none if empty): a forward one (gaining rows)
/// if there is any, else any.
fn random_from_list(moves: &[Move], t: &ColourTables, rng: &mut Rng) -> Option<Move> {
    if moves.is_empty() {
        return None;
    }
    let forward = |m: &&Move| t.rows_to_go[m.to.index()] < t.rows_to_go[m.from.index()];
    let count = moves.iter().filter(forward).count();
    if count == 0 {
        moves.get(rng.below(moves.len() as u64) as usize).copied()
    } else {
        moves
            .iter()
            .filter(forward)
            .nth(rng.below(count as u64) as usize)
            .copied()
    }
}

/// The destinations of the marble on `from`, without those in `barred`
/// when the marble is outside it (a marble already in its home after the
/// deadline may move inside it).
#[inline]
fn kept_destinations(ctx: &MoveContext, from: Hole, barred: Bitboard) -> Bitboard {
    let dests = movegen::destinations(ctx, from);
    if barred.contains(from) {
        dests
    } else {
        dests & !barred
    }
}

/// The random move of [`random_from_list`] over the moves marble by marble
/// from the floods, as the generator orders them, the destinations in
/// `barred` taken out for a marble outside them, without listing the
/// moves: each marble's destinations and forward destinations are kept as
/// sets, the forward ones counted (all of them only when none is
/// forward), and the drawn one found by its place. `None`, before any
/// draw, when there is no move.
fn random_by_floods(
    pos: &Position,
    ctx: &MoveContext,
    t: &ColourTables,
    rng: &mut Rng,
    barred: Bitboard,
) -> Option<Move> {
    let mut sets = [(Bitboard::EMPTY, Bitboard::EMPTY); Variant::MAX_MARBLES];
    let mut counts = [0u8; Variant::MAX_MARBLES];
    let mut forward = 0u64;
    let mut any = Bitboard::EMPTY;
    let marbles = pos.marbles(pos.turn());
    for ((set, count), from) in sets.iter_mut().zip(&mut counts).zip(marbles) {
        let dests = kept_destinations(ctx, from, barred);
        let ahead = dests & nearer_than(t, t.rows_to_go[from.index()]);
        *set = (dests, ahead);
        *count = ahead.count() as u8;
        forward += u64::from(*count);
        any |= dests;
    }
    if any.is_empty() {
        return None;
    }
    let forward_only = forward > 0;
    let mut total = forward;
    if !forward_only {
        total = 0;
        for (&(dests, _), count) in sets.iter().zip(&mut counts) {
            *count = dests.count() as u8;
            total += u64::from(*count);
        }
    }
    let mut k = rng.below(total);
    for ((&(dests, ahead), &n), from) in sets.iter().zip(&counts).zip(marbles) {
        let holes = if forward_only { ahead } else { dests };
        let n = u64::from(n);
        if k < n {
            let to = holes.into_iter().nth(k as usize)?;
            return Some(Move::new(from, to));
        }
        k -= n;
    }
    None
}

/// The holes fewer than `rows` rows from the goal (none for 0).
#[inline]
fn nearer_than(t: &ColourTables, rows: u8) -> Bitboard {
    match rows.checked_sub(1) {
        Some(k) => t.rows_at_most[usize::from(k).min(16)],
        None => Bitboard::EMPTY,
    }
}

/// The tie-break of `m` among moves of equal rank, for the playout's
/// random `draw`: a bijective hash of the draw and the move (its swapped
/// marble too), so that no two moves tie and each one's tie-break is as
/// random as a draw of its own, whatever order the moves come in.
#[inline]
fn tie_break(draw: u64, m: Move) -> u64 {
    let swap = m.swap.map_or(127, |h| h.index() as u64);
    hash64(draw ^ (swap << 14 | (m.from.index() as u64) << 7 | m.to.index() as u64))
}

/// Makes `m` the best so far if it ranks higher; a move ranked below the
/// best by gain and rearmost marble loses whatever its tie-break, so that
/// is not computed.
#[inline]
fn consider(best: &mut Option<Ranked>, t: &ColourTables, draw: u64, m: Move) {
    let from = t.rows_to_go[m.from.index()];
    let rank = rank_of(
        i32::from(from) - i32::from(t.rows_to_go[m.to.index()]),
        from,
    );
    if best.is_some_and(|(k, _)| rank < rank_in(k)) {
        return;
    }
    let key = key_of(rank, tie_break(draw, m));
    if best.is_none_or(|(k, _)| key > k) {
        *best = Some((key, m));
    }
}

/// The greedy move marble by marble, rearmost first, with the
/// destinations in `barred` taken out for a marble outside them. A marble
/// `rows` rows from the goal gains at most `rows`, so once the best move
/// so far outranks that, it and every marble nearer the goal are not
/// flooded; of a flooded marble only the destinations that can still reach
/// the best rank are looked at.
fn greedy_by_floods(
    pos: &Position,
    ctx: &MoveContext,
    t: &ColourTables,
    draw: u64,
    barred: Bitboard,
) -> Option<Ranked> {
    let mut best: Option<Ranked> = None;
    let marbles = pos.marbles(pos.turn());
    for rows in (0..=16u8).rev() {
        if best.is_some_and(|(k, _)| rank_of(i32::from(rows), rows) < rank_in(k)) {
            break;
        }
        for from in marbles & t.rows_at_most[usize::from(rows)] & !nearer_than(t, rows) {
            greedy_of_marble(&mut best, ctx, t, draw, barred, from, rows);
        }
    }
    best
}

/// Considers the moves of the marble on `from`, `rows` rows from the goal,
/// that can still reach the best rank so far (see [`greedy_by_floods`]).
#[inline]
fn greedy_of_marble(
    best: &mut Option<Ranked>,
    ctx: &MoveContext,
    t: &ColourTables,
    draw: u64,
    barred: Bitboard,
    from: Hole,
    rows: u8,
) {
    let dests = kept_destinations(ctx, from, barred);
    let open = match *best {
        None => dests,
        Some((key, _)) => {
            let rank = rank_in(key);
            let (g, r) = ((rank >> 8) as i32 - 64, rank as u8);
            let least_gain = if rows >= r { g } else { g + 1 };
            match usize::try_from(i32::from(rows) - least_gain) {
                Ok(k) => dests & t.rows_at_most[k.min(16)],
                Err(_) => Bitboard::EMPTY,
            }
        }
    };
    for to in open {
        consider(best, t, draw, Move::new(from, to));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::tests::greedy_game;
    use stella_engine::Variant;

    /// The playout move as first written: the moves the playout may play
    /// listed (`None` before any draw when there is none), the epsilon
    /// draw, then either a random forward move or one draw and the highest
    /// (rows gained, rows of its marble, tie-break) of every move.
    fn reference(pos: &Position, rng: &mut Rng, epsilon: f64) -> Option<Move> {
        let moves = playable_moves(pos);
        if moves.is_empty() {
            return None;
        }
        let t = tables(pos.turn());
        if rng.unit() < epsilon {
            let forward: Vec<Move> = moves.iter().copied().filter(|m| rank(t, m).0 > 0).collect();
            let from = if forward.is_empty() { &moves } else { &forward };
            return Some(from[rng.below(from.len() as u64) as usize]);
        }
        let draw = rng.next_u64();
        moves
            .into_iter()
            .max_by_key(|m| (rank(t, m), tie_break(draw, *m)))
    }

    /// A move's rank as first written: rows gained, rows of its marble.
    fn rank(t: &ColourTables, m: &Move) -> (i32, u8) {
        let from = t.rows_to_go[m.from.index()];
        (
            i32::from(from) - i32::from(t.rows_to_go[m.to.index()]),
            from,
        )
    }

    #[test]
    fn the_greedy_move_is_drawn_evenly_among_the_best_ranked() {
        let mut checked = 0;
        for pos in greedy_game(Variant::Classic3, 60).iter().step_by(3) {
            let t = tables(pos.turn());
            let moves = playable_moves(pos);
            let Some(top) = moves.iter().map(|m| rank(t, m)).max() else {
                continue;
            };
            let best: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| rank(t, m) == top)
                .collect();
            if best.len() < 2 {
                continue;
            }
            let draws = 600 * best.len();
            let mut counts = vec![0usize; best.len()];
            let mut rng = Rng::new(checked);
            let mut scratch = Vec::new();
            for _ in 0..draws {
                let mv = playout_move(pos, &mut rng, 0.0, &mut scratch).expect("a move");
                counts[best.iter().position(|&b| b == mv).expect("a best move")] += 1;
            }
            // 600 expected each; a count off by a fifth is 4.9 deviations.
            assert!(
                counts.iter().all(|&c| c.abs_diff(600) < 120),
                "{counts:?} {pos}"
            );
            checked += 1;
        }
        assert!(checked >= 5, "{checked}");
    }

    /// A game of `plies` random legal moves from the start (eliminations
    /// and marbles stepping back home included), every position kept.
    fn random_game(variant: Variant, plies: usize, seed: u64) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut pos = Position::start(variant);
        let mut out = vec![pos];
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
            out.push(pos);
        }
        out
    }

    #[test]
    fn the_playout_move_and_draws_are_the_reference_ones() {
        let (mut compared, mut barred) = (0, 0);
        for variant in Variant::ALL {
            let greedy = greedy_game(variant, 400);
            let random = random_game(variant, 400, variant as u64);
            for (ply, pos) in greedy.iter().chain(&random).enumerate() {
                if pos.is_over() || pos.legal_moves().is_empty() {
                    continue;
                }
                // Positions where the home bars a move the generator makes.
                barred += usize::from(barred_home(pos).is_some_and(|home| {
                    pos.legal_moves()
                        .iter()
                        .any(|m| home.contains(m.to) && !home.contains(m.from))
                }));
                for (seed, epsilon) in [(0u64, 0.0), (1, 0.0), (2, 0.2), (3, 1.0)] {
                    let mut fast = Rng::new(seed * 1_000 + ply as u64);
                    let mut slow = fast.clone();
                    let mut scratch = Vec::new();
                    let mv = playout_move(pos, &mut fast, epsilon, &mut scratch);
                    assert_eq!(mv, reference(pos, &mut slow, epsilon), "{pos}");
                    assert_eq!(fast.next_u64(), slow.next_u64(), "{pos}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 10_000 && barred > 40, "{compared} {barred}");
    }
}
