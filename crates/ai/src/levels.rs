//! The eight levels, one table: each level is one [`Level`] literal saying
//! how it searches at two units (alpha-beta, by depth or nodes), at three to
//! five units and at six (Monte Carlo tree search, by iterations and tree
//! shape), how much seeded noise it adds to the evaluation, how wide its
//! race solver's beam is, and the time caps it never exceeds, natively and
//! in the browser.
//!
//! Work budgets, not time, make play deterministic given a seed and the same
//! on every machine; the cap only guards slow hardware. Level 8 takes a
//! quarter of the previous level 8's time (commit f9a36c6, which took about
//! 1 s of CPU at two units and ran to its 5 s cap at more). Natively its cap
//! is a quarter of that cap, 1.25 s, and its budgets keep its average move at
//! about a quarter of that level's average, as measured in CPU time in
//! matches against it on a loaded machine: about 0.25 s at two units (1.6M
//! nodes), and about 1 s at three to six. Below six units that is 450 000
//! iterations, most searches ending sooner, once their most visited move can
//! no longer be overtaken; at six, where the root's moves are halved round
//! by round to the last one, it is 200 000 (docs/benchmarks.md, "Levels").
//! In the browser its cap is one second. The WebAssembly build runs slower
//! than native code, so there the cap ends most searches above two units
//! before their budget, as it does natively on a slow or busy machine. Level
//! 8 then plays the best move of the tree grown so far, so that there its
//! play depends on the machine's speed. Each lower level answers faster, with
//! the same cap in the browser as natively (docs/benchmarks.md, "Levels" and
//! "Time per move").

use crate::limits::Limits;
use crate::tree_shape::TreeShape;

/// A level's tree search at one table size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLevel {
    /// Iterations of the search.
    pub iterations: u64,
    /// How the tree explores and how its root chooses.
    pub shape: TreeShape,
}

/// How one level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level, 1–8.
    pub level: u8,
    /// Alpha-beta depth limit (two units, and the engine protocol's `go level`).
    pub depth: Option<u32>,
    /// Alpha-beta node budget.
    pub nodes: Option<u64>,
    /// The tree search at tables of three to five units (players, or teams).
    pub tree: TreeLevel,
    /// The tree search at six units (classic-6), where five opponent layers
    /// sit between two of a player's own moves and each iteration costs more.
    pub tree_six: TreeLevel,
    /// Evaluation noise amplitude (1/100 row), a seeded hash of the position.
    pub noise: i32,
    /// Transposition table size in megabytes.
    pub tt_mb: usize,
    /// Widest beam of the race solver (0 = no race solver).
    pub race_width: usize,
    /// The most time a move may take natively (server, engine protocol,
    /// laboratory), in milliseconds.
    pub cap_ms: u64,
    /// The most time a move may take in the browser's WebAssembly build, in
    /// milliseconds: never more than [`Level::cap_ms`].
    pub browser_cap_ms: u64,
}

/// The weakest level.
pub const MIN_LEVEL: u8 = 1;
/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

/// One tree exploring widely (UCB1 constant 0.7): levels 1–6. Lower levels
/// explore widely so that the steps of the ladder stay apart.
const WIDE: TreeShape = TreeShape::one_tree(70);
/// One tree between the two (0.5): level 6 at six units, where 0.7 does not
/// set it apart from level 5 and 0.4 plays as well as level 7.
const MIDDLE: TreeShape = TreeShape::one_tree(50);
/// One tree spending its budget on the most promising moves (0.3): level 7.
const NARROW: TreeShape = TreeShape::one_tree(30);
/// One tree at 0.3 whose root explores at 0.7, so that its larger budget
/// keeps comparing the root moves while the lines under the best deepen:
/// level 8 below six units.
const WIDE_ROOT: TreeShape = TreeShape {
    root_exploration_pct: Some(70),
    ..NARROW
};
/// One tree at 0.3 whose root chooses by sequential halving (every root move
/// an equal share of each round, the better half going on): level 8 at six
/// units, where a tree at 0.3 settles on one root move within its first few
/// thousand iterations.
const HALVING: TreeShape = TreeShape {
    halving: true,
    ..NARROW
};

/// A tree search of `iterations` shaped `shape`.
const fn tree(iterations: u64, shape: TreeShape) -> TreeLevel {
    TreeLevel { iterations, shape }
}

/// Every level, weakest first.
pub(crate) const LEVELS: [Level; 8] = [
    Level {
        level: 1,
        depth: Some(1),
        nodes: None,
        tree: tree(25, WIDE),
        tree_six: tree(25, WIDE),
        noise: 500,
        tt_mb: 1,
        race_width: 0,
        cap_ms: 300,
        browser_cap_ms: 300,
    },
    Level {
        level: 2,
        depth: Some(1),
        nodes: None,
        tree: tree(25, WIDE),
        tree_six: tree(25, WIDE),
        noise: 150,
        tt_mb: 1,
        race_width: 0,
        cap_ms: 300,
        browser_cap_ms: 300,
    },
    Level {
        level: 3,
        depth: Some(2),
        nodes: None,
        tree: tree(125, WIDE),
        tree_six: tree(125, WIDE),
        noise: 60,
        tt_mb: 2,
        race_width: 0,
        cap_ms: 400,
        browser_cap_ms: 400,
    },
    Level {
        level: 4,
        depth: Some(3),
        nodes: Some(20_000),
        tree: tree(500, WIDE),
        tree_six: tree(500, WIDE),
        noise: 20,
        tt_mb: 4,
        race_width: 16,
        cap_ms: 500,
        browser_cap_ms: 500,
    },
    Level {
        level: 5,
        depth: None,
        nodes: Some(40_000),
        tree: tree(2_500, WIDE),
        tree_six: tree(2_000, WIDE),
        noise: 12,
        tt_mb: 8,
        race_width: 32,
        cap_ms: 600,
        browser_cap_ms: 600,
    },
    Level {
        level: 6,
        depth: None,
        nodes: Some(100_000),
        tree: tree(7_500, WIDE),
        tree_six: tree(5_000, MIDDLE),
        noise: 6,
        tt_mb: 16,
        race_width: 64,
        cap_ms: 700,
        browser_cap_ms: 700,
    },
    Level {
        level: 7,
        depth: None,
        nodes: Some(250_000),
        tree: tree(15_000, NARROW),
        tree_six: tree(10_000, NARROW),
        noise: 0,
        tt_mb: 32,
        race_width: 128,
        cap_ms: 800,
        browser_cap_ms: 800,
    },
    Level {
        level: 8,
        depth: None,
        nodes: Some(1_600_000),
        tree: tree(450_000, WIDE_ROOT),
        tree_six: tree(200_000, HALVING),
        noise: 0,
        tt_mb: 64,
        race_width: 256,
        cap_ms: 1_250,
        browser_cap_ms: 1_000,
    },
];

impl Level {
    /// The settings of `level` (clamped to 1–8).
    pub fn get(level: u8) -> Level {
        LEVELS[usize::from(level.clamp(MIN_LEVEL, MAX_LEVEL) - 1)]
    }

    /// The alpha-beta search's limits: depth or nodes, and the time cap.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms: Some(self.cap_ms),
            ..Limits::default()
        }
    }

    /// The tree search at a table of `units` players or teams.
    pub fn tree(&self, units: usize) -> TreeLevel {
        if units >= 6 {
            self.tree_six
        } else {
            self.tree
        }
    }

    /// The alpha-beta limits with the time cap lowered to `max_ms` if given.
    pub fn capped(&self, max_ms: Option<u64>) -> Limits {
        let mut l = self.limits();
        if let Some(m) = max_ms {
            l.movetime_ms = Some(self.cap_ms.min(m));
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_level_order() {
        for (i, level) in LEVELS.iter().enumerate() {
            assert_eq!(usize::from(level.level), i + 1);
        }
        assert_eq!(Level::get(0), Level::get(MIN_LEVEL));
        assert_eq!(Level::get(9), Level::get(MAX_LEVEL));
    }

    #[test]
    fn every_level_searches_more_than_the_one_below_and_no_longer_than_level_eight() {
        for level in MIN_LEVEL + 1..=MAX_LEVEL {
            let (lower, upper) = (Level::get(level - 1), Level::get(level));
            assert!(upper.noise <= lower.noise, "{level}");
            assert!(upper.cap_ms >= lower.cap_ms, "{level}");
            assert!(upper.browser_cap_ms >= lower.browser_cap_ms, "{level}");
            assert!(upper.browser_cap_ms <= upper.cap_ms, "{level}");
            assert!(upper.nodes >= lower.nodes, "{level}");
            for units in [3, 4, 6] {
                let (lo, up) = (lower.tree(units), upper.tree(units));
                assert!(up.iterations >= lo.iterations, "{level} at {units}");
                assert!(
                    up.shape.exploration() <= lo.shape.exploration(),
                    "{level} at {units} units"
                );
                // From level 5 up every step at least doubles the tree search.
                if level > 5 {
                    assert!(up.iterations >= 2 * lo.iterations, "{level} at {units}");
                }
            }
        }
        let top = Level::get(MAX_LEVEL);
        assert_eq!((top.cap_ms, top.browser_cap_ms), (1_250, 1_000));
    }

    #[test]
    fn level_eight_widens_its_root_below_six_units_and_halves_at_six() {
        let top = Level::get(MAX_LEVEL);
        for units in [3, 4] {
            let shape = top.tree(units).shape;
            assert_eq!(
                (shape.root_exploration(), shape.halving),
                (Some(0.7), false)
            );
        }
        let six = top.tree(6).shape;
        assert_eq!((six.root_exploration(), six.halving), (None, true));
        assert_eq!(six.exploration(), top.tree(3).shape.exploration());
        for level in MIN_LEVEL..MAX_LEVEL {
            for units in [3, 6] {
                let shape = Level::get(level).tree(units).shape;
                assert_eq!((shape.root_exploration(), shape.halving), (None, false));
            }
        }
    }

    #[test]
    fn a_lower_cap_replaces_the_levels_own() {
        let eight = Level::get(8);
        assert_eq!(eight.capped(None).movetime_ms, Some(1_250));
        assert_eq!(eight.capped(Some(200)).movetime_ms, Some(200));
        assert_eq!(eight.capped(Some(5_000)).movetime_ms, Some(1_250));
        assert_eq!(
            eight.capped(Some(eight.browser_cap_ms)).movetime_ms,
            Some(1_000)
        );
        assert_eq!(eight.limits().nodes, Some(1_600_000));
    }
}
