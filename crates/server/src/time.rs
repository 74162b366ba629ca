//! Time as a dependency: the server reads the wall clock through [`TimeSource`], so
//! tests can drive clocks exactly with [`ManualTime`].

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// Milliseconds since the Unix epoch, the one time unit of the server.
pub type Millis = i64;

/// A source of the current time.
pub trait TimeSource: Send + Sync + std::fmt::Debug {
    /// The current time in milliseconds since the Unix epoch.
    fn now_ms(&self) -> Millis;

    /// A listener for jumps of the time (manual clocks only). Timers that wait on real
    /// time also wait on this, so an injected clock wakes them at once.
    fn jumps(&self) -> Option<Jumps> {
        None
    }
}

/// Hears every jump of a manual clock. A jump made while its owner was busy elsewhere
/// is kept and reported at the next wait, so no jump is ever missed.
#[derive(Debug, Clone)]
pub struct Jumps(watch::Receiver<u64>);

impl Jumps {
    /// Waits for a jump not yet reported to this listener.
    pub async fn next(&mut self) {
        if self.0.changed().await.is_err() {
            // The clock is gone, so it will never jump again.
            std::future::pending::<()>().await;
        }
    }
}

/// Waits for the next jump when there is a listener, forever otherwise.
pub async fn next_jump(jumps: &mut Option<Jumps>) {
    match jumps {
        Some(j) => j.next().await,
        None => std::future::pending().await,
    }
}

/// The system wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemTimeSource;

impl TimeSource for SystemTimeSource {
    fn now_ms(&self) -> Millis {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as Millis)
            .unwrap_or(0)
    }
}

/// A clock that moves only when told to: for exact tests of clocks and flags.
#[derive(Debug)]
pub struct ManualTime {
    now: AtomicI64,
    jumps: watch::Sender<u64>,
}

impl ManualTime {
    /// A manual clock reading `start` milliseconds.
    pub fn new(start: Millis) -> Self {
        ManualTime {
            now: AtomicI64::new(start),
            jumps: watch::Sender::new(0),
        }
    }

    /// Moves the clock forward by `ms` milliseconds and wakes every waiting timer.
    pub fn advance(&self, ms: Millis) {
        self.now.fetch_add(ms, Ordering::SeqCst);
        self.jumps.send_modify(|n| *n += 1);
    }

    /// Sets the clock to `ms` and wakes every waiting timer.
    pub fn set(&self, ms: Millis) {
        self.now.store(ms, Ordering::SeqCst);
        self.jumps.send_modify(|n| *n += 1);
    }
}

impl TimeSource for ManualTime {
    fn now_ms(&self) -> Millis {
        self.now.load(Ordering::SeqCst)
    }

    fn jumps(&self) -> Option<Jumps> {
        Some(Jumps(self.jumps.subscribe()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_time_moves_only_when_told() {
        let t = ManualTime::new(1_000);
        assert_eq!(t.now_ms(), 1_000);
        t.advance(250);
        assert_eq!(t.now_ms(), 1_250);
        t.set(5);
        assert_eq!(t.now_ms(), 5);
    }

    #[tokio::test]
    async fn a_jump_made_while_nobody_waits_is_reported_later() {
        let t = ManualTime::new(0);
        let mut jumps = t.jumps();
        t.advance(1);
        tokio::time::timeout(std::time::Duration::from_secs(5), next_jump(&mut jumps))
            .await
            .expect("the earlier jump is reported");
        let waited =
            tokio::time::timeout(std::time::Duration::from_millis(50), next_jump(&mut jumps)).await;
        assert!(waited.is_err(), "a jump is reported once");
    }

    #[test]
    fn system_time_is_after_2020() {
        assert!(SystemTimeSource.now_ms() > 1_577_836_800_000);
    }
}
