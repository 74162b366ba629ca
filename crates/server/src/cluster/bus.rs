//! The message bus between nodes: Redis publish/subscribe.
//!
//! One connection publishes, one subscribes. Each subscribed channel feeds a local
//! broadcast that any number of tasks read. When Redis goes away the bus reports itself
//! unhealthy, publishing fails at once (callers answer `unavailable` rather than
//! pretend), and a background task reconnects and subscribes to every channel again.
//!
//! Every message travels stamped with its publishing time (the publisher's wall clock,
//! in microseconds): the receiving node counts it and records the delay from publishing
//! to delivery in its metrics (`stella_bus_messages_total`, `stella_bus_lag_seconds`;
//! between machines the delay includes their clocks' difference, which NTP keeps to
//! about a millisecond). Readers get the message as published, without its stamp.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use tokio::sync::{broadcast, mpsc, watch};

use crate::monitoring::Metrics;

/// Messages a subscriber may fall behind before it misses some.
const CHANNEL_CAPACITY: usize = 1024;
/// The pause before reconnecting to Redis.
const RECONNECT_MS: u64 = 250;
/// The longest a publish may take.
const PUBLISH_TIMEOUT: Duration = Duration::from_secs(2);
/// The first byte of a stamped message; eight bytes of publishing time follow.
const STAMPED: u8 = 1;
/// The length of the stamp before the message itself.
const STAMP_LEN: usize = 9;

/// Why the bus could not do something.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// The URL is not a Redis URL.
    #[error("bad bus URL: {0}")]
    Url(String),
    /// Redis is unreachable or failed.
    #[error("the message bus is unreachable: {0}")]
    Unreachable(String),
}

/// A connection to the bus (cheap to clone).
#[derive(Debug, Clone)]
pub struct Bus(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    client: redis::Client,
    publisher: tokio::sync::Mutex<Option<redis::aio::MultiplexedConnection>>,
    channels: Mutex<HashMap<String, broadcast::Sender<Vec<u8>>>>,
    subscribe: mpsc::UnboundedSender<Subscription>,
    healthy: AtomicBool,
    metrics: Metrics,
}

/// A change to the channels the subscribing connection listens to.
#[derive(Debug)]
enum Subscription {
    Add(String),
    Drop(String),
}

impl Bus {
    /// Connects to the Redis server at `url` (`redis://HOST:PORT`); fails when the URL
    /// is wrong or the server does not answer now. Counts its messages in `metrics`.
    /// Runs until `shutdown` turns true.
    pub async fn connect(
        url: &str,
        metrics: Metrics,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Bus, BusError> {
        let client = redis::Client::open(url).map_err(|e| BusError::Url(e.to_string()))?;
        let publisher = client
            .get_multiplexed_async_connection()
            .await
            .map_err(|e| BusError::Unreachable(e.to_string()))?;
        let (tx, rx) = mpsc::unbounded_channel();
        let bus = Bus(Arc::new(Inner {
            client,
            publisher: tokio::sync::Mutex::new(Some(publisher)),
            channels: Mutex::new(HashMap::new()),
            subscribe: tx,
            healthy: AtomicBool::new(true),
            metrics,
        }));
        tokio::spawn(bus.clone().subscriber(rx, shutdown));
        Ok(bus)
    }

    /// Whether the last exchange with Redis worked.
    pub fn healthy(&self) -> bool {
        self.0.healthy.load(Ordering::Relaxed)
    }

    /// Publishes `payload` on `channel`.
    pub async fn publish(&self, channel: &str, payload: &[u8]) -> Result<(), BusError> {
        // A clone of the multiplexed connection: publishes of different tasks share it
        // without waiting for each other's answers.
        let mut conn = self.command_connection().await?;
        let sent = tokio::time::timeout(
            PUBLISH_TIMEOUT,
            redis::cmd("PUBLISH")
                .arg(channel)
                .arg(stamp(payload, now_us()))
                .query_async::<i64>(&mut conn),
        )
        .await;
        let why = match sent {
            Ok(Ok(_)) => {
                if !is_probe(payload) {
                    self.0.metrics.bus_published();
                }
                return Ok(());
            }
            Ok(Err(e)) => e.to_string(),
            Err(_) => "publishing timed out".into(),
        };
        *self.0.publisher.lock().await = None;
        Err(self.failed(why))
    }

    /// Runs one Redis command (other than publish/subscribe) on the publishing
    /// connection, under the same timeout: the shared state of the nodes, such as the
    /// quick pairing queue and who is online, lives in Redis beside the bus.
    pub async fn command<T: redis::FromRedisValue>(&self, cmd: &redis::Cmd) -> Result<T, BusError> {
        let mut conn = self.command_connection().await?;
        let answer = tokio::time::timeout(PUBLISH_TIMEOUT, cmd.query_async::<T>(&mut conn)).await;
        self.command_answer(answer).await
    }

    /// Runs a pipeline of Redis commands, like [`Bus::command`].
    pub async fn pipeline(&self, pipe: &redis::Pipeline) -> Result<(), BusError> {
        let mut conn = self.command_connection().await?;
        let answer = tokio::time::timeout(PUBLISH_TIMEOUT, pipe.exec_async(&mut conn)).await;
        self.command_answer(answer).await
    }

    async fn command_connection(&self) -> Result<redis::aio::MultiplexedConnection, BusError> {
        let mut slot = self.0.publisher.lock().await;
        if slot.is_none() {
            let conn = tokio::time::timeout(
                PUBLISH_TIMEOUT,
                self.0.client.get_multiplexed_async_connection(),
            )
            .await
            .map_err(|_| self.failed("connecting timed out".into()))?
            .map_err(|e| self.failed(e.to_string()))?;
            *slot = Some(conn);
        }
        Ok(slot.as_ref().expect("just connected").clone())
    }

    async fn command_answer<T>(
        &self,
        answer: Result<redis::RedisResult<T>, tokio::time::error::Elapsed>,
    ) -> Result<T, BusError> {
        match answer {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) if e.is_io_error() || e.is_connection_dropped() => {
                *self.0.publisher.lock().await = None;
                Err(self.failed(e.to_string()))
            }
            // The server answered, with an error of the command itself.
            Ok(Err(e)) => Err(BusError::Unreachable(e.to_string())),
            Err(_) => {
                *self.0.publisher.lock().await = None;
                Err(self.failed("a command timed out".into()))
            }
        }
    }

    fn failed(&self, why: String) -> BusError {
        self.0.healthy.store(false, Ordering::Relaxed);
        BusError::Unreachable(why)
    }

    /// A receiver of every message published on `channel` from now on (once the
    /// subscription is in place at Redis; see [`Bus::subscribe_ready`]).
    pub fn subscribe(&self, channel: &str) -> broadcast::Receiver<Vec<u8>> {
        let mut channels = self.0.channels.lock().expect("bus lock");
        if let Some(tx) = channels.get(channel) {
            return tx.subscribe();
        }
        let (tx, rx) = broadcast::channel(CHANNEL_CAPACITY);
        channels.insert(channel.to_owned(), tx);
        let _ = self.0.subscribe.send(Subscription::Add(channel.to_owned()));
        rx
    }

    /// Subscribes to `channel` and waits until Redis confirmed the subscription (by a
    /// message the bus sends itself on the channel), so nothing published afterwards
    /// is missed.
    pub async fn subscribe_ready(
        &self,
        channel: &str,
    ) -> Result<broadcast::Receiver<Vec<u8>>, BusError> {
        let mut rx = self.subscribe(channel);
        let probe = format!("\u{0}probe:{}", crate::ids::random_id(12)).into_bytes();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            self.publish(channel, &probe).await?;
            let round = tokio::time::Instant::now() + Duration::from_millis(200);
            loop {
                match tokio::time::timeout_at(round, rx.recv()).await {
                    Ok(Ok(m)) if m == probe => return Ok(rx),
                    Ok(Ok(_)) | Ok(Err(broadcast::error::RecvError::Lagged(_))) => {}
                    Ok(Err(broadcast::error::RecvError::Closed)) => {
                        return Err(BusError::Unreachable("the bus stopped".into()))
                    }
                    Err(_) => break,
                }
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(self.failed("subscribing timed out".into()));
            }
        }
    }

    /// Stops listening to `channel` once nobody reads it.
    pub fn unsubscribe_if_unused(&self, channel: &str) {
        let mut channels = self.0.channels.lock().expect("bus lock");
        if channels
            .get(channel)
            .is_some_and(|tx| tx.receiver_count() == 0)
        {
            channels.remove(channel);
            let _ = self
                .0
                .subscribe
                .send(Subscription::Drop(channel.to_owned()));
        }
    }

    /// Keeps one subscribing connection up: subscribes to every channel wanted, delivers
    /// messages to their local broadcasts, reconnects after a failure.
    async fn subscriber(
        self,
        mut wanted: mpsc::UnboundedReceiver<Subscription>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        loop {
            if *shutdown.borrow() {
                return;
            }
            match self.0.client.get_async_pubsub().await {
                Ok(pubsub) => {
                    let (mut sink, mut stream) = pubsub.split();
                    let channels: Vec<String> = self
                        .0
                        .channels
                        .lock()
                        .expect("bus lock")
                        .keys()
                        .cloned()
                        .collect();
                    let mut ok = true;
                    for channel in channels {
                        if sink.subscribe(&channel).await.is_err() {
                            ok = false;
                            break;
                        }
                    }
                    if ok {
                        self.0.healthy.store(true, Ordering::Relaxed);
                        loop {
                            tokio::select! {
                                msg = stream.next() => match msg {
                                    Some(msg) => self.deliver(msg.get_channel_name(), msg.get_payload_bytes()),
                                    None => break,
                                },
                                change = wanted.recv() => {
                                    let done = match change {
                                        Some(Subscription::Add(channel)) => sink.subscribe(&channel).await,
                                        Some(Subscription::Drop(channel)) => sink.unsubscribe(&channel).await,
                                        None => return,
                                    };
                                    if done.is_err() {
                                        break;
                                    }
                                }
                                _ = shutdown.changed() => return,
                            }
                        }
                    }
                    self.0.healthy.store(false, Ordering::Relaxed);
                    tracing::warn!("lost the message bus; reconnecting");
                }
                Err(e) => {
                    self.0.healthy.store(false, Ordering::Relaxed);
                    tracing::debug!(error = %e, "message bus unreachable");
                }
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(RECONNECT_MS)) => {}
                _ = shutdown.changed() => return,
            }
        }
    }

    fn deliver(&self, channel: &str, message: &[u8]) {
        let (sent_us, payload) = unstamp(message);
        if let (Some(sent_us), false) = (sent_us, is_probe(payload)) {
            let lag = Duration::from_micros(now_us().saturating_sub(sent_us));
            self.0.metrics.bus_message(lag);
        }
        let channels = self.0.channels.lock().expect("bus lock");
        if let Some(tx) = channels.get(channel) {
            let _ = tx.send(payload.to_vec());
        }
    }
}

/// Microseconds since the Unix epoch by the wall clock.
fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// `payload` with its publishing time in front.
fn stamp(payload: &[u8], sent_us: u64) -> Vec<u8> {
    let mut message = Vec::with_capacity(STAMP_LEN + payload.len());
    message.push(STAMPED);
    message.extend_from_slice(&sent_us.to_be_bytes());
    message.extend_from_slice(payload);
    message
}

/// The publishing time and the payload of a message as it came off the bus; a message
/// without a stamp (published by something else than a node) is taken whole.
fn unstamp(message: &[u8]) -> (Option<u64>, &[u8]) {
    match message.split_first() {
        Some((&STAMPED, rest)) if rest.len() >= STAMP_LEN - 1 => {
            let (time, payload) = rest.split_at(STAMP_LEN - 1);
            let time = u64::from_be_bytes(time.try_into().expect("eight bytes"));
            (Some(time), payload)
        }
        _ => (None, message),
    }
}

/// Whether a bus message is one of the bus's own subscription probes.
pub fn is_probe(payload: &[u8]) -> bool {
    payload.first() == Some(&0)
}

/// What a subscriber reads next from a bus channel, probes left out.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// A message as published.
    Message(Vec<u8>),
    /// The subscriber fell behind the channel's buffer and missed this many messages.
    Missed(u64),
}

/// The next message or gap on `rx`, passing over the bus's subscription probes;
/// `None` once the channel is closed. Cancel-safe: a message is only taken off `rx`
/// when it is returned or is a probe.
pub async fn receive(rx: &mut broadcast::Receiver<Vec<u8>>) -> Option<Received> {
    loop {
        match rx.recv().await {
            Ok(payload) if is_probe(&payload) => continue,
            Ok(payload) => return Some(Received::Message(payload)),
            Err(broadcast::error::RecvError::Lagged(n)) => return Some(Received::Missed(n)),
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

/// The next message on `rx` read as the JSON of a `T`, passing over probes and
/// logging (where `what` names the messages) those missed when the reader fell behind
/// and those that do not read as a `T`; `None` once the channel is closed. Cancel-safe
/// like [`receive`].
pub async fn next_message<T: DeserializeOwned>(
    rx: &mut broadcast::Receiver<Vec<u8>>,
    what: &str,
) -> Option<T> {
    loop {
        match receive(rx).await? {
            Received::Message(payload) => match serde_json::from_slice(&payload) {
                Ok(message) => return Some(message),
                Err(e) => tracing::warn!(error = %e, "an unreadable message among {what}"),
            },
            Received::Missed(n) => tracing::warn!(missed = n, "{what} fell behind"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_comes_off_whole() {
        let message = stamp(b"{\"w\":1}", 1_700_000_000_123_456);
        assert_eq!(message.len(), STAMP_LEN + 7);
        assert_eq!(
            unstamp(&message),
            (Some(1_700_000_000_123_456), &b"{\"w\":1}"[..])
        );
        let probe = stamp(b"\0probe:x", 5);
        let (_, payload) = unstamp(&probe);
        assert!(is_probe(payload));
        assert_eq!(unstamp(&stamp(b"", 7)), (Some(7), &b""[..]));
    }

    #[test]
    fn a_message_without_a_stamp_is_taken_whole() {
        assert_eq!(unstamp(b"{}"), (None, &b"{}"[..]));
        assert_eq!(unstamp(b""), (None, &b""[..]));
        // Too short to hold a time.
        assert_eq!(unstamp(&[STAMPED, 1, 2]), (None, &[STAMPED, 1, 2][..]));
    }

    #[tokio::test]
    async fn a_reader_passes_over_probes_and_learns_of_gaps() {
        let (tx, mut rx) = broadcast::channel(2);
        tx.send(b"\0probe:a".to_vec()).unwrap();
        tx.send(b"one".to_vec()).unwrap();
        assert_eq!(
            receive(&mut rx).await,
            Some(Received::Message(b"one".to_vec()))
        );
        for m in [b"two", b"tri", b"for"] {
            tx.send(m.to_vec()).unwrap();
        }
        assert_eq!(receive(&mut rx).await, Some(Received::Missed(1)));
        assert_eq!(
            receive(&mut rx).await,
            Some(Received::Message(b"tri".to_vec()))
        );
        drop(tx);
        assert_eq!(
            receive(&mut rx).await,
            Some(Received::Message(b"for".to_vec()))
        );
        assert_eq!(receive(&mut rx).await, None);
    }

    #[tokio::test]
    async fn a_reader_of_messages_passes_over_probes_gaps_and_unreadable_ones() {
        // Room for four messages.
        let (tx, mut rx) = broadcast::channel(4);
        async fn next(rx: &mut broadcast::Receiver<Vec<u8>>) -> Option<Vec<u32>> {
            next_message(rx, "test messages").await
        }
        tx.send(b"\0probe:a".to_vec()).unwrap();
        tx.send(b"[1]".to_vec()).unwrap();
        assert_eq!(next(&mut rx).await, Some(vec![1]));
        tx.send(b"not json".to_vec()).unwrap();
        tx.send(b"{\"a\":1}".to_vec()).unwrap();
        tx.send(b"[2, 3]".to_vec()).unwrap();
        assert_eq!(next(&mut rx).await, Some(vec![2, 3]));
        for m in [&b"[4]"[..], b"\0probe:b", b"[5]", b"[6]", b"[7]"] {
            tx.send(m.to_vec()).unwrap();
        }
        // [4] fell out of the buffer: the gap is passed over, the next message comes.
        assert_eq!(next(&mut rx).await, Some(vec![5]));
        drop(tx);
        assert_eq!(next(&mut rx).await, Some(vec![6]));
        assert_eq!(next(&mut rx).await, Some(vec![7]));
        assert_eq!(next(&mut rx).await, None);
    }
}
