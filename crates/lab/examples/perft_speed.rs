//! Times perft from the start of a variant with both bulk-counting methods
//! (incremental, the default, and plain from-scratch counting), `RUNS`
//! times each, and prints the counts, each run's CPU time where Linux
//! reports it (`/proc/thread-self/schedstat`; elapsed time otherwise) and
//! the median in nodes per second.
//!
//! `cargo run --release -p stella-lab --example perft_speed -- [VARIANT] [DEPTH] [RUNS]`
//! (defaults: classic-2, depth 6, 5 runs).

use std::time::Instant;
use stella_engine::{perft, perft_plain, Position, Variant};

/// A perft function: leaves below a position at a depth.
type Count = fn(&Position, u32) -> u64;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = args.first().map_or("classic-2", String::as_str).parse()?;
    let depth: u32 = args.get(1).map_or(Ok(6), |s| s.parse())?;
    let runs: usize = args.get(2).map_or(Ok(5), |s| s.parse())?;
    let start = Position::start(variant);
    let methods: [(&str, Count); 2] = [("incremental", perft), ("plain", perft_plain)];
    for (name, count) in methods {
        let mut times = Vec::new();
        let mut nodes = 0;
        for _ in 0..runs.max(1) {
            let (cpu0, t0) = (thread_cpu_ms(), Instant::now());
            nodes = count(&start, depth);
            let ms = match (cpu0, thread_cpu_ms()) {
                (Some(a), Some(b)) => b - a,
                _ => t0.elapsed().as_secs_f64() * 1000.0,
            };
            println!("{name}: perft {depth} {nodes} in {ms:.0} ms");
            times.push(ms);
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        println!(
            "{variant} {name}: median {median:.0} ms = {:.1} M nodes/s",
            nodes as f64 / median / 1000.0
        );
    }
    Ok(())
}

/// The CPU time this thread has run, in milliseconds, where the system
/// reports it (the first field of `/proc/thread-self/schedstat`, in ns).
fn thread_cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e6)
}
