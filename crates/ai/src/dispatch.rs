//! Where a request for a move goes: [`Request::choose`] tries the race
//! solver first (two armies past each other, or a final approach at a bigger
//! table), then the level's search: Monte Carlo tree search beyond two units,
//! alpha-beta at two (or whichever strategy the request's style names).
//! [`Request::choose_reporting`] is the same choice, reporting each depth
//! the alpha-beta search completes (the engine protocol's `go level`).
//!
//! The imports run one way: this module uses the request, the levels and the
//! three searches; none of them uses this module, and the searches know
//! nothing of requests.

use crate::clock::Clock;
use crate::ida::race_plan;
use crate::levels::Level;
use crate::mcts::{Budget, Mcts, Report};
use crate::request::Request;
use crate::search::{estimate_moves_left, Info, Searcher, Settings};
use crate::strategy::Strategy;
use stella_engine::Move;

/// Share of the move's time budget the race solver may use.
const RACE_SHARE: f64 = 0.6;

impl Request<'_> {
    /// The move chosen, never an eliminating move unless it is the only
    /// one. `None` when there is no legal move.
    pub fn choose(&self, clock: &dyn Clock) -> Option<Move> {
        self.choose_reporting(clock, &mut |_: &Info| {})
    }

    /// The level's tree search alone (whatever the table size, the race
    /// solver skipped), with its iterations and tree: what a benchmark of
    /// the search times. `None` when there is no legal move.
    pub fn tree_report(&self, clock: &dyn Clock) -> Option<Report> {
        tree_report(self, self.allowed_moves().as_deref(), clock)
    }

    /// The move [`Request::choose`] chooses, reporting to `on_info` each
    /// depth the alpha-beta search completes on the way (the race solver
    /// and the tree search report nothing).
    pub fn choose_reporting(
        &self,
        clock: &dyn Clock,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<Move> {
        let strategy = self
            .style
            .strategy
            .unwrap_or_else(|| Strategy::default_for(self.position.variant()));
        let allowed = self.allowed_moves();
        if let Some(first) = race_move(self, allowed.as_deref(), clock) {
            return Some(first);
        }
        if strategy == Strategy::Mcts {
            tree_search(self, allowed.as_deref(), clock)
        } else {
            alpha_beta(self, strategy, allowed, clock, on_info)
        }
    }
}

/// In a race or on a final approach, the first move of the fastest finish
/// the level's race solver finds, if the request allows it.
fn race_move(request: &Request, allowed: Option<&[Move]>, clock: &dyn Clock) -> Option<Move> {
    let lv = Level::get(request.level);
    if lv.race_width == 0 {
        return None;
    }
    let budget = lv
        .capped(request.max_ms)
        .budget_ms(estimate_moves_left(request.position))
        .map_or(1e9, |b| (b * RACE_SHARE).min(1e9));
    let node_limit = lv.nodes.unwrap_or(u64::MAX);
    let plan = race_plan(request.position, clock, budget, lv.race_width, node_limit)?;
    let first = *plan.first()?;
    allowed.is_none_or(|a| a.contains(&first)).then_some(first)
}

/// The tree search's move at the level's iterations for this table size.
fn tree_search(request: &Request, allowed: Option<&[Move]>, clock: &dyn Clock) -> Option<Move> {
    tree_report(request, allowed, clock).map(|r| r.best)
}

/// The tree search of [`tree_search`], with what it cost.
fn tree_report(request: &Request, allowed: Option<&[Move]>, clock: &dyn Clock) -> Option<Report> {
    let position = request.position;
    let lv = Level::get(request.level);
    let budget = Budget::of(&lv, request.max_ms, position, clock.now_ms());
    let shape = lv.tree(position.variant().unit_count()).shape;
    let mut tree = Mcts::new(
        position,
        request.history,
        request.seed,
        lv.noise,
        request.style.weights,
        shape,
    );
    if let Some(only) = allowed {
        tree.restrict_root(only);
    }
    tree.run(budget, clock)
}

/// The move of the alpha-beta search in `strategy` (paranoid or BRS) at the
/// level's depth or nodes, within its time cap, reporting each completed
/// depth to `on_info`.
fn alpha_beta(
    request: &Request,
    strategy: Strategy,
    allowed: Option<Vec<Move>>,
    clock: &dyn Clock,
    on_info: &mut dyn FnMut(&Info),
) -> Option<Move> {
    let lv = Level::get(request.level);
    let t0 = clock.now_ms();
    thread_local! {
        static CACHED: std::cell::RefCell<Option<Searcher>> = const { std::cell::RefCell::new(None) };
    }
    // One searcher per thread, reused so its tables are not allocated again
    // for every move, and cleared so that the choice depends only on the
    // request.
    let mut searcher = CACHED
        .with(|c| c.borrow_mut().take())
        .filter(|s| s.settings().tt_mb == lv.tt_mb)
        .unwrap_or_else(|| {
            Searcher::new(Settings {
                tt_mb: lv.tt_mb,
                ..Settings::default()
            })
        });
    searcher.clear();
    searcher.set_weights(request.style.weights);
    searcher.set_strategy(strategy);
    searcher.set_noise(lv.noise, request.seed);
    searcher.set_race_width(lv.race_width);
    searcher.set_game_history(request.history);
    searcher.set_root_moves(allowed);
    let mut limits = lv.capped(request.max_ms);
    let spent = (clock.now_ms() - t0).max(0.0) as u64;
    limits.movetime_ms = limits.movetime_ms.map(|m| m.saturating_sub(spent).max(1));
    let best = searcher
        .search_with(request.position, limits, clock, on_info)
        .map(|r| r.best);
    CACHED.with(|c| *c.borrow_mut() = Some(searcher));
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FrozenClock;
    use crate::race::is_race;
    use stella_engine::{Position, Variant};

    #[test]
    fn a_race_goes_to_the_race_solver_at_every_strategy() {
        // A two-player game played on by the greedy player until both
        // armies have passed each other: only the fastest finish matters.
        let mut pos = Position::start(Variant::Classic2);
        for ply in 0.. {
            assert!(!pos.is_over(), "no race before the end");
            if is_race(&pos) {
                break;
            }
            let mv = crate::greedy::greedy_move(&pos, ply).unwrap();
            pos.play_unchecked(&mv);
        }
        let plan = race_plan(&pos, &FrozenClock, 1e9, 256, 700_000).unwrap();
        for strategy in Strategy::ALL {
            let style = crate::request::Style {
                strategy: Some(strategy),
                ..Default::default()
            };
            let mv = Request::new(&pos, 8, 3).style(style).choose(&FrozenClock);
            assert_eq!(mv, Some(plan[0]), "{strategy:?}");
        }
    }

    #[test]
    fn the_tree_report_is_the_tree_search_of_a_move_request() {
        // Level 6 at classic-3, a few rounds in: no race, so the move
        // requested is the tree search's.
        let mut pos = Position::start(Variant::Classic3);
        for ply in 0..12 {
            let mv = crate::greedy::greedy_move(&pos, ply).unwrap();
            pos.play_unchecked(&mv);
        }
        let request = Request::new(&pos, 6, 11);
        let report = request.tree_report(&FrozenClock).expect("a move");
        assert_eq!(request.choose(&FrozenClock), Some(report.best));
        let budget = Level::get(6).tree(3).iterations;
        assert!(report.iterations > 0 && report.iterations <= budget);
    }
}
