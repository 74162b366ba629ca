//! The eight levels. Each is a node (or depth) budget, a small amount of
//! seeded evaluation noise for the lower ones, and a time cap so that no level
//! ever keeps a player waiting. Node budgets, not time, make play
//! deterministic given a seed and the same on every machine (as long as the
//! cap is not reached).

use crate::limits::Limits;
use crate::tree_shape::TreeShape;

/// How one level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level, 1–8.
    pub level: u8,
    /// Search limits (depth or nodes, with a time cap).
    pub limits: Limits,
    /// Evaluation noise amplitude (1/100 row).
    pub noise: i32,
    /// Transposition table size in megabytes.
    pub tt_mb: usize,
    /// Widest beam of the race solver (0 = no race solver).
    pub race_width: usize,
    /// Iterations of the Monte Carlo tree search (tables of more than two units).
    /// Set per level, not derived from the node budget, so that every step
    /// from level 4 up multiplies the search by four to six
    /// (docs/benchmarks.md, session 5).
    pub mcts_iterations: u64,
    /// The tree search's shape at tables of up to five units (players, or
    /// teams); see [`Level::tree_shape`].
    pub mcts_shape: TreeShape,
    /// The same at tables of six units (classic-6).
    pub mcts_shape_six: TreeShape,
}

/// The weakest level.
pub const MIN_LEVEL: u8 = 1;
/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

impl Level {
    /// The settings of `level` (clamped to 1–8).
    pub fn get(level: u8) -> Level {
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        // One row a level; the MCTS tuple is (iterations, shape at up to
        // five units, shape at six units).
        #[rustfmt::skip]
        let (depth, nodes, noise, cap_ms, tt_mb, race_width, mcts) = match level {
            1 => (Some(1), None, 500, 300, 1, 0, (25, WIDE, WIDE)),
            2 => (Some(1), None, 150, 300, 1, 0, (25, WIDE, WIDE)),
            3 => (Some(2), None, 60, 500, 2, 0, (125, WIDE, WIDE)),
            4 => (Some(3), Some(20_000), 20, 800, 4, 16, (500, WIDE, WIDE)),
            5 => (None, Some(40_000), 12, 1_200, 8, 32, (2_500, WIDE, WIDE)),
            6 => (None, Some(150_000), 6, 2_000, 16, 64, (15_000, WIDE, MIDDLE)),
            7 => (None, Some(500_000), 0, 3_000, 32, 128, (60_000, NARROW, NARROW)),
            _ => (None, Some(2_500_000), 0, 5_000, 64, 256, (300_000, WIDE_ROOT, HALVING)),
        };
        let (mcts_iterations, mcts_shape, mcts_shape_six) = mcts;
        Level {
            level,
            limits: Limits {
                depth,
                nodes,
                movetime_ms: Some(cap_ms),
                ..Limits::default()
            },
            noise,
            tt_mb,
            race_width,
            mcts_iterations,
            mcts_shape,
            mcts_shape_six,
        }
    }

    /// The tree search's shape at a table of `units` players or teams.
    ///
    /// Levels 1–6 explore widely (0.7); levels 7 and 8 spend their larger
    /// budgets on the most promising moves (0.3), which makes them much
    /// stronger at every table size (docs/benchmarks.md, session 6: at six
    /// seats level 6 scored 52% against level 5 exploring at 0.7 and 71% at
    /// 0.3). Lower levels keep 0.7 so that each step of the ladder stays
    /// apart: with 0.3 from level 6 up, level 7 was no better than level 6,
    /// and with 0.3 for every level, level 5 no better than level 4.
    ///
    /// At six units (classic-6) level 6 explores at 0.5, between the two:
    /// at 0.7 it was no better than level 5 there, at 0.4 level 7 was no
    /// better than it, and at 0.5 both steps are apart (sessions 9 and 10).
    /// Three teams of two (pairs-3x2) play like three units and keep 0.7:
    /// at 0.5 level 7 was no better than level 6 there.
    ///
    /// Level 8 is one tree whose root explores at 0.7 and the rest at 0.3
    /// below six units: the lines under the moves it likes deepen as in
    /// level 7, while its larger budget keeps comparing the moves
    /// themselves (with 0.3 at the root too, 300 000 iterations played no
    /// better than level 7's 60 000; sessions 7, 8 and 10). At six units
    /// its root chooses by sequential halving, every move getting an equal
    /// share of each round, the better half going on: there a tree at 0.3
    /// settles on one root move within its first few thousand iterations,
    /// and neither the wider root (session 11) nor five voting trees
    /// (sessions 8–12) made the larger budget count (session 19).
    pub fn tree_shape(&self, units: usize) -> TreeShape {
        if units >= 6 {
            self.mcts_shape_six
        } else {
            self.mcts_shape
        }
    }

    /// These limits with the time cap lowered to `max_ms` if given.
    pub fn capped(&self, max_ms: Option<u64>) -> Limits {
        let mut l = self.limits;
        if let Some(m) = max_ms {
            l.movetime_ms = Some(l.movetime_ms.map_or(m, |c| c.min(m)));
        }
        l
    }
}

/// One tree exploring widely (0.7): levels 1–6.
const WIDE: TreeShape = TreeShape::one_tree(70);
/// One tree between the two (0.5): level 6 at six units.
const MIDDLE: TreeShape = TreeShape::one_tree(50);
/// One tree spending its budget on the most promising moves (0.3): level 7.
const NARROW: TreeShape = TreeShape::one_tree(30);
/// One tree at 0.3 whose root explores at 0.7: level 8 below six units.
const WIDE_ROOT: TreeShape = TreeShape {
    root_exploration_pct: Some(70),
    ..NARROW
};
/// One tree at 0.3 whose root chooses by sequential halving: level 8 at
/// six units.
const HALVING: TreeShape = TreeShape {
    halving: true,
    ..NARROW
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_searches_more_than_the_one_below() {
        for level in MIN_LEVEL + 1..=MAX_LEVEL {
            let (lower, upper) = (Level::get(level - 1), Level::get(level));
            assert!(upper.mcts_iterations >= lower.mcts_iterations, "{level}");
            assert!(upper.noise <= lower.noise, "{level}");
            for units in [3, 4, 6] {
                assert!(
                    upper.tree_shape(units).exploration() <= lower.tree_shape(units).exploration(),
                    "{level} at {units} units"
                );
            }
            assert!(
                upper.limits.movetime_ms >= lower.limits.movetime_ms,
                "{level}"
            );
            // From level 4 up every step multiplies the tree search by four
            // or more (the steps the ladders in docs/benchmarks.md measure).
            if level > 4 {
                assert!(
                    upper.mcts_iterations >= 4 * lower.mcts_iterations,
                    "{level}"
                );
            }
        }
        assert_eq!(Level::get(0), Level::get(MIN_LEVEL));
        assert_eq!(Level::get(9), Level::get(MAX_LEVEL));
    }

    #[test]
    fn level_eight_widens_its_root_below_six_units_and_halves_at_six() {
        let top = Level::get(MAX_LEVEL);
        for units in [3, 4] {
            let shape = top.tree_shape(units);
            assert_eq!((shape.trees, shape.root_exploration()), (1, Some(0.7)));
        }
        let six = top.tree_shape(6);
        assert_eq!(
            (six.trees, six.root_exploration(), six.halving),
            (1, None, true)
        );
        assert!(!top.tree_shape(3).halving);
        assert_eq!(six.exploration(), top.tree_shape(3).exploration());
        // Every other level is one tree with one constant throughout.
        for level in MIN_LEVEL..MAX_LEVEL {
            for units in [3, 6] {
                let shape = Level::get(level).tree_shape(units);
                assert_eq!(
                    (shape.trees, shape.root_exploration(), shape.halving),
                    (1, None, false)
                );
            }
        }
    }
}
