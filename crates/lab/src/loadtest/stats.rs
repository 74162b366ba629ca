//! Counters shared by every simulated player, and the final report.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Live counters of a load run.
#[derive(Debug)]
pub struct Stats {
    /// Clients with an open WebSocket now.
    pub connected: AtomicU64,
    /// Clients that logged in and connected at least once.
    pub ever_connected: AtomicU64,
    /// Games whose `started` event the creator saw.
    pub games_started: AtomicU64,
    /// Games whose `ended` event the creator saw.
    pub games_finished: AtomicU64,
    /// Moves acknowledged by the server.
    pub moves: AtomicU64,
    /// Successful reconnections after a lost connection.
    pub reconnects: AtomicU64,
    /// Games resigned at the ply cap (`--max-plies`).
    pub resigned: AtomicU64,
    /// Move round trips (send to ack), in microseconds.
    latency: Mutex<Histogram<u64>>,
    errors: Mutex<BTreeMap<String, u64>>,
    games: Mutex<Vec<GameLog>>,
}

/// What one client saw of one game (for `--report-json`: the kill/restart test checks
/// every acknowledged move against the server's replay).
#[derive(Debug, Clone, Default, Serialize)]
pub struct GameLog {
    /// Table id.
    pub table: String,
    /// The client's colour.
    pub colour: String,
    /// `(ply, path)` of every move of this client the server acknowledged.
    pub acked: Vec<(u64, String)>,
    /// Connections lost while at this table.
    pub disconnects: u64,
    /// Plies the game had when this client first resynced after a lost connection.
    pub ply_at_resync: Option<u64>,
    /// Plies the game had when the client left it.
    pub last_ply: u64,
    /// Whether the client saw the game end.
    pub ended: bool,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            connected: AtomicU64::new(0),
            ever_connected: AtomicU64::new(0),
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            moves: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            resigned: AtomicU64::new(0),
            latency: Mutex::new(
                Histogram::new_with_bounds(1, 120_000_000, 3).expect("valid histogram bounds"),
            ),
            errors: Mutex::new(BTreeMap::new()),
            games: Mutex::new(Vec::new()),
        }
    }
}

impl Stats {
    /// Counts one error of `kind`.
    pub fn error(&self, kind: impl Into<String>) {
        *self
            .errors
            .lock()
            .expect("errors lock")
            .entry(kind.into())
            .or_default() += 1;
    }

    /// Records an acknowledged move and its round trip.
    pub fn acked(&self, round_trip: Duration) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        let us = (round_trip.as_micros() as u64).clamp(1, 120_000_000);
        self.latency
            .lock()
            .expect("latency lock")
            .saturating_record(us);
    }

    /// Keeps one client's log of a game.
    pub fn game_log(&self, log: GameLog) {
        self.games.lock().expect("games lock").push(log);
    }

    /// Errors counted so far.
    pub fn error_total(&self) -> u64 {
        self.errors.lock().expect("errors lock").values().sum()
    }

    /// The latency quantile `q` in milliseconds.
    pub fn latency_ms(&self, q: f64) -> f64 {
        let h = self.latency.lock().expect("latency lock");
        if h.is_empty() {
            0.0
        } else {
            h.value_at_quantile(q) as f64 / 1000.0
        }
    }

    /// The counters of several parts (the nodes of a run) added up.
    pub fn merged<'a>(parts: impl IntoIterator<Item = &'a Stats>) -> Stats {
        let total = Stats::default();
        for part in parts {
            for (sum, n) in [
                (&total.connected, &part.connected),
                (&total.ever_connected, &part.ever_connected),
                (&total.games_started, &part.games_started),
                (&total.games_finished, &part.games_finished),
                (&total.moves, &part.moves),
                (&total.reconnects, &part.reconnects),
                (&total.resigned, &part.resigned),
            ] {
                sum.fetch_add(n.load(Ordering::Relaxed), Ordering::Relaxed);
            }
            total
                .latency
                .lock()
                .expect("latency lock")
                .add(&*part.latency.lock().expect("latency lock"))
                .expect("histograms of equal bounds add up");
            let mut errors = total.errors.lock().expect("errors lock");
            for (kind, n) in part.errors.lock().expect("errors lock").iter() {
                *errors.entry(kind.clone()).or_default() += n;
            }
            total
                .games
                .lock()
                .expect("games lock")
                .extend(part.games.lock().expect("games lock").iter().cloned());
        }
        total
    }

    /// The figures of one node of the run at `url`, over `elapsed`.
    pub fn node_summary(&self, url: &str, elapsed: Duration) -> NodeSummary {
        let h = self.latency.lock().expect("latency lock");
        let q = |q: f64| {
            if h.is_empty() {
                0.0
            } else {
                h.value_at_quantile(q) as f64 / 1000.0
            }
        };
        let moves = self.moves.load(Ordering::Relaxed);
        NodeSummary {
            url: url.to_owned(),
            clients_connected: self.ever_connected.load(Ordering::Relaxed),
            games_finished: self.games_finished.load(Ordering::Relaxed),
            moves,
            moves_per_s: moves as f64 / elapsed.as_secs_f64().max(1e-9),
            p50_ms: q(0.50),
            p95_ms: q(0.95),
            p99_ms: q(0.99),
            errors: self.error_total(),
        }
    }

    /// A copy of everything, for the final report.
    pub fn summary(&self, elapsed: Duration, steady: Option<(u64, u64, Duration)>) -> Summary {
        let h = self.latency.lock().expect("latency lock").clone();
        let q = |q: f64| {
            if h.is_empty() {
                0.0
            } else {
                h.value_at_quantile(q) as f64 / 1000.0
            }
        };
        let secs = elapsed.as_secs_f64().max(1e-9);
        let moves = self.moves.load(Ordering::Relaxed);
        let games = self.games_finished.load(Ordering::Relaxed);
        let (steady_moves_per_s, steady_games_per_s) = match steady {
            Some((m0, g0, at)) if elapsed > at + Duration::from_secs(1) => {
                let s = (elapsed - at).as_secs_f64();
                (Some((moves - m0) as f64 / s), Some((games - g0) as f64 / s))
            }
            _ => (None, None),
        };
        Summary {
            elapsed_s: elapsed.as_secs_f64(),
            clients_connected: self.ever_connected.load(Ordering::Relaxed),
            games_started: self.games_started.load(Ordering::Relaxed),
            games_finished: games,
            moves,
            moves_per_s: moves as f64 / secs,
            games_per_s: games as f64 / secs,
            steady_moves_per_s,
            steady_games_per_s,
            reconnects: self.reconnects.load(Ordering::Relaxed),
            resigned_at_cap: self.resigned.load(Ordering::Relaxed),
            latency_samples: h.len(),
            p50_ms: q(0.50),
            p95_ms: q(0.95),
            p99_ms: q(0.99),
            max_ms: if h.is_empty() {
                0.0
            } else {
                h.max() as f64 / 1000.0
            },
            errors: self.errors.lock().expect("errors lock").clone(),
            games: self.games.lock().expect("games lock").clone(),
            nodes: Vec::new(),
        }
    }
}

/// The figures of the clients of one node (the games count where their creator sits).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeSummary {
    /// The node's URL.
    pub url: String,
    /// Its clients that logged in and connected.
    pub clients_connected: u64,
    /// Games its clients created and saw to the end.
    pub games_finished: u64,
    /// Moves of its clients acknowledged.
    pub moves: u64,
    /// Those moves per second over the whole run.
    pub moves_per_s: f64,
    /// Median move round trip of its clients.
    pub p50_ms: f64,
    /// 95th percentile.
    pub p95_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Errors its clients met.
    pub errors: u64,
}

/// The figures of a finished run.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// Wall time of the run.
    pub elapsed_s: f64,
    /// Clients that logged in and connected.
    pub clients_connected: u64,
    /// Games started.
    pub games_started: u64,
    /// Games played to the end.
    pub games_finished: u64,
    /// Moves acknowledged.
    pub moves: u64,
    /// Moves per second over the whole run.
    pub moves_per_s: f64,
    /// Games finished per second over the whole run.
    pub games_per_s: f64,
    /// Moves per second once every client was connected.
    pub steady_moves_per_s: Option<f64>,
    /// Games per second once every client was connected.
    pub steady_games_per_s: Option<f64>,
    /// Reconnections after lost connections.
    pub reconnects: u64,
    /// Games resigned at the ply cap.
    pub resigned_at_cap: u64,
    /// Round trips measured.
    pub latency_samples: u64,
    /// Median move round trip.
    pub p50_ms: f64,
    /// 95th percentile.
    pub p95_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Slowest.
    pub max_ms: f64,
    /// Errors by kind.
    pub errors: BTreeMap<String, u64>,
    /// Per-client game logs.
    pub games: Vec<GameLog>,
    /// Per node, when the run drove several.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<NodeSummary>,
}

impl Summary {
    /// The human-readable report.
    pub fn print(&self) {
        println!("elapsed         {:.1} s", self.elapsed_s);
        println!("clients         {} connected", self.clients_connected);
        println!(
            "games           {} started, {} finished ({:.2}/s)",
            self.games_started, self.games_finished, self.games_per_s
        );
        println!(
            "moves           {} acked ({:.0}/s)",
            self.moves, self.moves_per_s
        );
        if let (Some(m), Some(g)) = (self.steady_moves_per_s, self.steady_games_per_s) {
            println!("steady state    {m:.0} moves/s, {g:.2} games/s (after the ramp)");
        }
        println!(
            "move round trip p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
            self.p50_ms, self.p95_ms, self.p99_ms, self.max_ms, self.latency_samples
        );
        if self.resigned_at_cap > 0 {
            println!(
                "resigned        {} games at the ply cap",
                self.resigned_at_cap
            );
        }
        if self.reconnects > 0 {
            println!("reconnects      {}", self.reconnects);
        }
        for n in &self.nodes {
            println!(
                "node {}: {} clients, {} moves ({:.0}/s), p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, {} errors",
                n.url, n.clients_connected, n.moves, n.moves_per_s, n.p50_ms, n.p95_ms, n.p99_ms, n.errors
            );
        }
        if self.errors.is_empty() {
            println!("errors          none");
        } else {
            let total: u64 = self.errors.values().sum();
            println!("errors          {total}");
            for (kind, n) in &self.errors {
                println!("  {kind:<30} {n}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nodes_counters_add_up() {
        let a = Stats::default();
        let b = Stats::default();
        a.acked(Duration::from_millis(2));
        a.acked(Duration::from_millis(4));
        b.acked(Duration::from_millis(40));
        a.error("ws:lost");
        b.error("ws:lost");
        b.error("timeout:ack");
        b.ever_connected.fetch_add(3, Ordering::Relaxed);
        let total = Stats::merged([&a, &b]);
        assert_eq!(total.moves.load(Ordering::Relaxed), 3);
        assert_eq!(total.ever_connected.load(Ordering::Relaxed), 3);
        assert_eq!(total.error_total(), 3);
        assert!((total.latency_ms(1.0) - 40.0).abs() < 0.1);
        let summary = total.summary(Duration::from_secs(1), None);
        assert_eq!(summary.errors["ws:lost"], 2);
        assert_eq!(summary.latency_samples, 3);
        let node = b.node_summary("http://127.0.0.1:8081", Duration::from_secs(2));
        assert_eq!(node.moves, 1);
        assert!((node.moves_per_s - 0.5).abs() < 1e-9);
        assert_eq!(node.clients_connected, 3);
        assert_eq!(node.errors, 2);
    }
}
