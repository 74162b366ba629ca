//! Reviewing a whole game: every move judged against the best move of the position
//! before it by [`stella_ai::judgement::judge_move`] (the judgement the browser's engine
//! worker answers too), within a node budget shared by the game's moves.

use serde::{Deserialize, Serialize};
use stella_ai::judgement::{
    alpha_beta_searcher, judge_move, JudgementView, JUDGING_TT_MB, RACE_NODES_FACTOR,
};
use stella_ai::Clock;
use stella_engine::Record;

/// Plies of the search judging each move (as the browser's review).
pub const REVIEW_DEPTH: u32 = 3;

/// Most nodes of one judging search (as the browser's review).
pub const MAX_MOVE_NODES: u64 = 40_000;

/// Fewest nodes of one judging search, however long the game.
pub const MIN_MOVE_NODES: u64 = 1_000;

/// Searches per move counted against a game's budget: two judging searches and two
/// race solves of [`RACE_NODES_FACTOR`] times their nodes.
const SEARCHES_PER_MOVE: u64 = 2 + 2 * RACE_NODES_FACTOR;

/// The review of a whole game.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Reviewed {
    /// Plies of each judging search.
    pub depth: u32,
    /// Nodes of each judging search.
    pub nodes: u64,
    /// The moves judged, canonical paths, in order.
    pub paths: Vec<String>,
    /// One judgement per move, in order; it stops at a position without a mover.
    pub moves: Vec<JudgementView>,
}

/// Nodes of each judging search of a game of `plies` moves within `game_nodes`.
pub fn nodes_per_move(game_nodes: u64, plies: usize) -> u64 {
    (game_nodes / (plies.max(1) as u64 * SEARCHES_PER_MOVE)).clamp(MIN_MOVE_NODES, MAX_MOVE_NODES)
}

/// Reviews the game of `record` within about `game_nodes` nodes in all.
pub fn review_record(record: &str, game_nodes: u64, clock: &dyn Clock) -> Result<Reviewed, String> {
    let game = Record::parse(record)
        .map_err(|e| format!("the record does not parse: {e}"))?
        .replay()
        .map_err(|e| format!("the record does not replay: {e}"))?;
    let positions = game.positions();
    let moves = game.moves();
    let nodes = nodes_per_move(game_nodes, moves.len());
    let mut searcher = alpha_beta_searcher(game.position().variant(), JUDGING_TT_MB);
    let mut judged = Vec::with_capacity(moves.len());
    let mut paths = Vec::with_capacity(moves.len());
    for (pos, mv) in positions.iter().zip(moves) {
        match judge_move(&mut searcher, pos, mv.0, REVIEW_DEPTH, nodes, clock) {
            Some(j) => {
                judged.push(j);
                paths.push(pos.path_of(&mv.0).to_string());
            }
            None => break,
        }
    }
    Ok(Reviewed {
        depth: REVIEW_DEPTH,
        nodes,
        paths,
        moves: judged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_ai::FrozenClock;

    #[test]
    fn the_node_budget_of_a_game_is_shared_by_its_moves_within_bounds() {
        assert_eq!(nodes_per_move(12_000_000, 100), 10_000);
        assert_eq!(nodes_per_move(u64::MAX, 10), MAX_MOVE_NODES);
        assert_eq!(nodes_per_move(0, 10), MIN_MOVE_NODES);
    }

    #[test]
    fn every_move_of_a_record_is_judged_and_a_bad_record_is_an_error() {
        let mut game = stella_engine::Game::new(stella_engine::Variant::Classic2);
        for n in 0..3 {
            let mv = stella_ai::greedy::greedy_move(game.position(), n).unwrap();
            let path = game.position().path_of(&mv);
            game.play_path(&path).unwrap();
        }
        let record = Record::from_game(&game, &[]).to_string();
        let r = review_record(&record, 100_000, &FrozenClock).unwrap();
        assert_eq!(r.moves.len(), 3);
        let played: Vec<String> = game.moves().iter().map(|m| m.1.to_string()).collect();
        assert_eq!(r.paths, played);
        assert_eq!(r.nodes, MIN_MOVE_NODES.max(100_000 / 36));
        for j in &r.moves {
            assert_eq!(j.best.pv.first(), Some(&j.best.path));
        }
        assert!(
            review_record("[Variant \"classic-2\"]\n\n1. m3-m9\n", 1000, &FrozenClock).is_err()
        );
    }
}
