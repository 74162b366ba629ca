//! The engine of the analysis board and of game reviews: the best moves of a
//! position with their scores, deepened one depth per call so that the page
//! shows each depth as it completes and can stop between (or, by ending the
//! worker, during) calls; and the score of a move actually played next to the
//! best one, within a bounded amount of work.

use crate::clock::BrowserClock;
use crate::js_err;
use serde::Serialize;
use stella_ai::judgement::{self, alpha_beta_searcher, line_view, JudgementView, LineView};
use stella_ai::multipv::{finish_length_after, top_lines};
use stella_ai::race::is_race;
use stella_ai::{Limits, Searcher};
use stella_engine::{Move, MovePath, Position};
use wasm_bindgen::prelude::*;

/// Nodes one depth of the analysis may visit per line, times the depth: a
/// bound on the solver of races, which otherwise takes the time it needs.
const NODES_PER_DEPTH: u64 = 1_500_000;

/// Megabytes of the transposition table of an analysis.
const ANALYSIS_TT_MB: usize = 16;

/// Deepest depth the analysis reaches; past it `deepen` repeats the last one.
const MAX_DEPTH: u32 = 40;

/// One completed depth of the analysis, as JSON.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct AnalysisView {
    /// The depth just completed.
    pub depth: u32,
    /// The best moves, best first.
    pub lines: Vec<LineView>,
    /// Whether deeper searches would tell nothing more: in a race the solver
    /// answers at once whatever the depth.
    pub done: bool,
}

/// An analysis of one position that deepens on request.
#[wasm_bindgen]
pub struct WasmAnalysis {
    searcher: Searcher,
    position: Position,
    depth: u32,
}

#[wasm_bindgen]
impl WasmAnalysis {
    /// An analysis of a position string.
    #[wasm_bindgen(constructor)]
    pub fn new(position: &str) -> Result<WasmAnalysis, JsError> {
        let position: Position = position.parse().map_err(js_err)?;
        Ok(WasmAnalysis {
            searcher: alpha_beta_searcher(position.variant(), ANALYSIS_TT_MB),
            position,
            depth: 0,
        })
    }

    /// Searches one depth more and answers the `count` best moves as JSON
    /// ([`AnalysisView`]); `null` when the game is over or nobody can move.
    pub fn deepen(&mut self, count: usize) -> String {
        self.depth = (self.depth + 1).min(MAX_DEPTH);
        serde_json::to_string(&self.step(count)).expect("analysis serialises")
    }
}

impl WasmAnalysis {
    fn step(&mut self, count: usize) -> Option<AnalysisView> {
        if self.position.is_over() {
            return None;
        }
        let limits = Limits {
            depth: Some(self.depth),
            nodes: Some(NODES_PER_DEPTH * u64::from(self.depth)),
            ..Limits::default()
        };
        let lines = top_lines(
            &mut self.searcher,
            &self.position,
            count.clamp(1, 8),
            limits,
            &BrowserClock::new(),
        );
        if lines.is_empty() {
            return None;
        }
        let mut views: Vec<LineView> = lines.iter().map(|l| line_view(&self.position, l)).collect();
        if is_race(&self.position) {
            // The evaluation only counts rows; in a race the moves left to the
            // finish rank the moves, the score breaking ties.
            for (view, line) in views.iter_mut().zip(&lines) {
                view.finish = finish_length_after(
                    &self.position,
                    line.best,
                    &BrowserClock::new(),
                    1e9,
                    NODES_PER_DEPTH,
                )
                .map(|f| f.plan.len());
            }
            views.sort_by_key(|v| (v.finish.unwrap_or(usize::MAX), -v.score));
        }
        Some(AnalysisView {
            depth: lines[0].depth.max(1),
            lines: views,
            done: is_race(&self.position) || self.depth >= MAX_DEPTH,
        })
    }
}

/// Judges the move `played` in `position` against the best move, each
/// searched to `depth` plies at most and about `nodes` nodes: the bounded
/// work of a game review. JSON [`JudgementView`].
#[wasm_bindgen(js_name = judgeMove)]
pub fn judge_move(position: &str, played: &str, depth: u32, nodes: u32) -> Result<String, JsError> {
    let pos: Position = position.parse().map_err(js_err)?;
    let path: MovePath = played.parse().map_err(js_err)?;
    let mv = pos.resolve_path(&path).map_err(js_err)?;
    let v = judge(&pos, mv, depth, nodes)?;
    Ok(serde_json::to_string(&v).expect("judgement serialises"))
}

/// The judgement of `mv` in `pos` searched to `depth` plies (1 to 12) and
/// `nodes` nodes (at least 1 000).
fn judge(pos: &Position, mv: Move, depth: u32, nodes: u32) -> Result<JudgementView, JsError> {
    judgement::judge_move(
        &mut alpha_beta_searcher(pos.variant(), judgement::JUDGING_TT_MB),
        pos,
        mv,
        depth.clamp(1, 12),
        u64::from(nodes.max(1000)),
        &BrowserClock::new(),
    )
    .ok_or_else(|| JsError::new("no legal move"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    #[test]
    fn the_analysis_deepens_and_lists_three_lines() {
        let start = Position::start(Variant::Classic2).to_string();
        let mut a = WasmAnalysis::new(&start).unwrap();
        a.depth = 1;
        let first = a.step(3).unwrap();
        a.depth = 2;
        let second = a.step(3).unwrap();
        assert_eq!((first.depth, second.depth), (1, 2));
        assert!(!second.done);
        assert_eq!(second.lines.len(), 3);
        for l in &second.lines {
            assert_eq!(l.pv[0], l.path);
        }
    }

    /// The armies have passed each other: a race.
    const RACE: &str = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";

    #[test]
    fn a_race_is_analysed_at_once_with_moves_ranked_by_their_finish() {
        let mut a = WasmAnalysis::new(RACE).unwrap();
        a.depth = 1;
        let lines = a.step(3).unwrap();
        assert!(lines.done);
        assert_eq!(lines.lines[0].path, "h12-h13");
        assert_eq!(lines.lines[0].finish, Some(2));
        assert!(lines.lines.windows(2).all(|w| w[0].finish <= w[1].finish));
    }

    #[test]
    fn judge_move_answers_the_judgement_of_a_path_as_json() {
        let json: serde_json::Value =
            serde_json::from_str(&judge_move(RACE, "h12-h11", 3, 40_000).unwrap()).unwrap();
        assert_eq!(json["played"]["path"], "h12-h11");
        assert_eq!(json["race"]["better"], "h12-h13");
        assert_eq!(json["race"]["movesLost"], 2);
        // Depth and nodes below their floors are raised to them.
        let floor: serde_json::Value =
            serde_json::from_str(&judge_move(RACE, "h12-h13", 0, 0).unwrap()).unwrap();
        assert_eq!(floor["played"]["path"], "h12-h13");
        assert_eq!(floor["race"]["movesLost"], 0);
    }

    #[test]
    fn a_finished_game_has_nothing_to_analyse() {
        let over = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14 black:j4,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:40,40 arrived:white,black places:white=1,black=1 over:arrived";
        let mut a = WasmAnalysis::new(over).unwrap();
        assert_eq!(a.deepen(3), "null");
    }
}
