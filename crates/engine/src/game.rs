//! A game: a position with its history, threefold repetition and outside events.

use crate::colour::Colour;
use crate::error::IllegalMove;
use crate::moves::{Move, MovePath};
use crate::outcome::Outcome;
use crate::position::Position;
use crate::variant::Variant;
use std::collections::HashMap;

/// A game in progress or finished: the starting position, the moves played
/// (with their canonical paths) and the repetition count of every position.
///
/// ```
/// use stella_engine::{Game, Variant};
/// let mut game = Game::new(Variant::Classic2);
/// let mv = game.play_path(&"m3-m5".parse().unwrap()).unwrap();
/// assert_eq!(mv.to.to_string(), "m5");
/// assert_eq!(game.turn().to_string(), "black");
/// assert!(game.play_path(&"m5-m6".parse().unwrap()).is_err()); // not white's turn
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<(Move, MovePath)>,
    seen: HashMap<u64, u8>,
}

impl Game {
    /// A new game of `variant` from its start.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant))
    }

    /// A game starting from any checked position.
    pub fn from_position(start: Position) -> Game {
        let mut seen = HashMap::new();
        seen.insert(start.hash(), 1);
        Game {
            start,
            position: start,
            moves: Vec::new(),
            seen,
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.position.variant()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The colour to move.
    pub fn turn(&self) -> Colour {
        self.position.turn()
    }

    /// The moves played so far with their canonical paths.
    pub fn moves(&self) -> &[(Move, MovePath)] {
        &self.moves
    }

    /// The legal moves now.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.position.legal_moves()
    }

    /// Whether `mv` would eliminate the player who makes it (ask to confirm).
    pub fn would_eliminate(&self, mv: &Move) -> bool {
        self.position.would_eliminate(mv)
    }

    /// The result, once the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.position.is_over()
    }

    /// Checks and plays a written path; returns the move it made.
    pub fn play_path(&mut self, path: &MovePath) -> Result<Move, IllegalMove> {
        let mv = self.position.resolve_path(path)?;
        self.push(mv);
        Ok(mv)
    }

    /// Checks and plays a move.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        self.position.check(mv)?;
        self.push(*mv);
        Ok(())
    }

    /// The position `mv` would lead to, an end by threefold repetition included,
    /// without playing it (and without copying the game's history).
    pub fn position_after(&self, mv: &Move) -> Result<Position, IllegalMove> {
        self.position.check(mv)?;
        let mut next = self.position;
        next.play_unchecked(mv);
        if !next.is_over() && self.seen.get(&next.hash()).copied().unwrap_or(0) >= 2 {
            next.end_by_repetition();
        }
        Ok(next)
    }

    fn push(&mut self, mv: Move) {
        let path = self.position.path_of(&mv);
        self.position.play_unchecked(&mv);
        self.moves.push((mv, path));
        if !self.position.is_over() {
            let n = self.seen.entry(self.position.hash()).or_insert(0);
            *n += 1;
            if *n >= 3 {
                self.position.end_by_repetition();
            }
        }
    }

    /// `colour` resigns; the game ends for everyone (docs/rules.md §8).
    pub fn resign(&mut self, colour: Colour) -> Result<(), IllegalMove> {
        self.position.concede(colour, false)
    }

    /// `colour` ran out of time; the game ends for everyone (docs/rules.md §8).
    pub fn time_out(&mut self, colour: Colour) -> Result<(), IllegalMove> {
        self.position.concede(colour, true)
    }

    /// The positions after each move, the start first.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.start;
        let mut out = vec![pos];
        for (mv, _) in &self.moves {
            pos.play_unchecked(mv);
            out.push(pos);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut Game, paths: &[&str]) {
        for p in paths {
            game.play_path(&p.parse().unwrap()).unwrap();
        }
    }

    #[test]
    fn position_after_is_the_position_play_reaches() {
        let mut game = Game::new(Variant::Classic2);
        play(
            &mut game,
            &["j4-i5", "e14-e13", "i5-j4", "e13-e14", "j4-i5"],
        );
        for mv in game.legal_moves() {
            let after = game.position_after(&mv).unwrap();
            let mut played = game.clone();
            played.play(&mv).unwrap();
            assert_eq!(&after, played.position());
        }
        assert_eq!(game.moves().len(), 5, "nothing played");
    }

    #[test]
    fn position_after_sees_threefold_repetition() {
        let mut game = Game::new(Variant::Classic2);
        play(
            &mut game,
            &[
                "j4-i5", "e14-e13", "i5-j4", "e13-e14", "j4-i5", "e14-e13", "i5-j4",
            ],
        );
        let mv = game
            .position()
            .resolve_path(&"e13-e14".parse().unwrap())
            .unwrap();
        let after = game.position_after(&mv).unwrap();
        assert!(after.is_over());
        assert_eq!(
            after.outcome().unwrap().reason,
            crate::outcome::EndReason::Repetition
        );
    }

    #[test]
    fn position_after_refuses_an_illegal_move() {
        let mut game = Game::new(Variant::Classic2);
        play(&mut game, &["m3-m5"]);
        let mv = game.legal_moves()[0];
        let mut other = Game::new(Variant::Classic2);
        play(&mut other, &["m3-m5", "e14-e13"]);
        // Black's move, asked of a position where white is to move.
        assert!(other.position_after(&mv).is_err());
    }
}
