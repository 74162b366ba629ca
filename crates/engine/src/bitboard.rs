//! A set of holes as a 128-bit mask (bit `i` is the hole with index `i`).

use crate::hole::Hole;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The one-bit sets, by hole index (the table runs to 127 so that an index
/// masked to seven bits needs no bounds check): a hole's bit read from a table costs
/// fewer instructions than a 128-bit shift by a variable amount.
pub(crate) const HOLE_BITS: [u128; 128] = {
    let mut bits = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        bits[i] = 1 << i;
        i += 1;
    }
    bits
};

/// A set of holes; bit `i` stands for the hole whose index is `i` (0–120).
///
/// ```
/// use stella_engine::{Bitboard, Hole};
/// let m1: Hole = "m1".parse().unwrap();
/// let set = Bitboard::EMPTY.with(m1);
/// assert!(set.contains(m1));
/// assert_eq!(set.count(), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 121 holes of the star.
    pub const ALL: Bitboard = Bitboard((1u128 << 121) - 1);

    /// The set holding just `hole`.
    #[inline]
    pub const fn from_hole(hole: Hole) -> Bitboard {
        Bitboard(HOLE_BITS[hole.index() & 127])
    }

    /// Whether `hole` is in the set.
    #[inline]
    pub const fn contains(self, hole: Hole) -> bool {
        self.0 & HOLE_BITS[hole.index() & 127] != 0
    }

    /// The set with `hole` added.
    #[inline]
    pub const fn with(self, hole: Hole) -> Bitboard {
        Bitboard(self.0 | HOLE_BITS[hole.index() & 127])
    }

    /// The set with `hole` removed.
    #[inline]
    pub const fn without(self, hole: Hole) -> Bitboard {
        Bitboard(self.0 & !HOLE_BITS[hole.index() & 127])
    }

    /// Number of holes in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every hole of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The lowest-index hole of the set, if any.
    #[inline]
    pub fn first(self) -> Option<Hole> {
        if self.0 == 0 {
            None
        } else {
            Some(Hole::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Iterates over the holes in increasing index order.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }

    /// Whether `f` holds for some hole, asked in increasing index order
    /// until it does, one 64-bit word at a time (as
    /// [`Bitboard::for_each_hole`]).
    #[inline]
    pub fn any_hole(self, mut f: impl FnMut(Hole) -> bool) -> bool {
        for (base, word) in [(0u8, self.0 as u64), (64, (self.0 >> 64) as u64)] {
            let mut bits = word;
            while bits != 0 {
                if f(Hole::from_index_unchecked(
                    base + bits.trailing_zeros() as u8,
                )) {
                    return true;
                }
                bits &= bits - 1;
            }
        }
        false
    }

    /// Calls `f` with every hole in increasing index order, as
    /// [`Bitboard::iter`] hands them out, one 64-bit word at a time: cheaper
    /// in hot loops than the iterator's 128-bit arithmetic per hole.
    #[inline]
    pub fn for_each_hole(self, mut f: impl FnMut(Hole)) {
        self.any_hole(|h| {
            f(h);
            false
        });
    }
}

/// Iterator over the holes of a [`Bitboard`], lowest index first.
#[derive(Clone)]
pub struct BitboardIter(u128);

impl Iterator for BitboardIter {
    type Item = Hole;
    #[inline]
    fn next(&mut self) -> Option<Hole> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Hole::from_index_unchecked(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Hole;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Hole> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Hole>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn for_each_hole_hands_out_the_iterators_holes() {
        let mut state = 7u64;
        for shift in 0..122u32 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let bits = (u128::from(state) << 64 | u128::from(state.rotate_left(17))) >> shift;
            let board = Bitboard(bits & Bitboard::ALL.0);
            let mut handed = Vec::new();
            board.for_each_hole(|h| handed.push(h));
            assert_eq!(handed, board.iter().collect::<Vec<_>>());
            // Asked in order, up to the first hole that answers yes.
            for stop in [0usize, 1, 5, 60, 200] {
                let mut asked = Vec::new();
                let found = board.any_hole(|h| {
                    asked.push(h);
                    asked.len() > stop
                });
                assert_eq!(found, handed.len() > stop);
                assert_eq!(asked, handed[..handed.len().min(stop + 1)]);
            }
        }
        Bitboard::EMPTY.for_each_hole(|_| panic!("no hole"));
        assert!(!Bitboard::EMPTY.any_hole(|_| true));
        let mut all = 0;
        Bitboard::ALL.for_each_hole(|_| all += 1);
        assert_eq!(all, 121);
    }
}
