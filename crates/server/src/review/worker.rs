//! The review workers: a scanner claims finished games without a review into a bounded
//! queue; a fixed number of workers review them one at a time on blocking threads,
//! each within the game's node budget, and store the result.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch, Mutex};

use super::judge::review_record;
use crate::storage::Storage;
use crate::time::TimeSource;

/// Games claimed and waiting for a worker, at most.
pub const REVIEW_QUEUE: usize = 16;

/// How soon the scanner looks again after it found games to review.
const SCAN_EVERY: Duration = Duration::from_secs(2);

/// The longest pause of an idle scanner: each scan that finds nothing doubles the pause
/// from [`SCAN_EVERY`] up to this.
const MAX_SCAN_PAUSE: Duration = Duration::from_secs(30);

/// Games finished longer ago than this are not reviewed (the scan stays small).
const REVIEW_WINDOW_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// A claim older than this is taken again (the node that made it stopped).
const STALE_CLAIM_MS: i64 = 10 * 60 * 1000;

/// How the server reviews finished games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewSettings {
    /// Games reviewed at once (each on one thread); 0 reviews nothing.
    pub workers: usize,
    /// Nodes the searches of one game's review may visit in all, about.
    pub game_nodes: u64,
}

impl Default for ReviewSettings {
    fn default() -> Self {
        ReviewSettings {
            workers: 1,
            game_nodes: 20_000_000,
        }
    }
}

/// Starts the scanner and the workers; they stop when `shutdown` turns true.
pub fn spawn_reviewers(
    storage: Storage,
    time: Arc<dyn TimeSource>,
    settings: ReviewSettings,
    shutdown: watch::Receiver<bool>,
) {
    if settings.workers == 0 {
        return;
    }
    let (tx, rx) = mpsc::channel::<(String, String)>(REVIEW_QUEUE);
    let rx = Arc::new(Mutex::new(rx));
    for _ in 0..settings.workers {
        tokio::spawn(work(
            storage.clone(),
            time.clone(),
            settings.game_nodes,
            rx.clone(),
            shutdown.clone(),
        ));
    }
    tokio::spawn(scan(storage, time, tx, shutdown));
}

async fn scan(
    storage: Storage,
    time: Arc<dyn TimeSource>,
    tx: mpsc::Sender<(String, String)>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut pause = SCAN_EVERY;
    loop {
        let free = tx.capacity();
        if free > 0 {
            let now = time.now_ms();
            match storage
                .claim_reviews(
                    free as i64,
                    now,
                    now - STALE_CLAIM_MS,
                    now - REVIEW_WINDOW_MS,
                )
                .await
            {
                Ok(claimed) => {
                    pause = if claimed.is_empty() {
                        (pause * 2).min(MAX_SCAN_PAUSE)
                    } else {
                        SCAN_EVERY
                    };
                    for game in claimed {
                        // Claims never exceed the free places, so this does not wait.
                        if tx.send(game).await.is_err() {
                            return;
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot claim games to review"),
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = shutdown.wait_for(|stop| *stop) => return,
        }
    }
}

async fn work(
    storage: Storage,
    time: Arc<dyn TimeSource>,
    game_nodes: u64,
    rx: Arc<Mutex<mpsc::Receiver<(String, String)>>>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let next = tokio::select! {
            game = async { rx.lock().await.recv().await } => game,
            _ = shutdown.wait_for(|stop| *stop) => return,
        };
        let Some((id, record)) = next else { return };
        let started = std::time::Instant::now();
        let reviewed = tokio::task::spawn_blocking(move || {
            let clock = stella_ai::SystemClock::new();
            review_record(&record, game_nodes, &clock).map(|r| {
                let json = serde_json::to_string(&r).expect("a review serialises");
                (json, r.moves.len(), r.nodes)
            })
        })
        .await
        .unwrap_or_else(|e| Err(format!("the review stopped: {e}")));
        let stored = match &reviewed {
            Ok((json, moves, nodes)) => {
                tracing::info!(
                    game = %id,
                    moves,
                    nodes_per_search = nodes,
                    ms = started.elapsed().as_millis() as u64,
                    "game reviewed"
                );
                storage.store_review(&id, Ok(json), time.now_ms()).await
            }
            Err(why) => {
                tracing::warn!(game = %id, error = %why, "game not reviewed");
                storage.store_review(&id, Err(why), time.now_ms()).await
            }
        };
        if let Err(e) = stored {
            tracing::warn!(game = %id, error = %e, "cannot store a review");
        }
    }
}
