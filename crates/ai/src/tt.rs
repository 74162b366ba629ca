//! The transposition table: a fixed-size array of entries indexed by the
//! Zobrist hash, always-replace unless the stored entry is deeper and from
//! the current search. Emptying it writes nothing: entries stored before the
//! last [`Table::clear`] are no longer seen, so that clearing a table of tens
//! of megabytes before every move costs nothing.

use stella_engine::{Hole, Move};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this value (a cut-off at a maximising node).
    Lower,
    /// At most this value.
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The full hash, to detect index collisions.
    pub key: u64,
    /// The best (or refuting) move found, packed.
    pub mv: PackedMove,
    /// The score.
    pub score: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i8,
    /// Meaning of `score`.
    pub bound: Bound,
    /// Search generation, for replacement and for telling entries from
    /// before the last clear.
    pub age: u32,
}

/// A move in three bytes: from, to, swap (255 = none), or all 255 for no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedMove([u8; 3]);

impl PackedMove {
    /// No move.
    pub const NONE: PackedMove = PackedMove([255; 3]);

    /// Packs a move.
    pub fn pack(mv: &Move) -> PackedMove {
        PackedMove([
            mv.from.index() as u8,
            mv.to.index() as u8,
            mv.swap.map_or(255, |h| h.index() as u8),
        ])
    }

    /// The three bytes as one number, for cheap comparisons.
    #[inline]
    pub(crate) fn code(self) -> u32 {
        u32::from_le_bytes([self.0[0], self.0[1], self.0[2], 0])
    }

    /// Unpacks, or `None` for [`PackedMove::NONE`].
    pub fn unpack(self) -> Option<Move> {
        let from = Hole::from_index(self.0[0] as usize)?;
        let to = Hole::from_index(self.0[1] as usize)?;
        Some(Move {
            from,
            to,
            swap: Hole::from_index(self.0[2] as usize),
        })
    }
}

/// The table.
#[derive(Debug)]
pub struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
    /// The current search generation.
    age: u32,
    /// The first generation after the last clear: older entries are empty.
    oldest: u32,
}

impl Table {
    /// A table of about `megabytes` MB (rounded down to a power of two of entries).
    pub fn new(megabytes: usize) -> Table {
        let size = std::mem::size_of::<Option<Entry>>();
        let wanted = (megabytes.max(1) << 20) / size;
        let n = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            entries: vec![None; n],
            mask: n - 1,
            age: 0,
            oldest: 0,
        }
    }

    /// Starts a new search generation.
    pub fn new_search(&mut self) {
        if self.age == u32::MAX {
            // Generations would repeat: empty the slots themselves, once in
            // four billion searches.
            self.entries.iter_mut().for_each(|e| *e = None);
            (self.age, self.oldest) = (0, 0);
        }
        self.age += 1;
    }

    /// Empties the table: what was stored before is not seen again.
    pub fn clear(&mut self) {
        self.new_search();
        self.oldest = self.age;
    }

    /// The slot's entry if it was stored since the last clear.
    fn live(&self, index: usize) -> Option<Entry> {
        self.entries[index].filter(|e| e.age >= self.oldest)
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.live(key as usize & self.mask).filter(|e| e.key == key)
    }

    /// Stores a result.
    pub fn store(&mut self, key: u64, mv: PackedMove, score: i32, depth: i32, bound: Bound) {
        let index = key as usize & self.mask;
        let old = self.live(index);
        if let Some(old) = old {
            if old.age == self.age && old.key != key && old.depth as i32 > depth {
                return;
            }
        }
        let mv = match (mv, old) {
            (PackedMove::NONE, Some(old)) if old.key == key => old.mv,
            _ => mv,
        };
        self.entries[index] = Some(Entry {
            key,
            mv,
            score,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            age: self.age,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a_move() -> PackedMove {
        PackedMove::pack(&Move {
            from: Hole::from_index(3).unwrap(),
            to: Hole::from_index(9).unwrap(),
            swap: None,
        })
    }

    #[test]
    fn a_cleared_table_forgets_its_entries_and_refuses_no_store() {
        let mut table = Table::new(1);
        table.new_search();
        let deep_key = 5u64;
        table.store(deep_key, a_move(), 40, 12, Bound::Exact);
        assert_eq!(table.probe(deep_key).map(|e| e.score), Some(40));
        table.clear();
        assert!(table.probe(deep_key).is_none());
        // A shallower entry of another key in the same slot is stored: the
        // deeper one is from before the clear.
        let other = deep_key + (table.mask as u64 + 1);
        table.store(other, PackedMove::NONE, 7, 1, Bound::Lower);
        let e = table.probe(other).expect("stored");
        assert_eq!((e.score, e.depth, e.mv), (7, 1, PackedMove::NONE));
        // An entry of the same key from before the clear lends it no move.
        table.clear();
        table.store(other, a_move(), 8, 2, Bound::Exact);
        table.clear();
        table.store(other, PackedMove::NONE, 9, 3, Bound::Upper);
        assert_eq!(table.probe(other).map(|e| e.mv), Some(PackedMove::NONE));
    }

    #[test]
    fn an_entry_with_its_generation_takes_24_bytes() {
        // The table's capacity for its megabytes depends on it.
        assert_eq!(std::mem::size_of::<Option<Entry>>(), 24);
    }

    #[test]
    fn entries_of_earlier_searches_stay_until_a_clear() {
        let mut table = Table::new(1);
        table.new_search();
        table.store(11, a_move(), 3, 4, Bound::Exact);
        table.new_search();
        assert_eq!(table.probe(11).map(|e| e.mv), Some(a_move()));
        // An older entry no longer blocks a shallower one of another key.
        let other = 11 + (table.mask as u64 + 1);
        table.store(other, PackedMove::NONE, 1, 1, Bound::Lower);
        assert!(table.probe(11).is_none());
        assert!(table.probe(other).is_some());
    }
}
