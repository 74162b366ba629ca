//! A memory of the values of the search's leaves. Alpha-beta meets the same
//! leaf again through transpositions (the same moves in another order) and
//! in the next iteration of deepening; a leaf's value is a function of the
//! position alone within one search, so it is looked up instead of
//! evaluated again.

use crate::rng::hash64;
use stella_engine::Position;

/// Number of slots (a power of two): 16 bytes each, 1 MiB in all.
const SLOTS: usize = 1 << 16;

/// A direct-mapped table of leaf values keyed by [`leaf_key`]; a newer
/// value replaces whatever its slot held.
#[derive(Clone, Debug)]
pub struct LeafCache {
    slots: Vec<(u64, i32)>,
}

impl LeafCache {
    /// An empty table.
    pub fn new() -> LeafCache {
        LeafCache {
            slots: vec![(0, 0); SLOTS],
        }
    }

    /// Forgets every value (the values belong to one search's root, weights
    /// and noise).
    pub fn clear(&mut self) {
        self.slots.fill((0, 0));
    }

    /// The value stored under `key`, if its slot still holds it.
    #[inline]
    pub fn get(&self, key: u64) -> Option<i32> {
        let (k, v) = self.slots[key as usize & (SLOTS - 1)];
        (k == key).then_some(v)
    }

    /// Stores `value` under `key`.
    #[inline]
    pub fn put(&mut self, key: u64, value: i32) {
        self.slots[key as usize & (SLOTS - 1)] = (key, value);
    }
}

/// The key of `position`: its Zobrist hash (marbles and player to move)
/// mixed with what the hash leaves out and the evaluation reads: the
/// round, each seat's moves made, place, arrival and elimination. Never 0
/// (the mark of an empty slot).
#[inline]
pub fn leaf_key(position: &Position) -> u64 {
    let mut extra = u64::from(position.round());
    for &c in position.variant().seats() {
        let flags = u64::from(position.has_arrived(c)) | u64::from(position.is_eliminated(c)) << 1;
        extra = extra.wrapping_mul(0x100_0000_01B3).wrapping_add(
            u64::from(position.moves_made(c)) << 16 | u64::from(position.place(c)) << 2 | flags,
        );
    }
    (position.hash() ^ hash64(extra)) | 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::{Move, Variant};

    #[test]
    fn a_stored_value_comes_back_and_a_cleared_table_forgets_it() {
        let position = Position::start(Variant::Classic2);
        let key = leaf_key(&position);
        let mut cache = LeafCache::new();
        assert_eq!(cache.get(key), None);
        cache.put(key, -42);
        assert_eq!(cache.get(key), Some(-42));
        cache.clear();
        assert_eq!(cache.get(key), None);
    }

    fn play(p: &Position, mv: &Move) -> Position {
        assert!(p.is_legal(mv), "{mv:?}");
        let mut next = *p;
        next.play_unchecked(mv);
        next
    }

    /// A step of the player to move whose hole and target `avoid` misses.
    fn a_step(p: &Position, avoid: &[Move]) -> Move {
        p.legal_moves()
            .into_iter()
            .find(|m| {
                p.is_step(m)
                    && avoid.iter().all(|a| {
                        ![a.from, a.to].contains(&m.from) && ![a.from, a.to].contains(&m.to)
                    })
            })
            .expect("a step")
    }

    /// Two moves of one side played in either order around the same reply
    /// reach the same position with the same key.
    #[test]
    fn transpositions_share_a_key() {
        let start = Position::start(Variant::Classic2);
        let w1 = a_step(&start, &[]);
        let w2 = a_step(&start, &[w1]);
        let b = a_step(&play(&start, &w1), &[]);
        let one = play(&play(&play(&start, &w1), &b), &w2);
        let other = play(&play(&play(&start, &w2), &b), &w1);
        assert_eq!(one.hash(), other.hash());
        assert_eq!(leaf_key(&one), leaf_key(&other));
    }

    /// Stepping out and back leaves the marbles (and the hash) as they
    /// were, but two moves more made: another key.
    #[test]
    fn moves_made_tell_equal_marbles_apart() {
        let start = Position::start(Variant::Classic2);
        let w = a_step(&start, &[]);
        let b = a_step(&play(&start, &w), &[]);
        let mut back = start;
        for mv in [w, b, Move::new(w.to, w.from), Move::new(b.to, b.from)] {
            back = play(&back, &mv);
        }
        assert_eq!(back.hash(), start.hash());
        assert_ne!(leaf_key(&back), leaf_key(&start));
    }
}
