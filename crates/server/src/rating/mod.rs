//! Ratings (docs/rules.md §9): Elo for two players, placement rating for three to six,
//! teams on a scale of their own. Pure functions; storage lives in `storage`.

mod category;
mod elo;
mod placement;

pub use category::{Category, UnknownCategory};
pub use elo::{expected_score, two_player_deltas, K, START};
pub use placement::placement_deltas;
