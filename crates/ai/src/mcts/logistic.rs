//! The logistic of the evaluation's pair standings, remembered per search.

use std::cell::Cell;

/// The cost differences remembered: from `-REACH` to `REACH - 1` (1/100
/// row), wider than the differences a search meets at any table.
const REACH: i64 = 4_096;

/// The logistic function.
pub(super) fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `logistic(d / scale)` of cost differences `d`, each computed the first
/// time it is asked for and read back after. The differences are whole
/// numbers (sums of whole costs, noise, tempo and late-round terms), a few
/// thousand of them recur in every leaf's thirty pairs, so most standings
/// cost a load instead of an exponential; the value read back is the one
/// computed, to the last bit.
#[derive(Debug)]
pub(super) struct LogisticMemo {
    scale: f64,
    /// By `d + REACH`; 0 where not computed yet (then computed again: a
    /// logistic of 0 is not remembered, nor needed).
    values: Box<[Cell<f64>]>,
}

impl LogisticMemo {
    /// An empty memory of `logistic(d / scale)`.
    pub(super) fn new(scale: f64) -> LogisticMemo {
        LogisticMemo {
            scale,
            values: vec![0.0; 2 * REACH as usize]
                .into_iter()
                .map(Cell::new)
                .collect(),
        }
    }

    /// `logistic(d / scale)` of the whole difference `d`, remembered when
    /// `d` is in reach.
    #[inline]
    pub(super) fn of(&self, d: i32) -> f64 {
        // Below `-REACH` the place wraps round past the end: not in reach.
        let Some(slot) = self.values.get((i64::from(d) + REACH) as usize) else {
            return logistic(f64::from(d) / self.scale);
        };
        let known = slot.get();
        if known != 0.0 {
            return known;
        }
        let value = logistic(f64::from(d) / self.scale);
        slot.set(value);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_values_are_the_computed_ones_to_the_bit() {
        for scale in [400.0, 1.0, 123.5] {
            let memo = LogisticMemo::new(scale);
            let ds = (-5_000..5_000).chain([i32::MIN, i32::MAX, -4_097, 4_096]);
            for d in ds {
                let direct = logistic(f64::from(d) / scale);
                // Asked twice: computed, then read back.
                assert_eq!(memo.of(d).to_bits(), direct.to_bits(), "{d} {scale}");
                assert_eq!(memo.of(d).to_bits(), direct.to_bits(), "{d} {scale}");
            }
        }
    }
}
