//! Telling a client that does not read its messages: its outgoing queue stays longer
//! than a limit for a set time.
//!
//! The connection's task notes the queue's length each time it wakes; messages reach
//! the queue through that task (answers, watched tables' events, lobby updates), so a
//! queue that grows is always seen. A timer runs only while the queue is over the
//! limit, so a connection that keeps up sets none.

use std::time::Duration;

use tokio::time::Instant;

/// What the queue's length says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Within the limit: nothing to watch.
    Fine,
    /// Over the limit since some time: look again at this instant, when the client
    /// counts as slow if the queue is still over the limit.
    LookAt(Instant),
    /// Over the limit for the whole allowed time: the client is slow.
    Slow,
}

/// How long a connection's queue has been over its limit.
#[derive(Debug)]
pub(super) struct Backlog {
    limit: usize,
    after: Duration,
    since: Option<Instant>,
}

impl Backlog {
    /// Counts a client slow once more than `limit` messages wait for `after`.
    pub(super) fn new(limit: usize, after: Duration) -> Self {
        Backlog {
            limit,
            after,
            since: None,
        }
    }

    /// Notes that `queued` messages wait now; the clock is read only when over the
    /// limit.
    pub(super) fn observe(&mut self, queued: usize) -> Verdict {
        self.observe_at(queued, Instant::now)
    }

    fn observe_at(&mut self, queued: usize, now: impl FnOnce() -> Instant) -> Verdict {
        if queued <= self.limit {
            self.since = None;
            return Verdict::Fine;
        }
        let now = now();
        let deadline = *self.since.get_or_insert(now) + self.after;
        if now >= deadline {
            Verdict::Slow
        } else {
            Verdict::LookAt(deadline)
        }
    }
}

/// Waits until `verdict`'s instant; forever when there is nothing to look at.
pub(super) async fn until(verdict: Verdict) {
    match verdict {
        Verdict::LookAt(at) => tokio::time::sleep_until(at).await,
        Verdict::Fine | Verdict::Slow => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_within_the_limit_never_reads_the_clock() {
        let mut b = Backlog::new(4, Duration::from_secs(1));
        for queued in 0..=4 {
            assert_eq!(
                b.observe_at(queued, || panic!("no clock needed")),
                Verdict::Fine
            );
        }
    }

    #[test]
    fn a_queue_over_the_limit_for_the_whole_time_is_slow() {
        let t0 = Instant::now();
        let mut b = Backlog::new(4, Duration::from_secs(10));
        assert_eq!(
            b.observe_at(5, || t0),
            Verdict::LookAt(t0 + Duration::from_secs(10))
        );
        assert_eq!(
            b.observe_at(9, || t0 + Duration::from_secs(3)),
            Verdict::LookAt(t0 + Duration::from_secs(10)),
            "the time counts from when the queue first went over"
        );
        assert_eq!(
            b.observe_at(5, || t0 + Duration::from_secs(10)),
            Verdict::Slow
        );
    }

    #[test]
    fn draining_below_the_limit_starts_the_time_over() {
        let t0 = Instant::now();
        let mut b = Backlog::new(4, Duration::from_secs(10));
        b.observe_at(5, || t0);
        assert_eq!(b.observe_at(4, || t0), Verdict::Fine);
        let t1 = t0 + Duration::from_secs(9);
        assert_eq!(
            b.observe_at(5, || t1),
            Verdict::LookAt(t1 + Duration::from_secs(10))
        );
    }

    #[tokio::test]
    async fn until_waits_for_the_instant_and_forever_otherwise() {
        let at = Instant::now() + Duration::from_millis(50);
        tokio::time::timeout(Duration::from_secs(5), until(Verdict::LookAt(at)))
            .await
            .expect("wakes at its instant");
        assert!(Instant::now() >= at);
        assert!(
            tokio::time::timeout(Duration::from_millis(100), until(Verdict::Fine))
                .await
                .is_err()
        );
    }
}
