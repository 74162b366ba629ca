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
}

/// The weakest level.
pub const MIN_LEVEL: u8 = 1;
/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

impl Level {
    /// The settings of `level` (clamped to 1–8).
    pub fn get(level: u8) -> Level {
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        let (depth, nodes, noise, cap_ms, tt_mb, race_width) = match level {
            1 => (Some(1), None, 500, 300, 1, 0),
            2 => (Some(1), None, 150, 300, 1, 0),
            3 => (Some(2), None, 60, 500, 2, 0),
            4 => (Some(3), Some(20_000), 20, 800, 4, 16),
            5 => (None, Some(40_000), 12, 1_200, 8, 32),
            6 => (None, Some(150_000), 6, 2_000, 16, 64),
            7 => (None, Some(500_000), 0, 3_000, 32, 128),
            _ => (None, Some(2_500_000), 0, 5_000, 64, 256),
        };
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
