//! The six colours (seats) and their clockwise order.

use crate::error::ParseError;
use std::fmt;
use std::str::FromStr;

/// A player's colour, which is also the point of the star where they start.
///
/// Clockwise from the bottom point: white (bottom), red (lower left), blue
/// (upper left), black (top), yellow (upper right), green (lower right).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Colour {
    /// Bottom point; moves first.
    White = 0,
    /// Lower-left point.
    Red = 1,
    /// Upper-left point.
    Blue = 2,
    /// Top point.
    Black = 3,
    /// Upper-right point.
    Yellow = 4,
    /// Lower-right point.
    Green = 5,
}

impl Colour {
    /// All colours in clockwise order from the bottom.
    pub const ALL: [Colour; 6] = [
        Colour::White,
        Colour::Red,
        Colour::Blue,
        Colour::Black,
        Colour::Yellow,
        Colour::Green,
    ];

    /// The colour with this index (0 = white … 5 = green).
    pub const fn from_index(i: usize) -> Option<Colour> {
        if i < 6 {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// Index 0–5 in clockwise order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour sitting at the opposite point: its home is this colour's goal.
    #[inline]
    pub const fn opposite(self) -> Colour {
        // A table rather than a remainder by 6: asked for every goal lookup.
        const OPPOSITES: [Colour; 6] = {
            let mut table = Colour::ALL;
            let mut i = 0;
            while i < 6 {
                table[i] = Colour::ALL[(i + 3) % 6];
                i += 1;
            }
            table
        };
        OPPOSITES[self as usize]
    }

    /// Lower-case English name, as used in notation and position strings.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Black => "black",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Colour, ParseError> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| ParseError::Colour(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposites_sit_three_seats_on_and_pair_up() {
        for (i, c) in Colour::ALL.into_iter().enumerate() {
            assert_eq!(c.opposite(), Colour::ALL[(i + 3) % 6]);
            assert_eq!(c.opposite().opposite(), c);
        }
        assert_eq!(Colour::White.opposite(), Colour::Black);
    }
}
