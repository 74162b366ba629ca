//! Bot accounts: an account its owner turns into a bot plays through a program that
//! connects with a revocable API token instead of a password session. Bots are marked
//! as such wherever players are shown, play casual games only, and play a limited
//! number of games at once; see docs/bot-api.md.

mod auth;
mod games;
mod routes;

pub use auth::{bearer_token, token_user};
pub use games::{check_games_at_once, check_unrated, MAX_BOT_GAMES};
pub use routes::routes;

/// Live tokens one bot account may have.
pub const MAX_TOKENS: usize = 5;
