//! Bot accounts and their API tokens, stored as the SHA-256 of the token.

use serde::Serialize;

use super::{map_unique, Storage, StorageResult, UserRow};

/// A stored API token as its owner sees it (never the token itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct TokenRow {
    /// Identifier, used to revoke it.
    pub id: String,
    /// The owner's label, e.g. the program it is for.
    pub label: String,
    /// When it was made (Unix ms).
    pub created_ms: i64,
    /// When a connection last opened with it (Unix ms).
    pub last_used_ms: Option<i64>,
}

impl Storage {
    /// Makes `user_id` a bot account.
    pub async fn make_bot(&self, user_id: &str) -> StorageResult<()> {
        sqlx::query("UPDATE users SET is_bot = 1 WHERE id = $1")
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores a new token of `user_id` under the hash of the token.
    pub async fn create_token(
        &self,
        id: &str,
        user_id: &str,
        token_hash: &str,
        label: &str,
        now: i64,
    ) -> StorageResult<()> {
        sqlx::query(
            "INSERT INTO api_tokens (id, user_id, token_hash, label, created_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(user_id)
        .bind(token_hash)
        .bind(label)
        .bind(now)
        .execute(&self.pool)
        .await
        .map_err(map_unique)?;
        Ok(())
    }

    /// The tokens of `user_id` not revoked, oldest first.
    pub async fn tokens(&self, user_id: &str) -> StorageResult<Vec<TokenRow>> {
        Ok(sqlx::query_as(
            "SELECT id, label, created_ms, last_used_ms FROM api_tokens \
             WHERE user_id = $1 AND revoked_ms IS NULL ORDER BY created_ms, id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Revokes token `id` of `user_id`; returns its hash, none if there is no such
    /// live token of theirs.
    pub async fn revoke_token(
        &self,
        user_id: &str,
        id: &str,
        now: i64,
    ) -> StorageResult<Option<String>> {
        let hash: Option<(String,)> = sqlx::query_as(
            "SELECT token_hash FROM api_tokens \
             WHERE id = $1 AND user_id = $2 AND revoked_ms IS NULL",
        )
        .bind(id)
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?;
        if hash.is_some() {
            sqlx::query("UPDATE api_tokens SET revoked_ms = $1 WHERE id = $2")
                .bind(now)
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
        Ok(hash.map(|(h,)| h))
    }

    /// The bot account whose live token hashes to `token_hash`, noting the use.
    pub async fn token_user(&self, token_hash: &str, now: i64) -> StorageResult<Option<UserRow>> {
        let user: Option<UserRow> = sqlx::query_as(
            "SELECT u.id, u.username, u.password_hash, u.is_guest, u.is_bot FROM api_tokens t \
             JOIN users u ON u.id = t.user_id \
             WHERE t.token_hash = $1 AND t.revoked_ms IS NULL AND u.is_bot = 1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        if user.is_some() {
            sqlx::query("UPDATE api_tokens SET last_used_ms = $1 WHERE token_hash = $2")
                .bind(now)
                .bind(token_hash)
                .execute(&self.pool)
                .await?;
        }
        Ok(user)
    }
}
