//! Time as a dependency: the server reads the wall clock through [`TimeSource`], so
//! tests can drive clocks exactly with [`ManualTime`].

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::Notify;

/// Milliseconds since the Unix epoch, the one time unit of the server.
pub type Millis = i64;

/// A source of the current time.
pub trait TimeSource: Send + Sync + std::fmt::Debug {
    /// The current time in milliseconds since the Unix epoch.
    fn now_ms(&self) -> Millis;

    /// A notifier that fires whenever the time jumps (manual clocks only). Timers that
    /// wait on real time also wait on this, so an injected clock wakes them at once.
    fn jumps(&self) -> Option<Arc<Notify>> {
        None
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
    notify: Arc<Notify>,
}

impl ManualTime {
    /// A manual clock reading `start` milliseconds.
    pub fn new(start: Millis) -> Self {
        ManualTime {
            now: AtomicI64::new(start),
            notify: Arc::new(Notify::new()),
        }
    }

    /// Moves the clock forward by `ms` milliseconds and wakes every waiting timer.
    pub fn advance(&self, ms: Millis) {
        self.now.fetch_add(ms, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Sets the clock to `ms` and wakes every waiting timer.
    pub fn set(&self, ms: Millis) {
        self.now.store(ms, Ordering::SeqCst);
        self.notify.notify_waiters();
    }
}

impl TimeSource for ManualTime {
    fn now_ms(&self) -> Millis {
        self.now.load(Ordering::SeqCst)
    }

    fn jumps(&self) -> Option<Arc<Notify>> {
        Some(self.notify.clone())
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

    #[test]
    fn system_time_is_after_2020() {
        assert!(SystemTimeSource.now_ms() > 1_577_836_800_000);
    }
}
