//! Holes of the star and their names (`m1`, `i9`, `e17`).

use crate::error::ParseError;
use crate::geometry;
use std::fmt;
use std::str::FromStr;

/// One of the 121 holes of the star.
///
/// Holes are numbered 0–120 row by row from the bottom (row 1) to the top
/// (row 17), left to right (letter a to q) within a row. A hole is named by its
/// oblique line (letter a–q) and row (1–17): the bottom tip is `m1`, the top tip
/// `e17`, the centre `i9`.
///
/// ```
/// use stella_engine::Hole;
/// let centre: Hole = "i9".parse().unwrap();
/// assert_eq!(centre.letter(), 9);
/// assert_eq!(centre.row(), 9);
/// assert_eq!(centre.to_string(), "i9");
/// assert!("a1".parse::<Hole>().is_err()); // not on the star
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hole(u8);

impl Hole {
    /// Number of holes on the board.
    pub const COUNT: usize = 121;

    /// The hole with index `index` (0–120), or `None`.
    pub const fn from_index(index: usize) -> Option<Hole> {
        if index < Self::COUNT {
            Some(Hole(index as u8))
        } else {
            None
        }
    }

    /// The hole with this index; the index must be below 121.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Hole {
        Hole(index)
    }

    /// Index of the hole, 0–120.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The hole on oblique line `letter` (1 = a … 17 = q) and row `row` (1–17).
    pub const fn from_letter_row(letter: i32, row: i32) -> Option<Hole> {
        match geometry::index_of(letter, row) {
            Some(i) => Some(Hole(i)),
            None => None,
        }
    }

    /// Oblique line, 1 (a) to 17 (q).
    #[inline]
    pub const fn letter(self) -> i32 {
        geometry::COORDS[self.0 as usize].0 as i32
    }

    /// Row, 1 (bottom) to 17 (top).
    #[inline]
    pub const fn row(self) -> i32 {
        geometry::COORDS[self.0 as usize].1 as i32
    }

    /// Cube coordinates `(x, y, z)` with `x + y + z = 0`, centre `(0, 0, 0)`.
    pub const fn cube(self) -> (i32, i32, i32) {
        let x = self.letter() - 9;
        let y = self.row() - 9;
        (x, y, -x - y)
    }

    /// Distance in steps between two holes (hexagonal distance, ignoring marbles).
    pub const fn distance(self, other: Hole) -> u32 {
        let (a, b, c) = self.cube();
        let (d, e, f) = other.cube();
        let m = (a - d).unsigned_abs();
        let n = (b - e).unsigned_abs();
        let o = (c - f).unsigned_abs();
        let mx = if m > n { m } else { n };
        if mx > o {
            mx
        } else {
            o
        }
    }

    /// All 121 holes in index order.
    pub fn all() -> impl Iterator<Item = Hole> {
        (0..Self::COUNT as u8).map(Hole)
    }
}

impl fmt::Display for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = (b'a' + (self.letter() - 1) as u8) as char;
        write!(f, "{}{}", letter, self.row())
    }
}

impl fmt::Debug for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Hole {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Hole, ParseError> {
        let bad = || ParseError::Hole(s.to_string());
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(bad)?;
        if !letter.is_ascii_lowercase() || letter > 'q' {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(bad());
        }
        let row: i32 = digits.parse().map_err(|_| bad())?;
        Hole::from_letter_row(letter as i32 - 'a' as i32 + 1, row).ok_or_else(bad)
    }
}
