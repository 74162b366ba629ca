//! A token bucket, for per-connection message rate limits.

use crate::time::Millis;

/// A token bucket: `burst` tokens, refilled at `per_second`.
#[derive(Debug, Clone)]
pub struct TokenBucket {
    tokens: f64,
    burst: f64,
    per_ms: f64,
    last: Millis,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(burst: u32, per_second: u32, now: Millis) -> Self {
        TokenBucket {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            per_ms: f64::from(per_second) / 1000.0,
            last: now,
        }
    }

    /// A full bucket refilled at `per_minute`.
    pub fn new_per_minute(burst: u32, per_minute: u32, now: Millis) -> Self {
        TokenBucket {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            per_ms: f64::from(per_minute) / 60_000.0,
            last: now,
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self, now: Millis) -> bool {
        let elapsed = (now - self.last).max(0) as f64;
        self.tokens = (self.tokens + elapsed * self.per_ms).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_limits_and_refills() {
        let mut b = TokenBucket::new(3, 10, 0);
        assert!(b.take(0) && b.take(0) && b.take(0));
        assert!(!b.take(0));
        assert!(b.take(100));
        assert!(!b.take(100));
    }
}
