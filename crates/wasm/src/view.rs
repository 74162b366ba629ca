//! The JSON view of a game that the browser draws: position, pieces, legal moves with
//! their canonical paths and elimination flags, arrivals, goals, moves and outcome.
//! Field names are camelCase to match `web/src/engine/protocol.ts`.

use serde::Serialize;
use std::collections::BTreeMap;
use stella_engine::{Colour, Game, Move, Position};

/// One legal move.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct LegalMoveView {
    /// Starting hole.
    pub from: String,
    /// Hole where the move ends.
    pub to: String,
    /// Canonical path, starting hole first.
    pub path: Vec<String>,
    /// Whether the move would eliminate the mover (ask for confirmation).
    pub eliminates: bool,
}

/// Places and the reason of a finished game.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct OutcomeView {
    /// Place of each seat, 1 = first.
    pub places: BTreeMap<String, u8>,
    /// Why the game ended (`arrived`, `round-limit`, `resigned-white`, ...).
    pub reason: String,
}

/// Everything a table needs to draw one moment of a game.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct GameView {
    /// Variant id.
    pub variant: String,
    /// Seats in play order.
    pub seats: Vec<String>,
    /// Position string.
    pub position: String,
    /// Marbles by hole.
    pub pieces: BTreeMap<String, String>,
    /// Seat to move, `None` when the game is over.
    pub to_move: Option<String>,
    /// Legal moves of the seat to move.
    pub legal: Vec<LegalMoveView>,
    /// Marbles of each seat inside its goal.
    pub arrived: BTreeMap<String, u32>,
    /// Marbles per seat.
    pub marbles: usize,
    /// Goal holes of each seat.
    pub goals: BTreeMap<String, Vec<String>>,
    /// Path of the last move.
    pub last_move: Option<Vec<String>>,
    /// Moves played, as canonical paths.
    pub moves: Vec<String>,
    /// The result once the game is over.
    pub outcome: Option<OutcomeView>,
}

fn holes_of_path(p: &stella_engine::MovePath) -> Vec<String> {
    p.holes().iter().map(|h| h.to_string()).collect()
}

/// The legal moves of a position with paths and elimination flags.
pub fn legal_moves_view(pos: &Position) -> Vec<LegalMoveView> {
    if pos.is_over() {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|mv: &Move| LegalMoveView {
            from: mv.from.to_string(),
            to: mv.to.to_string(),
            path: holes_of_path(&pos.path_of(mv)),
            eliminates: pos.would_eliminate(mv),
        })
        .collect()
}

/// The view of a position alone (no move history).
pub fn position_view(pos: &Position) -> GameView {
    let variant = pos.variant();
    let seats: &[Colour] = variant.seats();
    let mut pieces = BTreeMap::new();
    for &c in seats {
        for h in pos.marbles(c) {
            pieces.insert(h.to_string(), c.name().to_string());
        }
    }
    let outcome = pos.outcome().map(|o| OutcomeView {
        places: o
            .places
            .iter()
            .map(|(c, p)| (c.name().to_string(), *p))
            .collect(),
        reason: o.reason.to_string(),
    });
    GameView {
        variant: variant.id().to_string(),
        seats: seats.iter().map(|c| c.name().to_string()).collect(),
        position: pos.to_string(),
        pieces,
        to_move: if pos.is_over() {
            None
        } else {
            Some(pos.turn().name().to_string())
        },
        legal: legal_moves_view(pos),
        arrived: seats
            .iter()
            .map(|&c| (c.name().to_string(), pos.marbles_in_goal(c)))
            .collect(),
        marbles: variant.marbles(),
        goals: seats
            .iter()
            .map(|&c| {
                (
                    c.name().to_string(),
                    variant.goal(c).iter().map(|h| h.to_string()).collect(),
                )
            })
            .collect(),
        last_move: None,
        moves: Vec::new(),
        outcome,
    }
}

/// The view of a game: its position plus the moves played.
pub fn game_view(game: &Game) -> GameView {
    let mut view = position_view(game.position());
    view.moves = game.moves().iter().map(|(_, p)| p.to_string()).collect();
    view.last_move = game.moves().last().map(|(_, p)| holes_of_path(p));
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    #[test]
    fn start_view_has_both_seats_and_moves() {
        let game = Game::new(Variant::from_id("classic-2").unwrap());
        let v = game_view(&game);
        assert_eq!(v.seats, ["white", "black"]);
        assert_eq!(v.pieces.len(), 20);
        assert_eq!(v.to_move.as_deref(), Some("white"));
        assert!(!v.legal.is_empty());
        assert!(v
            .legal
            .iter()
            .all(|m| m.path.first() == Some(&m.from) && m.path.last() == Some(&m.to)));
        assert_eq!(v.goals["white"].len(), 10);
        assert!(v.goals["white"].contains(&"e17".to_string()));
        assert!(v.outcome.is_none());
        let json = serde_json::to_string(&v).unwrap();
        assert!(json.contains("\"toMove\":\"white\""));
        assert!(json.contains("\"lastMove\":null"));
    }

    #[test]
    fn view_after_a_move_keeps_the_path() {
        let mut game = Game::new(Variant::from_id("classic-2").unwrap());
        game.play_path(&"l4-l5".parse().unwrap()).unwrap();
        let v = game_view(&game);
        assert_eq!(v.moves, ["l4-l5"]);
        assert_eq!(v.last_move, Some(vec!["l4".to_string(), "l5".to_string()]));
        assert_eq!(v.to_move.as_deref(), Some("black"));
    }
}
