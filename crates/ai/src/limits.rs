//! What stops a search: move time, depth, nodes, or a game clock, and how a
//! game clock becomes a time budget for one move.

/// Limits of one search. Every field is optional; unset means "no limit of
/// this kind". With nothing set the search stops at its maximum depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Think at most this long (milliseconds).
    pub movetime_ms: Option<u64>,
    /// Search at most this many plies deep.
    pub depth: Option<u32>,
    /// Visit at most this many nodes.
    pub nodes: Option<u64>,
    /// Time left on the mover's clock (milliseconds).
    pub remaining_ms: Option<u64>,
    /// Increment added to the mover's clock after each move (milliseconds).
    pub increment_ms: Option<u64>,
}

/// Milliseconds kept in reserve on a clock so that a move is never late.
const SAFETY_MS: f64 = 30.0;

impl Limits {
    /// Think for `ms` milliseconds.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }

    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// The time this search may use, in milliseconds, if time limits it.
    /// From a clock: the remaining time spread over the moves likely left
    /// (`moves_left`), plus most of the increment, never more than a third of
    /// what is left minus a safety margin.
    pub fn budget_ms(&self, moves_left: u32) -> Option<f64> {
        let from_clock = self.remaining_ms.map(|rem| {
            let rem = rem as f64;
            let inc = self.increment_ms.unwrap_or(0) as f64;
            let share = rem / moves_left.max(8) as f64 + inc * 0.8;
            share.min(rem / 3.0).min(rem - SAFETY_MS).max(1.0)
        });
        match (self.movetime_ms.map(|m| m as f64), from_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_share_of_the_remaining_time() {
        let clock = |remaining_ms: u64, increment_ms: u64| Limits {
            remaining_ms: Some(remaining_ms),
            increment_ms: Some(increment_ms),
            ..Limits::default()
        };
        let b = clock(60_000, 1_000).budget_ms(40).unwrap();
        assert!(b > 1_000.0 && b < 20_000.0, "{b}");
        let tight = clock(50, 0).budget_ms(40).unwrap();
        assert!(tight <= 20.0);
        assert_eq!(Limits::movetime(100).budget_ms(10), Some(100.0));
        assert_eq!(Limits::depth(3).budget_ms(10), None);
    }
}
