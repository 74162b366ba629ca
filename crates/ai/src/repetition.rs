//! The game's positions so far, as the searches see them for threefold
//! repetition: how often each position hash occurred. Every search node asks
//! about its own position, and almost none of them occurred in the game, so
//! a bit per hash slot ([`SLOTS`]) answers "never" without a map lookup.

use std::collections::HashMap;

/// Bits of the filter: a hash's low bits name its slot.
const SLOTS: usize = 4096;

/// How often each position of the game occurred.
#[derive(Clone, Debug)]
pub(crate) struct GameHistory {
    counts: HashMap<u64, u8>,
    /// A set bit for every slot some game position's hash falls in.
    filter: Vec<u64>,
}

impl GameHistory {
    /// The history of the positions `hashes` (the current one included).
    pub(crate) fn new(hashes: &[u64]) -> GameHistory {
        let mut history = GameHistory {
            counts: HashMap::new(),
            filter: vec![0; SLOTS / 64],
        };
        history.set(hashes);
        history
    }

    /// Replaces the positions with `hashes`.
    pub(crate) fn set(&mut self, hashes: &[u64]) {
        self.counts.clear();
        self.filter.iter_mut().for_each(|w| *w = 0);
        for &h in hashes {
            *self.counts.entry(h).or_insert(0) += 1;
            let slot = h as usize % SLOTS;
            self.filter[slot / 64] |= 1 << (slot % 64);
        }
    }

    /// How often the position `hash` occurred in the game.
    #[inline]
    pub(crate) fn count(&self, hash: u64) -> usize {
        let slot = hash as usize % SLOTS;
        if self.filter[slot / 64] >> (slot % 64) & 1 == 0 {
            return 0;
        }
        *self.counts.get(&hash).unwrap_or(&0) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_position_and_nothing_else() {
        let mut history = GameHistory::new(&[7, 7, 9, 7 + SLOTS as u64]);
        assert_eq!(history.count(7), 2);
        assert_eq!(history.count(9), 1);
        // Same slot as 7, a different position.
        assert_eq!(history.count(7 + SLOTS as u64), 1);
        assert_eq!(history.count(7 + 2 * SLOTS as u64), 0);
        assert_eq!(history.count(8), 0);
        history.set(&[8]);
        assert_eq!((history.count(7), history.count(8)), (0, 1));
    }
}
