//! The eight levels. Each is a node (or depth) budget, a small amount of
//! seeded evaluation noise for the lower ones, and a time cap so that no level
//! ever keeps a player waiting. Node budgets, not time, make play
//! deterministic given a seed and the same on every machine (as long as the
//! cap is not reached).

use crate::limits::Limits;

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
    /// The tree search's UCB1 exploration constant at tables of up to five
    /// units (players, or teams), in hundredths (see
    /// [`Level::mcts_exploration`]).
    pub mcts_exploration_pct: u8,
    /// The same at tables of six units (classic-6).
    pub mcts_exploration_six_pct: u8,
    /// The constant at the root of the tree, in hundredths, where it differs
    /// from the rest of the tree (see [`Level::mcts_root_exploration`]).
    pub mcts_root_exploration_pct: Option<u8>,
    /// Independent trees the iterations are shared among (see
    /// [`crate::ensemble`]): 1 is one tree.
    pub mcts_trees: u8,
}

/// The weakest level.
pub const MIN_LEVEL: u8 = 1;
/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

impl Level {
    /// The settings of `level` (clamped to 1–8).
    pub fn get(level: u8) -> Level {
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        // One row a level; the MCTS tuple is (iterations, exploration pct,
        // exploration pct at six units, root exploration pct, trees).
        #[rustfmt::skip]
        let (depth, nodes, noise, cap_ms, tt_mb, race_width, mcts) = match level {
            1 => (Some(1), None, 500, 300, 1, 0, (25, 70, 70, None, 1)),
            2 => (Some(1), None, 150, 300, 1, 0, (25, 70, 70, None, 1)),
            3 => (Some(2), None, 60, 500, 2, 0, (125, 70, 70, None, 1)),
            4 => (Some(3), Some(20_000), 20, 800, 4, 16, (500, 70, 70, None, 1)),
            5 => (None, Some(40_000), 12, 1_200, 8, 32, (2_500, 70, 70, None, 1)),
            6 => (None, Some(150_000), 6, 2_000, 16, 64, (15_000, 70, 50, None, 1)),
            7 => (None, Some(500_000), 0, 3_000, 32, 128, (60_000, 30, 30, None, 1)),
            _ => (None, Some(2_500_000), 0, 5_000, 64, 256, (300_000, 30, 30, Some(70), 1)),
        };
        let (mcts_iterations, exploration, exploration_six, root_exploration, trees) = mcts;
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
            mcts_exploration_pct: exploration,
            mcts_exploration_six_pct: exploration_six,
            mcts_root_exploration_pct: root_exploration,
            mcts_trees: trees,
        }
    }

    /// The tree search's UCB1 exploration constant at a table of `units`
    /// players or teams. Levels 1–6 explore widely (0.7); levels 7 and 8
    /// spend their larger budgets on the most promising moves (0.3), which
    /// makes them much stronger at every table size (docs/benchmarks.md,
    /// session 6: at six seats level 6 scored 52% against level 5 exploring
    /// at 0.7 and 71% at 0.3). Lower levels keep 0.7 so that each step of the ladder stays
    /// apart: with 0.3 from level 6 up, level 7 was no better than level 6,
    /// and with 0.3 for every level, level 5 no better than level 4.
    ///
    /// At six units (classic-6) level 6 explores at 0.5, between the two:
    /// at 0.7 it was no better than level 5 there, at 0.4 level 7 was no
    /// better than it, and at 0.5 both steps are apart (docs/benchmarks.md,
    /// sessions 9 and 10). Three teams of two (pairs-3x2) play like three
    /// units and keep 0.7: at 0.5 level 7 was no better than level 6 there.
    pub fn mcts_exploration(&self, units: usize) -> f64 {
        let pct = if units >= 6 {
            self.mcts_exploration_six_pct
        } else {
            self.mcts_exploration_pct
        };
        hundredths(pct)
    }

    /// The tree search's constant at the root, where it differs from
    /// [`Level::mcts_exploration`]. Level 8 explores its root at 0.7 and the
    /// rest of its tree at 0.3: the lines under the moves it likes deepen
    /// as in level 7, while its larger budget keeps comparing the moves
    /// themselves. With 0.3 at the root too, one tree of 300 000 iterations
    /// played no better than level 7's 60 000 (docs/benchmarks.md, sessions
    /// 7, 8 and 10).
    pub fn mcts_root_exploration(&self) -> Option<f64> {
        self.mcts_root_exploration_pct.map(hundredths)
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

/// A constant stored in hundredths, as a fraction.
fn hundredths(pct: u8) -> f64 {
    f64::from(pct) / 100.0
}

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
                    upper.mcts_exploration(units) <= lower.mcts_exploration(units),
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
}
