//! Games, seats and moves.

use sqlx::{Any, Transaction};

use super::{map_unique, Fence, GameRow, LeaseRow, MoveRow, SeatRow, Storage, StorageResult};
use crate::rating::Category;

/// A rating change to store with the end of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingUpdate {
    /// Seat index of the player.
    pub seat: usize,
    /// The player.
    pub user_id: String,
    /// The category rated.
    pub category: Category,
    /// Rating before the game.
    pub before: f64,
    /// Rating after the game.
    pub after: f64,
}

/// What is stored when a game ends.
#[derive(Debug, Clone, PartialEq)]
pub struct Finish<'a> {
    /// When it ended.
    pub finished_ms: i64,
    /// Why it ended (the engine's reason).
    pub reason: &'a str,
    /// The full record in the engine's format.
    pub record: &'a str,
    /// `(seat, place)` for every seat.
    pub places: &'a [(usize, u8)],
    /// Rating changes (empty for casual games).
    pub ratings: &'a [RatingUpdate],
}

const GAME_COLUMNS: &str = "id, variant, rated, reserve_ms, increment_ms, status, created_by, \
     created_ms, started_ms, finished_ms, reason, record, clock, start_v, invite, move_time_ms";

impl Storage {
    /// Stores a new game and its seats.
    pub async fn insert_game(&self, game: &GameRow, seats: &[SeatRow]) -> StorageResult<()> {
        let mut tx = self.pool.begin().await?;
        insert_game_rows(&mut tx, game, seats).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a new game, its seats and its first lease (`node`, epoch 1, until
    /// `expires_ms`) in one transaction, so that no open game is ever stored without
    /// the lease that lets the other nodes' sweep close it when `node` dies.
    pub async fn insert_game_leased(
        &self,
        game: &GameRow,
        seats: &[SeatRow],
        node: &str,
        expires_ms: i64,
    ) -> StorageResult<LeaseRow> {
        let mut tx = self.pool.begin().await?;
        insert_game_rows(&mut tx, game, seats).await?;
        let lease = sqlx::query_as::<_, LeaseRow>(
            "INSERT INTO table_leases (table_id, node, epoch, expires_ms) VALUES ($1, $2, 1, $3) \
             RETURNING table_id, node, epoch, expires_ms",
        )
        .bind(&game.id)
        .bind(node)
        .bind(expires_ms)
        .fetch_one(&mut *tx)
        .await
        .map_err(map_unique)?;
        tx.commit().await?;
        Ok(lease)
    }

    /// Puts a user in a seat, or empties it.
    pub async fn set_seat(
        &self,
        game_id: &str,
        seat: usize,
        user_id: Option<&str>,
    ) -> StorageResult<()> {
        sqlx::query("UPDATE seats SET user_id = $1 WHERE game_id = $2 AND seat = $3")
            .bind(user_id)
            .bind(game_id)
            .bind(seat as i64)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Marks a game live from `started_ms` with its starting clocks and the version
    /// of its `started` event, if it is still `open` and, with a `fence`, if the
    /// fence's node still holds the game's lease under its epoch at its `now`: both
    /// checked by the one `UPDATE` that starts it. False (nothing changed) otherwise:
    /// the game was called off (a sweep marked it `aborted` once its lease lapsed) or
    /// its lease is gone, and the node must not play it.
    ///
    /// On PostgreSQL a sweep marking the game `aborted` and this start both update
    /// the game's row: whichever comes second waits for the first to commit and then
    /// finds the status changed, so exactly one of them takes effect.
    pub async fn start_game(
        &self,
        game_id: &str,
        started_ms: i64,
        clock: Option<&str>,
        start_v: u64,
        fence: Option<&Fence>,
    ) -> StorageResult<bool> {
        let mut sql = String::from(
            "UPDATE games SET status = 'live', started_ms = $1, clock = $2, start_v = $3 \
             WHERE id = $4 AND status = 'open'",
        );
        if fence.is_some() {
            sql.push_str(
                " AND EXISTS (SELECT 1 FROM table_leases WHERE table_id = $4 AND node = $5 \
                 AND epoch = $6 AND expires_ms > $7)",
            );
        }
        let mut query = sqlx::query(&sql)
            .bind(started_ms)
            .bind(clock)
            .bind(start_v as i64)
            .bind(game_id);
        if let Some(f) = fence {
            query = query.bind(&f.node).bind(f.epoch).bind(f.now);
        }
        let started = query.execute(&self.pool).await?.rows_affected();
        Ok(started == 1)
    }

    /// Stores an accepted move; returns once the group-commit transaction that holds
    /// it is committed.
    pub async fn insert_move(&self, game_id: &str, m: &MoveRow) -> StorageResult<()> {
        self.writer.insert(game_id, m).await
    }

    /// Stores the end of a game with places and rating changes, in one transaction;
    /// returns the rating changes as applied.
    ///
    /// The end is stored once: a game already `finished` is left as it is (and
    /// nothing is returned), so a second node storing the same end (after a take-over)
    /// changes no rating twice. Each change is applied as its difference
    /// (`after - before`) to the rating stored when the transaction reaches it, so
    /// games between the same players ending at once, on any node, each move the
    /// ratings exactly once; the applied `before`/`after` are what the seats and the
    /// history record. The rating rows are locked in the byte order of their user ids
    /// (see `Storage::lock_rating`), so such games never deadlock on PostgreSQL.
    pub async fn finish_game(
        &self,
        game_id: &str,
        f: &Finish<'_>,
    ) -> StorageResult<Vec<RatingUpdate>> {
        let mut tx = self.pool.begin().await?;
        let ended = sqlx::query(
            "UPDATE games SET status = 'finished', finished_ms = $1, reason = $2, record = $3 \
             WHERE id = $4 AND status <> 'finished'",
        )
        .bind(f.finished_ms)
        .bind(f.reason)
        .bind(f.record)
        .bind(game_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if ended == 0 {
            tx.rollback().await?;
            return Ok(Vec::new());
        }
        for &(seat, place) in f.places {
            sqlx::query("UPDATE seats SET place = $1 WHERE game_id = $2 AND seat = $3")
                .bind(i64::from(place))
                .bind(game_id)
                .bind(seat as i64)
                .execute(&mut *tx)
                .await?;
        }
        let mut ordered: Vec<&RatingUpdate> = f.ratings.iter().collect();
        ordered.sort_by(|a, b| {
            (a.user_id.as_bytes(), a.category.as_str())
                .cmp(&(b.user_id.as_bytes(), b.category.as_str()))
        });
        let mut applied = Vec::with_capacity(ordered.len());
        for r in ordered {
            let before = self.lock_rating(&mut tx, &r.user_id, r.category).await?;
            let after = before + (r.after - r.before);
            sqlx::query(
                "UPDATE seats SET rating_before = $1, rating_after = $2 WHERE game_id = $3 AND seat = $4",
            )
            .bind(before)
            .bind(after)
            .bind(game_id)
            .bind(r.seat as i64)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE ratings SET rating = $3, games = games + 1 \
                 WHERE user_id = $1 AND category = $2",
            )
            .bind(&r.user_id)
            .bind(r.category.as_str())
            .bind(after)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (user_id, category, game_id, rating_before, rating_after, at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&r.user_id)
            .bind(r.category.as_str())
            .bind(game_id)
            .bind(before)
            .bind(after)
            .bind(f.finished_ms)
            .execute(&mut *tx)
            .await?;
            applied.push(RatingUpdate {
                before,
                after,
                ..r.clone()
            });
        }
        tx.commit().await?;
        applied.sort_by_key(|u| u.seat);
        Ok(applied)
    }

    /// Marks a game that is still open or live as called off (`aborted`, no result);
    /// a game that has ended stays as it ended.
    pub async fn abort_game(&self, game_id: &str, now: i64) -> StorageResult<()> {
        sqlx::query(
            "UPDATE games SET status = 'aborted', finished_ms = $1 \
             WHERE id = $2 AND status IN ('open', 'live')",
        )
        .bind(now)
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// One game.
    pub async fn game(&self, id: &str) -> StorageResult<Option<GameRow>> {
        Ok(
            sqlx::query_as(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Every game still open or live (to resume after a restart).
    pub async fn unfinished_games(&self) -> StorageResult<Vec<GameRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status IN ('open', 'live') ORDER BY created_ms"
        ))
        .fetch_all(&self.pool)
        .await?)
    }

    /// The seats of a game in order.
    pub async fn seats(&self, game_id: &str) -> StorageResult<Vec<SeatRow>> {
        Ok(sqlx::query_as(
            "SELECT game_id, seat, colour, user_id, computer_level, place, rating_before, rating_after \
             FROM seats WHERE game_id = $1 ORDER BY seat",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The moves of a game in order.
    pub async fn moves(&self, game_id: &str) -> StorageResult<Vec<MoveRow>> {
        Ok(sqlx::query_as(
            "SELECT ply, colour, path, clock, at_ms FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The most recent games a user sat in, newest first.
    pub async fn games_of_user(&self, user_id: &str, limit: i64) -> StorageResult<Vec<GameRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {} FROM games g WHERE g.status <> 'aborted' AND EXISTS \
             (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $1) \
             ORDER BY g.created_ms DESC LIMIT $2",
            GAME_COLUMNS
                .split(", ")
                .map(|c| format!("g.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Usernames of the given user ids (for display), in any order.
    pub async fn usernames(&self, ids: &[String]) -> StorageResult<Vec<(String, String, i64)>> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(u) = self.user_by_id(id).await? {
                out.push((u.id, u.username, u.is_guest));
            }
        }
        Ok(out)
    }
}

/// Inserts `game` and its `seats` in `tx`.
async fn insert_game_rows(
    tx: &mut Transaction<'static, Any>,
    game: &GameRow,
    seats: &[SeatRow],
) -> StorageResult<()> {
    sqlx::query(&format!(
        "INSERT INTO games ({GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
    ))
    .bind(&game.id)
    .bind(&game.variant)
    .bind(game.rated)
    .bind(game.reserve_ms)
    .bind(game.increment_ms)
    .bind(&game.status)
    .bind(&game.created_by)
    .bind(game.created_ms)
    .bind(game.started_ms)
    .bind(game.finished_ms)
    .bind(&game.reason)
    .bind(&game.record)
    .bind(&game.clock)
    .bind(game.start_v)
    .bind(&game.invite)
    .bind(game.move_time_ms)
    .execute(&mut **tx)
    .await?;
    for s in seats {
        sqlx::query(
            "INSERT INTO seats (game_id, seat, colour, user_id, computer_level) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&game.id)
        .bind(s.seat)
        .bind(&s.colour)
        .bind(&s.user_id)
        .bind(s.computer_level)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
