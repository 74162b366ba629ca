//! Per-account login throttling, independent of the address: after `free` failed
//! logins in a row for one username, each further attempt must wait a delay that
//! doubles with every failure (1 s, 2 s, 4 s, … up to `max_delay`). Attempts during the
//! delay are refused without checking the password, so a distributed guesser gets a
//! handful of guesses per account per hour at most. Every attempt is counted as a
//! failure when it starts (so parallel attempts cannot all pass one check); a
//! successful login clears the count; a quiet day forgets it.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::time::Millis;

/// Failures are forgotten after this long without another.
const FORGET_AFTER_MS: Millis = 24 * 3600 * 1000;

/// Entries kept at most; beyond it the oldest half is dropped.
const MAX_ENTRIES: usize = 100_000;

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: Millis,
    until: Millis,
}

/// The per-account login throttle.
#[derive(Debug)]
pub struct LoginThrottle {
    free: u32,
    max_delay_ms: Millis,
    accounts: Mutex<HashMap<String, Failures>>,
}

fn key(username: &str) -> String {
    username.trim().to_lowercase()
}

impl LoginThrottle {
    /// A throttle allowing `free` failures before delays start, the delay doubling
    /// from one second up to `max_delay_ms`.
    pub fn new(free: u32, max_delay_ms: Millis) -> Self {
        LoginThrottle {
            free,
            max_delay_ms: max_delay_ms.max(1_000),
            accounts: Mutex::new(HashMap::new()),
        }
    }

    /// None when `username` may try now, else the milliseconds left to wait.
    pub fn wait_ms(&self, username: &str, now: Millis) -> Option<Millis> {
        let accounts = self.accounts.lock().expect("throttle lock");
        let f = accounts.get(&key(username))?;
        (f.until > now).then(|| f.until - now)
    }

    /// Starts a login attempt for `username`: Err with the milliseconds left to wait
    /// while the account is throttled, else Ok, the attempt counted as a failure
    /// until [`LoginThrottle::succeeded`] clears it.
    pub fn attempt(&self, username: &str, now: Millis) -> Result<(), Millis> {
        if let Some(ms) = self.wait_ms(username, now) {
            return Err(ms);
        }
        self.failed(username, now);
        Ok(())
    }

    /// Records a failed login for `username`.
    pub fn failed(&self, username: &str, now: Millis) {
        let mut accounts = self.accounts.lock().expect("throttle lock");
        if accounts.len() >= MAX_ENTRIES {
            accounts.retain(|_, f| now - f.last < FORGET_AFTER_MS);
            if accounts.len() >= MAX_ENTRIES {
                let mut lasts: Vec<Millis> = accounts.values().map(|f| f.last).collect();
                lasts.sort_unstable();
                let cut = lasts[lasts.len() / 2];
                accounts.retain(|_, f| f.last > cut);
            }
        }
        let f = accounts.entry(key(username)).or_insert(Failures {
            count: 0,
            last: now,
            until: now,
        });
        if now - f.last >= FORGET_AFTER_MS {
            f.count = 0;
        }
        f.count += 1;
        f.last = now;
        if f.count > self.free {
            let doublings = (f.count - self.free - 1).min(30);
            let delay = (1_000i64 << doublings).min(self.max_delay_ms);
            f.until = now + delay;
        }
    }

    /// Clears `username`'s failures after a successful login.
    pub fn succeeded(&self, username: &str) {
        self.accounts
            .lock()
            .expect("throttle lock")
            .remove(&key(username));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_after_the_free_failures() {
        let t = LoginThrottle::new(3, 10_000);
        for _ in 0..3 {
            assert_eq!(t.wait_ms("Ann", 0), None);
            t.failed("Ann", 0);
        }
        assert_eq!(t.wait_ms("ann", 0), None, "three free failures");
        t.failed("ann", 0);
        assert_eq!(t.wait_ms("ANN", 0), Some(1_000));
        t.failed("ann", 1_000);
        assert_eq!(t.wait_ms("ann", 1_000), Some(2_000));
        t.failed("ann", 3_000);
        t.failed("ann", 7_000);
        t.failed("ann", 15_000);
        assert_eq!(t.wait_ms("ann", 15_000), Some(10_000), "capped");
        assert_eq!(t.wait_ms("bob", 15_000), None, "per account");
        t.succeeded("ann");
        assert_eq!(t.wait_ms("ann", 15_000), None);
    }

    #[test]
    fn attempts_count_when_they_start() {
        let t = LoginThrottle::new(2, 60_000);
        assert_eq!(t.attempt("ann", 0), Ok(()));
        assert_eq!(t.attempt("ann", 0), Ok(()));
        assert_eq!(t.attempt("ann", 0), Ok(()));
        assert_eq!(t.attempt("ann", 0), Err(1_000));
        assert_eq!(t.attempt("ann", 1_000), Ok(()));
        t.succeeded("ann");
        assert_eq!(t.attempt("ann", 1_000), Ok(()));
    }

    #[test]
    fn failures_are_forgotten_after_a_quiet_day() {
        let t = LoginThrottle::new(1, 60_000);
        t.failed("ann", 0);
        t.failed("ann", 0);
        assert!(t.wait_ms("ann", 0).is_some());
        t.failed("ann", FORGET_AFTER_MS);
        assert_eq!(t.wait_ms("ann", FORGET_AFTER_MS), None);
    }
}
