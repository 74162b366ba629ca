//! Moves: their identity ([`Move`]) and their written form ([`MovePath`]).

use crate::error::ParseError;
use crate::hole::Hole;
use std::fmt;
use std::str::FromStr;

/// A move, identified by the marble (its starting hole) and the hole where it
/// ends. Two chains to the same hole are the same move.
///
/// In the Masters variants a move may end on a goal hole held by another
/// player's marble, which is sent to `swap` (the hole the last hop started
/// from); two such chains that send the marble to different holes are
/// different moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    /// Where the marble starts.
    pub from: Hole,
    /// Where the marble ends.
    pub to: Hole,
    /// Masters swap: where the marble found on `to` goes.
    pub swap: Option<Hole>,
}

impl Move {
    /// A move without a swap.
    pub const fn new(from: Hole, to: Hole) -> Move {
        Move {
            from,
            to,
            swap: None,
        }
    }
}

/// A move as written: the path of the marble, holes joined by hyphens
/// (`l2-l3` a step, `m1-m3-k5` a chain of two jumps). Parsing needs no position;
/// whether the path is legal is decided when it is played.
///
/// ```
/// use stella_engine::MovePath;
/// let p: MovePath = "m1-m3-k5".parse().unwrap();
/// assert_eq!(p.holes().len(), 3);
/// assert_eq!(p.to_string(), "m1-m3-k5");
/// assert!("m1-z3".parse::<MovePath>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MovePath(Vec<Hole>);

impl MovePath {
    /// A path from its holes (at least two for a playable move).
    pub fn new(holes: Vec<Hole>) -> MovePath {
        MovePath(holes)
    }

    /// The holes of the path, start first.
    pub fn holes(&self) -> &[Hole] {
        &self.0
    }

    /// The starting hole.
    pub fn from(&self) -> Option<Hole> {
        self.0.first().copied()
    }

    /// The final hole.
    pub fn to(&self) -> Option<Hole> {
        self.0.last().copied()
    }
}

impl fmt::Display for MovePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

impl FromStr for MovePath {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<MovePath, ParseError> {
        let trimmed = s.trim();
        if trimmed.is_empty() {
            return Err(ParseError::Path(s.to_string()));
        }
        let mut holes = Vec::new();
        for token in trimmed.split('-') {
            if token.is_empty() {
                return Err(ParseError::Path(s.to_string()));
            }
            holes.push(token.parse::<Hole>()?);
        }
        if holes.len() < 2 {
            return Err(ParseError::Path(s.to_string()));
        }
        Ok(MovePath(holes))
    }
}
