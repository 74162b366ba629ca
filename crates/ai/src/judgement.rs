//! Judging a move played against the best move of its position, as a game
//! review shows it: the best move of an alpha-beta search of bounded depth
//! and nodes, the move played searched the same way, and in a race the race
//! solver's finish with and without the move. The views serialise to the JSON
//! the browser reads (the engine worker's `judgeMove` and the server's
//! `GET /api/games/{id}/review`), so both answer the same shape.

use crate::clock::Clock;
use crate::limits::Limits;
use crate::multipv::{finish_length, finish_length_after, line_of_move, top_lines};
use crate::race::is_race;
use crate::search::{SearchResult, Searcher, Settings};
use crate::strategy::Strategy;
use serde::{Deserialize, Serialize};
use stella_engine::{Move, Position, Variant};

/// The race solver may visit this many times the nodes of a judging search.
pub const RACE_NODES_FACTOR: u64 = 5;

/// Megabytes of the transposition table of a judging searcher.
pub const JUDGING_TT_MB: usize = 2;

/// The race solver's bound on milliseconds: a judgement is bounded by nodes.
const RACE_MAX_MS: f64 = 1e9;

/// One move with its score, as JSON.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct LineView {
    /// The move, a canonical path.
    pub path: String,
    /// Score for the player to move (1/100 row; ±1 000 000 = decided).
    pub score: i32,
    /// The principal variation, `path` first, canonical paths.
    pub pv: Vec<String>,
    /// In an analysis of a race, the moves of the shortest finish found with
    /// this move first; `null` otherwise (always in a judgement).
    pub finish: Option<usize>,
}

/// A played move judged against the best one, as JSON.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
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
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RaceView {
    /// The first move of the shortest finish found from the position.
    pub better: String,
    /// Moves of that finish.
    pub best_length: usize,
    /// Moves to the finish playing the move first, at least (proved).
    pub played_at_least: usize,
    /// Moves the move played surely loses against `better` (0 when it cannot
    /// be told within the work allowed).
    pub moves_lost: usize,
}

/// `line` of `position` with its moves as canonical paths; the principal
/// variation stops at its first move that is not legal where it stands.
pub fn line_view(position: &Position, line: &SearchResult) -> LineView {
    LineView {
        path: position.path_of(&line.best).to_string(),
        score: line.score,
        pv: pv_paths(position, &line.pv),
        finish: None,
    }
}

/// The principal variation `pv` from `position` as canonical paths, up to its first
/// move that is not legal where it stands (a search may end its line with a move of
/// a stale table entry).
pub fn pv_paths(position: &Position, pv: &[Move]) -> Vec<String> {
    let mut pos = *position;
    let mut paths = Vec::with_capacity(pv.len());
    for m in pv {
        if !pos.is_legal(m) {
            break;
        }
        paths.push(pos.path_of(m).to_string());
        pos.play_unchecked(m);
    }
    paths
}

/// An alpha-beta searcher for `variant` with a transposition table of
/// `tt_mb` megabytes: the search of analyses and judgements.
pub fn alpha_beta_searcher(variant: Variant, tt_mb: usize) -> Searcher {
    Searcher::new(Settings {
        strategy: Strategy::alpha_beta_for(variant),
        tt_mb,
        ..Settings::default()
    })
}

/// Judges `mv` in `pos` against the best move, each searched to `depth`
/// plies and `nodes` nodes at most, and in a race by the race solver within
/// [`RACE_NODES_FACTOR`] times `nodes`; `None` when the position has no move.
pub fn judge_move(
    searcher: &mut Searcher,
    pos: &Position,
    mv: Move,
    depth: u32,
    nodes: u64,
    clock: &dyn Clock,
) -> Option<JudgementView> {
    let limits = Limits {
        depth: Some(depth),
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
        race: race_view(pos, mv, nodes.saturating_mul(RACE_NODES_FACTOR), clock),
    })
}

/// In a race, a shortest finish of `pos` found within `nodes` nodes and how
/// many moves `mv` surely loses against it; `None` outside a race or when
/// the solver finds no finish.
pub(crate) fn race_view(
    pos: &Position,
    mv: Move,
    nodes: u64,
    clock: &dyn Clock,
) -> Option<RaceView> {
    if !is_race(pos) {
        return None;
    }
    let best = finish_length(pos, clock, RACE_MAX_MS, nodes)?;
    let played = finish_length_after(pos, mv, clock, RACE_MAX_MS, nodes)?;
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
    use crate::FrozenClock;

    fn judged(position: &str, path: &str, nodes: u64) -> JudgementView {
        let pos: Position = position.parse().unwrap();
        let mv = pos.resolve_path(&path.parse().unwrap()).unwrap();
        let mut searcher = alpha_beta_searcher(pos.variant(), JUDGING_TT_MB);
        judge_move(&mut searcher, &pos, mv, 3, nodes, &FrozenClock).unwrap()
    }

    /// White has left home; stepping a marble back from k6 to k5 gives up a row.
    const MIDGAME: &str = "classic-2 white 36 white:h10,h12,h13,i9,i12,i13,j12,k6,k10,m6 black:g10,i8,j7,k8,l3,l4,l5,m3,m4,m5 made:35,35";

    /// The armies have passed each other: a race.
    const RACE: &str = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";

    #[test]
    fn a_backward_step_is_judged_worse_than_the_best_move() {
        let j = judged(MIDGAME, "k6-k5", 200_000);
        let played = j.played.clone().expect("a scored move");
        assert_eq!(played.path, "k6-k5");
        assert_ne!(j.best.path, "k6-k5");
        assert!(j.best.score > played.score + 50, "{j:?}");
        assert_eq!(j.best.pv.first(), Some(&j.best.path));
        assert_eq!(j.race, None);
    }

    #[test]
    fn a_step_back_in_a_race_is_judged_by_the_moves_it_loses() {
        let race = judged(RACE, "h12-h11", 40_000).race.expect("a race");
        assert_eq!(race.better, "h12-h13");
        assert_eq!(
            (race.best_length, race.played_at_least, race.moves_lost),
            (2, 4, 2)
        );
        let forward = judged(RACE, "h12-h13", 40_000).race.expect("a race");
        assert_eq!(forward.moves_lost, 0);
    }

    #[test]
    fn the_best_move_played_is_scored_as_the_best() {
        let best = judged(MIDGAME, "k6-k5", 20_000).best.path;
        let j = judged(MIDGAME, &best, 20_000);
        assert_eq!(j.played.as_ref(), Some(&j.best));
    }

    #[test]
    fn a_principal_variation_stops_at_its_first_illegal_move() {
        let start = Position::start(Variant::Classic2);
        let first = start.legal_moves()[0];
        let mut after = start;
        after.play_unchecked(&first);
        let second = after.legal_moves()[0];
        let paths = [
            start.path_of(&first).to_string(),
            after.path_of(&second).to_string(),
        ];
        assert_eq!(pv_paths(&start, &[first, second]), paths);
        // The first move again, now a move of the other side's marble: illegal.
        assert_eq!(pv_paths(&start, &[first, first, second]), paths[..1]);
        assert!(pv_paths(&start, &[]).is_empty());
    }

    #[test]
    fn a_position_without_a_move_has_no_judgement() {
        let over = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14 black:j4,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:40,40 arrived:white,black places:white=1,black=1 over:arrived";
        let pos: Position = over.parse().unwrap();
        let any = Position::start(Variant::Classic2).legal_moves()[0];
        let mut searcher = alpha_beta_searcher(pos.variant(), JUDGING_TT_MB);
        assert_eq!(
            judge_move(&mut searcher, &pos, any, 3, 1_000, &FrozenClock),
            None
        );
    }

    #[test]
    fn the_json_names_are_the_ones_the_browser_reads() {
        let j = judged(RACE, "h12-h11", 40_000);
        let json: serde_json::Value = serde_json::to_value(&j).unwrap();
        let keys = |v: &serde_json::Value| {
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.sort();
            k
        };
        assert_eq!(keys(&json), ["best", "played", "race"]);
        assert_eq!(keys(&json["best"]), ["finish", "path", "pv", "score"]);
        assert_eq!(json["best"]["finish"], serde_json::Value::Null);
        assert_eq!(
            keys(&json["race"]),
            ["bestLength", "better", "movesLost", "playedAtLeast"]
        );
        assert_eq!(json["race"]["movesLost"], 2);
        let back: JudgementView = serde_json::from_value(json).unwrap();
        assert_eq!(back, j);
    }
}
