//! Users and sessions.

use super::{map_unique, Storage, StorageResult, UserRow};

impl Storage {
    /// Creates a user; [`super::StorageError::Conflict`] if the name is taken.
    pub async fn create_user(
        &self,
        id: &str,
        username: &str,
        password_hash: Option<&str>,
        now: i64,
    ) -> StorageResult<()> {
        sqlx::query(
            "INSERT INTO users (id, username, username_key, password_hash, is_guest, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(username)
        .bind(username.to_lowercase())
        .bind(password_hash)
        .bind(i64::from(password_hash.is_none()))
        .bind(now)
        .execute(&self.pool)
        .await
        .map_err(map_unique)?;
        Ok(())
    }

    /// The user with this name (any case).
    pub async fn user_by_name(&self, username: &str) -> StorageResult<Option<UserRow>> {
        Ok(sqlx::query_as(
            "SELECT id, username, password_hash, is_guest, is_bot FROM users WHERE username_key = $1",
        )
        .bind(username.to_lowercase())
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The user with this id.
    pub async fn user_by_id(&self, id: &str) -> StorageResult<Option<UserRow>> {
        Ok(sqlx::query_as(
            "SELECT id, username, password_hash, is_guest, is_bot FROM users WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Stores a session under the hash of its token.
    pub async fn create_session(
        &self,
        token_hash: &str,
        user_id: &str,
        now: i64,
        expires: i64,
    ) -> StorageResult<()> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(now)
        .bind(expires)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The user of a live session.
    pub async fn session_user(&self, token_hash: &str, now: i64) -> StorageResult<Option<UserRow>> {
        Ok(sqlx::query_as(
            "SELECT u.id, u.username, u.password_hash, u.is_guest, u.is_bot FROM sessions s \
             JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.expires_ms > $2",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Deletes a session.
    pub async fn delete_session(&self, token_hash: &str) -> StorageResult<()> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes every session that expired before `now`; returns how many.
    pub async fn delete_expired_sessions(&self, now: i64) -> StorageResult<u64> {
        Ok(sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1")
            .bind(now)
            .execute(&self.pool)
            .await?
            .rows_affected())
    }
}
