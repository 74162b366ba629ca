//! The engine of the analysis board and of game reviews: the best moves of a
//! position with their scores, deepened one depth per call so that the page
//! shows each depth as it completes and can stop between (or, by ending the
//! worker, during) calls; and the score of a move actually played next to the
//! best one, within a bounded amount of work.

use crate::clock::BrowserClock;
use crate::js_err;
use serde::Serialize;
use stella_ai::multipv::{finish_length, finish_length_after, line_of_move, top_lines, Line};
use stella_ai::race::is_race;
use stella_ai::{Limits, Searcher, Settings, Strategy};
use stella_engine::{MovePath, Position};
use wasm_bindgen::prelude::*;

/// Nodes one depth of the analysis may visit per line, times the depth: a
/// bound on the solver of races, which otherwise takes the time it needs.
const NODES_PER_DEPTH: u64 = 1_500_000;

/// Deepest depth the analysis reaches; past it `deepen` repeats the last one.
const MAX_DEPTH: u32 = 40;

/// One move with its score, as JSON.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct LineView {
    /// The move, a canonical path.
    pub path: String,
    /// Score for the player to move (1/100 row; ±1 000 000 = decided).
    pub score: i32,
    /// The principal variation, `path` first, canonical paths.
    pub pv: Vec<String>,
    /// In a race, the moves of the shortest finish found with this move
    /// first; `null` otherwise.
    pub finish: Option<usize>,
}

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

/// A played move judged against the best one, as JSON.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct JudgementView {
    /// The best move found.
    pub best: LineView,
    /// The move played with its score, `null` when the search would not
    /// play it at all (it eliminates its player while another move does not).
    pub played: Option<LineView>,
    /// In a race (the armies have passed each other), the finish with and
    /// without the move played; `null` otherwise.
    pub race: Option<RaceView>,
}

/// A move of a race judged by the moves it leaves to the finish, as JSON.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RaceView {
    /// The first move of the shortest finish found from the position.
    pub better: String,
    /// Moves of that finish.
    pub best_length: usize,
    /// Moves to the finish playing the move first, at least (proved).
    pub played_at_least: usize,
    /// Moves the move played surely loses against `best` (0 when it cannot
    /// be told within the work allowed).
    pub moves_lost: usize,
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

/// A searcher for `position`'s variant with a transposition table of `tt_mb` megabytes.
fn searcher_for(position: &Position, tt_mb: usize) -> Searcher {
    Searcher::new(Settings {
        strategy: Strategy::alpha_beta_for(position.variant()),
        tt_mb,
        ..Settings::default()
    })
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
            searcher: searcher_for(&position, 16),
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

fn judge(
    pos: &Position,
    mv: stella_engine::Move,
    depth: u32,
    nodes: u32,
) -> Result<JudgementView, JsError> {
    let limits = Limits {
        depth: Some(depth.clamp(1, 12)),
        nodes: Some(u64::from(nodes.max(1000))),
        ..Limits::default()
    };
    let mut searcher = searcher_for(pos, 2);
    let clock = BrowserClock::new();
    let best = top_lines(&mut searcher, pos, 1, limits, &clock)
        .into_iter()
        .next()
        .ok_or_else(|| JsError::new("no legal move"))?;
    let played = if mv == best.best {
        Some(best.clone())
    } else {
        line_of_move(&mut searcher, pos, mv, limits, &clock)
    };
    Ok(JudgementView {
        best: line_view(pos, &best),
        played: played.map(|l| line_view(pos, &l)),
        race: race_view(
            pos,
            mv,
            u64::from(nodes.max(1000)) * RACE_NODES_FACTOR,
            &clock,
        ),
    })
}

/// The race solver may visit this many times the nodes of a judging search.
const RACE_NODES_FACTOR: u64 = 5;

/// In a race, a shortest finish and how many moves `mv` surely loses against it.
fn race_view(
    pos: &Position,
    mv: stella_engine::Move,
    nodes: u64,
    clock: &BrowserClock,
) -> Option<RaceView> {
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

    #[test]
    fn a_backward_step_is_judged_worse_than_the_best_move() {
        // White has left home; stepping a marble back from k6 to k5 gives up a row.
        let pos: Position = "classic-2 white 36 white:h10,h12,h13,i9,i12,i13,j12,k6,k10,m6 black:g10,i8,j7,k8,l3,l4,l5,m3,m4,m5 made:35,35"
            .parse()
            .unwrap();
        let back = pos.resolve_path(&"k6-k5".parse().unwrap()).unwrap();
        let v = judge(&pos, back, 3, 200_000).unwrap();
        let played = v.played.clone().expect("a scored move");
        assert_eq!(played.path, "k6-k5");
        assert!(v.best.score > played.score + 50, "{v:?}");
        assert_eq!(v.race, None);
    }

    #[test]
    fn a_step_back_in_a_race_is_judged_by_the_moves_it_loses() {
        let pos: Position = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39"
            .parse()
            .unwrap();
        let back = pos.resolve_path(&"h12-h11".parse().unwrap()).unwrap();
        let race = judge(&pos, back, 3, 40_000).unwrap().race.expect("a race");
        let mut a = WasmAnalysis::new(&pos.to_string()).unwrap();
        a.depth = 1;
        let lines = a.step(3).unwrap();
        assert!(lines.done);
        assert_eq!(lines.lines[0].path, "h12-h13");
        assert_eq!(lines.lines[0].finish, Some(2));
        assert!(lines.lines.windows(2).all(|w| w[0].finish <= w[1].finish));
        assert_eq!(race.better, "h12-h13");
        assert_eq!(
            (race.best_length, race.played_at_least, race.moves_lost),
            (2, 4, 2)
        );
        let forward = pos.resolve_path(&"h12-h13".parse().unwrap()).unwrap();
        assert_eq!(
            judge(&pos, forward, 3, 40_000)
                .unwrap()
                .race
                .unwrap()
                .moves_lost,
            0
        );
    }

    #[test]
    fn a_finished_game_has_nothing_to_analyse() {
        let over = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14 black:j4,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:40,40 arrived:white,black places:white=1,black=1 over:arrived";
        let mut a = WasmAnalysis::new(over).unwrap();
        assert_eq!(a.deepen(3), "null");
    }
}
