//! A bound on computer searches running at once on the whole server. Each table asks
//! for one search at a time, and searches wait for a slot in a first-come first-served
//! queue (tokio's semaphore is fair), so every table with a computer to move gets its
//! turn in order: a fair share per table, however many tables one user starts. The
//! time spent waiting is taken from the search's thinking budget, so a computer's clock
//! is not spent twice.

use std::sync::Arc;
use std::time::Instant;

use stella_engine::{Game, Move};
use tokio::sync::Semaphore;

use crate::computer::ComputerPlayer;

/// A computer player whose searches take turns in a bounded, fair queue.
#[derive(Debug)]
pub struct QueuedComputer {
    inner: Arc<dyn ComputerPlayer>,
    slots: Arc<Semaphore>,
}

/// The least thinking time a search gets, however long it waited.
const MIN_THINK_MS: i64 = 50;

impl QueuedComputer {
    /// `inner`, with at most `concurrent` searches at once (at least one).
    pub fn new(inner: Arc<dyn ComputerPlayer>, concurrent: usize) -> Self {
        QueuedComputer {
            inner,
            slots: Arc::new(Semaphore::new(concurrent.max(1))),
        }
    }
}

impl ComputerPlayer for QueuedComputer {
    fn choose(&self, game: &Game, level: u8, think_ms: i64) -> Option<Move> {
        let asked = Instant::now();
        // Called on a blocking thread (see `ComputerPlayer`): wait there for a slot.
        let permit = match tokio::runtime::Handle::try_current() {
            Ok(rt) => rt.block_on(self.slots.clone().acquire_owned()).ok(),
            Err(_) => None,
        };
        let waited = asked.elapsed().as_millis() as i64;
        let think = (think_ms - waited).max(MIN_THINK_MS);
        let mv = self.inner.choose(game, level, think);
        drop(permit);
        mv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use stella_engine::Variant;

    #[derive(Debug, Default)]
    struct Counting {
        now: AtomicUsize,
        most: AtomicUsize,
    }

    impl ComputerPlayer for Counting {
        fn choose(&self, game: &Game, _level: u8, _think_ms: i64) -> Option<Move> {
            let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(n, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(30));
            self.now.fetch_sub(1, Ordering::SeqCst);
            game.legal_moves().first().cloned()
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_the_bound_search_at_once() {
        let counting = Arc::new(Counting::default());
        let queued = Arc::new(QueuedComputer::new(counting.clone(), 2));
        let mut tasks = Vec::new();
        for _ in 0..10 {
            let q = queued.clone();
            tasks.push(tokio::task::spawn_blocking(move || {
                q.choose(&Game::new(Variant::Classic2), 1, 1_000)
            }));
        }
        for t in tasks {
            assert!(t.await.expect("task").is_some());
        }
        assert_eq!(counting.most.load(Ordering::SeqCst), 2);
    }
}
