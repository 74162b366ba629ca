//! Reviews of finished online games computed by the server in the background: every
//! move of a game judged against the best move of its position (the same judgement as
//! the browser's review), stored, and served at `GET /api/games/{id}/review`, so the
//! review page shows it at once instead of searching in the browser.
//!
//! The work is bounded: a fixed number of workers (`--review-workers`, 0 turns reviews
//! off), a bounded queue of claimed games, and a node budget per game that sets the
//! search of each move. See docs/server.md.

mod judge;
mod routes;
mod worker;

pub use judge::{review_record, Reviewed};
pub use routes::routes;
pub use worker::{spawn_reviewers, ReviewSettings, REVIEW_QUEUE};
