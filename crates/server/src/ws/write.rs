//! Writing a connection's queued messages to its socket.

use axum::extract::ws::Message;
use futures_util::{Sink, SinkExt};
use tokio::sync::mpsc;

use super::ServerMsg;

/// Most queued messages written to the socket before one flush.
pub(super) const WRITE_BATCH: usize = 32;

/// Writes `first` and whatever else is already queued (up to [`WRITE_BATCH`]
/// messages), then flushes once: one write to the socket for a burst of messages
/// (a move's event and its ack) instead of one per message.
pub(super) async fn write_queued<S>(
    sink: &mut S,
    first: ServerMsg,
    queue: &mut mpsc::Receiver<ServerMsg>,
) -> Result<(), S::Error>
where
    S: Sink<Message> + Unpin,
{
    sink.feed(text_frame(&first)).await?;
    for _ in 1..WRITE_BATCH {
        match queue.try_recv() {
            Ok(msg) => sink.feed(text_frame(&msg)).await?,
            Err(_) => break,
        }
    }
    sink.flush().await
}

/// A server message as one WebSocket text frame.
fn text_frame(msg: &ServerMsg) -> Message {
    let text = serde_json::to_string(msg).expect("server messages serialize");
    Message::Text(text.into())
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use super::*;

    /// A sink that records the frames it is given and counts flushes.
    #[derive(Default)]
    struct Recorder {
        frames: Vec<String>,
        flushes: usize,
    }

    impl Sink<Message> for Recorder {
        type Error = Infallible;

        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }

        fn start_send(mut self: Pin<&mut Self>, item: Message) -> Result<(), Infallible> {
            if let Message::Text(t) = item {
                self.frames.push(t.to_string());
            }
            Ok(())
        }

        fn poll_flush(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Result<(), Infallible>> {
            self.flushes += 1;
            Poll::Ready(Ok(()))
        }

        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn queued_messages_go_out_in_order_with_one_flush() {
        let (tx, mut rx) = mpsc::channel(64);
        for n in 2..=4 {
            tx.send(ServerMsg::Pong { n }).await.unwrap();
        }
        let mut sink = Recorder::default();
        write_queued(&mut sink, ServerMsg::Pong { n: 1 }, &mut rx)
            .await
            .unwrap();
        let expected: Vec<String> = (1..=4)
            .map(|n| format!(r#"{{"t":"pong","d":{{"n":{n}}}}}"#))
            .collect();
        assert_eq!(sink.frames, expected);
        assert_eq!(sink.flushes, 1);
        assert!(rx.try_recv().is_err(), "the queue is drained");
    }

    #[tokio::test]
    async fn a_long_queue_is_written_in_batches() {
        let (tx, mut rx) = mpsc::channel(128);
        for n in 0..(WRITE_BATCH as u64 + 5) {
            tx.send(ServerMsg::Pong { n }).await.unwrap();
        }
        let mut sink = Recorder::default();
        let first = rx.recv().await.unwrap();
        write_queued(&mut sink, first, &mut rx).await.unwrap();
        assert_eq!(sink.frames.len(), WRITE_BATCH);
        assert_eq!(sink.flushes, 1);
        let first = rx.recv().await.unwrap();
        write_queued(&mut sink, first, &mut rx).await.unwrap();
        assert_eq!(sink.frames.len(), WRITE_BATCH + 5);
        assert_eq!(sink.flushes, 2);
    }
}
