//! The one way to stop a search: a clock that also carries a stop flag.
//! Every search reads the time from an injected [`Clock`] and asks
//! [`Clock::past`] whether to end early; wrapped in a [`StopClock`], that
//! answer turns true as soon as another thread raises the flag (the engine
//! protocol's `stop`), whatever the deadline, even for a search without one
//! (`go depth N`) or one started after the flag was raised. The time it
//! reads is the inner clock's, so reported times stay true.

use crate::clock::Clock;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// `inner`'s time, stopped once `stop` is raised.
pub struct StopClock<'a> {
    inner: &'a dyn Clock,
    stop: &'a AtomicBool,
    stopped: Cell<bool>,
}

impl<'a> StopClock<'a> {
    /// A clock reading `inner`, stopped once `stop` is raised.
    pub fn new(inner: &'a dyn Clock, stop: &'a AtomicBool) -> StopClock<'a> {
        StopClock {
            inner,
            stop,
            stopped: Cell::new(false),
        }
    }
}

impl Clock for StopClock<'_> {
    fn now_ms(&self) -> f64 {
        self.inner.now_ms()
    }

    /// Whether the stop flag has been seen raised (latched: a search once
    /// stopped stays stopped).
    fn stopped(&self) -> bool {
        if !self.stopped.get() && self.stop.load(Ordering::Relaxed) {
            self.stopped.set(true);
        }
        self.stopped.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::StepClock;

    #[test]
    fn a_stop_passes_every_deadline_and_is_latched() {
        let inner = StepClock::new(1.0);
        let flag = AtomicBool::new(false);
        let clock = StopClock::new(&inner, &flag);
        let deadline = clock.now_ms() + 5_000.0;
        assert!(!clock.past(deadline));
        assert!(!clock.past(f64::INFINITY));
        flag.store(true, Ordering::Relaxed);
        assert!(clock.past(deadline));
        flag.store(false, Ordering::Relaxed);
        assert!(clock.past(f64::INFINITY), "the stop is latched");
        assert!(clock.now_ms() < 10.0, "the time read is the inner clock's");
    }
}
