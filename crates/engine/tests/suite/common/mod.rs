//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

use stella_engine::{Game, Hole, Move, MovePath, Position};

/// Parses a position string, panicking with the error.
pub fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Parses a hole name.
pub fn hole(s: &str) -> Hole {
    s.parse().unwrap()
}

/// Parses a move path.
pub fn path(s: &str) -> MovePath {
    s.parse().unwrap()
}

/// The destinations of the marble on `from`, as sorted names.
pub fn dests(p: &Position, from: &str) -> Vec<String> {
    let from = hole(from);
    let mut v: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| m.to.to_string())
        .collect();
    v.sort();
    v
}

/// Plays a list of paths on a game, panicking on an illegal one.
pub fn play_all(game: &mut Game, paths: &[&str]) -> Vec<Move> {
    paths
        .iter()
        .map(|s| {
            game.play_path(&path(s))
                .unwrap_or_else(|e| panic!("{s}: {e}"))
        })
        .collect()
}
