//! A node of the tree: the move that led to it, its statistics, and where
//! its children and position are kept.

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

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Position;

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
