//! Each colour's last evaluated cost, with what it was computed from.
//!
//! Alpha-beta evaluates the children of a node one after the other: they
//! differ by one move of the player to move there, so the other colours'
//! marbles are the same in all of them. A colour's cost
//! ([`eval::cost`](crate::eval::cost)) reads its own marbles, its moves
//! made, its arrival and elimination, and of the rest of the board only the
//! holes of its marbles' forward jump lines (and, past the deadline, its
//! goal's holes, where other players' marbles may fill a place). When none
//! of these changed since the colour's cost was last computed, that value
//! is returned again.

use crate::eval::{cost, Weights};
use crate::tables::tables;
use stella_engine::{Colour, Position, Variant};

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
    /// The holes outside the colour's marbles that the cost read.
    looked: u128,
    /// Which of `looked` were occupied.
    seen: u128,
    /// The cost.
    value: i32,
}

impl Slot {
    const EMPTY: Slot = Slot {
        variant: None,
        marbles: 0,
        made: 0,
        flags: 0,
        looked: 0,
        seen: 0,
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
        let marbles = position.marbles(colour).0;
        let made = position.moves_made(colour);
        let flags =
            u8::from(position.has_arrived(colour)) | u8::from(position.is_eliminated(colour)) << 1;
        let occupied = position.occupied().0;
        let slot = &mut self.slots[colour.index()];
        if slot.variant == Some(variant)
            && slot.marbles == marbles
            && slot.made == made
            && slot.flags == flags
            && occupied & slot.looked == slot.seen
        {
            return slot.value;
        }
        let value = cost(position, colour, &self.weights);
        let looked = looked_at(position, colour);
        *slot = Slot {
            variant: Some(variant),
            marbles,
            made,
            flags,
            looked,
            seen: occupied & looked,
            value,
        };
        value
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
                let Some(&random) = moves.get(rng.below(moves.len() as u64) as usize) else {
                    break;
                };
                let mv = if rng.below(3) == 0 {
                    random
                } else {
                    crate::greedy::greedy_move(&pos, ply).unwrap_or(random)
                };
                pos.play_unchecked(&mv);
            }
        }
        assert!(checked > 50_000, "{checked}");
        assert!(same > checked / 2, "{same} of {checked}");
        assert!(changed > 100, "{changed}");
    }
}
