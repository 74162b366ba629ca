//! `stella-lab loadtest`: simulated players over real HTTP and WebSockets.
//!
//! Every client gets a guest session (`POST /api/guest`), opens `/ws`, and plays
//! classic-2 games against its partner: the even client of a pair creates each table,
//! the odd one joins it. Moves are the engine's greedy choice after a think time. The
//! run is bounded by `--duration`; it reports games and moves per second, the move
//! round trip (from sending a move to its `ack`) at p50/p95/p99/max, and every error by
//! kind. Lost connections are retried until the deadline and resynced with
//! `watch {since}`, so the same tool drives the kill/restart test.
//!
//! Against a loopback server each client uses its own source address
//! (127.1.x.y), as distinct players would, so the per-address limit on guest
//! sessions applies per player.
//!
//! `--url` may name several nodes of one site (repeated or separated by commas): the
//! tables are spread round-robin over them, and with `--cross-node` the two players of
//! a table connect to different nodes (`nodes`). The report gives the totals, then the
//! figures of each node's clients.

mod client;
mod nodes;
mod stats;

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use tokio::sync::mpsc;
use tokio::time::Instant;

use client::{Player, Role, Shared};
use stats::Stats;

/// Options of `stella-lab loadtest`.
#[derive(Debug, clap::Args)]
pub struct LoadtestArgs {
    /// The server's base URL (http only); several nodes of one site by repeating the
    /// option or separating URLs with commas.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: Vec<String>,
    /// Seat the two players of each table on different nodes (needs two URLs or more),
    /// so that moves and events cross the bus between the nodes.
    #[arg(long)]
    cross_node: bool,
    /// Simulated players (an even number: two per table).
    #[arg(long, default_value_t = 100)]
    clients: usize,
    /// Seconds to run, ramp included; then every client stops.
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Mean think time before each move, in milliseconds (each draw is 0.5–1.5×).
    #[arg(long, default_value_t = 500)]
    think_ms: u64,
    /// Seconds over which clients start (default: a quarter of the duration, at most
    /// 10 s).
    #[arg(long)]
    ramp: Option<f64>,
    /// Time control of the tables, e.g. `10+5` (minutes + seconds); untimed if absent.
    #[arg(long)]
    time: Option<String>,
    /// A game this long is resigned by the player to move.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
    /// Write the figures and every client's per-game log (acknowledged moves) as JSON.
    #[arg(long)]
    report_json: Option<PathBuf>,
    /// Connect every client from the default source address, even to a loopback server.
    #[arg(long)]
    same_address: bool,
    /// Worker threads of the client runtime (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// Runs the load test and prints the report.
pub fn run(args: LoadtestArgs) -> anyhow::Result<()> {
    if args.clients < 2 || !args.clients.is_multiple_of(2) {
        bail!("--clients must be an even number of at least 2 (two players per table)");
    }
    if args.duration == 0 {
        bail!("--duration must be at least 1 second");
    }
    let urls = nodes::parse_urls(&args.url)?;
    if args.cross_node && urls.len() < 2 {
        bail!("--cross-node needs at least two URLs (--url A,B)");
    }
    let time = args.time.as_deref().map(parse_time).transpose()?;
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = args.threads {
        rt.worker_threads(n.max(1));
    }
    let rt = rt.enable_all().build()?;
    rt.block_on(run_async(args, urls, time))
}

fn parse_time(s: &str) -> anyhow::Result<serde_json::Value> {
    let (m, i) = s
        .split_once('+')
        .with_context(|| format!("--time {s:?}: expected MINUTES+SECONDS, e.g. 10+5"))?;
    let m: i64 = m
        .trim()
        .parse()
        .context("--time: minutes must be a number")?;
    let i: i64 = i
        .trim()
        .parse()
        .context("--time: increment must be a number")?;
    Ok(json!({"minutes": m, "increment": i}))
}

/// The source address of client `i` against a loopback server: 127.1.x.y, one per
/// client.
fn loopback_source(i: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(
        127,
        1 + (i / 62_500) as u8,
        ((i / 250) % 250) as u8,
        (i % 250) as u8 + 1,
    ))
}

async fn run_async(
    args: LoadtestArgs,
    urls: Vec<String>,
    time: Option<serde_json::Value>,
) -> anyhow::Result<()> {
    let mut targets = Vec::with_capacity(urls.len());
    for url in &urls {
        targets.push(nodes::resolve(url).await?);
    }
    let spread = !args.same_address
        && targets
            .iter()
            .all(|n| n.addr.ip().is_loopback() && n.addr.is_ipv4());
    let base = urls.join(", ");

    let duration = Duration::from_secs(args.duration);
    let ramp = Duration::from_secs_f64(
        args.ramp
            .unwrap_or_else(|| (args.duration as f64 / 4.0).min(10.0))
            .clamp(0.0, args.duration as f64),
    );
    let start = Instant::now();
    let shared = Arc::new(Shared {
        nodes: targets,
        deadline: start + duration,
        think: Duration::from_millis(args.think_ms),
        time,
        max_plies: args.max_plies,
        keep_logs: args.report_json.is_some(),
    });

    eprintln!(
        "stella-lab loadtest: {} clients ({} tables) against {base}{} for {} s, think {} ms, ramp {:.1} s{}",
        args.clients,
        args.clients / 2,
        if args.cross_node { " (players of a table on two nodes)" } else { "" },
        args.duration,
        args.think_ms,
        ramp.as_secs_f64(),
        if spread { ", one loopback source address per client" } else { "" },
    );

    let pb = ProgressBar::new(args.duration);
    pb.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} s  {msg}")
            .expect("valid progress template")
            .progress_chars("=> "),
    );

    let mut tasks = Vec::with_capacity(args.clients);
    let pairs = args.clients / 2;
    for p in 0..pairs {
        let (tx, rx) = mpsc::channel(1);
        let at = start + ramp.mul_f64(p as f64 / pairs as f64);
        for (i, role) in [(2 * p, Role::Creator(tx)), (2 * p + 1, Role::Joiner(rx))] {
            let ip = spread.then(|| loopback_source(i));
            let node = nodes::node_of(i, shared.nodes.len(), args.cross_node);
            let player = Player::new(i, node, role, ip, shared.clone());
            tasks.push(tokio::spawn(async move {
                tokio::time::sleep_until(at).await;
                player.run().await;
            }));
        }
    }

    // Progress, and the counters when the ramp ends (for steady-state rates).
    let ticker = {
        let shared = shared.clone();
        let pb = pb.clone();
        tokio::spawn(async move {
            let mut steady = None;
            let mut last = (Instant::now(), 0u64);
            loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                let now = Instant::now();
                let s = &Stats::merged(shared.nodes.iter().map(|n| &n.stats));
                let moves = s.moves.load(Ordering::Relaxed);
                if steady.is_none() && now >= start + ramp {
                    steady = Some((moves, s.games_finished.load(Ordering::Relaxed), now - start));
                }
                let rate = (moves - last.1) as f64 / (now - last.0).as_secs_f64().max(1e-3);
                last = (now, moves);
                pb.set_position((now - start).as_secs().min(duration.as_secs()));
                pb.set_message(format!(
                    "{} conn, {} games, {} moves ({rate:.0}/s), p99 {:.1} ms, {} errors",
                    s.connected.load(Ordering::Relaxed),
                    s.games_finished.load(Ordering::Relaxed),
                    moves,
                    s.latency_ms(0.99),
                    s.error_total(),
                ));
                if now >= start + duration {
                    return steady;
                }
            }
        })
    };

    for t in tasks {
        // Every player stops by itself at the deadline; a panic is counted, not fatal.
        if t.await.is_err() {
            shared.nodes[0].stats.error("client:panicked");
        }
    }
    let elapsed = start.elapsed();
    let steady = if ticker.is_finished() {
        ticker.await.ok().flatten()
    } else {
        ticker.abort();
        None
    };
    pb.finish_and_clear();

    let elapsed = elapsed.min(duration);
    let total = Stats::merged(shared.nodes.iter().map(|n| &n.stats));
    let mut summary = total.summary(elapsed, steady);
    if shared.nodes.len() > 1 {
        summary.nodes = shared
            .nodes
            .iter()
            .map(|n| n.stats.node_summary(&n.base, elapsed))
            .collect();
    }
    println!(
        "stella-lab loadtest: {} clients, {} s, think {} ms, {}, {} node{}{}",
        args.clients,
        args.duration,
        args.think_ms,
        args.time.as_deref().unwrap_or("untimed"),
        shared.nodes.len(),
        if shared.nodes.len() == 1 { "" } else { "s" },
        if args.cross_node { ", cross-node" } else { "" },
    );
    summary.print();
    if let Some(path) = &args.report_json {
        let text = serde_json::to_string_pretty(&summary)?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_addresses_are_distinct_loopback() {
        let a: Vec<IpAddr> = (0..3000).map(loopback_source).collect();
        let set: std::collections::HashSet<_> = a.iter().collect();
        assert_eq!(set.len(), a.len());
        assert!(a.iter().all(|ip| ip.is_loopback()));
    }

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            parse_time("10+5").unwrap(),
            json!({"minutes": 10, "increment": 5})
        );
        assert!(parse_time("10").is_err());
    }
}
