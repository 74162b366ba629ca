//! Times one level's moves where games go: from the start of `VARIANT`,
//! level 4 plays the game on, and at every `STEP`-th ply the level under
//! test chooses a move (with the game's history, its own time cap and the
//! system clock), `COUNT` times; prints each time and the median and the
//! longest. The levels are limited by work, so on a quiet machine the times
//! say how fast the search is; on a busy one, whether the cap holds.
//!
//! With `--budget-only` every search runs its whole work budget (a clock
//! that never advances, so no cap ends it): the times then measure the
//! search's speed at a fixed amount of work, and the instructions counted by
//! `valgrind --tool=callgrind` are independent of the machine's load.
//!
//! Where the system reports it (Linux: `/proc/thread-self/schedstat`),
//! each search's CPU time is printed too, with the median: on a loaded
//! machine it measures the search where the elapsed time measures the load.
//!
//! `cargo run --release -p stella-lab --example level_speed -- VARIANT LEVEL [STEP] [COUNT] [--budget-only]`
//! (defaults: every 12th ply, 5 positions).

use std::time::Instant;
use stella_ai::{best_move_in_game, Clock, FrozenClock, SystemClock};
use stella_engine::{Game, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let budget_only = args.iter().any(|a| a == "--budget-only");
    args.retain(|a| a != "--budget-only");
    let [variant, level, rest @ ..] = args.as_slice() else {
        return Err("usage: level_speed VARIANT LEVEL [STEP] [COUNT]".into());
    };
    let variant: Variant = variant.parse()?;
    let level: u8 = level.parse()?;
    let step: usize = rest.first().map_or(Ok(12), |s| s.parse())?;
    let count: usize = rest.get(1).map_or(Ok(5), |s| s.parse())?;
    let system = SystemClock::new();
    let clock: &dyn Clock = if budget_only { &FrozenClock } else { &system };
    let mut game = Game::new(variant);
    let mut times = Vec::new();
    let mut cpu_times = Vec::new();
    for ply in 0.. {
        if game.is_over() || times.len() == count {
            break;
        }
        if ply % step.max(1) == 0 {
            let t0 = Instant::now();
            let cpu0 = thread_cpu_ms();
            best_move_in_game(&game, level, 99 + ply as u64, clock, None);
            let ms = t0.elapsed().as_secs_f64() * 1000.0;
            match (cpu0, thread_cpu_ms()) {
                (Some(a), Some(b)) => {
                    println!("ply {ply}: {ms:.0} ms, CPU {:.1} ms", b - a);
                    cpu_times.push(b - a);
                }
                _ => println!("ply {ply}: {ms:.0} ms"),
            }
            times.push(ms);
        }
        let Some(mv) = best_move_in_game(&game, 4, 7 + ply as u64, clock, None) else {
            break;
        };
        game.play(&mv)?;
    }
    times.sort_by(f64::total_cmp);
    let (Some(median), Some(longest)) = (times.get(times.len() / 2), times.last()) else {
        return Err("no position to time".into());
    };
    println!(
        "{variant} level {level}: {} moves, median {median:.0} ms, longest {longest:.0} ms",
        times.len()
    );
    cpu_times.sort_by(f64::total_cmp);
    if let Some(cpu) = cpu_times.get(cpu_times.len() / 2) {
        println!("median CPU time {cpu:.1} ms");
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
