//! Group commit of moves: one writer task per database gathers the moves of every
//! table and stores them in one transaction per batch, answering each move only after
//! its batch is committed.
//!
//! A batch closes when it holds [`WriterConfig::max_batch`] moves or
//! [`WriterConfig::window`] after its first move arrived, whichever comes first; up
//! to [`WriterConfig::in_flight`] batches are stored at once. When
//! a batch fails, its moves are retried one transaction each, so one bad row (or a
//! database that failed for a moment) reaches only the moves it concerns; every move
//! that is not stored gets the error, and no move is answered before it is stored.

use std::time::{Duration, Instant};

use sqlx::AnyPool;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot, Semaphore};

use super::{MoveRow, StorageError, StorageResult};
use crate::monitoring::Metrics;

/// How the writer batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterConfig {
    /// The longest a move waits for others to join its batch.
    pub window: Duration,
    /// The most moves in one transaction.
    pub max_batch: usize,
    /// Batches being stored at once: while one waits for the database, the next
    /// gathers and starts, so round trips to the database overlap.
    pub in_flight: usize,
}

impl Default for WriterConfig {
    fn default() -> Self {
        WriterConfig {
            window: Duration::from_millis(1),
            max_batch: 256,
            in_flight: 4,
        }
    }
}

/// Rows per INSERT statement: 6 bound values each, 768 in all, well under SQLite's
/// (32,766) and PostgreSQL's (65,535) limits on bound parameters.
const ROWS_PER_STATEMENT: usize = 128;

/// Moves waiting in the writer's queue before a table waits to hand its move over.
const QUEUE: usize = 8_192;

/// One move to store and who waits for it.
#[derive(Debug)]
struct Pending {
    game_id: String,
    row: MoveRow,
    done: oneshot::Sender<StorageResult<()>>,
}

#[derive(Debug)]
enum Request {
    Move(Pending),
    /// Store everything queued before this, then answer and stop.
    Close(oneshot::Sender<()>),
}

/// The handle through which tables hand their moves to the writer.
#[derive(Debug, Clone)]
pub(crate) struct MoveWriter {
    tx: mpsc::Sender<Request>,
}

/// The writer stopped (the server is closing): nothing was stored.
fn writer_gone() -> StorageError {
    StorageError::Database(sqlx::Error::PoolClosed)
}

impl MoveWriter {
    /// Starts the writer task on `pool`.
    pub(crate) fn start(pool: AnyPool, config: WriterConfig, metrics: Metrics) -> MoveWriter {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, config, metrics, rx));
        MoveWriter { tx }
    }

    /// Stores one move; returns once the transaction that holds it is committed.
    pub(crate) async fn insert(&self, game_id: &str, row: &MoveRow) -> StorageResult<()> {
        let (done, answer) = oneshot::channel();
        let pending = Pending {
            game_id: game_id.to_owned(),
            row: row.clone(),
            done,
        };
        self.tx
            .send(Request::Move(pending))
            .await
            .map_err(|_| writer_gone())?;
        answer.await.map_err(|_| writer_gone())?
    }

    /// Stores every move handed over so far, then stops the writer; later moves are
    /// refused.
    pub(crate) async fn close(&self) {
        let (done, answer) = oneshot::channel();
        if self.tx.send(Request::Close(done)).await.is_ok() {
            let _ = answer.await;
        }
    }
}

async fn run(
    pool: AnyPool,
    config: WriterConfig,
    metrics: Metrics,
    mut rx: mpsc::Receiver<Request>,
) {
    let in_flight = u32::try_from(config.in_flight.max(1)).unwrap_or(u32::MAX);
    let slots = Arc::new(Semaphore::new(in_flight as usize));
    let mut batch: Vec<Pending> = Vec::with_capacity(config.max_batch);
    loop {
        let Some(first) = rx.recv().await else {
            return;
        };
        let mut closing = None;
        match first {
            Request::Move(p) => batch.push(p),
            Request::Close(done) => closing = Some(done),
        }
        let deadline = tokio::time::Instant::now() + config.window;
        while closing.is_none() && batch.len() < config.max_batch {
            // Whatever is already queued joins at once; then wait out the window.
            let next = match rx.try_recv() {
                Ok(r) => Some(r),
                Err(mpsc::error::TryRecvError::Empty) => {
                    match tokio::time::timeout_at(deadline, rx.recv()).await {
                        Ok(r) => r,
                        Err(_) => break,
                    }
                }
                Err(mpsc::error::TryRecvError::Disconnected) => None,
            };
            match next {
                Some(Request::Move(p)) => batch.push(p),
                Some(Request::Close(done)) => closing = Some(done),
                None => break,
            }
        }
        if !batch.is_empty() {
            let slot = slots
                .clone()
                .acquire_owned()
                .await
                .expect("the writer never closes its semaphore");
            let (pool, metrics, moves) =
                (pool.clone(), metrics.clone(), std::mem::take(&mut batch));
            tokio::spawn(async move {
                store_batch(&pool, &metrics, moves).await;
                drop(slot);
            });
        }
        if let Some(done) = closing {
            // Every batch already started ends before the writer stops.
            let _all = slots.acquire_many(in_flight).await;
            rx.close();
            // Moves that raced the close are still stored before the writer stops.
            let mut rest = Vec::new();
            while let Ok(r) = rx.try_recv() {
                match r {
                    Request::Move(p) => rest.push(p),
                    Request::Close(other) => {
                        let _ = other.send(());
                    }
                }
            }
            while !rest.is_empty() {
                let n = rest.len().min(config.max_batch.max(1));
                store_batch(&pool, &metrics, rest.drain(..n).collect()).await;
            }
            let _ = done.send(());
            return;
        }
    }
}

/// Stores a batch in one transaction and answers every move; on failure, retries each
/// move alone.
async fn store_batch(pool: &AnyPool, metrics: &Metrics, batch: Vec<Pending>) {
    let started = Instant::now();
    let size = batch.len();
    let result = insert_all(pool, &batch).await;
    metrics.commit(size, started.elapsed(), result.is_ok());
    match result {
        Ok(()) => {
            for p in batch {
                let _ = p.done.send(Ok(()));
            }
        }
        Err(e) if size == 1 => {
            let p = batch.into_iter().next().expect("one move");
            let _ = p.done.send(Err(e));
        }
        Err(e) => {
            tracing::warn!(error = %e, moves = size, "a batch of moves failed; storing them one by one");
            for p in batch {
                let one = std::slice::from_ref(&p);
                let started = Instant::now();
                let r = insert_all(pool, one).await;
                metrics.commit(1, started.elapsed(), r.is_ok());
                let _ = p.done.send(r);
            }
        }
    }
}

/// Inserts the moves atomically: one statement (atomic by itself, one round trip to
/// the database) when they fit in one, else one transaction.
async fn insert_all(pool: &AnyPool, moves: &[Pending]) -> StorageResult<()> {
    if moves.len() <= ROWS_PER_STATEMENT {
        let sql = insert_sql(moves.len());
        insert_query(&sql, moves).execute(pool).await?;
        return Ok(());
    }
    let mut tx = pool.begin().await?;
    for chunk in moves.chunks(ROWS_PER_STATEMENT) {
        let sql = insert_sql(chunk.len());
        insert_query(&sql, chunk).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The multi-row INSERT of `moves` with every value bound.
fn insert_query<'q>(
    sql: &'q str,
    moves: &'q [Pending],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let mut query = sqlx::query(sql);
    for p in moves {
        query = query
            .bind(&p.game_id)
            .bind(p.row.ply)
            .bind(&p.row.colour)
            .bind(&p.row.path)
            .bind(&p.row.clock)
            .bind(p.row.at_ms);
    }
    query
}

/// `INSERT INTO moves … VALUES ($1, …, $6), ($7, …)` for `rows` rows.
fn insert_sql(rows: usize) -> String {
    let mut sql =
        String::from("INSERT INTO moves (game_id, ply, colour, path, clock, at_ms) VALUES ");
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        let b = r * 6;
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${}, ${})",
            b + 1,
            b + 2,
            b + 3,
            b + 4,
            b + 5,
            b + 6
        ));
    }
    sql
}

#[cfg(test)]
mod tests {
    use super::insert_sql;
    use super::WriterConfig;
    use crate::monitoring::Metrics;
    use crate::storage::{GameRow, MoveRow, Storage};
    use std::time::Duration;

    #[test]
    fn insert_sql_numbers_every_value() {
        assert_eq!(
            insert_sql(2),
            "INSERT INTO moves (game_id, ply, colour, path, clock, at_ms) VALUES \
             ($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12)"
        );
    }

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            variant: "classic-2".into(),
            rated: 0,
            reserve_ms: None,
            increment_ms: None,
            status: "live".into(),
            created_by: None,
            created_ms: 0,
            started_ms: Some(0),
            finished_ms: None,
            reason: None,
            record: None,
            clock: None,
            start_v: Some(1),
            invite: None,
            move_time_ms: Some(60_000),
        }
    }

    fn mv(ply: i64) -> MoveRow {
        MoveRow {
            ply,
            colour: "white".into(),
            path: format!("p{ply}"),
            clock: None,
            at_ms: ply,
        }
    }

    async fn storage(dir: &tempfile::TempDir, window_ms: u64) -> (Storage, Metrics) {
        let metrics = Metrics::new();
        let url = dir.path().join("w.db").to_string_lossy().into_owned();
        let config = WriterConfig {
            window: Duration::from_millis(window_ms),
            max_batch: 64,
            in_flight: 2,
        };
        let s = Storage::connect_with(&url, config, metrics.clone())
            .await
            .unwrap();
        s.insert_game(&game("g1"), &[]).await.unwrap();
        s.insert_game(&game("g2"), &[]).await.unwrap();
        (s, metrics)
    }

    fn metric(text: &str, name: &str) -> f64 {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} missing from\n{text}"))
    }

    #[tokio::test]
    async fn moves_of_many_games_share_one_transaction() {
        let dir = tempfile::tempdir().unwrap();
        let (s, metrics) = storage(&dir, 200).await;
        let mut tasks = Vec::new();
        for ply in 1..=10 {
            for g in ["g1", "g2"] {
                let s = s.clone();
                tasks.push(tokio::spawn(
                    async move { s.insert_move(g, &mv(ply)).await },
                ));
            }
        }
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        assert_eq!(s.moves("g1").await.unwrap().len(), 10);
        assert_eq!(s.moves("g2").await.unwrap().len(), 10);
        let text = metrics.render(0);
        assert_eq!(metric(&text, "stella_commit_batch_moves_sum"), 20.0);
        assert!(
            metric(&text, "stella_commit_batch_moves_count") < 20.0,
            "twenty moves in twenty transactions:\n{text}"
        );
    }

    #[tokio::test]
    async fn a_batch_longer_than_one_statement_is_one_transaction() {
        let dir = tempfile::tempdir().unwrap();
        let metrics = Metrics::new();
        let url = dir.path().join("w.db").to_string_lossy().into_owned();
        let config = WriterConfig {
            window: Duration::from_millis(300),
            max_batch: 1_000,
            in_flight: 4,
        };
        let s = Storage::connect_with(&url, config, metrics.clone())
            .await
            .unwrap();
        s.insert_game(&game("g1"), &[]).await.unwrap();
        let tasks: Vec<_> = (1..=300)
            .map(|ply| {
                let s = s.clone();
                tokio::spawn(async move { s.insert_move("g1", &mv(ply)).await })
            })
            .collect();
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        assert_eq!(s.moves("g1").await.unwrap().len(), 300);
        let text = metrics.render(0);
        assert!(
            metric(&text, "stella_commit_batch_moves_count") < 300.0,
            "{text}"
        );
    }

    #[tokio::test]
    async fn a_bad_move_fails_alone_and_the_rest_of_its_batch_is_stored() {
        let dir = tempfile::tempdir().unwrap();
        let (s, metrics) = storage(&dir, 200).await;
        s.insert_move("g1", &mv(1)).await.unwrap();
        let mut tasks = Vec::new();
        // Ply 1 of g1 is stored already: that row breaks the primary key; a move of an
        // unknown game breaks the foreign key.
        for (g, ply) in [("g1", 2), ("g1", 1), ("g2", 1), ("nope", 1), ("g2", 2)] {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                (g, ply, s.insert_move(g, &mv(ply)).await)
            }));
        }
        for t in tasks {
            let (g, ply, r) = t.await.unwrap();
            let bad = (g, ply) == ("g1", 1) || g == "nope";
            assert_eq!(r.is_err(), bad, "{g} ply {ply}: {r:?}");
        }
        assert_eq!(s.moves("g1").await.unwrap().len(), 2);
        assert_eq!(s.moves("g2").await.unwrap().len(), 2);
        assert!(metric(&metrics.render(0), "stella_commit_failures_total") >= 2.0);
    }

    #[tokio::test]
    async fn close_stores_what_is_queued_and_refuses_later_moves() {
        let dir = tempfile::tempdir().unwrap();
        let (s, _) = storage(&dir, 5_000).await;
        let waiting = {
            let s = s.clone();
            tokio::spawn(async move { s.insert_move("g1", &mv(1)).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        // The window is 5 s: closing cuts it short and still stores the move.
        let started = std::time::Instant::now();
        s.writer.close().await;
        assert!(started.elapsed() < Duration::from_secs(4));
        waiting.await.unwrap().unwrap();
        assert_eq!(s.moves("g1").await.unwrap().len(), 1);
        assert!(s.insert_move("g1", &mv(2)).await.is_err());
        assert_eq!(s.moves("g1").await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_database_that_is_gone_answers_every_move_with_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let (s, _) = storage(&dir, 20).await;
        s.pool.close().await;
        let mut tasks = Vec::new();
        for ply in 1..=3 {
            let s = s.clone();
            tasks.push(tokio::spawn(
                async move { s.insert_move("g1", &mv(ply)).await },
            ));
        }
        for t in tasks {
            assert!(t.await.unwrap().is_err());
        }
    }
}
