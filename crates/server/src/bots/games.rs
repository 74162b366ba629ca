//! The rules bots play by: casual games only, and a bounded number at once.

use crate::lobby::Lobby;
use crate::protocol::{ErrorCode, PlayerView, ProtoError, UserInfo};

/// Open or live tables one bot account may sit at at once. A program answers every
/// table's moves, so this bounds what one token makes the server (and the program)
/// carry, and keeps a bot from filling the lobby.
pub const MAX_BOT_GAMES: usize = 4;

/// Bots play casual games only: a program can play thousands of games, so its rating
/// would be measured on a different footing from people's and could be farmed; a
/// separate scale would need its own leaderboards for little gain.
pub fn check_unrated(rated: bool, players: &[&UserInfo]) -> Result<(), ProtoError> {
    if rated && players.iter().any(|u| u.bot) {
        return Err(ProtoError::new(
            ErrorCode::RatedNeedsAccounts,
            "bots play casual games only; make the game casual",
        ));
    }
    Ok(())
}

/// Refuses one more game for a bot already at [`MAX_BOT_GAMES`] open or live tables
/// (people are not limited here).
pub fn check_games_at_once(lobby: &Lobby, user: &UserInfo) -> Result<(), ProtoError> {
    if !user.bot {
        return Ok(());
    }
    let playing = lobby
        .list_all()
        .iter()
        .filter(|t| {
            t.seats
                .iter()
                .any(|s| matches!(&s.player, PlayerView::Human { id, .. } if *id == user.id))
        })
        .count();
    if playing >= MAX_BOT_GAMES {
        return Err(ProtoError::new(
            ErrorCode::TooManyTables,
            format!("a bot plays at most {MAX_BOT_GAMES} games at once; finish one first"),
        ));
    }
    Ok(())
}
