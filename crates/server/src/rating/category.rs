//! Rating categories: each has its own scale and leaderboard.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A rating category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// Two-player games (Elo).
    Duel,
    /// Games of three to six individual players (placement rating).
    Multi,
    /// Team games, rated team against team.
    Teams,
}

impl Category {
    /// Every category, in display order.
    pub const ALL: [Category; 3] = [Category::Duel, Category::Multi, Category::Teams];

    /// The category of a game with `seats` seats, `teams` true for team variants.
    pub fn of(seats: usize, teams: bool) -> Category {
        if teams {
            Category::Teams
        } else if seats == 2 {
            Category::Duel
        } else {
            Category::Multi
        }
    }

    /// The lowercase name used in URLs and storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Duel => "duel",
            Category::Multi => "multi",
            Category::Teams => "teams",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown category name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rating category {0:?} (expected duel, multi or teams)")]
pub struct UnknownCategory(pub String);

impl FromStr for Category {
    type Err = UnknownCategory;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Category::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCategory(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_of_games() {
        assert_eq!(Category::of(2, false), Category::Duel);
        assert_eq!(Category::of(3, false), Category::Multi);
        assert_eq!(Category::of(6, false), Category::Multi);
        assert_eq!(Category::of(4, true), Category::Teams);
        assert_eq!("multi".parse::<Category>(), Ok(Category::Multi));
        assert!("chess".parse::<Category>().is_err());
    }
}
