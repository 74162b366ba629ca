//! # stella-ai
//!
//! Computer opponents for Stella, on top of the rules engine `stella_engine`.
//! Builds for `wasm32-unknown-unknown`: no threads, and time only from an
//! injected [`Clock`].
//!
//! ## The API others call
//! - [`best_move`]`(position, level, seed, clock)`: the move of the player to
//!   move at level 1–8 (8 strongest). Never an eliminating move unless it is
//!   the only one; obeys the level's time budget; deterministic given `seed`
//!   (levels are limited by nodes, time is only a safety cap).
//! - [`best_move_in_game`]: the same, knowing the game's history (threefold
//!   repetition) and an optional cap on thinking time.
//! - [`Clock`] (trait `now_ms`), [`SystemClock`] (native), [`StepClock`],
//!   [`FrozenClock`] (tests).
//! - [`Limits`] (`movetime_ms`, `depth`, `nodes`, `remaining_ms`, `increment_ms`).
//! - [`Searcher`]: `search(&Position, Limits, &dyn Clock) -> Option<SearchResult>`
//!   with `SearchResult { best, score, depth, nodes, pv }` and an `info` callback.
//! - [`protocol::run`]: the `stella engine` text protocol over any reader/writer.
//!
//! ```
//! use stella_ai::{best_move, FrozenClock};
//! use stella_engine::{Position, Variant};
//! let pos = Position::start(Variant::Classic2);
//! let mv = best_move(&pos, 3, 42, &FrozenClock).unwrap();
//! assert!(pos.legal_moves().contains(&mv));
//! ```

#![forbid(unsafe_code)]

pub mod brs;
pub mod clock;
pub mod deadline;
pub mod eval;
pub mod greedy;
pub mod ida;
pub mod levels;
pub mod limits;
pub mod mcts;
pub mod protocol;
pub mod race;
pub mod rng;
pub mod search;
pub mod stop_gate;
pub mod strategy;
pub mod tables;
pub mod tt;

#[cfg(not(target_arch = "wasm32"))]
pub use clock::SystemClock;
pub use clock::{Clock, FrozenClock, StepClock};
pub use limits::Limits;

pub use eval::Weights;
pub use levels::Level;
pub use search::{Info, SearchResult, Searcher, Settings};
pub use strategy::Strategy;

use stella_engine::{Game, Move, Position};

/// The move of the player to move at `level` (1 = beginner … 8 = strongest),
/// deterministic given `seed`. `None` when there is no legal move.
pub fn best_move(position: &Position, level: u8, seed: u64, clock: &dyn Clock) -> Option<Move> {
    choose(position, &[], level, seed, clock, None)
}

/// As [`best_move`], in a game whose history counts for threefold
/// repetition, thinking at most `max_ms` milliseconds if given.
pub fn best_move_in_game(
    game: &Game,
    level: u8,
    seed: u64,
    clock: &dyn Clock,
    max_ms: Option<u64>,
) -> Option<Move> {
    let history: Vec<u64> = game.positions().iter().map(|p| p.hash()).collect();
    choose(game.position(), &history, level, seed, clock, max_ms)
}

/// How a computer player searches besides its level: the multi-player
/// strategy (`None` = [`Strategy::default_for`] the variant) and the
/// evaluation weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Multi-player strategy; `None` picks the default for the variant.
    pub strategy: Option<Strategy>,
    /// Evaluation weights.
    pub weights: Weights,
}

/// The choice of a level, given the hashes of the game's positions so far.
pub fn choose(
    position: &Position,
    history: &[u64],
    level: u8,
    seed: u64,
    clock: &dyn Clock,
    max_ms: Option<u64>,
) -> Option<Move> {
    choose_with(
        position,
        history,
        level,
        seed,
        clock,
        max_ms,
        &Style::default(),
    )
}

/// As [`choose`], searching in the given [`Style`].
pub fn choose_with(
    position: &Position,
    history: &[u64],
    level: u8,
    seed: u64,
    clock: &dyn Clock,
    max_ms: Option<u64>,
    style: &Style,
) -> Option<Move> {
    let lv = Level::get(level);
    let strategy = style
        .strategy
        .unwrap_or_else(|| Strategy::default_for(position.variant()));
    if strategy == Strategy::Mcts {
        return mcts::choose(
            position,
            history,
            level,
            seed,
            clock,
            max_ms,
            &style.weights,
        );
    }
    let t0 = clock.now_ms();
    thread_local! {
        static CACHED: std::cell::RefCell<Option<Searcher>> = const { std::cell::RefCell::new(None) };
    }
    // One searcher per thread, reused so its tables are not allocated again
    // for every move, and cleared so that the choice depends only on the
    // arguments.
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
    searcher.set_weights(style.weights);
    searcher.set_strategy(strategy);
    searcher.set_noise(lv.noise, seed);
    searcher.set_race_width(lv.race_width);
    searcher.set_game_history(history);
    let mut limits = lv.capped(max_ms);
    let spent = (clock.now_ms() - t0).max(0.0) as u64;
    limits.movetime_ms = limits.movetime_ms.map(|m| m.saturating_sub(spent).max(1));
    let best = searcher.search(position, limits, clock).map(|r| r.best);
    CACHED.with(|c| *c.borrow_mut() = Some(searcher));
    best
}
