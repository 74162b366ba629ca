//! Records of finished games, read in pages (puzzle generation reads them all).

use super::{Storage, StorageResult};

impl Storage {
    /// Up to `limit` finished games with a record, oldest first, after
    /// `after` = `(finished_ms, id)` in that order (`None` from the start):
    /// `(id, record, finished_ms)`.
    pub async fn finished_records(
        &self,
        after: Option<(i64, &str)>,
        limit: i64,
    ) -> StorageResult<Vec<(String, String, i64)>> {
        let (after_ms, after_id) = after.unwrap_or((i64::MIN, ""));
        Ok(sqlx::query_as(
            "SELECT id, record, finished_ms FROM games \
             WHERE status = 'finished' AND record IS NOT NULL AND finished_ms IS NOT NULL \
             AND (finished_ms > $1 OR (finished_ms = $1 AND id > $2)) \
             ORDER BY finished_ms, id LIMIT $3",
        )
        .bind(after_ms)
        .bind(after_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }
}
