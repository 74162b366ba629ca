//! Measures the Monte Carlo tree search where the levels use it: replays game
//! records (from `stella-lab match --records DIR`) and, at every `STEP`-th
//! ply still in play, runs one tree of `ITERATIONS` iterations shaped as
//! level 8's at that table with no time cap, printing the median iterations
//! a second over the sampled positions, how much of the root's visits its
//! most visited move takes (median over the positions: near 1 when the tree
//! settles on one move early), and the iterations the searches ran (fewer
//! than the budget where the move was decided sooner, and at six units a
//! few fewer where sequential halving's shares do not divide evenly).
//!
//! `cargo run --release -p stella-lab --example mcts_speed -- RECORD… [--step N] [--iterations N]`
//! (defaults: every 30th ply, 20 000 iterations).

use stella_ai::mcts::{Budget, Mcts};
use stella_ai::{Clock, Level, SystemClock, Weights};
use stella_engine::Position;

mod records;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut step = 30usize;
    let mut iterations = 20_000u64;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--step" => step = args.next().ok_or("--step needs a number")?.parse()?,
            "--iterations" => {
                iterations = args.next().ok_or("--iterations needs a number")?.parse()?
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        return Err("give at least one game record".into());
    }
    let clock = SystemClock::new();
    let budget = Budget {
        iterations,
        deadline_ms: f64::INFINITY,
    };
    let level_eight = Level::get(8);
    let mut rates = Vec::new();
    let mut shares = Vec::new();
    let mut ran = Vec::new();
    for file in &files {
        let (_, game) = records::read(file)?;
        let positions: Vec<Position> = game.positions();
        let shape = level_eight.tree(game.variant().unit_count()).shape;
        for (ply, p) in positions.iter().enumerate().step_by(step.max(1)) {
            if p.is_over() {
                continue;
            }
            let history: Vec<u64> = positions[..=ply].iter().map(Position::hash).collect();
            let mut tree = Mcts::new(p, &history, 1, 0, Weights::DEFAULT, shape);
            let t0 = clock.now_ms();
            let Some(report) = tree.run(budget, &clock) else {
                continue;
            };
            let ms = clock.now_ms() - t0;
            if report.iterations > 0 && ms > 0.0 {
                let rate = report.iterations as f64 * 1000.0 / ms;
                let visits: Vec<u32> = tree.root_moves().iter().map(|m| m.1).collect();
                let most = visits.iter().copied().max().unwrap_or(0);
                let share = f64::from(most) / f64::from(visits.iter().sum::<u32>().max(1));
                println!(
                    "{file} ply {ply}: {rate:.0} iterations/s, {} run, {} root moves, the most visited {:.1}% of the visits",
                    report.iterations,
                    visits.len(),
                    share * 100.0
                );
                rates.push(rate);
                shares.push(share);
                ran.push(report.iterations);
            }
        }
    }
    rates.sort_by(f64::total_cmp);
    let Some(&median) = rates.get(rates.len() / 2) else {
        return Err("no position to measure".into());
    };
    println!(
        "{} positions: median {median:.0} iterations/s (lowest {:.0}, highest {:.0})",
        rates.len(),
        rates[0],
        rates[rates.len() - 1],
    );
    shares.sort_by(f64::total_cmp);
    println!(
        "the most visited root move's share of the visits: median {:.1}% (lowest {:.1}%)",
        shares[shares.len() / 2] * 100.0,
        shares[0] * 100.0
    );
    let stopped = ran.iter().filter(|&&n| n < iterations).count();
    println!(
        "iterations run: mean {:.0} of {iterations}; {stopped} of {} searches stopped short of their budget",
        ran.iter().sum::<u64>() as f64 / ran.len() as f64,
        ran.len()
    );
    Ok(())
}
