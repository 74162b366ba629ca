//! A node of the tree: the move that led to it, its statistics, and where
//! its children and position are kept.

use std::sync::OnceLock;
use stella_engine::{Colour, Move};

/// "No node" in the tree's links.
pub(super) const NONE: u32 = u32::MAX;

/// "Not counted yet" for a node's number of candidate moves.
pub(super) const UNKNOWN: u16 = u16::MAX;

/// One node of the tree: the move that led to it and the statistics of the
/// colour that played that move.
///
/// A node's children lie side by side in [`Mcts::nodes`](super::Mcts::nodes), in a block of
/// `capacity` slots from `first_child`, so that choosing among them reads
/// one run of memory instead of following links from node to node.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) mv: Move,
    pub(super) mover: u8,
    pub(super) visits: u32,
    pub(super) value: f64,
    /// `value / visits` (0 before the first visit), kept up to date by each
    /// backup so that choosing among the children divides nothing.
    pub(super) mean: f64,
    /// `1/√visits`, kept up to date by each backup so that choosing among
    /// the children needs neither a square root nor a division per child.
    pub(super) inv_sqrt_visits: f32,
    /// The first slot of the children's block (`NONE` before the first child).
    pub(super) first_child: u32,
    /// Where this node's position is in [`Mcts::positions`](super::Mcts::positions).
    pub(super) position: u32,
    pub(super) children: u16,
    /// Slots in the children's block.
    pub(super) capacity: u16,
    pub(super) candidates: u16,
    /// Where this node's candidate moves start in [`Mcts::arena`](super::Mcts::arena), once
    /// generated.
    pub(super) arena_start: u32,
}

impl Node {
    pub(super) fn new(mv: Move, mover: Colour, position: u32) -> Node {
        Node {
            mv,
            mover: mover.index() as u8,
            visits: 0,
            value: 0.0,
            mean: 0.0,
            inv_sqrt_visits: 0.0,
            first_child: NONE,
            position,
            children: 0,
            capacity: 0,
            candidates: UNKNOWN,
            arena_start: 0,
        }
    }
}

/// Visit counts below this read their `1/√visits` and `√(ln visits)`
/// from tables ([`inv_sqrt_visits`], [`sqrt_ln_visits`]).
const TABLED: usize = 4_096;

/// `1/√visits` as a 32-bit float, as [`Node::inv_sqrt_visits`] keeps it:
/// read from a table made once for small counts (the same expression,
/// so the same bits), computed above.
#[inline]
pub(super) fn inv_sqrt_visits(visits: u32) -> f32 {
    static TABLE: OnceLock<Box<[f32]>> = OnceLock::new();
    let of = |v: u32| (f64::from(v).sqrt().recip()) as f32;
    let table = TABLE.get_or_init(|| (0..TABLED as u32).map(of).collect());
    match table.get(visits as usize) {
        Some(&known) => known,
        None => of(visits),
    }
}

/// `√(ln visits)` of a node's visits (at least 1), the factor of the
/// exploration term: read from a table made once for small counts (the
/// same expression, so the same bits), computed above.
#[inline]
pub(super) fn sqrt_ln_visits(visits: u32) -> f64 {
    static TABLE: OnceLock<Box<[f64]>> = OnceLock::new();
    let of = |v: u32| f64::from(v.max(1)).ln().sqrt();
    let table = TABLE.get_or_init(|| (0..TABLED as u32).map(of).collect());
    match table.get(visits as usize) {
        Some(&known) => known,
        None => of(visits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Position;

    #[test]
    fn tabled_roots_are_the_computed_ones_to_the_bit() {
        for v in (0..2 * TABLED as u32).chain([u32::MAX - 1, u32::MAX]) {
            let inv = (f64::from(v).sqrt().recip()) as f32;
            assert_eq!(inv_sqrt_visits(v).to_bits(), inv.to_bits(), "{v}");
            let root_ln = f64::from(v.max(1)).ln().sqrt();
            assert_eq!(sqrt_ln_visits(v).to_bits(), root_ln.to_bits(), "{v}");
        }
    }

    #[test]
    fn a_tree_node_stays_small() {
        // Four links and counters of 32 bits, `1/√visits` as a 32-bit
        // float, three counters of 16, the move, the mover, the summed
        // value and the mean: 48 bytes with alignment.
        assert!(
            std::mem::size_of::<Node>() <= 48,
            "{}",
            std::mem::size_of::<Node>()
        );
        // Beside it the node's position: six boards and the occupied set of
        // 128 bits, the hash, counters and places.
        assert!(
            std::mem::size_of::<Position>() <= 160,
            "{}",
            std::mem::size_of::<Position>()
        );
    }
}
