//! Late-move reductions for the alpha-beta search: a move far down a node's
//! ordering is first searched less deep with a null window, and searched
//! again at full depth only when it beats the bound. With moves ordered by
//! table move, killers, history and rows gained, the late moves rarely
//! matter, so the depth they save goes to the moves that do.
//!
//! The reduction grows with the logarithms of both the remaining depth and
//! the move's place in the order (`ln depth · ln index / 2 + 1/2`, rounded
//! down), and a move that loses rows toward its goal is reduced one ply more.
//! Reductions start two plies from the frontier, where a late move is first
//! valued by the static evaluation alone.

/// Depths and move indices past these share the last entry.
const DEPTHS: usize = 64;
const INDICES: usize = 256;
/// The divisor of `ln depth · ln index`.
const DIVISOR: f64 = 2.0;
/// Added before rounding down.
const OFFSET: f64 = 0.5;

/// The reduction of every (depth, index) pair, computed once per searcher.
pub(crate) struct Reductions {
    table: Box<[[u8; INDICES]; DEPTHS]>,
}

impl Reductions {
    /// The table of `ln depth · ln index / 2 + 1/2`, rounded down.
    pub(crate) fn new() -> Reductions {
        let mut table = Box::new([[0u8; INDICES]; DEPTHS]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                *r = ((depth as f64).ln() * (index as f64).ln() / DIVISOR + OFFSET) as u8;
            }
        }
        Reductions { table }
    }

    /// How many plies less than `depth - 1` the `index`-th move (from 0) of
    /// a node `depth` plies from the frontier is first searched; `backward`
    /// when the move loses rows toward its goal. The first three moves and
    /// nodes one ply from the frontier (whose children are leaves already)
    /// are not reduced, and a reduced move is still searched at least one
    /// ply deep: two plies from the frontier, a late move is first valued by
    /// the static evaluation of the position it makes.
    pub(crate) fn of(&self, depth: i32, index: usize, backward: bool) -> i32 {
        if depth < 2 || index < 3 {
            return 0;
        }
        let d = (depth as usize).min(DEPTHS - 1);
        let i = index.min(INDICES - 1);
        let r = self.table[d][i] as i32 + backward as i32;
        r.min(depth - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_moves_deep_in_the_tree_are_reduced_more() {
        let r = Reductions::new();
        assert_eq!(r.of(1, 40, true), 0, "no reduction next to the frontier");
        // ln 2 · ln 4 / 2 + 1/2 = 0.98; ln 2 · ln 5 / 2 + 1/2 = 1.06.
        assert_eq!(r.of(2, 4, false), 0);
        assert_eq!(
            r.of(2, 5, false),
            1,
            "two plies out, a late move is valued statically"
        );
        assert_eq!(r.of(2, 3, true), 1, "and a backward move from the fourth");
        assert_eq!(r.of(2, 40, true), 1);
        assert_eq!(
            r.of(8, 2, true),
            0,
            "the first three moves are searched in full"
        );
        // ln 7 · ln 3 / 2 + 1/2 = 1.57; ln 7 · ln 8 / 2 + 1/2 = 2.52;
        // ln 7 · ln 20 / 2 + 1/2 = 3.41; ln 3 · ln 3 / 2 + 1/2 = 1.10.
        assert_eq!(r.of(7, 3, false), 1);
        assert_eq!(r.of(7, 8, false), 2);
        assert_eq!(r.of(7, 20, false), 3);
        assert_eq!(r.of(7, 20, true), 4, "a backward move one ply more");
        assert_eq!(r.of(3, 3, false), 1);
        // Never more than depth - 1, so every move is searched at least to a leaf.
        assert_eq!(r.of(3, 255, true), 2);
        assert_eq!(r.of(70, 1000, false), r.of(63, 255, false));
        for depth in 2..70 {
            for index in 3..300 {
                assert!(r.of(depth, index, false) <= r.of(depth, index + 1, false));
                assert!(r.of(depth, index, false) <= r.of(depth + 1, index, false));
                assert!(r.of(depth, index, true) < depth);
            }
        }
    }
}
