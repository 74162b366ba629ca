//! The tree's growing lists, kept per thread from one search to the next.
//!
//! A search fills up to a hundred megabytes of nodes and positions. Given
//! back to the system after every move, that memory came back zeroed page
//! by page at the next search (a page fault each); kept for the thread's
//! next search, it is already mapped.

use super::node::Node;
use std::cell::Cell;
use stella_engine::{Move, Position};

/// The nodes, positions and candidate moves of a tree ([`super::Mcts`]).
#[derive(Debug, Default)]
pub(super) struct Buffers {
    pub(super) nodes: Vec<Node>,
    pub(super) positions: Vec<Position>,
    pub(super) arena: Vec<Move>,
}

thread_local! {
    /// The lists of this thread's last tree, empty, waiting for its next.
    static SPARE: Cell<Option<Buffers>> = const { Cell::new(None) };
}

impl Buffers {
    /// Empty lists for a new tree: those this thread's last tree left, if
    /// any, so their memory is already mapped.
    pub(super) fn take() -> Buffers {
        SPARE.take().unwrap_or_default()
    }

    /// Keeps these lists, emptied, for this thread's next tree (the larger
    /// of them and those already kept).
    pub(super) fn give_back(mut self) {
        self.nodes.clear();
        self.positions.clear();
        self.arena.clear();
        let kept = SPARE.take();
        let best = match kept {
            Some(k) if k.positions.capacity() > self.positions.capacity() => k,
            _ => self,
        };
        SPARE.set(Some(best));
    }
}
