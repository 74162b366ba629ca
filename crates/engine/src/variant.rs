//! The variants of docs/rules.md §10 (and the solitaire `solo`), under their fixed ids.

use crate::bitboard::Bitboard;
use crate::colour::Colour;
use crate::error::ParseError;
use crate::geometry::{home15, point, HEXAGON};
use std::fmt;
use std::str::FromStr;

use Colour::*;

/// How a marble jumps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum JumpRule {
    /// Over one adjacent marble to the empty hole right behind it.
    Classic,
    /// Over a straight unbroken row of marbles next to it, to the first hole beyond.
    Long,
    /// Over exactly one marble at any distance, landing as far beyond it.
    Symmetric,
}

/// A variant of the game. The ids are fixed (docs/rules.md §10).
///
/// ```
/// use stella_engine::Variant;
/// let v: Variant = "pairs-3x2".parse().unwrap();
/// assert_eq!(v.seats().len(), 6);
/// assert_eq!(v.teams().len(), 3);
/// assert_eq!(v.unit_count(), 3);
/// assert!("classic-5".parse::<Variant>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// Two players, classic rules.
    Classic2,
    /// Three players, classic rules.
    Classic3,
    /// Four players, classic rules.
    Classic4,
    /// Six players, classic rules.
    Classic6,
    /// Two players, long jumps.
    Long2,
    /// Three players, long jumps.
    Long3,
    /// Four players, long jumps.
    Long4,
    /// Six players, long jumps.
    Long6,
    /// Two players, 15 marbles, deadline 40.
    Fifteen2,
    /// Three players, 15 marbles, deadline 40.
    Fifteen3,
    /// Four players in two teams.
    Pairs2x2,
    /// Six players in three teams.
    Pairs3x2,
    /// Two players with the Masters swap.
    Masters2,
    /// Six players with the Masters swap.
    Masters6,
    /// Two players, symmetric jumps.
    Symmetric2,
    /// Six players, symmetric jumps.
    Symmetric6,
    /// Solitaire crossing: white alone, classic rules, goal the top point.
    Solo,
}

const SEATS_1: &[Colour] = &[White];
const SEATS_2: &[Colour] = &[White, Black];
const SEATS_3: &[Colour] = &[White, Blue, Yellow];
const SEATS_4: &[Colour] = &[White, Red, Black, Yellow];
const SEATS_6: &[Colour] = &[White, Red, Blue, Black, Yellow, Green];

impl Variant {
    /// The 16 table variants of docs/rules.md §10, in table order (the solitaire
    /// [`Variant::Solo`] is not a table variant and is not listed here).
    pub const ALL: [Variant; 16] = [
        Variant::Classic2,
        Variant::Classic3,
        Variant::Classic4,
        Variant::Classic6,
        Variant::Long2,
        Variant::Long3,
        Variant::Long4,
        Variant::Long6,
        Variant::Fifteen2,
        Variant::Fifteen3,
        Variant::Pairs2x2,
        Variant::Pairs3x2,
        Variant::Masters2,
        Variant::Masters6,
        Variant::Symmetric2,
        Variant::Symmetric6,
    ];

    /// The fixed id, like `classic-2`.
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Classic2 => "classic-2",
            Variant::Classic3 => "classic-3",
            Variant::Classic4 => "classic-4",
            Variant::Classic6 => "classic-6",
            Variant::Long2 => "long-2",
            Variant::Long3 => "long-3",
            Variant::Long4 => "long-4",
            Variant::Long6 => "long-6",
            Variant::Fifteen2 => "fifteen-2",
            Variant::Fifteen3 => "fifteen-3",
            Variant::Pairs2x2 => "pairs-2x2",
            Variant::Pairs3x2 => "pairs-3x2",
            Variant::Masters2 => "masters-2",
            Variant::Masters6 => "masters-6",
            Variant::Symmetric2 => "symmetric-2",
            Variant::Symmetric6 => "symmetric-6",
            Variant::Solo => "solo",
        }
    }

    /// The variant with this id.
    pub fn from_id(id: &str) -> Result<Variant, ParseError> {
        Variant::ALL
            .into_iter()
            .chain([Variant::Solo])
            .find(|v| v.id() == id)
            .ok_or_else(|| ParseError::Variant(id.to_string()))
    }

    /// The colours at the table, in turn (clockwise) order; white moves first.
    pub const fn seats(self) -> &'static [Colour] {
        match self {
            Variant::Solo => SEATS_1,
            Variant::Classic2
            | Variant::Long2
            | Variant::Fifteen2
            | Variant::Masters2
            | Variant::Symmetric2 => SEATS_2,
            Variant::Classic3 | Variant::Long3 | Variant::Fifteen3 => SEATS_3,
            Variant::Classic4 | Variant::Long4 | Variant::Pairs2x2 => SEATS_4,
            Variant::Classic6
            | Variant::Long6
            | Variant::Pairs3x2
            | Variant::Masters6
            | Variant::Symmetric6 => SEATS_6,
        }
    }

    /// Whether `colour` plays in this variant: one bit of the seats' mask,
    /// not a walk over [`Variant::seats`] (asked for every seat after every
    /// move).
    #[inline]
    pub const fn has_seat(self, colour: Colour) -> bool {
        self.seat_mask() >> colour.index() & 1 != 0
    }

    /// The seats as a set of bits, bit `i` for the colour of index `i`
    /// (the masks of [`Variant::seats`]' lists, computed at compile time).
    pub(crate) const fn seat_mask(self) -> u8 {
        const fn mask(seats: &[Colour]) -> u8 {
            let mut mask = 0u8;
            let mut i = 0;
            while i < seats.len() {
                mask |= 1 << seats[i].index();
                i += 1;
            }
            mask
        }
        const MASKS: [u8; 5] = [
            mask(SEATS_1),
            mask(SEATS_2),
            mask(SEATS_3),
            mask(SEATS_4),
            mask(SEATS_6),
        ];
        MASKS[match self.seats().len() {
            1 => 0,
            2 => 1,
            3 => 2,
            4 => 3,
            _ => 4,
        }]
    }

    /// The jump rule.
    pub const fn jump_rule(self) -> JumpRule {
        match self {
            Variant::Long2 | Variant::Long3 | Variant::Long4 | Variant::Long6 => JumpRule::Long,
            Variant::Symmetric2 | Variant::Symmetric6 => JumpRule::Symmetric,
            _ => JumpRule::Classic,
        }
    }

    /// Whether the Masters swap is allowed.
    pub const fn masters_swap(self) -> bool {
        matches!(self, Variant::Masters2 | Variant::Masters6)
    }

    /// The most marbles any variant gives a player ([`Variant::marbles`]).
    pub const MAX_MARBLES: usize = 15;

    /// Marbles per player: 10, or 15 in the `fifteen` variants.
    pub const fn marbles(self) -> usize {
        match self {
            Variant::Fifteen2 | Variant::Fifteen3 => 15,
            _ => 10,
        }
    }

    /// The move by whose end every marble must have left home (30, or 40 with 15).
    pub const fn deadline(self) -> u16 {
        match self {
            Variant::Fifteen2 | Variant::Fifteen3 => 40,
            _ => 30,
        }
    }

    /// The teams, each a list of partners; without teams every player is their own.
    pub fn teams(self) -> Vec<Vec<Colour>> {
        match self {
            Variant::Pairs2x2 => vec![vec![White, Black], vec![Red, Yellow]],
            Variant::Pairs3x2 => vec![vec![White, Black], vec![Red, Yellow], vec![Blue, Green]],
            _ => self.seats().iter().map(|&c| vec![c]).collect(),
        }
    }

    /// How many units race: teams in a team variant, otherwise players
    /// (the length of [`Variant::teams`], without building it).
    pub const fn unit_count(self) -> usize {
        if self.has_teams() {
            self.players() / 2
        } else {
            self.players()
        }
    }

    /// Whether the variant is played in teams.
    pub const fn has_teams(self) -> bool {
        matches!(self, Variant::Pairs2x2 | Variant::Pairs3x2)
    }

    /// The partner of `colour` in a team variant.
    pub const fn partner(self, colour: Colour) -> Option<Colour> {
        if self.has_teams() {
            Some(colour.opposite())
        } else {
            None
        }
    }

    /// Number of seats.
    pub const fn players(self) -> usize {
        self.seats().len()
    }

    /// The holes `colour` starts on and must leave by the deadline.
    pub const fn home(self, colour: Colour) -> Bitboard {
        if self.marbles() == 15 {
            home15(colour)
        } else {
            point(colour)
        }
    }

    /// The holes `colour` must fill: the home of the opposite point.
    pub const fn goal(self, colour: Colour) -> Bitboard {
        self.home(colour.opposite())
    }

    /// Where a move of `colour` may end: the hexagon, its home point and its goal point.
    pub const fn allowed_ends(self, colour: Colour) -> Bitboard {
        Bitboard(HEXAGON.0 | point(colour).0 | point(colour.opposite()).0)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Variant {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Variant, ParseError> {
        Variant::from_id(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_variant_has_more_marbles_than_the_most() {
        let all = Variant::ALL.into_iter().chain([Variant::Solo]);
        let most = all.map(Variant::marbles).max();
        assert_eq!(most, Some(Variant::MAX_MARBLES));
    }

    #[test]
    fn has_seat_says_which_colours_are_seated() {
        for v in Variant::ALL.into_iter().chain([Variant::Solo]) {
            for c in Colour::ALL {
                assert_eq!(v.has_seat(c), v.seats().contains(&c), "{v} {c:?}");
            }
        }
    }

    #[test]
    fn unit_count_counts_the_teams_of_every_variant() {
        for v in Variant::ALL.into_iter().chain([Variant::Solo]) {
            assert_eq!(v.unit_count(), v.teams().len(), "{v}");
        }
        assert_eq!(Variant::Pairs2x2.unit_count(), 2);
        assert_eq!(Variant::Classic6.unit_count(), 6);
        assert_eq!(Variant::Solo.unit_count(), 1);
    }
}
