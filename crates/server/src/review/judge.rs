//! Judging the moves of a game: for each move, the best move of the position before it
//! (an alpha-beta search of bounded depth and nodes) and the move played searched the
//! same way; in a race, the race solver's finish with and without the move. The JSON
//! is the one the browser's engine worker answers (`judgeMove` in `crates/wasm`).

use serde::{Deserialize, Serialize};
use stella_ai::multipv::{finish_length, finish_length_after, line_of_move, top_lines, Line};
use stella_ai::race::is_race;
use stella_ai::{Clock, Limits, Searcher, Settings, Strategy};
use stella_engine::{Move, Position, Record};

/// Plies of the search judging each move (as the browser's review).
pub const REVIEW_DEPTH: u32 = 3;

/// Most nodes of one judging search (as the browser's review).
pub const MAX_MOVE_NODES: u64 = 40_000;

/// Fewest nodes of one judging search, however long the game.
pub const MIN_MOVE_NODES: u64 = 1_000;

/// The race solver may visit this many times the nodes of a judging search.
const RACE_NODES_FACTOR: u64 = 5;

/// Searches per move counted against a game's budget: two judging searches and two
/// race solves of [`RACE_NODES_FACTOR`] times their nodes.
const SEARCHES_PER_MOVE: u64 = 2 + 2 * RACE_NODES_FACTOR;

/// One move with its score.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct LineView {
    /// The move, a canonical path.
    pub path: String,
    /// Score for the player to move (1/100 row; ±1 000 000 = decided).
    pub score: i32,
    /// The principal variation, `path` first.
    pub pv: Vec<String>,
    /// Always null here (kept for the browser's format).
    pub finish: Option<usize>,
}

/// A played move judged against the best one.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct JudgementView {
    /// The best move found.
    pub best: LineView,
    /// The move played with its score; null when the search would never play it.
    pub played: Option<LineView>,
    /// In a race, the finish with and without the move played; null otherwise.
    pub race: Option<RaceView>,
}

/// A move of a race judged by the moves it leaves to the finish.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RaceView {
    /// The first move of the shortest finish found from the position.
    pub better: String,
    /// Moves of that finish.
    pub best_length: usize,
    /// Moves to the finish playing the move first, at least (proved).
    pub played_at_least: usize,
    /// Moves the move played surely loses against `better`.
    pub moves_lost: usize,
}

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

fn line_view(position: &Position, line: &Line) -> LineView {
    let mut pos = *position;
    let mut pv = Vec::new();
    for m in &line.pv {
        if !pos.is_legal(m) {
            break;
        }
        pv.push(pos.path_of(m).to_string());
        pos.play_unchecked(m);
    }
    LineView {
        path: position.path_of(&line.best).to_string(),
        score: line.score,
        pv,
        finish: None,
    }
}

/// Judges `mv` in `pos` with searches of [`REVIEW_DEPTH`] plies and `nodes` nodes;
/// none when the position has no move.
pub fn judge_move(
    searcher: &mut Searcher,
    pos: &Position,
    mv: Move,
    nodes: u64,
    clock: &dyn Clock,
) -> Option<JudgementView> {
    let limits = Limits {
        depth: Some(REVIEW_DEPTH),
        nodes: Some(nodes),
        ..Limits::default()
    };
    let best = top_lines(searcher, pos, 1, limits, clock)
        .into_iter()
        .next()?;
    let played = if mv == best.best {
        Some(best.clone())
    } else {
        line_of_move(searcher, pos, mv, limits, clock)
    };
    Some(JudgementView {
        best: line_view(pos, &best),
        played: played.map(|l| line_view(pos, &l)),
        race: race_view(pos, mv, nodes * RACE_NODES_FACTOR, clock),
    })
}

fn race_view(pos: &Position, mv: Move, nodes: u64, clock: &dyn Clock) -> Option<RaceView> {
    if !is_race(pos) {
        return None;
    }
    let best = finish_length(pos, clock, 1e9, nodes)?;
    let played = finish_length_after(pos, mv, clock, 1e9, nodes)?;
    let first = best.plan.first()?;
    Some(RaceView {
        better: pos.path_of(first).to_string(),
        best_length: best.plan.len(),
        played_at_least: played.lower_bound,
        moves_lost: played.lower_bound.saturating_sub(best.plan.len()),
    })
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
    let mut searcher = Searcher::new(Settings {
        strategy: Strategy::alpha_beta_for(game.position().variant()),
        tt_mb: 2,
        ..Settings::default()
    });
    let mut judged = Vec::with_capacity(moves.len());
    let mut paths = Vec::with_capacity(moves.len());
    for (pos, mv) in positions.iter().zip(moves) {
        match judge_move(&mut searcher, pos, mv.0, nodes, clock) {
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
    fn a_backward_step_is_judged_worse_than_the_best_move() {
        // White has left home; stepping a marble back from k6 to k5 gives up a row.
        let pos: Position = "classic-2 white 36 white:h10,h12,h13,i9,i12,i13,j12,k6,k10,m6 black:g10,i8,j7,k8,l3,l4,l5,m3,m4,m5 made:35,35"
            .parse()
            .unwrap();
        let back = pos.resolve_path(&"k6-k5".parse().unwrap()).unwrap();
        let mut searcher = Searcher::new(Settings::default());
        let j = judge_move(&mut searcher, &pos, back, 20_000, &FrozenClock).unwrap();
        assert_ne!(j.best.path, "k6-k5");
        assert!(j.played.unwrap().score < j.best.score);
    }

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
