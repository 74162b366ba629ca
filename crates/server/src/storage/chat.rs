//! Table chat lines.

use super::{Storage, StorageResult};
use crate::protocol::{ChatLine, UserInfo};

/// A chat line as stored.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
struct ChatRow {
    user_id: String,
    name: String,
    guest: i64,
    spectator: i64,
    hidden_from_players: i64,
    body: String,
    at_ms: i64,
}

impl From<ChatRow> for ChatLine {
    fn from(r: ChatRow) -> Self {
        ChatLine {
            from: UserInfo {
                id: r.user_id,
                name: r.name,
                guest: r.guest != 0,
                bot: false,
            },
            text: r.body,
            at: r.at_ms,
            spectator: r.spectator != 0,
            hidden_from_players: r.hidden_from_players != 0,
        }
    }
}

impl Storage {
    /// Stores the `seq`-th (from 0) chat line of a game.
    pub async fn insert_chat(
        &self,
        game_id: &str,
        seq: usize,
        line: &ChatLine,
    ) -> StorageResult<()> {
        sqlx::query(
            "INSERT INTO chat_lines (game_id, seq, user_id, name, guest, spectator, \
             hidden_from_players, body, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(game_id)
        .bind(seq as i64)
        .bind(&line.from.id)
        .bind(&line.from.name)
        .bind(i64::from(line.from.guest))
        .bind(i64::from(line.spectator))
        .bind(i64::from(line.hidden_from_players))
        .bind(&line.text)
        .bind(line.at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Every chat line of a game, oldest first.
    pub async fn chat_lines(&self, game_id: &str) -> StorageResult<Vec<ChatLine>> {
        let rows: Vec<ChatRow> = sqlx::query_as(
            "SELECT user_id, name, guest, spectator, hidden_from_players, body, at_ms \
             FROM chat_lines WHERE game_id = $1 ORDER BY seq",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(ChatLine::from).collect())
    }
}
