//! Time sources for the search. The search never reads the system time itself:
//! it asks an injected [`Clock`], so it runs the same natively, in the browser
//! (`performance.now()`), and in tests (a clock that advances by hand).

use std::cell::Cell;

/// A monotonic time source in milliseconds (any origin).
pub trait Clock {
    /// The current time in milliseconds since an arbitrary fixed origin.
    fn now_ms(&self) -> f64;

    /// Whether the search reading this clock has been told to stop (see
    /// [`crate::stop_clock::StopClock`]); a plain clock never stops.
    fn stopped(&self) -> bool {
        false
    }

    /// Whether a search with this `deadline_ms` must end now: it has been
    /// told to stop, or the time is past its deadline. Every search asks
    /// this, and only this, to know when to end early.
    fn past(&self, deadline_ms: f64) -> bool {
        self.stopped() || self.now_ms() > deadline_ms
    }
}

/// The native clock, backed by `std::time::Instant` (not on wasm).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug)]
pub struct SystemClock {
    origin: std::time::Instant,
}

#[cfg(not(target_arch = "wasm32"))]
impl SystemClock {
    /// A clock whose origin is now.
    pub fn new() -> SystemClock {
        SystemClock {
            origin: std::time::Instant::now(),
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now_ms(&self) -> f64 {
        self.origin.elapsed().as_secs_f64() * 1000.0
    }
}

/// A clock for tests and deterministic runs: every reading advances it by a
/// fixed step, so "time" is a function of the work done.
#[derive(Debug, Default)]
pub struct StepClock {
    now: Cell<f64>,
    step: f64,
}

impl StepClock {
    /// A clock starting at 0 that advances `step_ms` on every reading.
    pub fn new(step_ms: f64) -> StepClock {
        StepClock {
            now: Cell::new(0.0),
            step: step_ms,
        }
    }
}

impl Clock for StepClock {
    fn now_ms(&self) -> f64 {
        let t = self.now.get();
        self.now.set(t + self.step);
        t
    }
}

/// A clock that never advances: with it only depth and node limits stop a search.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrozenClock;

impl Clock for FrozenClock {
    fn now_ms(&self) -> f64 {
        0.0
    }
}
