//! # stella-ai
//!
//! Computer opponents for Stella, on top of the rules engine `stella_engine`.
//! Builds for `wasm32-unknown-unknown`: no threads, and time only from an
//! injected [`Clock`].
//!
//! ## The API others call
//! - [`Request`]: asks for the move of the player to move at level 1–8 (8 strongest):
//!   `Request::new(position, level, seed)` with `.history(…)`,
//!   `.progress(…)`, `.max_ms(…)`, `.style(…)`, then `.choose(clock)`. Never
//!   an eliminating move unless it is the only one; obeys the level's time
//!   budget; deterministic given `seed` (levels are limited by nodes, time is
//!   only a safety cap). [`Style`] picks the multi-player strategy and the
//!   weights.
//! - [`best_move_in_game`]: the same knowing the game's history (threefold
//!   repetition, and the [`progress`] guard: a player that has stalled plays
//!   a move that brings it closer to its goal), with an optional cap on
//!   thinking time.
//! - [`Clock`] (trait `now_ms`), [`SystemClock`] (native), [`StepClock`],
//!   [`FrozenClock`] (tests).
//! - [`Limits`] (`movetime_ms`, `depth`, `nodes`, `remaining_ms`, `increment_ms`).
//! - [`Searcher`]: `search(&Position, Limits, &dyn Clock) -> Option<SearchResult>`
//!   with `SearchResult { best, score, depth, nodes, pv }`, and `search_with`,
//!   which also reports each completed depth to a callback.
//! - [`protocol::run`]: the `stella engine` text protocol over any reader/writer.
//!
//! ```
//! use stella_ai::{FrozenClock, Request};
//! use stella_engine::{Position, Variant};
//! let pos = Position::start(Variant::Classic2);
//! let mv = Request::new(&pos, 3, 42).choose(&FrozenClock).unwrap();
//! assert!(pos.legal_moves().contains(&mv));
//! ```

#![forbid(unsafe_code)]

pub(crate) mod brs;
pub(crate) mod clock;
mod cost_memo;
pub mod deadline;
mod dispatch;
pub(crate) mod eval;
pub mod greedy;
pub mod ida;
pub mod judgement;
mod leaf_cache;
pub mod levels;
pub(crate) mod limits;
pub mod mcts;
pub mod multipv;
mod ordering;
pub mod progress;
pub mod protocol;
pub mod race;
mod reductions;
mod repetition;
pub(crate) mod request;
pub mod rng;
pub(crate) mod search;
pub mod stop_clock;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod stop_gate;
pub(crate) mod strategy;
pub mod tables;
pub(crate) mod tree_shape;
pub(crate) mod tt;

#[cfg(not(target_arch = "wasm32"))]
pub use clock::SystemClock;
pub use clock::{Clock, FrozenClock, StepClock};
pub use limits::Limits;

pub use eval::Weights;
pub use levels::Level;
pub use request::{Request, Style};
pub use search::{Info, SearchResult, Searcher, Settings};
pub use strategy::Strategy;
pub use tree_shape::TreeShape;

use stella_engine::{Game, Move};

/// The move of the player to move in `game` at `level` (1 = beginner … 8 =
/// strongest), deterministic given `seed`, the game's history counting for
/// threefold repetition and for the progress guard ([`progress`]), thinking
/// at most `max_ms` milliseconds if given. `None` when there is no legal
/// move.
pub fn best_move_in_game(
    game: &Game,
    level: u8,
    seed: u64,
    clock: &dyn Clock,
    max_ms: Option<u64>,
) -> Option<Move> {
    with_game_request(game, level, seed, |r| r.max_ms(max_ms).choose(clock))
}

/// The tree search [`best_move_in_game`] runs beyond two units, alone (the
/// race solver skipped) and with what it cost: the iterations it ran before
/// its budget, its cap (lowered to `max_ms` if given) or a decided choice
/// stopped it. `None` when there is no legal move.
pub fn tree_report_in_game(
    game: &Game,
    level: u8,
    seed: u64,
    clock: &dyn Clock,
    max_ms: Option<u64>,
) -> Option<mcts::Report> {
    with_game_request(game, level, seed, |r| r.max_ms(max_ms).tree_report(clock))
}

/// `f` of the request for a move at `level` in `game`, with the game's
/// history (threefold repetition) and progress (the progress guard).
pub(crate) fn with_game_request<T>(
    game: &Game,
    level: u8,
    seed: u64,
    f: impl FnOnce(Request) -> T,
) -> T {
    let positions = game.positions();
    let history: Vec<u64> = positions.iter().map(|p| p.hash()).collect();
    f(Request::new(game.position(), level, seed)
        .history(&history)
        .progress(progress::Progress::of_game(&positions)))
}
