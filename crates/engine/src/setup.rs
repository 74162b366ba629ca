//! A plain layout that can hold anything; [`crate::Position::from_setup`] checks it.

use crate::bitboard::Bitboard;
use crate::colour::Colour;
use crate::outcome::EndReason;
use crate::variant::Variant;

/// Any layout of marbles and game-state fields, unchecked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The variant.
    pub variant: Variant,
    /// The colour to move.
    pub turn: Colour,
    /// Round number, from 1.
    pub round: u16,
    /// Marbles per colour, indexed by [`Colour::index`].
    pub marbles: [Bitboard; 6],
    /// Moves made per colour.
    pub made: [u16; 6],
    /// Bitmask (bit = colour index) of colours that have arrived.
    pub arrived: u8,
    /// Bitmask of colours that have been eliminated.
    pub out: u8,
    /// Place per colour (0 = not yet decided).
    pub places: [u8; 6],
    /// Why the game ended, if it has.
    pub ended: Option<EndReason>,
}

impl Setup {
    /// An empty board of `variant`, white to move in round 1.
    pub fn empty(variant: Variant) -> Setup {
        Setup {
            variant,
            turn: Colour::White,
            round: 1,
            marbles: [Bitboard::EMPTY; 6],
            made: [0; 6],
            arrived: 0,
            out: 0,
            places: [0; 6],
            ended: None,
        }
    }
}
