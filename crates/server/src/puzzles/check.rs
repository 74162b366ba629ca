//! Checking an attempt at a puzzle from the moves the player played, so a rating is
//! earned by play, not by a client saying "solved".
//!
//! The puzzle's `moves` is the proved length of the shortest finish, so a player who
//! brings every marble home in that many legal moves has found a shortest finish, and
//! every move of it kept one: replaying the moves is a complete and cheap check, with
//! no search on the server. The other players' marbles stand still (in a race they
//! cannot interfere), so the same player moves again after each move.

use stella_engine::{MovePath, Position};

use super::file::Puzzle;

/// Most moves an attempt may list (and the longest finish a puzzle may ask for).
pub const MAX_ATTEMPT_MOVES: usize = 12;

/// Longest move text accepted, in bytes.
const MAX_MOVE_CHARS: usize = 200;

/// Why an attempt's moves cannot be replayed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AttemptError {
    /// More moves than any puzzle takes.
    #[error("an attempt lists at most {MAX_ATTEMPT_MOVES} moves, not {0}")]
    TooManyMoves(usize),
    /// No move at all.
    #[error("an attempt lists the moves played, at least one")]
    NoMoves,
    /// A move that does not parse or is not legal where it was played.
    #[error("move {index} ({text:?}): {reason}")]
    BadMove {
        /// Its place in the list, from 1.
        index: usize,
        /// The move as sent (cut to 200 bytes).
        text: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// Replays `moves` (paths such as `h12-h13` or `e5-g5-g7`) from the puzzle's position,
/// the same player moving each time; true when they bring every marble of that player
/// home within the puzzle's `moves` (a shortest finish), false when they are legal but
/// do not. A move after the finish, or one that is not legal, is an error.
pub fn check_attempt(puzzle: &Puzzle, moves: &[String]) -> Result<bool, AttemptError> {
    if moves.len() > MAX_ATTEMPT_MOVES {
        return Err(AttemptError::TooManyMoves(moves.len()));
    }
    if moves.is_empty() {
        return Err(AttemptError::NoMoves);
    }
    let mut pos: Position = puzzle.position.parse().map_err(|e| AttemptError::BadMove {
        index: 0,
        text: String::new(),
        reason: format!("the puzzle's position does not parse: {e}"),
    })?;
    let player = pos.turn();
    for (i, text) in moves.iter().enumerate() {
        let bad = |reason: String| AttemptError::BadMove {
            index: i + 1,
            text: cut(text),
            reason,
        };
        if text.len() > MAX_MOVE_CHARS {
            return Err(bad(format!("longer than {MAX_MOVE_CHARS} bytes")));
        }
        let path: MovePath = text.parse().map_err(|e| bad(format!("{e}")))?;
        pos.play_path(&path).map_err(|e| bad(format!("{e}")))?;
        if pos.has_arrived(player) {
            if i + 1 < moves.len() {
                return Err(AttemptError::BadMove {
                    index: i + 2,
                    text: cut(&moves[i + 1]),
                    reason: "played after the finish".into(),
                });
            }
            return Ok(i < puzzle.moves);
        }
        // The same player moves again: the others' marbles stand still.
        let mut setup = pos.to_setup();
        setup.turn = player;
        setup.ended = None;
        pos = Position::from_setup(&setup).map_err(|e| bad(format!("{e}")))?;
    }
    Ok(false)
}

fn cut(text: &str) -> String {
    let mut end = text.len().min(MAX_MOVE_CHARS);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// White finishes in 2: h12-h13, then h13-h14.
    const CLOSE_RACE: &str = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";

    fn puzzle() -> Puzzle {
        Puzzle {
            id: "g-1".into(),
            position: CLOSE_RACE.into(),
            moves: 2,
            rating: 1300.0,
            game: "g".into(),
            ply: 1,
        }
    }

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_shortest_finish_solves_the_puzzle() {
        assert_eq!(
            check_attempt(&puzzle(), &moves(&["h12-h13", "h13-h14"])),
            Ok(true)
        );
    }

    #[test]
    fn a_slower_or_unfinished_attempt_fails() {
        assert_eq!(check_attempt(&puzzle(), &moves(&["h12-h11"])), Ok(false));
        assert_eq!(check_attempt(&puzzle(), &moves(&["h12-h13"])), Ok(false));
        // A finish in more moves than the shortest is not a solution.
        let slow = moves(&["h12-h11", "h11-h12", "h12-h13", "h13-h14"]);
        assert_eq!(check_attempt(&puzzle(), &slow), Ok(false));
    }

    #[test]
    fn bad_moves_are_named() {
        let err = check_attempt(&puzzle(), &moves(&["h12-h13", "h12-g10"])).unwrap_err();
        assert!(
            matches!(&err, AttemptError::BadMove { index: 2, text, .. } if text == "h12-g10"),
            "{err}"
        );
        let err = check_attempt(&puzzle(), &moves(&["zz"])).unwrap_err();
        assert!(err.to_string().starts_with("move 1 (\"zz\")"), "{err}");
        let after = check_attempt(&puzzle(), &moves(&["h12-h13", "h13-h14", "h14-h13"]));
        assert_eq!(
            after.unwrap_err().to_string(),
            "move 3 (\"h14-h13\"): played after the finish"
        );
        assert_eq!(check_attempt(&puzzle(), &[]), Err(AttemptError::NoMoves));
        let many = vec!["h12-h13".to_string(); 13];
        assert_eq!(
            check_attempt(&puzzle(), &many),
            Err(AttemptError::TooManyMoves(13))
        );
    }
}
