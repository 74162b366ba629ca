//! Reviews of finished games computed in the background: claimed, then stored.

use super::{Storage, StorageResult};

/// A stored review as the HTTP route shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewRow {
    /// Claimed by a worker, not done yet.
    Pending,
    /// The review, as JSON.
    Done(String),
    /// The game could not be reviewed: why.
    Failed(String),
}

impl Storage {
    /// Forgets claims older than `stale_before` (their node stopped), then claims up to
    /// `limit` games finished since `finished_after` with a record and no review, newest
    /// first, for a worker: returns their ids and records. A game claimed by another node
    /// at once is skipped.
    pub async fn claim_reviews(
        &self,
        limit: i64,
        now: i64,
        stale_before: i64,
        finished_after: i64,
    ) -> StorageResult<Vec<(String, String)>> {
        sqlx::query("DELETE FROM game_reviews WHERE status = 'pending' AND claimed_ms < $1")
            .bind(stale_before)
            .execute(&self.pool)
            .await?;
        let candidates: Vec<(String, String)> = sqlx::query_as(
            "SELECT g.id, g.record FROM games g \
             LEFT JOIN game_reviews r ON r.game_id = g.id \
             WHERE g.finished_ms > $2 AND g.status = 'finished' AND g.record IS NOT NULL \
             AND r.game_id IS NULL ORDER BY g.finished_ms DESC, g.id LIMIT $1",
        )
        .bind(limit)
        .bind(finished_after)
        .fetch_all(&self.pool)
        .await?;
        let mut claimed = Vec::with_capacity(candidates.len());
        for (id, record) in candidates {
            let done = sqlx::query(
                "INSERT INTO game_reviews (game_id, status, claimed_ms) VALUES ($1, 'pending', $2) \
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(&id)
            .bind(now)
            .execute(&self.pool)
            .await?;
            if done.rows_affected() == 1 {
                claimed.push((id, record));
            }
        }
        Ok(claimed)
    }

    /// Stores the review of a claimed game: `Ok(json)` done, `Err(why)` failed.
    pub async fn store_review(
        &self,
        game_id: &str,
        review: Result<&str, &str>,
        now: i64,
    ) -> StorageResult<()> {
        let (status, json, error) = match review {
            Ok(json) => ("done", Some(json), None),
            Err(why) => ("failed", None, Some(why)),
        };
        sqlx::query(
            "UPDATE game_reviews SET status = $2, review = $3, error = $4, done_ms = $5 \
             WHERE game_id = $1",
        )
        .bind(game_id)
        .bind(status)
        .bind(json)
        .bind(error)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The review of a game, if one was claimed.
    pub async fn review(&self, game_id: &str) -> StorageResult<Option<ReviewRow>> {
        let row: Option<(String, Option<String>, Option<String>)> =
            sqlx::query_as("SELECT status, review, error FROM game_reviews WHERE game_id = $1")
                .bind(game_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(status, review, error)| match status.as_str() {
            "done" => ReviewRow::Done(review.unwrap_or_default()),
            "failed" => ReviewRow::Failed(error.unwrap_or_default()),
            _ => ReviewRow::Pending,
        }))
    }
}
