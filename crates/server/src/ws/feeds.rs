//! The broadcasts a connection follows (its watched tables' events, the lobby's
//! updates), heard by the connection's own task: an event wakes that one task, which
//! queues it for the socket, instead of waking a forwarding task per followed table
//! that then wakes the connection's writer.

use std::hash::Hash;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::broadcast;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt, StreamMap};

/// What one followed broadcast gave.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Heard<T> {
    /// The next message.
    Item(T),
    /// Messages were missed (the follower fell behind the broadcast's buffer); the
    /// ones after them follow.
    Lagged,
    /// The broadcast ended (its sender is gone); nothing follows.
    Closed,
}

/// One receiver as a stream that reports its end once, as [`Heard::Closed`].
struct Feed<T> {
    inner: BroadcastStream<T>,
    ended: bool,
}

impl<T: Clone + Send + 'static> Stream for Feed<T> {
    type Item = Heard<T>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Heard<T>>> {
        if self.ended {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(item))) => Poll::Ready(Some(Heard::Item(item))),
            Poll::Ready(Some(Err(BroadcastStreamRecvError::Lagged(_)))) => {
                Poll::Ready(Some(Heard::Lagged))
            }
            Poll::Ready(None) => {
                self.ended = true;
                Poll::Ready(Some(Heard::Closed))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// Broadcast receivers by key (a table id, or `()` for the lobby), heard together.
/// Following a key again replaces its receiver, so whatever the replaced one would
/// still have said (its end included) is never heard.
pub(super) struct Feeds<K, T> {
    map: StreamMap<K, Feed<T>>,
}

impl<K, T> Feeds<K, T>
where
    K: Hash + Eq + Clone + Unpin,
    T: Clone + Send + 'static,
{
    /// No receivers.
    pub(super) fn new() -> Self {
        Feeds {
            map: StreamMap::new(),
        }
    }

    /// Follows `rx` under `key`, in place of any receiver it had.
    pub(super) fn follow(&mut self, key: K, rx: broadcast::Receiver<T>) {
        let feed = Feed {
            inner: BroadcastStream::new(rx),
            ended: false,
        };
        self.map.insert(key, feed);
    }

    /// Stops following `key`; true if it was followed.
    pub(super) fn forget(&mut self, key: &K) -> bool {
        self.map.remove(key).is_some()
    }

    /// Whether `key` is followed.
    #[cfg(test)]
    pub(super) fn follows(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }

    /// Stops following everything.
    pub(super) fn clear(&mut self) {
        self.map.clear();
    }

    /// The next message of any followed receiver, with its key; waits forever while
    /// nothing is followed. A receiver that reported [`Heard::Closed`] is forgotten.
    pub(super) async fn next(&mut self) -> (K, Heard<T>) {
        match self.map.next().await {
            Some((key, heard)) => {
                if matches!(heard, Heard::Closed) {
                    self.map.remove(&key);
                }
                (key, heard)
            }
            None => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    async fn next_soon(feeds: &mut Feeds<&'static str, u32>) -> Option<(&'static str, Heard<u32>)> {
        tokio::time::timeout(Duration::from_millis(50), feeds.next())
            .await
            .ok()
    }

    #[tokio::test]
    async fn messages_of_every_followed_receiver_are_heard_with_their_key() {
        let (a, rx_a) = broadcast::channel(8);
        let (b, rx_b) = broadcast::channel(8);
        let mut feeds = Feeds::new();
        feeds.follow("a", rx_a);
        feeds.follow("b", rx_b);
        a.send(1).unwrap();
        b.send(2).unwrap();
        let mut heard = vec![
            next_soon(&mut feeds).await.unwrap(),
            next_soon(&mut feeds).await.unwrap(),
        ];
        heard.sort_by_key(|(k, _)| *k);
        assert_eq!(heard, vec![("a", Heard::Item(1)), ("b", Heard::Item(2))]);
        assert_eq!(next_soon(&mut feeds).await, None, "nothing more");
    }

    #[tokio::test]
    async fn a_follower_that_fell_behind_hears_lagged_then_the_rest() {
        let (tx, rx) = broadcast::channel(2);
        let mut feeds = Feeds::new();
        feeds.follow("t", rx);
        for n in 0..5 {
            tx.send(n).unwrap();
        }
        assert_eq!(next_soon(&mut feeds).await, Some(("t", Heard::Lagged)));
        assert_eq!(next_soon(&mut feeds).await, Some(("t", Heard::Item(3))));
        assert_eq!(next_soon(&mut feeds).await, Some(("t", Heard::Item(4))));
    }

    #[tokio::test]
    async fn an_ended_broadcast_is_heard_closed_once_and_forgotten() {
        let (tx, rx) = broadcast::channel(2);
        let mut feeds = Feeds::new();
        feeds.follow("t", rx);
        tx.send(7).unwrap();
        drop(tx);
        assert_eq!(next_soon(&mut feeds).await, Some(("t", Heard::Item(7))));
        assert_eq!(next_soon(&mut feeds).await, Some(("t", Heard::Closed)));
        assert!(!feeds.follows(&"t"));
        assert_eq!(next_soon(&mut feeds).await, None);
    }

    #[tokio::test]
    async fn following_a_key_again_drops_the_old_receiver_and_its_end() {
        let (old, rx_old) = broadcast::channel(2);
        let (new, rx_new) = broadcast::channel(2);
        let mut feeds = Feeds::new();
        feeds.follow("t", rx_old);
        feeds.follow("t", rx_new);
        assert!(old.send(1).is_err(), "the replaced receiver is dropped");
        drop(old);
        assert_eq!(
            next_soon(&mut feeds).await,
            None,
            "and its end is not heard"
        );
        new.send(2).unwrap();
        assert_eq!(next_soon(&mut feeds).await, Some(("t", Heard::Item(2))));
        assert!(feeds.forget(&"t"));
        assert!(!feeds.forget(&"t"));
    }
}
