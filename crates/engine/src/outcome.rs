//! How a game ended: the places of every seat and the reason.

use crate::colour::Colour;
use std::fmt;
use std::str::FromStr;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// Every place was decided by arrivals (and eliminations).
    Arrived,
    /// A player broke the home-leaving deadline or went back home after it,
    /// which decided the game.
    Eliminated,
    /// The 150-round limit was reached.
    RoundLimit,
    /// A position occurred for the third time.
    Repetition,
    /// No player could move.
    NoMoves,
    /// This player resigned.
    Resigned(Colour),
    /// This player ran out of time.
    TimeForfeit(Colour),
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Arrived => f.write_str("arrived"),
            EndReason::Eliminated => f.write_str("eliminated"),
            EndReason::RoundLimit => f.write_str("round-limit"),
            EndReason::Repetition => f.write_str("repetition"),
            EndReason::NoMoves => f.write_str("no-moves"),
            EndReason::Resigned(c) => write!(f, "resigned-{c}"),
            EndReason::TimeForfeit(c) => write!(f, "timeout-{c}"),
        }
    }
}

impl FromStr for EndReason {
    type Err = String;
    fn from_str(s: &str) -> Result<EndReason, String> {
        Ok(match s {
            "arrived" => EndReason::Arrived,
            "eliminated" => EndReason::Eliminated,
            "round-limit" => EndReason::RoundLimit,
            "repetition" => EndReason::Repetition,
            "no-moves" => EndReason::NoMoves,
            _ => {
                if let Some(c) = s.strip_prefix("resigned-") {
                    EndReason::Resigned(c.parse().map_err(|_| format!("unknown end reason {s:?}"))?)
                } else if let Some(c) = s.strip_prefix("timeout-") {
                    EndReason::TimeForfeit(
                        c.parse().map_err(|_| format!("unknown end reason {s:?}"))?,
                    )
                } else {
                    return Err(format!("unknown end reason {s:?}"));
                }
            }
        })
    }
}

/// The result of a finished game: the place of every seat (1 = first; equal
/// places are ties, as in a two-player draw) and why the game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: EndReason,
    /// Each seat with its place, in seat order.
    pub places: Vec<(Colour, u8)>,
}

impl Outcome {
    /// The place of `colour`, if it played.
    pub fn place_of(&self, colour: Colour) -> Option<u8> {
        self.places
            .iter()
            .find(|(c, _)| *c == colour)
            .map(|(_, p)| *p)
    }

    /// The seats that took first place (two in a drawn two-player game).
    pub fn winners(&self) -> Vec<Colour> {
        self.places
            .iter()
            .filter(|(_, p)| *p == 1)
            .map(|(c, _)| *c)
            .collect()
    }

    /// Whether every seat shares first place.
    pub fn is_draw(&self) -> bool {
        self.places.len() > 1 && self.places.iter().all(|(_, p)| *p == 1)
    }
}

impl fmt::Display for Outcome {
    /// Places in order, like `white=1 black=2 (arrived)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (c, p) in &self.places {
            write!(f, "{c}={p} ")?;
        }
        write!(f, "({})", self.reason)
    }
}
