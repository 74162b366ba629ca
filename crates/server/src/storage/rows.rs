//! Plain rows as stored.

use serde::Serialize;

/// A user account (registered or guest).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct UserRow {
    /// Stable identifier.
    pub id: String,
    /// The name as the user typed it.
    pub username: String,
    /// The argon2id PHC string; none for guests.
    pub password_hash: Option<String>,
    /// 1 for a guest, 0 for a registered account.
    pub is_guest: i64,
    /// 1 for a bot account (plays through a program with an API token).
    #[sqlx(default)]
    pub is_bot: i64,
}

impl UserRow {
    /// Whether this is a guest account.
    pub fn guest(&self) -> bool {
        self.is_guest != 0
    }

    /// Whether this is a bot account.
    pub fn bot(&self) -> bool {
        self.is_bot != 0
    }
}

/// A game (a table, from creation to the end).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct GameRow {
    /// Identifier, also the table's.
    pub id: String,
    /// Variant id, e.g. `classic-2`.
    pub variant: String,
    /// 1 if rated.
    pub rated: i64,
    /// Reserve in milliseconds; none for untimed games.
    pub reserve_ms: Option<i64>,
    /// Increment in milliseconds; none for untimed games.
    pub increment_ms: Option<i64>,
    /// `open`, `live`, `finished` or `aborted`.
    pub status: String,
    /// The user who created the table.
    pub created_by: Option<String>,
    /// Creation time.
    pub created_ms: i64,
    /// Start time, once every seat was taken.
    pub started_ms: Option<i64>,
    /// End time.
    pub finished_ms: Option<i64>,
    /// Why the game ended.
    pub reason: Option<String>,
    /// The full game record, once finished.
    pub record: Option<String>,
    /// The clocks at the start (JSON), for games that have no move yet.
    pub clock: Option<String>,
    /// Version number of the table's `started` event.
    pub start_v: Option<i64>,
    /// The invitation of a private table; none for a public one.
    pub invite: Option<String>,
    /// Untimed tables: milliseconds each move may take.
    pub move_time_ms: Option<i64>,
}

impl GameRow {
    /// A new open table of `variant`, untimed and unrated, created at `created_ms`; the
    /// other fields are filled in as the table fills, starts and ends.
    pub fn open(id: &str, variant: &str, created_by: Option<&str>, created_ms: i64) -> GameRow {
        GameRow {
            id: id.to_owned(),
            variant: variant.to_owned(),
            rated: 0,
            reserve_ms: None,
            increment_ms: None,
            status: "open".into(),
            created_by: created_by.map(str::to_owned),
            created_ms,
            started_ms: None,
            finished_ms: None,
            reason: None,
            record: None,
            clock: None,
            start_v: None,
            invite: None,
            move_time_ms: None,
        }
    }
}

/// One seat of a game.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SeatRow {
    /// The game.
    pub game_id: String,
    /// Seat index in play order.
    pub seat: i64,
    /// Colour name.
    pub colour: String,
    /// The human in the seat.
    pub user_id: Option<String>,
    /// The computer level in the seat.
    pub computer_level: Option<i64>,
    /// Final place (1 = first).
    pub place: Option<i64>,
    /// Rating before a rated game.
    pub rating_before: Option<f64>,
    /// Rating after a rated game.
    pub rating_after: Option<f64>,
}

/// One accepted move.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct MoveRow {
    /// Ply number from 1.
    pub ply: i64,
    /// Colour that moved.
    pub colour: String,
    /// The canonical path, e.g. `m1-m3-k5`.
    pub path: String,
    /// The clocks after the move (JSON), if timed.
    pub clock: Option<String>,
    /// When the move was accepted.
    pub at_ms: i64,
}

/// A rating in one category, as on a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
pub struct RatingRow {
    /// The player.
    pub username: String,
    /// The category.
    pub category: String,
    /// Current rating.
    pub rating: f64,
    /// Rated games played in the category.
    pub games: i64,
}
