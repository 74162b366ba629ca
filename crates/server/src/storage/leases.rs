//! Table leases: which node of a cluster runs each live table, and the fenced write
//! of a move (stored only while the writer still holds the table's lease).

use super::{Fence, MoveRow, Storage, StorageResult};

/// A held lease: `node` runs `table` under `epoch` until `expires_ms`.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct LeaseRow {
    /// The table.
    pub table_id: String,
    /// The node that holds it.
    pub node: String,
    /// Raised by every new holder; the fence of every write.
    pub epoch: i64,
    /// When the lease lapses unless renewed (ms since the Unix epoch).
    pub expires_ms: i64,
}

impl Storage {
    /// Takes the lease of `table` for `node` until `expires_ms` when nobody holds it,
    /// its holder let it lapse (`expires_ms <= now`), or `node` holds it already;
    /// every take raises the epoch. None when another node holds it.
    pub async fn acquire_lease(
        &self,
        table: &str,
        node: &str,
        now: i64,
        expires_ms: i64,
    ) -> StorageResult<Option<LeaseRow>> {
        let row = sqlx::query_as::<_, LeaseRow>(
            "INSERT INTO table_leases (table_id, node, epoch, expires_ms) VALUES ($1, $2, 1, $3) \
             ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, \
             epoch = table_leases.epoch + 1, expires_ms = excluded.expires_ms \
             WHERE table_leases.expires_ms <= $4 OR table_leases.node = excluded.node \
             RETURNING table_id, node, epoch, expires_ms",
        )
        .bind(table)
        .bind(node)
        .bind(expires_ms)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row)
    }

    /// Extends every unexpired lease `node` holds to `expires_ms`; returns the tables
    /// (with their epochs) still held. A lease that lapsed is not renewed: another node
    /// may be taking the table over. On PostgreSQL the rows are locked in the byte order
    /// of their table ids, the order in which a batch of moves locks them (see `writer`).
    pub async fn renew_leases(
        &self,
        node: &str,
        now: i64,
        expires_ms: i64,
    ) -> StorageResult<Vec<LeaseRow>> {
        let sql = if self.postgres {
            "UPDATE table_leases SET expires_ms = $1 WHERE table_id IN \
             (SELECT table_id FROM table_leases WHERE node = $2 AND expires_ms > $3 \
             ORDER BY table_id COLLATE \"C\" FOR UPDATE) \
             RETURNING table_id, node, epoch, expires_ms"
        } else {
            "UPDATE table_leases SET expires_ms = $1 WHERE node = $2 AND expires_ms > $3 \
             RETURNING table_id, node, epoch, expires_ms"
        };
        let rows = sqlx::query_as::<_, LeaseRow>(sql)
            .bind(expires_ms)
            .bind(node)
            .bind(now)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows)
    }

    /// Gives the lease of `table` up at once (a graceful hand-over), if `node` still
    /// holds it under `epoch`.
    pub async fn release_lease(&self, table: &str, node: &str, epoch: i64) -> StorageResult<()> {
        sqlx::query(
            "UPDATE table_leases SET expires_ms = 0 WHERE table_id = $1 AND node = $2 AND epoch = $3",
        )
        .bind(table)
        .bind(node)
        .bind(epoch)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets the lease of a table that has ended.
    pub async fn delete_lease(&self, table: &str, node: &str, epoch: i64) -> StorageResult<()> {
        sqlx::query("DELETE FROM table_leases WHERE table_id = $1 AND node = $2 AND epoch = $3")
            .bind(table)
            .bind(node)
            .bind(epoch)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The lease of `table` as stored (held or lapsed), if any.
    pub async fn lease(&self, table: &str) -> StorageResult<Option<LeaseRow>> {
        let row = sqlx::query_as::<_, LeaseRow>(
            "SELECT table_id, node, epoch, expires_ms FROM table_leases WHERE table_id = $1",
        )
        .bind(table)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row)
    }

    /// Live games whose lease is missing or lapsed at `now`: the tables of a node that
    /// died or handed them over, for another node to take.
    pub async fn orphaned_live_games(&self, now: i64) -> StorageResult<Vec<String>> {
        let ids: Vec<(String,)> = sqlx::query_as(
            "SELECT g.id FROM games g LEFT JOIN table_leases l ON l.table_id = g.id \
             WHERE g.status = 'live' AND (l.table_id IS NULL OR l.expires_ms <= $1) \
             ORDER BY g.id",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// Stores a move of `game_id` only if `node` still holds the game's lease under
    /// `epoch` at `now`; false (nothing stored) when it does not. The move goes through
    /// the group-commit writer like any other, its batch's statement checking the lease
    /// row (see `writer`): on PostgreSQL that row stays locked until the move is
    /// committed, so a node taking the table over waits for that commit and then reads
    /// the move, and a write after a take-over finds the new epoch and stores nothing.
    pub async fn insert_move_fenced(
        &self,
        game_id: &str,
        m: &MoveRow,
        node: &str,
        epoch: i64,
        now: i64,
    ) -> StorageResult<bool> {
        let fence = Fence {
            node: node.to_owned(),
            epoch,
            now,
        };
        self.writer.insert_fenced(game_id, m, fence).await
    }
}
