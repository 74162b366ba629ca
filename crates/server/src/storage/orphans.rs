//! What nodes leave behind: open tables (waiting for players) whose lease lapsed
//! (nobody plays at them yet, so they are not taken over but called off), and the
//! leases of games that have ended.

use super::{Storage, StorageResult};

impl Storage {
    /// Marks `aborted` (ended at `now`, as a single node does at its next start with
    /// the open tables it had) every open game whose lease lapsed by `now`, and every
    /// open game made before `unleased_before` that has no lease row at all (left by a
    /// node that died between storing a game and its lease, as versions that stored
    /// them apart could); forgets those leases, and returns the games marked.
    ///
    /// Idempotent and safe on several nodes at once: the `UPDATE` changes only rows
    /// still `open` whose lease is lapsed or missing, so of two nodes sweeping together
    /// (on PostgreSQL the second waits for the first's row locks, then finds the status
    /// changed) only one marks each game, and a lease renewed in time (its node is
    /// alive) keeps its game out. A lapsed lease cannot be renewed (renewals touch
    /// unexpired leases only), so a game chosen here stays its node's no more. A game
    /// stored now comes with its lease in the same transaction, so a sweep never sees
    /// it without one; `unleased_before` (a lease period back) spares the game of a
    /// node that stores the two apart for the moment between them.
    pub async fn abort_orphaned_open_games(
        &self,
        now: i64,
        unleased_before: i64,
    ) -> StorageResult<Vec<String>> {
        let mut tx = self.pool.begin().await?;
        let ids: Vec<(String,)> = sqlx::query_as(
            "UPDATE games SET status = 'aborted', finished_ms = $1 \
             WHERE status = 'open' AND (id IN \
             (SELECT table_id FROM table_leases WHERE expires_ms <= $1) \
             OR (created_ms < $2 AND NOT EXISTS \
             (SELECT 1 FROM table_leases l WHERE l.table_id = games.id))) \
             RETURNING id",
        )
        .bind(now)
        .bind(unleased_before)
        .fetch_all(&mut *tx)
        .await?;
        let mut ids: Vec<String> = ids.into_iter().map(|(id,)| id).collect();
        ids.sort();
        for id in &ids {
            sqlx::query("DELETE FROM table_leases WHERE table_id = $1 AND expires_ms <= $2")
                .bind(id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(ids)
    }

    /// Of the games `ids`, those that have ended (`finished` or `aborted`).
    pub async fn ended_games(&self, ids: &[String]) -> StorageResult<Vec<String>> {
        let mut ended = Vec::new();
        // A bounded number of placeholders per statement.
        for chunk in ids.chunks(500) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT id FROM games WHERE status IN ('finished', 'aborted') AND id IN ({})",
                marks.join(", ")
            );
            let mut query = sqlx::query_as::<_, (String,)>(&sql);
            for id in chunk {
                query = query.bind(id);
            }
            ended.extend(
                query
                    .fetch_all(&self.pool)
                    .await?
                    .into_iter()
                    .map(|(id,)| id),
            );
        }
        Ok(ended)
    }

    /// Deletes the lapsed leases of games that have ended (left by a node that died or
    /// stopped after its games ended); returns how many.
    pub async fn delete_lapsed_leases_of_ended_games(&self, now: i64) -> StorageResult<u64> {
        let done = sqlx::query(
            "DELETE FROM table_leases WHERE expires_ms <= $1 AND EXISTS \
             (SELECT 1 FROM games g WHERE g.id = table_leases.table_id \
             AND g.status IN ('finished', 'aborted'))",
        )
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use crate::storage::{GameRow, Storage};

    fn open_game(id: &str) -> GameRow {
        GameRow::open(id, "classic-2", None, 1)
    }

    #[tokio::test]
    async fn only_open_games_with_a_lapsed_lease_are_aborted_once() {
        let dir = tempfile::tempdir().unwrap();
        let url = dir.path().join("orphans.db");
        let s = Storage::connect(url.to_str().unwrap()).await.unwrap();
        for id in ["dead", "alive", "nolease", "started"] {
            s.insert_game(&open_game(id), &[]).await.unwrap();
        }
        s.acquire_lease("dead", "n1", 0, 1_000).await.unwrap();
        s.acquire_lease("alive", "n2", 0, 9_000).await.unwrap();
        s.acquire_lease("started", "n1", 0, 1_000).await.unwrap();
        assert!(s.start_game("started", 500, None, 1, None).await.unwrap());

        assert_eq!(
            s.abort_orphaned_open_games(2_000, -3_000).await.unwrap(),
            ["dead"]
        );
        let dead = s.game("dead").await.unwrap().unwrap();
        assert_eq!(dead.status, "aborted");
        assert_eq!(dead.finished_ms, Some(2_000));
        assert_eq!(s.lease("dead").await.unwrap(), None);
        for (id, status) in [("alive", "open"), ("nolease", "open"), ("started", "live")] {
            assert_eq!(s.game(id).await.unwrap().unwrap().status, status, "{id}");
        }
        // A second sweep finds nothing more to do.
        assert!(s
            .abort_orphaned_open_games(2_000, -3_000)
            .await
            .unwrap()
            .is_empty());
        // An open game without a lease row is closed once it is older than the bound
        // (it was made at 1 ms).
        assert!(s
            .abort_orphaned_open_games(3_000, 1)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            s.abort_orphaned_open_games(3_000, 2).await.unwrap(),
            ["nolease"]
        );
        let row = s.game("nolease").await.unwrap().unwrap();
        assert_eq!(
            (row.status.as_str(), row.finished_ms),
            ("aborted", Some(3_000))
        );
        assert_eq!(s.game("alive").await.unwrap().unwrap().status, "open");
    }

    #[tokio::test]
    async fn the_lapsed_leases_of_ended_games_are_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let url = dir.path().join("ended.db");
        let s = Storage::connect(url.to_str().unwrap()).await.unwrap();
        for id in ["ended", "held", "open"] {
            s.insert_game(&open_game(id), &[]).await.unwrap();
            s.acquire_lease(id, "n1", 0, 1_000).await.unwrap();
        }
        s.abort_game("ended", 5).await.unwrap();
        s.abort_game("held", 5).await.unwrap();
        s.acquire_lease("held", "n1", 0, 9_000).await.unwrap();
        let all: Vec<String> = ["ended", "held", "open", "missing"]
            .map(String::from)
            .into();
        let mut ended = s.ended_games(&all).await.unwrap();
        ended.sort();
        assert_eq!(ended, ["ended", "held"]);
        // Only the lapsed lease of an ended game goes; a held one stays until released.
        assert_eq!(
            s.delete_lapsed_leases_of_ended_games(2_000).await.unwrap(),
            1
        );
        assert_eq!(s.lease("ended").await.unwrap(), None);
        assert!(s.lease("held").await.unwrap().is_some());
        assert!(s.lease("open").await.unwrap().is_some());
    }
}
