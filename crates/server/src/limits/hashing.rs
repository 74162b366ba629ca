//! A bound on concurrent password hashing. Every argon2 check needs 19 MiB and a core
//! for about a tenth of a second; unbounded, a burst of logins exhausts memory. The
//! gate runs at most `concurrency` hashes at once, each in one of `concurrency`
//! working buffers allocated once and reused, lets at most `queue` more wait (each at
//! most `wait`), and turns everyone beyond that away at once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::accounts::{new_hash_memory, HashMemory};

/// Why a hash was not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GateError {
    /// The queue is full, or the wait for a free slot ran out.
    #[error("the server is busy checking passwords")]
    Busy,
    /// The hashing thread failed.
    #[error("the password check failed")]
    Failed,
}

/// The password-hashing gate (see the module documentation).
#[derive(Debug)]
pub struct HashGate {
    slots: Arc<Semaphore>,
    buffers: Arc<Mutex<Vec<HashMemory>>>,
    waiting: AtomicUsize,
    queue: usize,
    wait: Duration,
}

/// Decrements the waiting count when a waiter leaves, however it leaves.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl HashGate {
    /// A gate running `concurrency` hashes at once (at least one), with `queue`
    /// waiting places, each waiting at most `wait`.
    pub fn new(concurrency: usize, queue: usize, wait: Duration) -> Self {
        let concurrency = concurrency.max(1);
        HashGate {
            slots: Arc::new(Semaphore::new(concurrency)),
            buffers: Arc::new(Mutex::new(Vec::with_capacity(concurrency))),
            waiting: AtomicUsize::new(0),
            queue,
            wait,
        }
    }

    /// Runs `work` with a working buffer on a blocking thread once a slot is free.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut HashMemory) -> T + Send + 'static,
    ) -> Result<T, GateError> {
        let permit = match self.slots.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.queue {
                    self.waiting.fetch_sub(1, Ordering::SeqCst);
                    return Err(GateError::Busy);
                }
                let _waiting = Waiting(&self.waiting);
                match tokio::time::timeout(self.wait, self.slots.clone().acquire_owned()).await {
                    Ok(Ok(p)) => p,
                    _ => return Err(GateError::Busy),
                }
            }
        };
        let buffers = self.buffers.clone();
        tokio::task::spawn_blocking(move || {
            let mut memory = buffers
                .lock()
                .expect("hash buffers lock")
                .pop()
                .unwrap_or_else(new_hash_memory);
            let out = work(&mut memory);
            buffers.lock().expect("hash buffers lock").push(memory);
            drop(permit);
            out
        })
        .await
        .map_err(|_| GateError::Failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runs_at_most_the_bound_and_turns_the_rest_away() {
        let gate = Arc::new(HashGate::new(2, 3, Duration::from_secs(5)));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..20 {
            let (gate, running, most) = (gate.clone(), running.clone(), most.clone());
            tasks.push(tokio::spawn(async move {
                gate.run(move |memory| {
                    assert!(!memory.is_empty());
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(300));
                    running.fetch_sub(1, Ordering::SeqCst);
                })
                .await
            }));
        }
        let mut ok = 0;
        let mut busy = 0;
        for t in tasks {
            match t.await.expect("task") {
                Ok(()) => ok += 1,
                Err(GateError::Busy) => busy += 1,
                Err(e) => panic!("{e}"),
            }
        }
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert!((2..=5).contains(&ok), "ran {ok}");
        assert_eq!(ok + busy, 20);
        assert!(
            gate.buffers.lock().expect("lock").len() <= 2,
            "buffers reused"
        );
    }

    #[tokio::test]
    async fn a_waiter_gives_up_after_the_wait() {
        let gate = Arc::new(HashGate::new(1, 4, Duration::from_millis(50)));
        let slow = {
            let gate = gate.clone();
            tokio::spawn(async move {
                gate.run(|_| std::thread::sleep(Duration::from_millis(400)))
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(gate.run(|_| ()).await, Err(GateError::Busy));
        assert_eq!(slow.await.expect("task"), Ok(()));
    }
}
