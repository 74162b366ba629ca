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
//!
//! A cluster's moves are fenced ([`Fence`]): such a move is inserted only while the
//! table's lease row still names the writing node and epoch, checked by the batch's
//! own statement (`INSERT … SELECT … WHERE EXISTS (the lease row)`), so fenced and
//! plain moves share batches. A move whose fence fails is answered "not stored" alone;
//! the other moves of its batch are stored. On PostgreSQL the check locks the lease row
//! (`FOR SHARE`) until the batch commits: a node taking the table over waits for that
//! commit and then reads the move, and a batch that runs after a take-over finds the
//! new epoch. The moves of a batch are ordered by table, and lease renewal locks its
//! rows in the same order, so the two never wait for each other in a circle.

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

/// Rows per INSERT statement: at most 10 bound values each (6 for the move, 4 for its
/// fence), 1,280 in all, well under SQLite's (32,766) and PostgreSQL's (65,535) limits
/// on bound parameters and SQLite's 500 terms of a compound SELECT.
const ROWS_PER_STATEMENT: usize = 128;

/// The lease a fenced write (a move, the start of a game) must still be under when it
/// is stored: the table's lease row names `node` with `epoch` and runs out after `now`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The writing node.
    pub node: String,
    /// The epoch of its lease.
    pub epoch: i64,
    /// The time of the write (ms since the Unix epoch).
    pub now: i64,
}

/// Moves waiting in the writer's queue before a table waits to hand its move over.
const QUEUE: usize = 8_192;

/// One move to store and who waits for it: true once stored, false when its fence
/// failed (nothing stored).
#[derive(Debug)]
struct Pending {
    game_id: String,
    row: MoveRow,
    fence: Option<Fence>,
    done: oneshot::Sender<StorageResult<bool>>,
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
    /// Starts the writer task on `pool` (a PostgreSQL one when `postgres`).
    pub(crate) fn start(
        pool: AnyPool,
        postgres: bool,
        config: WriterConfig,
        metrics: Metrics,
    ) -> MoveWriter {
        let (tx, rx) = mpsc::channel(QUEUE);
        let db = Db { pool, postgres };
        tokio::spawn(run(db, config, metrics, rx));
        MoveWriter { tx }
    }

    /// Stores one move; returns once the transaction that holds it is committed.
    pub(crate) async fn insert(&self, game_id: &str, row: &MoveRow) -> StorageResult<()> {
        self.submit(game_id, row, None).await.map(|_| ())
    }

    /// Stores one move if its `fence` holds when its batch is stored; true once
    /// committed, false (nothing stored) when the lease is no longer the writer's.
    pub(crate) async fn insert_fenced(
        &self,
        game_id: &str,
        row: &MoveRow,
        fence: Fence,
    ) -> StorageResult<bool> {
        self.submit(game_id, row, Some(fence)).await
    }

    async fn submit(
        &self,
        game_id: &str,
        row: &MoveRow,
        fence: Option<Fence>,
    ) -> StorageResult<bool> {
        let (done, answer) = oneshot::channel();
        let pending = Pending {
            game_id: game_id.to_owned(),
            row: row.clone(),
            fence,
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

/// The database the writer stores in.
#[derive(Debug, Clone)]
struct Db {
    pool: AnyPool,
    /// PostgreSQL (whose fence check locks the lease row) rather than SQLite (whose
    /// writers take turns on the whole database).
    postgres: bool,
}

async fn run(db: Db, config: WriterConfig, metrics: Metrics, mut rx: mpsc::Receiver<Request>) {
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
            let (db, metrics, moves) = (db.clone(), metrics.clone(), std::mem::take(&mut batch));
            tokio::spawn(async move {
                store_batch(&db, &metrics, moves).await;
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
                store_batch(&db, &metrics, rest.drain(..n).collect()).await;
            }
            let _ = done.send(());
            return;
        }
    }
}

/// Stores a batch in one transaction and answers every move; on failure, retries each
/// move alone.
async fn store_batch(db: &Db, metrics: &Metrics, mut batch: Vec<Pending>) {
    // Lease rows are locked in the byte order of their table ids (see the module's notes).
    batch.sort_by(|a, b| a.game_id.cmp(&b.game_id));
    let started = Instant::now();
    let size = batch.len();
    let result = insert_all(db, &batch).await;
    metrics.commit(size, started.elapsed(), result.is_ok());
    match result {
        Ok(stored) => {
            for (p, stored) in batch.into_iter().zip(stored) {
                let _ = p.done.send(Ok(stored));
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
                let r = insert_all(db, one).await;
                metrics.commit(1, started.elapsed(), r.is_ok());
                let _ = p.done.send(r.map(|stored| stored[0]));
            }
        }
    }
}

/// Inserts the moves atomically: one statement (atomic by itself, one round trip to
/// the database) when they fit in one, else one transaction. Returns whether each move
/// was stored (false: its fence failed).
async fn insert_all(db: &Db, moves: &[Pending]) -> StorageResult<Vec<bool>> {
    if moves.len() <= ROWS_PER_STATEMENT {
        return insert_chunk(&db.pool, db.postgres, moves).await;
    }
    let mut tx = db.pool.begin().await?;
    let mut stored = Vec::with_capacity(moves.len());
    for chunk in moves.chunks(ROWS_PER_STATEMENT) {
        stored.extend(insert_chunk(&mut *tx, db.postgres, chunk).await?);
    }
    tx.commit().await?;
    Ok(stored)
}

/// Inserts one statement's worth of moves on `conn`.
async fn insert_chunk<'c, E>(conn: E, postgres: bool, moves: &[Pending]) -> StorageResult<Vec<bool>>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    if moves.iter().all(|p| p.fence.is_none()) {
        let sql = insert_sql(moves.len());
        insert_query(&sql, moves).execute(conn).await?;
        return Ok(vec![true; moves.len()]);
    }
    let fences: Vec<bool> = moves.iter().map(|p| p.fence.is_some()).collect();
    let sql = fenced_insert_sql(&fences, postgres);
    // A fenced move was stored when its row comes back. A table's moves reach the
    // writer one at a time (its task waits for each), so a (game, ply, path) names one
    // move of the batch.
    let stored: Vec<(String, i64, String)> = fenced_query(&sql, moves).fetch_all(conn).await?;
    Ok(moves
        .iter()
        .map(|p| {
            p.fence.is_none()
                || stored.iter().any(|(game, ply, path)| {
                    *game == p.game_id && *ply == p.row.ply && *path == p.row.path
                })
        })
        .collect())
}

/// The multi-row INSERT of `moves` with every value bound.
fn insert_query<'q>(
    sql: &'q str,
    moves: &'q [Pending],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let mut query = sqlx::query(sql);
    for p in moves {
        query = bind_move(query, p);
    }
    query
}

fn bind_move<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    p: &'q Pending,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    query
        .bind(&p.game_id)
        .bind(p.row.ply)
        .bind(&p.row.colour)
        .bind(&p.row.path)
        .bind(&p.row.clock)
        .bind(p.row.at_ms)
}

/// The fenced INSERT of `moves` (see [`fenced_insert_sql`]) with every value bound.
fn fenced_query<'q>(
    sql: &'q str,
    moves: &'q [Pending],
) -> sqlx::query::QueryAs<'q, sqlx::Any, (String, i64, String), sqlx::any::AnyArguments<'q>> {
    let mut query = sqlx::query_as(sql);
    for p in moves {
        query = query
            .bind(&p.game_id)
            .bind(p.row.ply)
            .bind(&p.row.colour)
            .bind(&p.row.path)
            .bind(&p.row.clock)
            .bind(p.row.at_ms);
        if let Some(f) = &p.fence {
            query = query
                .bind(&p.game_id)
                .bind(&f.node)
                .bind(f.epoch)
                .bind(f.now);
        }
    }
    query
}

/// `INSERT INTO moves (…) VALUES ($1, …, $6), ($7, …)` for `rows` rows.
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

/// `INSERT INTO moves (…) SELECT $1, …, $6 [WHERE EXISTS (lease row)] UNION ALL SELECT
/// … RETURNING game_id, ply, path`: one SELECT per move, the fenced ones (`fenced[i]`)
/// guarded by their lease row, which PostgreSQL (`postgres`) locks for the rest of the
/// transaction. The parameters are numbered in the order they appear.
fn fenced_insert_sql(fenced: &[bool], postgres: bool) -> String {
    let mut sql = String::from("INSERT INTO moves (game_id, ply, colour, path, clock, at_ms) ");
    let mut n = 0;
    let mut next = || {
        n += 1;
        format!("${n}")
    };
    for (i, fenced) in fenced.iter().enumerate() {
        if i > 0 {
            sql.push_str(" UNION ALL ");
        }
        let values: Vec<String> = (0..6).map(|_| next()).collect();
        sql.push_str(&format!("SELECT {}", values.join(", ")));
        if *fenced {
            sql.push_str(&format!(
                " WHERE EXISTS (SELECT 1 FROM table_leases WHERE table_id = {} AND node = {} \
                 AND epoch = {} AND expires_ms > {}{})",
                next(),
                next(),
                next(),
                next(),
                if postgres { " FOR SHARE" } else { "" }
            ));
        }
    }
    sql.push_str(" RETURNING game_id, ply, path");
    sql
}

#[cfg(test)]
mod tests {
    use super::WriterConfig;
    use super::{fenced_insert_sql, insert_sql};
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

    #[test]
    fn fenced_sql_guards_only_fenced_moves_and_locks_on_postgres() {
        let sqlite = fenced_insert_sql(&[false, true], false);
        assert_eq!(
            sqlite,
            "INSERT INTO moves (game_id, ply, colour, path, clock, at_ms) \
             SELECT $1, $2, $3, $4, $5, $6 UNION ALL \
             SELECT $7, $8, $9, $10, $11, $12 WHERE EXISTS (SELECT 1 FROM table_leases \
             WHERE table_id = $13 AND node = $14 AND epoch = $15 AND expires_ms > $16) \
             RETURNING game_id, ply, path"
        );
        let postgres = fenced_insert_sql(&[true], true);
        assert!(
            postgres.ends_with("expires_ms > $10 FOR SHARE) RETURNING game_id, ply, path"),
            "{postgres}"
        );
    }

    fn game(id: &str) -> GameRow {
        GameRow {
            status: "live".into(),
            started_ms: Some(0),
            start_v: Some(1),
            move_time_ms: Some(60_000),
            ..GameRow::open(id, "classic-2", None, 0)
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
    async fn a_stale_fence_refuses_its_move_alone_in_a_shared_batch() {
        let dir = tempfile::tempdir().unwrap();
        let (s, metrics) = storage(&dir, 300).await;
        // g1 is a's (epoch 1); g2 was a's, then b took it over (epoch 2).
        s.acquire_lease("g1", "a", 1_000, 60_000)
            .await
            .unwrap()
            .unwrap();
        s.acquire_lease("g2", "a", 1_000, 2_000)
            .await
            .unwrap()
            .unwrap();
        let taken = s.acquire_lease("g2", "b", 3_000, 60_000).await.unwrap();
        assert_eq!(taken.unwrap().epoch, 2);
        let now = 5_000;
        let mut b_move = mv(1);
        b_move.path = "b's".into();
        let moves = [
            ("g1", mv(1), Some(("a", 1, now)), Ok(true)),
            ("g2", mv(1), Some(("a", 1, now)), Ok(false)),
            ("g2", b_move, Some(("b", 2, now)), Ok(true)),
            ("g1", mv(2), None, Ok(true)),
            // A lease that ran out fences like a taken one.
            ("g1", mv(3), Some(("a", 1, 60_000)), Ok(false)),
        ];
        let mut tasks = Vec::new();
        for (g, row, fence, expected) in moves {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                let got = match fence {
                    Some((node, epoch, now)) => {
                        s.insert_move_fenced(g, &row, node, epoch, now).await
                    }
                    None => s.insert_move(g, &row).await.map(|()| true),
                };
                (g, row.ply, got.map_err(|e| e.to_string()), expected)
            }));
        }
        for t in tasks {
            let (g, ply, got, expected) = t.await.unwrap();
            assert_eq!(got, expected, "{g} ply {ply}");
        }
        let g1: Vec<i64> = s.moves("g1").await.unwrap().iter().map(|m| m.ply).collect();
        assert_eq!(g1, [1, 2]);
        let g2 = s.moves("g2").await.unwrap();
        assert_eq!(g2.len(), 1);
        assert_eq!(g2[0].path, "b's");
        let text = metrics.render(0);
        assert_eq!(
            metric(&text, "stella_commit_batch_moves_count"),
            1.0,
            "{text}"
        );
        assert_eq!(metric(&text, "stella_commit_failures_total"), 0.0);
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
