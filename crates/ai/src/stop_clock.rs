//! A clock that a `stop` command pushes past every deadline: searches that
//! only read a [`Clock`] (the tree search and the race solver) then end at
//! their next look at the time, as the alpha-beta search ends on its stop
//! flag. Once the flag is raised every reading jumps far past the one before,
//! so a deadline set before the `stop` or after it (a search that starts
//! stopped) is past at the next reading, and stays past.

use crate::clock::Clock;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// How far each reading of a stopped clock jumps past the one before (about
/// 30 000 years in milliseconds): beyond any deadline a search sets.
const JUMP_MS: f64 = 1e15;

/// `inner`'s time until `stop` is raised; then each reading [`JUMP_MS`]
/// past the one before.
pub struct StopClock<'a> {
    inner: &'a dyn Clock,
    stop: &'a AtomicBool,
    stopped: Cell<bool>,
    last: Cell<f64>,
}

impl<'a> StopClock<'a> {
    /// A clock reading `inner` until `stop` is raised.
    pub fn new(inner: &'a dyn Clock, stop: &'a AtomicBool) -> StopClock<'a> {
        StopClock {
            inner,
            stop,
            stopped: Cell::new(false),
            last: Cell::new(f64::NEG_INFINITY),
        }
    }

    /// Whether the stop flag has been seen raised.
    pub fn stopped(&self) -> bool {
        if !self.stopped.get() && self.stop.load(Ordering::Relaxed) {
            self.stopped.set(true);
        }
        self.stopped.get()
    }
}

impl Clock for StopClock<'_> {
    fn now_ms(&self) -> f64 {
        let t = self.inner.now_ms().max(self.last.get());
        let reading = if self.stopped() { t + JUMP_MS } else { t };
        self.last.set(reading);
        reading
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::StepClock;

    #[test]
    fn a_stop_passes_every_deadline_at_the_next_reading() {
        let inner = StepClock::new(1.0);
        let flag = AtomicBool::new(false);
        let clock = StopClock::new(&inner, &flag);
        let deadline = clock.now_ms() + 5_000.0;
        assert!(clock.now_ms() < deadline);
        assert!(!clock.stopped());
        flag.store(true, Ordering::Relaxed);
        assert!(clock.now_ms() > deadline);
        flag.store(false, Ordering::Relaxed);
        assert!(clock.now_ms() > deadline, "the jump is latched");
        assert!(clock.stopped());
        let after = clock.now_ms() + 5_000.0;
        assert!(clock.now_ms() > after, "a deadline set after the stop");
    }
}
