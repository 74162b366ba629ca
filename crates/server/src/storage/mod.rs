//! Storage: one interface over sqlx. The embedded default is an SQLite file; a
//! `postgres://` URL selects PostgreSQL. The SQL is portable and every value is a bound
//! parameter.

mod chat;
mod finished;
mod games;
mod leases;
mod orphans;
mod puzzles;
mod reviews;
pub use games::{Finish, RatingUpdate};
pub use leases::LeaseRow;
pub use puzzles::{PuzzleRecordRow, RatedAttempt};
pub use ratings::HistoryRow;
pub use reviews::ReviewRow;
mod ratings;
mod rows;
mod tokens;
mod users;
mod writer;
pub use writer::Fence;
pub use writer::WriterConfig;

use std::str::FromStr;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

use crate::monitoring::Metrics;
use writer::MoveWriter;

pub use rows::{GameRow, MoveRow, RatingRow, SeatRow, UserRow};
pub use tokens::TokenRow;

/// A storage failure. Its details are logged, never shown to clients.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The value would break a uniqueness rule (a taken username).
    #[error("already exists")]
    Conflict,
    /// Any other database error.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// The result of a storage operation.
pub type StorageResult<T> = Result<T, StorageError>;

/// The database behind the server. Moves go through one group-commit writer
/// ([`WriterConfig`]); everything else straight through the connection pool.
#[derive(Debug, Clone)]
pub struct Storage {
    pool: AnyPool,
    /// PostgreSQL rather than SQLite.
    postgres: bool,
    writer: MoveWriter,
    metrics: Metrics,
}

/// Turns the `--db` argument into a sqlx URL: a bare path becomes an SQLite file that
/// is created if missing.
pub fn normalize_url(url: &str) -> String {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return url.to_owned();
    }
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    if rest.contains("mode=") || rest == ":memory:" {
        format!("sqlite:{rest}")
    } else if rest.contains('?') {
        format!("sqlite:{rest}&mode=rwc")
    } else {
        format!("sqlite:{rest}?mode=rwc")
    }
}

impl Storage {
    /// Connects to `url` (see [`normalize_url`]) and applies the migrations, with the
    /// default group commit and metrics of its own.
    pub async fn connect(url: &str) -> StorageResult<Storage> {
        Self::connect_with(url, WriterConfig::default(), Metrics::new()).await
    }

    /// Connects to `url`, batching moves as `writer` says and counting commits in
    /// `metrics`.
    pub async fn connect_with(
        url: &str,
        writer: WriterConfig,
        metrics: Metrics,
    ) -> StorageResult<Storage> {
        sqlx::any::install_default_drivers();
        let url = normalize_url(url);
        let sqlite = url.starts_with("sqlite:");
        let options = AnyConnectOptions::from_str(&url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 16 })
            // A database that went away is reported within seconds (healthz 503, moves
            // `unavailable`) rather than after sqlx's default of 30 s.
            .acquire_timeout(std::time::Duration::from_secs(3))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if sqlite {
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        if sqlite {
            pool.execute("PRAGMA journal_mode = WAL").await?;
        }
        sqlx::migrate!("./migrations").run(&pool).await?;
        let writer = MoveWriter::start(pool.clone(), !sqlite, writer, metrics.clone());
        Ok(Storage {
            pool,
            postgres: !sqlite,
            writer,
            metrics,
        })
    }

    /// The metrics the storage counts its commits in.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    /// Stores the moves handed over so far, then closes every connection.
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}

fn map_unique(e: sqlx::Error) -> StorageError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => StorageError::Conflict,
        _ => StorageError::Database(e),
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_url;

    #[test]
    fn urls_are_normalized() {
        assert_eq!(normalize_url("stella.db"), "sqlite:stella.db?mode=rwc");
        assert_eq!(normalize_url("sqlite://x.db"), "sqlite:x.db?mode=rwc");
        assert_eq!(normalize_url("sqlite:x.db?mode=ro"), "sqlite:x.db?mode=ro");
        assert_eq!(normalize_url("postgres://u@h/db"), "postgres://u@h/db");
    }
}
