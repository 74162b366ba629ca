//! The messages of direct challenges: one account challenges another, by name, to a
//! classic-2 game; see docs/protocol.md.

use serde::{Deserialize, Serialize};

use super::{TimeSpec, UserInfo};

/// A challenge as the challenger writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRequest {
    /// The challenged user's name (any case).
    pub to: String,
    /// Time control, or none for an untimed game.
    #[serde(default)]
    pub time: Option<TimeSpec>,
    /// Rated or casual.
    #[serde(default)]
    pub rated: bool,
    /// Untimed games: seconds each move may take (as in `create_table`).
    #[serde(default)]
    pub move_time: Option<i64>,
}

/// An open challenge, as both sides see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeView {
    /// The challenge's id.
    pub id: String,
    /// Who challenges.
    pub from: UserInfo,
    /// Who is challenged.
    pub to: UserInfo,
    /// Time control, none for untimed.
    pub time: Option<TimeSpec>,
    /// Rated or casual.
    pub rated: bool,
    /// Untimed games: seconds each move may take.
    pub move_time: Option<i64>,
    /// When it lapses unless answered (Unix ms).
    pub expires_at: i64,
}

/// Why a challenge ended without a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    /// The challenged user said no.
    Declined,
    /// The challenger took it back.
    Cancelled,
    /// Nobody answered in time.
    Expired,
    /// The challenger's connection closed.
    Left,
}
