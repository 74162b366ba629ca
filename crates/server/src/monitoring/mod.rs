//! The server's metrics in Prometheus's text format (`GET /metrics`), through the
//! `metrics` crate's Prometheus recorder. Each server has its own recorder (not the
//! process-wide one), so several servers in one process (tests) count separately.
//!
//! | metric | kind | what it counts |
//! |---|---|---|
//! | `stella_connections` | gauge | open WebSocket connections |
//! | `stella_tables` | gauge | tables in the registry (open, live or just finished) |
//! | `stella_moves_total` | counter | moves acknowledged (moves/s is its rate) |
//! | `stella_move_ack_seconds` | histogram | from a move's arrival to its ack |
//! | `stella_commit_batch_moves` | histogram | moves per group-commit transaction |
//! | `stella_commit_seconds` | histogram | time to store one batch |
//! | `stella_commit_failures_total` | counter | batches the database refused |
//! | `stella_bus_lag_seconds` | histogram | from a bus message's publishing (the sender's clock) to its delivery here |
//! | `stella_bus_messages_total{direction="sent"\|"received"}` | counter | messages this node published on the bus / received from it |
//! | `stella_leases_held` | gauge | table leases this node holds |
//!
//! The last three are filled by the multi-node parts (`crate::cluster`); a single node
//! leaves them at zero.

use std::sync::Arc;
use std::time::Duration;

use metrics::{Counter, Gauge, Histogram, Key, Label, Metadata, Recorder, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// How often histogram samples are folded into their buckets when nobody scrapes.
const UPKEEP: Duration = Duration::from_secs(5);

/// Bucket bounds of the latency histograms, in seconds (0.25 ms to 5 s).
const LATENCY_BUCKETS: &[f64] = &[
    0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// Bucket bounds of the batch-size histogram, in moves.
const BATCH_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];

/// The labels of the bus message counter's two series.
const BUS_SENT: &[Label] = &[Label::from_static_parts("direction", "sent")];
const BUS_RECEIVED: &[Label] = &[Label::from_static_parts("direction", "received")];

/// The server's metrics (cheap to clone).
#[derive(Clone)]
pub struct Metrics(Arc<Inner>);

struct Inner {
    handle: PrometheusHandle,
    connections: Gauge,
    tables: Gauge,
    moves: Counter,
    move_ack: Histogram,
    commit_batch: Histogram,
    commit_latency: Histogram,
    commit_failures: Counter,
    bus_lag: Histogram,
    bus_sent: Counter,
    bus_received: Counter,
    leases_held: Gauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// A new set of metrics with its own recorder. Inside a tokio runtime, a task
    /// folds histogram samples every few seconds so that they never pile up between
    /// scrapes; it ends with the last clone.
    pub fn new() -> Metrics {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), LATENCY_BUCKETS)
            .and_then(|b| {
                b.set_buckets_for_metric(
                    Matcher::Full("stella_commit_batch_moves".into()),
                    BATCH_BUCKETS,
                )
            })
            .expect("bucket lists are not empty")
            .build_recorder();
        let meta = Metadata::new(module_path!(), metrics::Level::INFO, Some(module_path!()));
        let counter = |name: &'static str, unit: Unit, help: &'static str| {
            recorder.describe_counter(name.into(), Some(unit), help.into());
            recorder.register_counter(&Key::from_static_name(name), &meta)
        };
        let gauge = |name: &'static str, unit: Unit, help: &'static str| {
            recorder.describe_gauge(name.into(), Some(unit), help.into());
            recorder.register_gauge(&Key::from_static_name(name), &meta)
        };
        let histogram = |name: &'static str, unit: Unit, help: &'static str| {
            recorder.describe_histogram(name.into(), Some(unit), help.into());
            recorder.register_histogram(&Key::from_static_name(name), &meta)
        };
        recorder.describe_counter(
            "stella_bus_messages_total".into(),
            Some(Unit::Count),
            "Messages published on the bus (sent) or received from it".into(),
        );
        let inner = Inner {
            connections: gauge(
                "stella_connections",
                Unit::Count,
                "Open WebSocket connections",
            ),
            tables: gauge("stella_tables", Unit::Count, "Tables in the registry"),
            moves: counter("stella_moves_total", Unit::Count, "Moves acknowledged"),
            move_ack: histogram(
                "stella_move_ack_seconds",
                Unit::Seconds,
                "From a move's arrival to its acknowledgement",
            ),
            commit_batch: histogram(
                "stella_commit_batch_moves",
                Unit::Count,
                "Moves stored per group-commit transaction",
            ),
            commit_latency: histogram(
                "stella_commit_seconds",
                Unit::Seconds,
                "Time to store one batch of moves",
            ),
            commit_failures: counter(
                "stella_commit_failures_total",
                Unit::Count,
                "Batches of moves the database refused",
            ),
            bus_lag: histogram(
                "stella_bus_lag_seconds",
                Unit::Seconds,
                "From a bus message's publishing to its delivery",
            ),
            bus_sent: recorder.register_counter(
                &Key::from_static_parts("stella_bus_messages_total", BUS_SENT),
                &meta,
            ),
            bus_received: recorder.register_counter(
                &Key::from_static_parts("stella_bus_messages_total", BUS_RECEIVED),
                &meta,
            ),
            leases_held: gauge(
                "stella_leases_held",
                Unit::Count,
                "Table leases held by this node",
            ),
            handle: recorder.handle(),
        };
        let metrics = Metrics(Arc::new(inner));
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let weak = Arc::downgrade(&metrics.0);
            runtime.spawn(async move {
                let mut tick = tokio::time::interval(UPKEEP);
                loop {
                    tick.tick().await;
                    match weak.upgrade() {
                        Some(inner) => inner.handle.run_upkeep(),
                        None => return,
                    }
                }
            });
        }
        metrics
    }

    /// Everything in Prometheus's text exposition format, with `tables` as the
    /// current number of tables.
    pub fn render(&self, tables: usize) -> String {
        self.0.tables.set(tables as f64);
        self.0.handle.render()
    }

    /// A WebSocket connection opened.
    pub fn connection_opened(&self) {
        self.0.connections.increment(1.0);
    }

    /// A WebSocket connection closed.
    pub fn connection_closed(&self) {
        self.0.connections.decrement(1.0);
    }

    /// A move was acknowledged `elapsed` after it arrived.
    pub fn move_acked(&self, elapsed: Duration) {
        self.0.moves.increment(1);
        self.0.move_ack.record(elapsed.as_secs_f64());
    }

    /// A group-commit transaction of `moves` moves took `elapsed` and succeeded or not.
    pub fn commit(&self, moves: usize, elapsed: Duration, ok: bool) {
        self.0.commit_batch.record(moves as f64);
        self.0.commit_latency.record(elapsed.as_secs_f64());
        if !ok {
            self.0.commit_failures.increment(1);
        }
    }

    /// A message from the bus arrived `lag` after it was published.
    pub fn bus_message(&self, lag: Duration) {
        self.0.bus_received.increment(1);
        self.0.bus_lag.record(lag.as_secs_f64());
    }

    /// This node published a message on the bus.
    pub fn bus_published(&self) {
        self.0.bus_sent.increment(1);
    }

    /// This node now holds `leases` table leases.
    pub fn set_leases_held(&self, leases: usize) {
        self.0.leases_held.set(leases as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str, name: &str) -> Option<f64> {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
    }

    #[test]
    fn counts_render_in_prometheus_format() {
        let m = Metrics::new();
        m.connection_opened();
        m.connection_opened();
        m.connection_closed();
        m.move_acked(Duration::from_micros(700));
        m.move_acked(Duration::from_millis(30));
        m.commit(3, Duration::from_millis(2), true);
        m.commit(1, Duration::from_millis(1), false);
        m.set_leases_held(4);
        m.bus_published();
        m.bus_published();
        m.bus_message(Duration::from_micros(300));
        let text = m.render(7);
        assert_eq!(value(&text, "stella_connections"), Some(1.0));
        assert_eq!(value(&text, "stella_tables"), Some(7.0));
        assert_eq!(value(&text, "stella_moves_total"), Some(2.0));
        assert_eq!(value(&text, "stella_move_ack_seconds_count"), Some(2.0));
        assert_eq!(
            value(&text, "stella_move_ack_seconds_bucket{le=\"0.001\"}"),
            Some(1.0)
        );
        assert_eq!(value(&text, "stella_commit_batch_moves_sum"), Some(4.0));
        assert_eq!(value(&text, "stella_commit_failures_total"), Some(1.0));
        assert_eq!(value(&text, "stella_leases_held"), Some(4.0));
        assert_eq!(
            value(&text, "stella_bus_messages_total{direction=\"sent\"}"),
            Some(2.0)
        );
        assert_eq!(
            value(&text, "stella_bus_messages_total{direction=\"received\"}"),
            Some(1.0)
        );
        assert_eq!(
            value(&text, "stella_bus_lag_seconds_bucket{le=\"0.0005\"}"),
            Some(1.0)
        );
        assert!(text.contains("# HELP stella_move_ack_seconds"), "{text}");
    }

    #[test]
    fn two_servers_count_apart() {
        let a = Metrics::new();
        let b = Metrics::new();
        a.move_acked(Duration::from_millis(1));
        assert_eq!(value(&b.render(0), "stella_moves_total"), Some(0.0));
        assert_eq!(value(&a.render(0), "stella_moves_total"), Some(1.0));
    }
}
