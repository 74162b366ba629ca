//! A search clock that reads the CPU time of the thread that searches.
//!
//! With it a level's time cap is a cap on its work as the machine does it,
//! not on the wall clock: on a busy machine, where other processes take
//! turns on the cores, a level gets the same CPU time for its cap as on a
//! quiet one. `stella-lab match --cpu-clock` plays levels by it, so that a
//! capped level can be matched fairly against an external engine whose own
//! clock counts CPU time too.

use rustix::time::{clock_gettime, ClockId};
use stella_ai::Clock;

/// Milliseconds of CPU time used by the calling thread
/// (`CLOCK_THREAD_CPUTIME_ID`, nanosecond resolution).
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadCpuClock;

impl Clock for ThreadCpuClock {
    fn now_ms(&self) -> f64 {
        let t = clock_gettime(ClockId::ThreadCPUTime);
        t.tv_sec as f64 * 1_000.0 + t.tv_nsec as f64 / 1_000_000.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Burns CPU until `ms` of wall time have passed.
    fn spin(ms: u64) -> u64 {
        let end = Instant::now() + Duration::from_millis(ms);
        let mut x = 1u64;
        while Instant::now() < end {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
        x
    }

    #[test]
    fn it_advances_with_work_and_stands_still_in_sleep() {
        let clock = ThreadCpuClock;
        let t0 = clock.now_ms();
        std::thread::sleep(Duration::from_millis(200));
        let slept = clock.now_ms() - t0;
        // Waking up costs the thread a little CPU time, never 200 ms.
        assert!(slept < 50.0, "{slept} ms of CPU while asleep");
        let t1 = clock.now_ms();
        spin(60);
        let worked = clock.now_ms() - t1;
        // 60 ms of spinning is at most 60 ms of CPU, and at least some.
        assert!(worked > 0.0 && worked <= 61.0, "{worked} ms");
    }
}
