//! Puzzle ratings: each player's and each puzzle's Glicko-2 rating, and the one rated
//! attempt a player has at a puzzle.

use super::{map_unique, Storage, StorageError, StorageResult};
use crate::puzzles::PuzzleRating;

/// What a rated attempt changed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatedAttempt {
    /// The player's rating before.
    pub before: PuzzleRating,
    /// The player's rating after.
    pub after: PuzzleRating,
    /// The puzzle's rating after.
    pub puzzle: PuzzleRating,
}

/// A player's puzzle record.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRecordRow {
    /// The rating (a new player's if none yet).
    pub rating: PuzzleRating,
    /// Rated attempts.
    pub attempts: i64,
    /// Of which solved.
    pub solved: i64,
}

impl Storage {
    /// A player's puzzle rating and attempt counts.
    pub async fn puzzle_record(&self, user_id: &str) -> StorageResult<PuzzleRecordRow> {
        let row: Option<(f64, f64, f64, i64, i64)> = sqlx::query_as(
            "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings \
             WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some((rating, deviation, volatility, attempts, solved)) => PuzzleRecordRow {
                rating: PuzzleRating {
                    rating,
                    deviation,
                    volatility,
                },
                attempts,
                solved,
            },
            None => PuzzleRecordRow {
                rating: PuzzleRating::NEW_PLAYER,
                attempts: 0,
                solved: 0,
            },
        })
    }

    /// The puzzles a player has tried, with whether each was solved (at most `limit`).
    pub async fn puzzles_tried(
        &self,
        user_id: &str,
        limit: i64,
    ) -> StorageResult<Vec<(String, bool)>> {
        let rows: Vec<(String, i32)> = sqlx::query_as(
            "SELECT puzzle_id, solved FROM puzzle_attempts WHERE user_id = $1 \
             ORDER BY at_ms, puzzle_id LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(id, s)| (id, s != 0)).collect())
    }

    /// Stores a player's first attempt at a puzzle and moves both ratings with `rate`
    /// (given the player's and the puzzle's ratings, returns them after the attempt);
    /// a puzzle not rated yet starts at `puzzle_start`. None when the player has
    /// already tried this puzzle: later attempts are not rated and not stored.
    ///
    /// Each rating row is locked (a no-op update) before it is read, in the same order
    /// every time (player, then puzzle), so attempts at once, on any node, neither lose
    /// an update nor deadlock.
    pub async fn rate_puzzle_attempt(
        &self,
        user_id: &str,
        puzzle_id: &str,
        puzzle_start: PuzzleRating,
        solved: bool,
        now: i64,
        rate: impl FnOnce(PuzzleRating, PuzzleRating) -> (PuzzleRating, PuzzleRating),
    ) -> StorageResult<Option<RatedAttempt>> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, at_ms) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(user_id)
        .bind(puzzle_id)
        .bind(i32::from(solved))
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(map_unique);
        match inserted {
            Ok(_) => {}
            Err(StorageError::Conflict) => return Ok(None),
            Err(e) => return Err(e),
        }
        let new = PuzzleRating::NEW_PLAYER;
        sqlx::query(
            "INSERT INTO puzzle_ratings \
             (user_id, rating, deviation, volatility, attempts, solved, updated_ms) \
             VALUES ($1, $2, $3, $4, 0, 0, $5) ON CONFLICT (user_id) DO NOTHING",
        )
        .bind(user_id)
        .bind(new.rating)
        .bind(new.deviation)
        .bind(new.volatility)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE puzzle_ratings SET attempts = attempts WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        let before: PuzzleRating = sqlx::query_as(
            "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO puzzle_stats (puzzle_id, rating, deviation, volatility, attempts, solved) \
             VALUES ($1, $2, $3, $4, 0, 0) ON CONFLICT (puzzle_id) DO NOTHING",
        )
        .bind(puzzle_id)
        .bind(puzzle_start.rating)
        .bind(puzzle_start.deviation)
        .bind(puzzle_start.volatility)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE puzzle_stats SET attempts = attempts WHERE puzzle_id = $1")
            .bind(puzzle_id)
            .execute(&mut *tx)
            .await?;
        let puzzle_before: PuzzleRating = sqlx::query_as(
            "SELECT rating, deviation, volatility FROM puzzle_stats WHERE puzzle_id = $1",
        )
        .bind(puzzle_id)
        .fetch_one(&mut *tx)
        .await?;
        let (after, puzzle) = rate(before, puzzle_before);
        let won = i64::from(solved);
        sqlx::query(
            "UPDATE puzzle_ratings SET rating = $2, deviation = $3, volatility = $4, \
             attempts = attempts + 1, solved = solved + $5, updated_ms = $6 WHERE user_id = $1",
        )
        .bind(user_id)
        .bind(after.rating)
        .bind(after.deviation)
        .bind(after.volatility)
        .bind(won)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzle_stats SET rating = $2, deviation = $3, volatility = $4, \
             attempts = attempts + 1, solved = solved + $5 WHERE puzzle_id = $1",
        )
        .bind(puzzle_id)
        .bind(puzzle.rating)
        .bind(puzzle.deviation)
        .bind(puzzle.volatility)
        .bind(won)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzle_attempts SET rating_before = $3, rating_after = $4 \
             WHERE user_id = $1 AND puzzle_id = $2",
        )
        .bind(user_id)
        .bind(puzzle_id)
        .bind(before.rating)
        .bind(after.rating)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(RatedAttempt {
            before,
            after,
            puzzle,
        }))
    }
}
