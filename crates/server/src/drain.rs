//! A count of open connections that a stopping server waits to reach zero, so that
//! answers already on their way (a move's ack) leave before the database closes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

/// How many connections are open, with a wake-up when one closes.
#[derive(Debug, Default)]
pub struct OpenConnections {
    open: AtomicUsize,
    closed: Notify,
}

impl OpenConnections {
    /// One more connection is open.
    pub fn opened(&self) {
        self.open.fetch_add(1, Ordering::SeqCst);
    }

    /// One connection closed.
    pub fn closed(&self) {
        self.open.fetch_sub(1, Ordering::SeqCst);
        self.closed.notify_waiters();
    }

    /// How many are open now.
    pub fn count(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    /// Waits until every connection has closed, at most `limit`; returns how many are
    /// still open.
    pub async fn wait_all_closed(&self, limit: Duration) -> usize {
        let wait = async {
            loop {
                let notified = self.closed.notified();
                tokio::pin!(notified);
                notified.as_mut().enable();
                if self.count() == 0 {
                    return;
                }
                notified.await;
            }
        };
        let _ = tokio::time::timeout(limit, wait).await;
        self.count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn waits_for_the_last_connection() {
        let c = Arc::new(OpenConnections::default());
        c.opened();
        c.opened();
        let closer = c.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            closer.closed();
            tokio::time::sleep(Duration::from_millis(20)).await;
            closer.closed();
        });
        assert_eq!(c.wait_all_closed(Duration::from_secs(5)).await, 0);
    }

    #[tokio::test]
    async fn gives_up_after_the_limit() {
        let c = OpenConnections::default();
        c.opened();
        assert_eq!(c.wait_all_closed(Duration::from_millis(30)).await, 1);
    }
}
