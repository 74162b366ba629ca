//! Ratings, history, leaderboards.

use serde::Serialize;

use sqlx::{Any, Transaction};

use super::{RatingRow, Storage, StorageResult};
use crate::rating::{Category, START};

/// One step of a player's rating history.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
pub struct HistoryRow {
    /// The category.
    pub category: String,
    /// The game that moved the rating.
    pub game_id: String,
    /// Rating before.
    pub rating_before: f64,
    /// Rating after.
    pub rating_after: f64,
    /// When the game ended.
    pub at_ms: i64,
}

impl Storage {
    /// A user's rating and rated game count in a category (1500 and 0 if unrated).
    pub async fn rating(&self, user_id: &str, category: Category) -> StorageResult<(f64, i64)> {
        let row: Option<(f64, i64)> = sqlx::query_as(
            "SELECT rating, games FROM ratings WHERE user_id = $1 AND category = $2",
        )
        .bind(user_id)
        .bind(category.as_str())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.unwrap_or((START, 0)))
    }

    /// Locks a user's rating row of `category` in `tx` (made at [`START`] with no games
    /// if missing) and returns the rating stored. Every transaction that changes
    /// several ratings locks them in one order (the byte order of the user ids), so two
    /// never wait for each other in a cycle: on PostgreSQL a `SELECT … FOR UPDATE`; on
    /// SQLite the transaction already holds the one write lock.
    pub(crate) async fn lock_rating(
        &self,
        tx: &mut Transaction<'static, Any>,
        user_id: &str,
        category: Category,
    ) -> StorageResult<f64> {
        sqlx::query(
            "INSERT INTO ratings (user_id, category, rating, games) VALUES ($1, $2, $3, 0) \
             ON CONFLICT (user_id, category) DO NOTHING",
        )
        .bind(user_id)
        .bind(category.as_str())
        .bind(START)
        .execute(&mut **tx)
        .await?;
        let sql = if self.postgres {
            "SELECT rating FROM ratings WHERE user_id = $1 AND category = $2 FOR UPDATE"
        } else {
            "SELECT rating FROM ratings WHERE user_id = $1 AND category = $2"
        };
        let (rating,): (f64,) = sqlx::query_as(sql)
            .bind(user_id)
            .bind(category.as_str())
            .fetch_one(&mut **tx)
            .await?;
        Ok(rating)
    }

    /// A user's ratings in every category they have played.
    pub async fn ratings_of(&self, user_id: &str) -> StorageResult<Vec<RatingRow>> {
        Ok(sqlx::query_as(
            "SELECT u.username, r.category, r.rating, r.games FROM ratings r \
             JOIN users u ON u.id = r.user_id WHERE r.user_id = $1 ORDER BY r.category",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The best `limit` ratings of a category.
    pub async fn leaderboard(
        &self,
        category: Category,
        limit: i64,
    ) -> StorageResult<Vec<RatingRow>> {
        Ok(sqlx::query_as(
            "SELECT u.username, r.category, r.rating, r.games FROM ratings r \
             JOIN users u ON u.id = r.user_id WHERE r.category = $1 \
             ORDER BY r.rating DESC, u.username LIMIT $2",
        )
        .bind(category.as_str())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// A user's rating history, oldest first.
    pub async fn rating_history(&self, user_id: &str) -> StorageResult<Vec<HistoryRow>> {
        Ok(sqlx::query_as(
            "SELECT category, game_id, rating_before, rating_after, at_ms FROM rating_history \
             WHERE user_id = $1 ORDER BY at_ms, game_id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?)
    }
}
