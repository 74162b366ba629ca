//! Several best moves of one position, each with its score and line
//! (multi-PV), and the score of one given move: what an analysis board and a
//! game review show. The ordinary search runs once per line, each time with
//! the moves already listed taken out of the root, so levels are untouched.

use crate::clock::Clock;
use crate::ida::{best_plan, FinishLength};
use crate::limits::Limits;
use crate::race::Problem;
use crate::search::{SearchResult, Searcher};
use stella_engine::{Move, Position};

/// Up to `count` best moves of `position`, best first, each searched within
/// `limits`. Fewer when the position has fewer moves the search would play
/// (a move that eliminates its player is listed only when nothing else is
/// left), or when `clock` tells the search to stop.
pub fn top_lines(
    searcher: &mut Searcher,
    position: &Position,
    count: usize,
    limits: Limits,
    clock: &dyn Clock,
) -> Vec<SearchResult> {
    let all = position.legal_moves();
    let mut lines: Vec<SearchResult> = Vec::new();
    while lines.len() < count {
        let rest: Vec<Move> = all
            .iter()
            .filter(|m| !lines.iter().any(|l| l.best == **m))
            .copied()
            .collect();
        if rest.is_empty() {
            break;
        }
        searcher.set_root_moves((!lines.is_empty()).then_some(rest));
        let found = searcher.search(position, limits, clock);
        let Some(r) = found else { break };
        // The restriction is lifted when it leaves no move the search would
        // play: the search then answers a move already listed.
        if lines.iter().any(|l| l.best == r.best) {
            break;
        }
        lines.push(r);
        if clock.stopped() {
            break;
        }
    }
    searcher.set_root_moves(None);
    lines
}

/// The score of playing `mv` in `position`, searched within `limits`, or
/// `None` when the search would not consider it (an illegal move, or one
/// that eliminates its player while another move does not).
pub(crate) fn line_of_move(
    searcher: &mut Searcher,
    position: &Position,
    mv: Move,
    limits: Limits,
    clock: &dyn Clock,
) -> Option<SearchResult> {
    if !position.is_legal(&mv) {
        return None;
    }
    searcher.set_root_moves(Some(vec![mv]));
    let found = searcher.search(position, limits, clock);
    searcher.set_root_moves(None);
    found.filter(|r| r.best == mv)
}

/// Widest beam of the race solver used to judge a finish.
const FINISH_WIDTH: usize = 256;

/// The shortest finish of the player to move in `position`, ignoring the
/// other players' marbles moving (exact in a race, where the armies have
/// passed each other), within `budget_ms` on `clock` and `nodes` nodes.
pub fn finish_length(
    position: &Position,
    clock: &dyn Clock,
    budget_ms: f64,
    nodes: u64,
) -> Option<FinishLength> {
    let problem = Problem::of(position);
    best_plan(&problem, clock, budget_ms, FINISH_WIDTH, nodes)
}

/// As [`finish_length`], for the player to move in `position` once it has
/// played `mv` (counting `mv` itself).
pub fn finish_length_after(
    position: &Position,
    mv: Move,
    clock: &dyn Clock,
    budget_ms: f64,
    nodes: u64,
) -> Option<FinishLength> {
    let mut problem = Problem::of(position);
    problem.mine = problem.mine.without(mv.from).with(mv.to);
    let after = best_plan(&problem, clock, budget_ms, FINISH_WIDTH, nodes)?;
    Some(FinishLength {
        plan: std::iter::once(mv).chain(after.plan).collect(),
        lower_bound: after.lower_bound + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FrozenClock;
    use crate::search::Settings;
    use stella_engine::Variant;

    #[test]
    fn lines_are_distinct_sorted_and_start_with_the_search_choice() {
        let pos = Position::start(Variant::Classic2);
        let mut s = Searcher::new(Settings::default());
        let lines = top_lines(&mut s, &pos, 3, Limits::depth(2), &FrozenClock);
        assert_eq!(lines.len(), 3);
        assert!(lines[0].best != lines[1].best && lines[1].best != lines[2].best);
        assert!(lines[0].score >= lines[1].score && lines[1].score >= lines[2].score);
        let alone = Searcher::new(Settings::default()).search(&pos, Limits::depth(2), &FrozenClock);
        assert_eq!(Some(lines[0].best), alone.map(|r| r.best));
        for l in &lines {
            assert_eq!(l.pv[0], l.best);
            assert!(pos.is_legal(&l.best));
        }
    }

    #[test]
    fn a_move_scores_no_better_than_the_best_line() {
        let pos = Position::start(Variant::Classic2);
        let mut s = Searcher::new(Settings::default());
        let best = top_lines(&mut s, &pos, 1, Limits::depth(2), &FrozenClock);
        for mv in pos.legal_moves() {
            let line = line_of_move(&mut s, &pos, mv, Limits::depth(2), &FrozenClock).unwrap();
            assert_eq!(line.best, mv);
            assert!(line.score <= best[0].score, "{line:?} beats {best:?}");
        }
    }

    /// White needs h12-h13 and h13-h14; stepping back costs two moves.
    const CLOSE_RACE: &str = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";

    #[test]
    fn a_step_back_in_a_race_costs_two_moves_to_the_finish() {
        let pos: Position = CLOSE_RACE.parse().unwrap();
        let best = finish_length(&pos, &FrozenClock, 1e9, 1_000_000).unwrap();
        assert!(best.proved());
        assert_eq!(best.plan.len(), 2);
        let forward = pos.resolve_path(&"h12-h13".parse().unwrap()).unwrap();
        let back = pos.resolve_path(&"h12-h11".parse().unwrap()).unwrap();
        let kept = finish_length_after(&pos, forward, &FrozenClock, 1e9, 1_000_000).unwrap();
        assert_eq!((kept.plan.len(), kept.lower_bound), (2, 2));
        assert_eq!(kept.plan[0], forward);
        let lost = finish_length_after(&pos, back, &FrozenClock, 1e9, 1_000_000).unwrap();
        assert!(lost.proved());
        assert_eq!(lost.plan.len(), 4);
    }
}
