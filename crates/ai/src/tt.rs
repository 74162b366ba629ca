//! The transposition table: a fixed-size array of entries indexed by the
//! Zobrist hash, always-replace unless the stored entry is deeper and from
//! the current search.

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
    /// Search generation, for replacement.
    pub age: u8,
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
    age: u8,
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
        }
    }

    /// Starts a new search generation.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// Stores a result.
    pub fn store(&mut self, key: u64, mv: PackedMove, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.entries[key as usize & self.mask];
        if let Some(old) = slot {
            if old.age == self.age && old.key != key && old.depth as i32 > depth {
                return;
            }
        }
        let mv = match (mv, *slot) {
            (PackedMove::NONE, Some(old)) if old.key == key => old.mv,
            _ => mv,
        };
        *slot = Some(Entry {
            key,
            mv,
            score,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            age: self.age,
        });
    }
}
