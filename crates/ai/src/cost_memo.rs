//! Each colour's last evaluated cost, with what it was computed from.
//!
//! Alpha-beta evaluates the children of a node one after the other: they
//! differ by one move of the player to move there, so the other colours'
//! marbles are the same in all of them, and the mover's differ by a marble
//! or two. A colour's cost ([`eval::cost`](crate::eval::cost)) reads its
//! own marbles, its moves made, its arrival and elimination, and of the
//! rest of the board only the holes of its marbles' forward jump lines
//! (and, past the deadline, its goal's holes, where other players' marbles
//! may fill a place).
//!
//! Before the deadline every marble counts, and the cost is a sum of
//! per-marble terms ([`CostParts`]): from the colour's last parts, the
//! terms of the marbles that left or arrived are taken out or added, and
//! the jump terms of the marbles whose lines pass through a hole that
//! changed are counted again. Past the deadline the last cost is reused
//! when none of what it read changed, and computed afresh otherwise.

use crate::eval::{
    board_words, cost, cost_of_parts, cost_parts, lateral_term, ready_jumps, CostParts, Weights,
};
use crate::tables::tables;
use stella_engine::{Colour, Position, Variant};

/// At most this many holes changed since a colour's last parts for them
/// to be brought up to date (beyond, they are computed afresh).
const MOST_CHANGED: u32 = 8;

/// What a colour's cost was computed from, and the cost.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The variant of the position (`None`: nothing remembered).
    variant: Option<Variant>,
    /// The colour's marbles.
    marbles: u128,
    /// The colour's moves made.
    made: u16,
    /// Arrived (bit 0) and eliminated (bit 1).
    flags: u8,
    /// The occupied holes.
    occupied: u128,
    /// The cost's parts, when every marble counts (before the deadline).
    parts: Option<CostParts>,
    /// Past the deadline: the holes outside the colour's marbles that the
    /// cost read.
    looked: u128,
    /// The cost.
    value: i32,
}

impl Slot {
    const EMPTY: Slot = Slot {
        variant: None,
        marbles: 0,
        made: 0,
        flags: 0,
        occupied: 0,
        parts: None,
        looked: 0,
        value: 0,
    };
}

/// The last cost of each colour under one set of weights; every answer is
/// [`eval::cost`](crate::eval::cost)'s.
#[derive(Clone, Debug)]
pub(crate) struct CostMemo {
    weights: Weights,
    slots: [Slot; 6],
}

impl CostMemo {
    /// An empty memory for costs under `weights`.
    pub(crate) fn new(weights: Weights) -> CostMemo {
        CostMemo {
            weights,
            slots: [Slot::EMPTY; 6],
        }
    }

    /// Forgets every cost and takes `weights` for the next ones.
    pub(crate) fn reset(&mut self, weights: Weights) {
        *self = CostMemo::new(weights);
    }

    /// The cost of `colour` in `position` under the memory's weights.
    #[inline]
    pub(crate) fn cost(&mut self, position: &Position, colour: Colour) -> i32 {
        let variant = position.variant();
        let made = position.moves_made(colour);
        let flags =
            u8::from(position.has_arrived(colour)) | u8::from(position.is_eliminated(colour)) << 1;
        if flags != 0 {
            return cost(position, colour, &self.weights);
        }
        let marbles = position.marbles(colour).0;
        let occupied = position.occupied().0;
        let slot = &mut self.slots[colour.index()];
        let same = slot.variant == Some(variant) && slot.made == made && slot.flags == flags;
        if same {
            if let Some(parts) = slot.parts {
                let changed = slot.occupied ^ occupied;
                if changed.count_ones() <= MOST_CHANGED {
                    let value = match updated(parts, position, colour, slot.marbles, slot.occupied)
                    {
                        // Nothing the cost reads changed.
                        None => slot.value,
                        Some(parts) => {
                            let goal = variant.goal(colour);
                            slot.parts = Some(parts);
                            cost_of_parts(position, colour, &self.weights, &parts, goal)
                        }
                    };
                    slot.marbles = marbles;
                    slot.occupied = occupied;
                    slot.value = value;
                    return value;
                }
            } else if slot.marbles == marbles && (slot.occupied ^ occupied) & slot.looked == 0 {
                return slot.value;
            }
        }
        let (parts, free_goal) = cost_parts(position, colour);
        let value = cost_of_parts(position, colour, &self.weights, &parts, free_goal);
        // Before the deadline no other marble fills a goal hole, and every
        // marble counts: the parts are sums over the marbles.
        let summed = made < variant.deadline()
            && position.marbles(colour).count() <= variant.goal(colour).count();
        *slot = Slot {
            variant: Some(variant),
            marbles,
            made,
            flags,
            occupied,
            parts: summed.then_some(parts),
            looked: if summed {
                0
            } else {
                looked_at(position, colour)
            },
            value,
        };
        value
    }
}

/// The parts of `colour`'s cost in `position`, from `parts`, its parts when
/// its marbles were `before` and the occupied holes `was` (the same variant
/// and moves made, before the deadline, every marble counted); `None` when
/// they are `parts` because none of its marbles moved and no hole they
/// read changed.
#[inline]
fn updated(
    mut parts: CostParts,
    position: &Position,
    colour: Colour,
    before: u128,
    was: u128,
) -> Option<CostParts> {
    let t = tables(colour);
    let now = position.marbles(colour).0;
    let occupied = position.occupied().0;
    let (left, arrived) = (before & !now, now & !before);
    // The marbles whose jump term may have changed: those whose lines pass
    // through a changed hole, and those that left or arrived.
    let mut near = 0u128;
    for_each_bit(was ^ occupied, |h| near |= t.jump_sources[h].0);
    if left | arrived == 0 && now & near == 0 {
        return None;
    }
    let (old_words, new_words) = (board_words(was), board_words(occupied));
    for_each_bit(before & near | left, |h| {
        parts.jumps -= ready_jumps(t, h, &old_words)
    });
    for_each_bit(now & near | arrived, |h| {
        parts.jumps += ready_jumps(t, h, &new_words)
    });
    if left | arrived == 0 {
        return Some(parts);
    }
    let goal = position.variant().goal(colour);
    let outside = t.lateral_outside_of(goal);
    let mut rearmost_left = false;
    for_each_bit(left, |h| {
        let r = t.rows_to_go[h] as i32;
        parts.sum -= r;
        parts.squares -= r * r;
        parts.lateral -= lateral_term(t, outside, goal, h);
        rearmost_left |= r >= parts.back;
    });
    for_each_bit(arrived, |h| {
        let r = t.rows_to_go[h] as i32;
        parts.sum += r;
        parts.squares += r * r;
        parts.lateral += lateral_term(t, outside, goal, h);
        parts.back = parts.back.max(r);
    });
    if rearmost_left {
        parts.back = 0;
        for_each_bit(now, |h| parts.back = parts.back.max(t.rows_to_go[h] as i32));
    }
    Some(parts)
}

/// Calls `f` with the index of every set bit of `set`, lowest first, one
/// 64-bit word at a time (cheaper than 128-bit arithmetic per bit).
#[inline]
fn for_each_bit(set: u128, mut f: impl FnMut(usize)) {
    for (base, word) in [(0, set as u64), (64, (set >> 64) as u64)] {
        let mut bits = word;
        while bits != 0 {
            f(base + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// The holes whose contents [`cost`] reads besides `colour`'s own marbles:
/// the holes of their forward jump lines, and the goal once the deadline
/// has passed for `colour`.
fn looked_at(position: &Position, colour: Colour) -> u128 {
    let t = tables(colour);
    let variant = position.variant();
    let mut looked = 0u128;
    for h in position.marbles(colour) {
        looked |= t.jump_holes[h.index()].0;
    }
    if position.moves_made(colour) >= variant.deadline() {
        looked |= variant.goal(colour).0;
    }
    looked
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    /// Over games of every variant (long enough to pass the deadline), the
    /// memory answers the cost of every seat at every child of every
    /// position, children evaluated one after the other as alpha-beta
    /// evaluates them.
    #[test]
    fn every_remembered_cost_is_the_computed_one() {
        let w = Weights::DEFAULT;
        let mut rng = crate::rng::Rng::new(11);
        let mut memo = CostMemo::new(w);
        // Answers with the colour's marbles and moves as before, of the
        // same value, and of another value (another colour's marble moved
        // on a hole the cost reads).
        let (mut checked, mut same, mut changed) = (0u64, 0u64, 0u64);
        for variant in Variant::ALL {
            let mut pos = Position::start(variant);
            for ply in 0..260u64 {
                if pos.is_over() {
                    break;
                }
                let moves = pos.legal_moves();
                for mv in moves.iter().take(12) {
                    let mut child = pos;
                    child.play_unchecked(mv);
                    for &c in variant.seats() {
                        let before = memo.slots[c.index()];
                        let got = memo.cost(&child, c);
                        assert_eq!(got, cost(&child, c, &w), "{variant} ply {ply} {c:?}");
                        checked += 1;
                        let unmoved = before.variant.is_some()
                            && before.marbles == child.marbles(c).0
                            && before.made == child.moves_made(c);
                        if unmoved && before.value == got {
                            same += 1;
                        } else if unmoved {
                            changed += 1;
                        }
                    }
                }
                let Some(mv) = crate::greedy::mixed_move(&pos, &moves, &mut rng, ply, 3) else {
                    break;
                };
                pos.play_unchecked(&mv);
            }
        }
        assert!(checked > 50_000, "{checked}");
        assert!(same > checked / 2, "{same} of {checked}");
        assert!(changed > 100, "{changed}");
    }

    #[test]
    fn every_bit_is_visited_once_lowest_first() {
        let mut rng = crate::rng::Rng::new(2);
        for _ in 0..200 {
            let set = u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
            let set = set >> rng.below(128);
            let mut seen = Vec::new();
            for_each_bit(set, |i| seen.push(i));
            let expected: Vec<usize> = (0..128).filter(|&i| set >> i & 1 != 0).collect();
            assert_eq!(seen, expected);
        }
        for_each_bit(0, |_| panic!("no bit"));
    }
}
