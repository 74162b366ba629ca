//! The tree's growing lists, kept from one search to the next.
//!
//! A search fills up to a hundred megabytes of nodes and positions. Given
//! back to the system after every move, that memory came back zeroed page
//! by page at the next search (a page fault each); kept for the next
//! search, it is already mapped.
//!
//! The lists are kept in one pool for the whole process, at most one set
//! per core: a server runs its searches on whichever blocking threads are
//! free, and sets kept per thread would add up over every thread that ever
//! searched. A pool the size of the cores keeps at most what that many
//! searches at once hold anyway.

use super::node::Node;
use std::sync::{Mutex, OnceLock};
use stella_engine::{Move, Position};

/// The nodes, positions and candidate moves of a tree ([`super::Mcts`]).
#[derive(Debug, Default)]
pub(super) struct Buffers {
    pub(super) nodes: Vec<Node>,
    pub(super) positions: Vec<Position>,
    pub(super) arena: Vec<Move>,
}

/// The emptied lists of finished trees, waiting for the next ones.
static SPARE: Mutex<Vec<Buffers>> = Mutex::new(Vec::new());

/// The most sets of lists the pool keeps: one per core.
fn kept_at_most() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The pool, also after a thread panicked while holding it: it holds only
/// emptied lists, which a panic cannot leave half-changed.
fn spare() -> std::sync::MutexGuard<'static, Vec<Buffers>> {
    SPARE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Buffers {
    /// Empty lists for a new tree: the largest set a finished tree left,
    /// if any, so its memory is already mapped.
    pub(super) fn take() -> Buffers {
        spare().pop().unwrap_or_default()
    }

    /// Keeps these lists, emptied, for a later tree, if the pool has room
    /// or they are larger than the smallest set kept; the pool stays sorted
    /// smallest first, so [`Buffers::take`] hands out the largest.
    pub(super) fn give_back(mut self) {
        self.nodes.clear();
        self.positions.clear();
        self.arena.clear();
        let size = self.positions.capacity();
        let mut pool = spare();
        let at = pool.partition_point(|b| b.positions.capacity() <= size);
        if pool.len() < kept_at_most() {
            pool.insert(at, self);
        } else if at > 0 {
            pool.insert(at, self);
            // The smallest set goes back to the system, outside the lock.
            let dropped = pool.remove(0);
            drop(pool);
            drop(dropped);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_keeps_at_most_one_set_a_core_and_hands_out_the_largest() {
        let sized = |n: usize| Buffers {
            nodes: Vec::new(),
            positions: Vec::with_capacity(n),
            arena: Vec::new(),
        };
        // Other tests search beside this one and share the pool, so only
        // bounds and order are checked here, under the lock's own view.
        for n in 1..=kept_at_most() + 3 {
            sized(n * 1_000_000 / 160).give_back();
        }
        let pool = spare();
        assert!(pool.len() <= kept_at_most());
        assert!(pool
            .windows(2)
            .all(|w| w[0].positions.capacity() <= w[1].positions.capacity()));
        assert!(pool
            .iter()
            .all(|b| b.positions.is_empty() && b.nodes.is_empty()));
    }
}
