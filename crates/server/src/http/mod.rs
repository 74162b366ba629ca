//! HTTP routes: accounts, games, ratings, health, security middleware and assets.

mod accounts;
mod assets;
mod extract;
mod games;
mod health;
mod security;

pub use accounts::routes as account_routes;
pub use assets::{puzzle_set, static_asset};
pub use extract::MaybeUser;
pub use games::routes as game_routes;
pub use health::{healthz, metrics};
pub use security::{origin_check, security_headers, CONTENT_SECURITY_POLICY};
