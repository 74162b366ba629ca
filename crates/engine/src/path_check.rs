//! Checking written paths against a position, and writing canonical paths.

use crate::bitboard::Bitboard;
use crate::error::IllegalMove;
use crate::geometry::{line_between, neighbours};
use crate::hole::Hole;
use crate::movegen::{for_each_hop, hops};
use crate::moves::{Move, MovePath};
use crate::position::Position;

/// Whether `a`→`b` is a classic jump over an occupied hole (used for the swap hop).
fn is_classic_jump(occ: Bitboard, a: Hole, b: Hole) -> bool {
    match line_between(a, b) {
        Some((d, 2)) => crate::geometry::neighbour(a, d).is_some_and(|m| occ.contains(m)),
        _ => false,
    }
}

/// The move a path makes in `pos`, or why it is illegal.
pub(crate) fn resolve(pos: &Position, path: &MovePath) -> Result<Move, IllegalMove> {
    if pos.is_over() {
        return Err(IllegalMove::GameOver);
    }
    let holes = path.holes();
    if holes.len() < 2 {
        return Err(IllegalMove::Empty);
    }
    let me = pos.turn();
    let from = holes[0];
    if !pos.marbles(me).contains(from) {
        return Err(IllegalMove::NoMarbleOfPlayer {
            hole: from,
            player: me,
        });
    }
    let ctx = pos.context(me);
    let occ = ctx.occupied.without(from);
    let locked = ctx.goal.contains(from);
    let last = holes.len() - 1;
    let mut visited = Bitboard::from_hole(from);
    let mut swap = None;
    for (i, pair) in holes.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let is_last = i + 1 == last;
        if neighbours(a).contains(b) {
            if i > 0 {
                return Err(IllegalMove::NotAJump { from: a, to: b });
            }
            if !is_last {
                return Err(IllegalMove::StepThenMore(b));
            }
            if occ.contains(b) {
                if ctx.swap_targets.contains(b) {
                    swap = Some(a);
                } else {
                    return Err(IllegalMove::Occupied(b));
                }
            }
        } else if occ.contains(b) {
            if is_last && ctx.swap_targets.contains(b) && is_classic_jump(occ, a, b) {
                swap = Some(a);
            } else {
                return Err(IllegalMove::Occupied(b));
            }
        } else if !hops(ctx.rule, occ, a).contains(b) {
            return Err(IllegalMove::NotAJump { from: a, to: b });
        }
        if visited.contains(b) {
            return Err(IllegalMove::LandsTwice(b));
        }
        if locked && !ctx.goal.contains(b) {
            return Err(IllegalMove::LeavesGoal(b));
        }
        visited = visited.with(b);
    }
    let to = holes[last];
    if !ctx.allowed.contains(to) {
        return Err(IllegalMove::EndsInForeignPoint(to));
    }
    Ok(Move { from, to, swap })
}

/// Shortest chain of jumps from `from` to `target` (inclusive), in generator order.
fn jump_path(pos: &Position, from: Hole, target: Hole) -> Option<Vec<Hole>> {
    let ctx = pos.context(pos.turn());
    let occ = ctx.occupied.without(from);
    let region = if ctx.goal.contains(from) {
        ctx.goal
    } else {
        Bitboard::ALL
    };
    let mut parent = [u8::MAX; 121];
    let mut seen = Bitboard::from_hole(from);
    let mut queue = vec![from];
    let mut head = 0;
    while head < queue.len() {
        let p = queue[head];
        head += 1;
        if p == target {
            let mut out = vec![p];
            let mut cur = p;
            while cur != from {
                cur = Hole::from_index(parent[cur.index()] as usize).expect("parent recorded");
                out.push(cur);
            }
            out.reverse();
            return Some(out);
        }
        for_each_hop(ctx.rule, occ, p, |t| {
            if !seen.contains(t) && region.contains(t) {
                seen = seen.with(t);
                parent[t.index()] = p.index() as u8;
                queue.push(t);
            }
        });
    }
    None
}

/// The canonical path of a legal move of the player to move.
pub(crate) fn canonical_path(pos: &Position, mv: &Move) -> MovePath {
    let step = neighbours(mv.from).contains(mv.to);
    match mv.swap {
        Some(back) if back == mv.from && step => MovePath::new(vec![mv.from, mv.to]),
        Some(back) => {
            let mut p = jump_path(pos, mv.from, back).unwrap_or_else(|| vec![mv.from, back]);
            p.push(mv.to);
            MovePath::new(p)
        }
        None if step => MovePath::new(vec![mv.from, mv.to]),
        None => {
            MovePath::new(jump_path(pos, mv.from, mv.to).unwrap_or_else(|| vec![mv.from, mv.to]))
        }
    }
}
