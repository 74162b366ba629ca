//! "Finish in N" puzzles in the browser: whether a move keeps a shortest finish
//! of the player to move, and the position after it with the same player to
//! move again (in a race the others' marbles stand still, as the solver
//! assumes: the puzzle is the player's own finish).

use crate::clock::BrowserClock;
use crate::js_err;
use serde::Serialize;
use stella_ai::multipv::finish_length_after;
use stella_engine::{MovePath, Position};
use wasm_bindgen::prelude::*;

/// Nodes the solver may visit to judge one move of a puzzle.
const PUZZLE_NODES: u64 = 4_000_000;

/// A puzzle move judged, as JSON.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PuzzleMoveView {
    /// Whether the move keeps a finish in the moves left.
    pub keeps: bool,
    /// Moves to the finish with this move first, at least (proved).
    pub at_least: usize,
    /// Whether the player has finished with it.
    pub solved: bool,
    /// The position after the move with the same player to move, while moves are left.
    pub next: Option<String>,
}

/// Judges `path` in a puzzle `position` whose player must finish in `left`
/// moves: JSON [`PuzzleMoveView`].
#[wasm_bindgen(js_name = puzzleMove)]
pub fn puzzle_move(position: &str, path: &str, left: u32) -> Result<String, JsError> {
    let pos: Position = position.parse().map_err(js_err)?;
    let path: MovePath = path.parse().map_err(js_err)?;
    let view =
        judge_puzzle_move(&pos, &path, left as usize).map_err(|e: String| JsError::new(&e))?;
    Ok(serde_json::to_string(&view).expect("puzzle move serialises"))
}

/// The judgement of a puzzle move, or why the move cannot be judged.
fn judge_puzzle_move(
    pos: &Position,
    path: &MovePath,
    left: usize,
) -> Result<PuzzleMoveView, String> {
    let mv = pos.resolve_path(path).map_err(|e| e.to_string())?;
    let f = finish_length_after(pos, mv, &BrowserClock::new(), 1e9, PUZZLE_NODES)
        .ok_or_else(|| "this position has no finish to find".to_string())?;
    let keeps = f.plan.len() == left;
    let solved = keeps && left == 1;
    let next = if keeps && !solved {
        Some(same_player_after(pos, path)?)
    } else {
        None
    };
    Ok(PuzzleMoveView {
        keeps,
        at_least: f.lower_bound,
        solved,
        next,
    })
}

/// The position string after `path` with the same player to move: the
/// mover's marble moves from the path's first hole to its last, nothing else
/// changes.
fn same_player_after(pos: &Position, path: &MovePath) -> Result<String, String> {
    let text = pos.to_string();
    let turn = pos.turn().to_string();
    let from = path.holes().first().map(|h| h.to_string());
    let to = path.holes().last().map(|h| h.to_string());
    let (Some(from), Some(to)) = (from, to) else {
        return Err("empty move".to_string());
    };
    let prefix = format!("{turn}:");
    let fields: Vec<String> = text
        .split_whitespace()
        .map(|field| match field.strip_prefix(&prefix) {
            Some(holes) => {
                let moved: Vec<&str> = holes
                    .split(',')
                    .map(|h| if h == from { to.as_str() } else { h })
                    .collect();
                format!("{prefix}{}", moved.join(","))
            }
            None => field.to_string(),
        })
        .collect();
    let next: Position = fields
        .join(" ")
        .parse()
        .map_err(|e: stella_engine::ParseError| e.to_string())?;
    Ok(next.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLOSE_RACE: &str = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";

    #[test]
    fn a_shortest_finish_is_accepted_move_by_move_and_a_slower_one_refused() {
        let pos: Position = CLOSE_RACE.parse().unwrap();
        let first = judge_puzzle_move(&pos, &"h12-h13".parse().unwrap(), 2).unwrap();
        assert!(first.keeps && !first.solved);
        let next: Position = first.next.unwrap().parse().unwrap();
        assert_eq!(next.turn(), pos.turn());
        let last = judge_puzzle_move(&next, &"h13-h14".parse().unwrap(), 1).unwrap();
        assert!(last.keeps && last.solved && last.next.is_none());
        let slow = judge_puzzle_move(&pos, &"h12-h11".parse().unwrap(), 2).unwrap();
        assert!(!slow.keeps);
        assert_eq!(slow.at_least, 4);
        assert!(judge_puzzle_move(&pos, &"h12-g10".parse().unwrap(), 2).is_err());
    }
}
