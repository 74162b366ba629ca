//! Error types: parse errors (no position needed), setup errors and illegal moves.

use crate::colour::Colour;
use crate::hole::Hole;
use std::fmt;

/// Text that does not parse; names the token that was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a hole name of the star (letters a–q, rows 1–17).
    Hole(String),
    /// Not a colour name.
    Colour(String),
    /// Not a variant id.
    Variant(String),
    /// A move path that is not holes joined by hyphens.
    Path(String),
    /// A malformed position string field.
    Position(String),
    /// A malformed game record line.
    Record(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Hole(s) => write!(f, "invalid hole {s:?}: expected a letter a-q and a row 1-17 on the star, like m1 or i9"),
            ParseError::Colour(s) => write!(f, "invalid colour {s:?}: expected white, red, blue, black, yellow or green"),
            ParseError::Variant(s) => write!(f, "unknown variant {s:?}"),
            ParseError::Path(s) => write!(f, "invalid move {s:?}: expected holes joined by hyphens, like l2-l3 or m1-m3-k5"),
            ParseError::Position(s) => write!(f, "invalid position: {s}"),
            ParseError::Record(s) => write!(f, "invalid record: {s}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Why a layout cannot be a game of its variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The colour does not sit at a table of this variant.
    NotASeat(Colour),
    /// A seat of the variant is missing from the layout.
    MissingSeat(Colour),
    /// A seat is listed twice.
    DuplicateSeat(Colour),
    /// One hole holds two marbles.
    HoleTwice(Hole),
    /// A seat has more marbles than the variant gives.
    TooManyMarbles(Colour, usize),
    /// The player to move has already finished or is out.
    TurnOfFinishedPlayer(Colour),
    /// A field with an impossible value.
    Invalid(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NotASeat(c) => write!(f, "{c} does not play in this variant"),
            SetupError::MissingSeat(c) => write!(f, "no field for {c}, who plays in this variant"),
            SetupError::DuplicateSeat(c) => write!(f, "{c} is listed twice"),
            SetupError::HoleTwice(h) => write!(f, "hole {h} holds two marbles"),
            SetupError::TooManyMarbles(c, n) => {
                write!(f, "{c} has {n} marbles, more than the variant gives")
            }
            SetupError::TurnOfFinishedPlayer(c) => {
                write!(f, "{c} is to move but has finished or is out")
            }
            SetupError::Invalid(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game has ended.
    GameOver,
    /// The starting hole holds no marble of the player to move.
    NoMarbleOfPlayer {
        /// The starting hole.
        hole: Hole,
        /// The player to move.
        player: Colour,
    },
    /// A landing hole is occupied.
    Occupied(Hole),
    /// A hop is neither a step to a neighbour (as the only hop) nor a jump.
    NotAJump {
        /// Where the hop starts.
        from: Hole,
        /// Where it lands.
        to: Hole,
    },
    /// A step followed by more hops: a move is one step or a chain of jumps.
    StepThenMore(Hole),
    /// The chain lands twice on the same hole (its start included).
    LandsTwice(Hole),
    /// The move ends in a point that is neither the player's home nor goal.
    EndsInForeignPoint(Hole),
    /// A marble in its goal tried to land outside it.
    LeavesGoal(Hole),
    /// A path of a single hole.
    Empty,
    /// The colour has already arrived or been eliminated: it is out of the game and can
    /// no longer resign or lose on time.
    NotInGame(Colour),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::NoMarbleOfPlayer { hole, player } => {
                write!(f, "no {player} marble on {hole} ({player} to move)")
            }
            IllegalMove::Occupied(h) => write!(f, "hole {h} is occupied"),
            IllegalMove::NotAJump { from, to } => {
                write!(f, "{from}-{to} is neither a step nor a jump")
            }
            IllegalMove::StepThenMore(h) => {
                write!(f, "a step to {h} ends the move; steps and jumps do not mix")
            }
            IllegalMove::LandsTwice(h) => write!(f, "the chain lands on {h} twice"),
            IllegalMove::EndsInForeignPoint(h) => write!(
                f,
                "a move may not end on {h}, in a point that is neither home nor goal"
            ),
            IllegalMove::LeavesGoal(h) => {
                write!(f, "a marble in its goal may not land outside it ({h})")
            }
            IllegalMove::Empty => f.write_str("a move needs at least two holes"),
            IllegalMove::NotInGame(c) => write!(
                f,
                "{c} has already finished (arrived or eliminated) and is no longer in the game"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}
