//! Move generation: steps, chains of jumps under each jump rule, the Masters swap.

use crate::bitboard::Bitboard;
use crate::geometry::{
    FLOOD_LANDINGS, FLOOD_WINDOWS, JUMPS6, LINE_MASKS, NEIGHBOURS, NONE, STEP_MASKS,
};
use crate::hole::Hole;
use crate::moves::Move;
use crate::variant::JumpRule;

/// What move generation needs to know about the board for one player.
#[derive(Clone, Copy, Debug)]
pub struct MoveContext {
    /// Every hole holding a marble.
    pub occupied: Bitboard,
    /// Where the player's moves may end (hexagon, home point, goal point).
    pub allowed: Bitboard,
    /// The player's goal: a marble starting there must land only there.
    pub goal: Bitboard,
    /// Goal holes holding another player's marble, when the Masters swap is on.
    pub swap_targets: Bitboard,
    /// The jump rule.
    pub rule: JumpRule,
}

/// Calls `f` with each hole reachable by one jump from `p` under `rule`, given
/// the occupied holes `occ` (the jumping marble's starting hole already removed).
#[inline(always)]
#[allow(clippy::needless_range_loop)] // `d` walks two tables in step
pub fn for_each_hop(rule: JumpRule, occ: Bitboard, p: Hole, mut f: impl FnMut(Hole)) {
    let pi = p.index();
    match rule {
        JumpRule::Classic => {
            for line in &JUMPS6[pi] {
                if occ.0 >> line.over & 1 != 0 && occ.0 >> line.land & 1 == 0 {
                    f(Hole::from_index_unchecked(line.land));
                }
            }
        }
        JumpRule::Long => {
            for d in 0..6 {
                let mut n = NEIGHBOURS[pi][d];
                if n == NONE || occ.0 >> n & 1 == 0 {
                    continue;
                }
                loop {
                    n = NEIGHBOURS[n as usize][d];
                    if n == NONE {
                        break;
                    }
                    if occ.0 >> n & 1 == 0 {
                        f(Hole::from_index_unchecked(n));
                        break;
                    }
                }
            }
        }
        JumpRule::Symmetric => {
            for d in 0..6 {
                let mut n = NEIGHBOURS[pi][d];
                let mut dist = 1;
                while n != NONE && occ.0 >> n & 1 == 0 {
                    n = NEIGHBOURS[n as usize][d];
                    dist += 1;
                }
                if n == NONE {
                    continue;
                }
                let mut ok = true;
                for _ in 0..dist {
                    n = NEIGHBOURS[n as usize][d];
                    if n == NONE || occ.0 >> n & 1 != 0 {
                        ok = false;
                        break;
                    }
                }
                if ok {
                    f(Hole::from_index_unchecked(n));
                }
            }
        }
    }
}

/// The holes reached by one jump from `p`.
pub fn hops(rule: JumpRule, occ: Bitboard, p: Hole) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for_each_hop(rule, occ, p, |h| out = out.with(h));
    out
}

/// Every hole a marble on `from` can land on during a chain of jumps (its
/// start included), restricted to `region` (the goal, for a marble already in it).
#[inline]
pub fn jump_reach(rule: JumpRule, occupied: Bitboard, from: Hole, region: Bitboard) -> Bitboard {
    let occ = occupied.without(from);
    if rule == JumpRule::Classic {
        // Nothing next to the marble: no jump at all.
        if STEP_MASKS[from.index()] & occ.0 == 0 {
            return Bitboard::from_hole(from);
        }
        return if region == Bitboard::ALL {
            Bitboard(classic_reach::<false>(occ.0, from.index(), region.0))
        } else {
            Bitboard(classic_reach::<true>(occ.0, from.index(), region.0))
        };
    }
    let mut visited = Bitboard::from_hole(from);
    let mut todo = visited;
    while let Some(p) = todo.first() {
        todo = todo.without(p);
        for_each_hop(rule, occ, p, |t| {
            if !visited.contains(t) && region.contains(t) {
                visited = visited.with(t);
                todo = todo.with(t);
            }
        });
    }
    visited
}

/// Flood of classic jump landings from `from` over `occ` (the starting
/// hole already removed); with `LOCKED`, landings stay in `region`. Each
/// reached hole reads its neighbours' occupancy as one 32-bit word of its
/// neighbour window ([`FLOOD_WINDOWS`]) and takes the landings of its jumps
/// from one table entry ([`FLOOD_LANDINGS`]), with no loop over the
/// occupied ones. The landings not reached yet join the holes still to
/// try, on sets kept in registers (lowest hole first: the order does not
/// change the holes reached).
#[inline(always)]
fn classic_reach<const LOCKED: bool>(occ: u128, from: usize, region: u128) -> u128 {
    let mut blocked = occ | 1 << from;
    let mut todo = 0u128;
    let mut p = from;
    loop {
        let at = FLOOD_WINDOWS[p];
        let window = (occ >> at.base) as u32;
        let rows = (window >> at.below & 3) | (window >> at.above << 2 & 12);
        let side = window >> at.beside;
        let side = (side & 1) | (side >> 1 & 2);
        let landed = FLOOD_LANDINGS[p][(rows | side << 4) as usize & 63];
        let mut hit = landed & !blocked;
        if LOCKED {
            hit &= region;
        }
        blocked |= hit;
        todo |= hit;
        if todo == 0 {
            break;
        }
        p = todo.trailing_zeros() as usize;
        todo &= todo - 1;
    }
    blocked & !occ
}

/// The ordinary (non-swap) destinations of the marble on `from`: steps, then
/// jump-chain ends, as one set.
#[inline]
pub fn destinations(ctx: &MoveContext, from: Hole) -> Bitboard {
    let region = if ctx.goal.contains(from) {
        ctx.goal
    } else {
        Bitboard::ALL
    };
    let steps = Bitboard(STEP_MASKS[from.index()]) & !ctx.occupied;
    let reach = jump_reach(ctx.rule, ctx.occupied, from, region);
    (steps | reach.without(from)) & ctx.allowed & region
}

/// Calls `f` with every move of the marble on `from` (each destination once).
pub fn for_each_marble_move(ctx: &MoveContext, from: Hole, mut f: impl FnMut(Move)) {
    for to in destinations(ctx, from) {
        f(Move::new(from, to));
    }
    if !ctx.swap_targets.is_empty() {
        let region = if ctx.goal.contains(from) {
            ctx.goal
        } else {
            Bitboard::ALL
        };
        let step_mask = Bitboard(STEP_MASKS[from.index()]);
        let reach = jump_reach(ctx.rule, ctx.occupied, from, region);
        for to in step_mask & ctx.swap_targets {
            f(Move {
                from,
                to,
                swap: Some(from),
            });
        }
        let occ = ctx.occupied.without(from);
        for landing in reach {
            let li = landing.index();
            for line in &JUMPS6[li] {
                if occ.0 >> line.over & 1 != 0 && ctx.swap_targets.0 >> line.land & 1 != 0 {
                    f(Move {
                        from,
                        to: Hole::from_index_unchecked(line.land),
                        swap: Some(landing),
                    });
                }
            }
        }
    }
}

/// Number of moves of the marble on `from`.
#[inline]
pub fn count_marble_moves(ctx: &MoveContext, from: Hole) -> u32 {
    if ctx.swap_targets.is_empty() {
        destinations(ctx, from).count()
    } else {
        let mut n = 0;
        for_each_marble_move(ctx, from, |_| n += 1);
        n
    }
}

/// Whether the marble on `from` has a step (a free neighbour it may end on).
#[inline]
pub fn marble_has_step(ctx: &MoveContext, from: Hole) -> bool {
    has_step_to(from, ctx.allowed & !ctx.occupied, ctx.goal)
}

/// Whether the marble on `from` can step to one of the `free` holes (the
/// empty ones where a move may end): inside `goal` only, for a marble
/// already there. Needs no whole [`MoveContext`].
#[inline]
pub fn has_step_to(from: Hole, free: Bitboard, goal: Bitboard) -> bool {
    let region = if goal.contains(from) {
        goal
    } else {
        Bitboard::ALL
    };
    !(Bitboard(STEP_MASKS[from.index()]) & free & region).is_empty()
}

/// Whether the marble on `from` has any move (fast path: a free step).
#[inline]
pub fn marble_has_move(ctx: &MoveContext, from: Hole) -> bool {
    marble_has_step(ctx, from) || count_marble_moves(ctx, from) > 0
}

/// The number of moves of the marble on `from` under classic jumps without
/// swaps, with every hole whose contents the count depends on. If none of
/// those holes changes, the count stays the same (used by bulk perft).
#[inline]
pub fn classic_count_with_dependencies(ctx: &MoveContext, from: Hole) -> (u32, Bitboard) {
    let (dests, looked) = classic_destinations_with_dependencies(ctx, from);
    (dests.count(), looked)
}

/// The destinations of the marble on `from` under classic jumps without
/// swaps (as [`destinations`]), with every hole whose contents they depend
/// on: its step neighbours and, when it has a jump, both holes of every
/// jump line its flood examined. If none of those holes changes, the
/// destinations stay the same.
#[inline]
pub fn classic_destinations_with_dependencies(
    ctx: &MoveContext,
    from: Hole,
) -> (Bitboard, Bitboard) {
    debug_assert!(ctx.rule == JumpRule::Classic && ctx.swap_targets.is_empty());
    let region = if ctx.goal.contains(from) {
        ctx.goal
    } else {
        Bitboard::ALL
    };
    let step_mask = STEP_MASKS[from.index()];
    let steps = Bitboard(step_mask) & !ctx.occupied;
    let reach = jump_reach(ctx.rule, ctx.occupied, from, region);
    let mut looked = step_mask;
    if step_mask & ctx.occupied.0 != 0 {
        for p in reach {
            looked |= LINE_MASKS[p.index()];
        }
    }
    let dests = (steps | reach.without(from)) & ctx.allowed & region;
    (dests, Bitboard(looked))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::HEXAGON;

    /// The classic jump flood done plainly: one jump at a time from every
    /// hole reached, until no new hole is.
    fn reach_by_hops(occupied: Bitboard, from: Hole, region: Bitboard) -> Bitboard {
        let occ = occupied.without(from);
        let mut reached = Bitboard::from_hole(from);
        let mut todo = vec![from];
        while let Some(p) = todo.pop() {
            for t in hops(JumpRule::Classic, occ, p) {
                if region.contains(t) && !reached.contains(t) {
                    reached = reached.with(t);
                    todo.push(t);
                }
            }
        }
        reached
    }

    #[test]
    fn the_classic_flood_reaches_what_jump_after_jump_reaches() {
        // Boards of every density from a fixed-seed generator, every hole
        // as the start, on the whole board and locked in the hexagon.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for board in 0..200 {
            let density = board % 8 + 1;
            let mut occupied = Bitboard::EMPTY;
            for hole in Hole::all() {
                if next() % 10 < density {
                    occupied = occupied.with(hole);
                }
            }
            for from in Hole::all() {
                let occupied = occupied.with(from);
                for region in [Bitboard::ALL, HEXAGON.with(from)] {
                    assert_eq!(
                        jump_reach(JumpRule::Classic, occupied, from, region),
                        reach_by_hops(occupied, from, region),
                        "board {board}, from {from:?}"
                    );
                }
            }
        }
    }
}
