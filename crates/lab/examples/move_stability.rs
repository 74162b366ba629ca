//! Measures how often a shorter tree search chooses the move of a longer
//! one, with level 8's tree shape at each record's table: replays game
//! records (from `stella-lab match --records DIR`) and, at every `STEP`-th
//! ply still in play with two moves or more, runs one search of `LONG`
//! iterations, whose move is the reference, and one of each `SHORT` budget.
//! Each search stops early once its move is decided, as the levels' searches
//! do, so the reference is the move of the whole `LONG` budget. It prints,
//! for each position, whether each short search chose the reference move
//! and the share of the root's visits that move took; then, for each short
//! budget, how many searches chose the reference move, over all positions
//! and over those whose chosen move held at least 80%, 85%, 90% or 95% of
//! the root's visits.
//!
//! `cargo run --release -p stella-lab --example move_stability -- RECORD… [--step N] [--long N] [--short N,N,…]`
//! (defaults: every 8th ply, 900 000 iterations, short searches of 12 500,
//! 25 000, 50 000, 100 000 and 225 000).

use stella_ai::mcts::{Budget, Mcts};
use stella_ai::{FrozenClock, Level, TreeShape, Weights};
use stella_engine::{Move, Position};

mod records;

/// Visit shares at which the summary counts the confident searches apart.
const SHARES: [f64; 4] = [0.80, 0.85, 0.90, 0.95];

/// One search's chosen move, the share of the root's visits it took and the
/// iterations run.
fn search(position: &Position, history: &[u64], shape: TreeShape, n: u64) -> (Move, f64, u64) {
    let mut tree = Mcts::new(position, history, 1, 0, Weights::DEFAULT, shape);
    let budget = Budget {
        iterations: n,
        deadline_ms: f64::INFINITY,
    };
    let report = tree
        .run(budget, &FrozenClock)
        .expect("a position with two moves has a search");
    let moves = tree.root_moves();
    let total: u32 = moves.iter().map(|m| m.1).sum();
    let chosen = moves.iter().find(|m| m.0 == report.best).map_or(0, |m| m.1);
    let share = f64::from(chosen) / f64::from(total.max(1));
    (report.best, share, report.iterations)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut step = 8usize;
    let mut long = 900_000u64;
    let mut short = vec![12_500u64, 25_000, 50_000, 100_000, 225_000];
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--step" => step = args.next().ok_or("--step needs a number")?.parse()?,
            "--long" => long = args.next().ok_or("--long needs a number")?.parse()?,
            "--short" => {
                short = args
                    .next()
                    .ok_or("--short needs numbers separated by commas")?
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()?
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        return Err("give at least one game record".into());
    }
    let level_eight = Level::get(8);
    // For each short budget, each position's (chose the reference, share).
    let mut outcomes: Vec<Vec<(bool, f64)>> = vec![Vec::new(); short.len()];
    for file in &files {
        let (_, game) = records::read(file)?;
        let positions: Vec<Position> = game.positions();
        let shape = level_eight.tree(game.variant().unit_count()).shape;
        for (ply, p) in positions.iter().enumerate().step_by(step.max(1)) {
            if p.is_over() || p.legal_moves().len() < 2 {
                continue;
            }
            let history: Vec<u64> = positions[..=ply].iter().map(Position::hash).collect();
            let (reference, _, ran) = search(p, &history, shape, long);
            let mut line = format!("{file} ply {ply}: the long search ran {ran}");
            for (n, seen) in short.iter().zip(&mut outcomes) {
                let (mv, share, _) = search(p, &history, shape, *n);
                let same = mv == reference;
                seen.push((same, share));
                line += &format!(
                    "; {n} {} ({:.1}%)",
                    if same { "same" } else { "other" },
                    share * 100.0
                );
            }
            println!("{line}");
        }
    }
    for (n, seen) in short.iter().zip(&outcomes) {
        let same = seen.iter().filter(|s| s.0).count();
        let mut line = format!(
            "{n} iterations: the long search's move at {same} of {} positions",
            seen.len()
        );
        for threshold in SHARES {
            let confident: Vec<_> = seen.iter().filter(|s| s.1 >= threshold).collect();
            let agree = confident.iter().filter(|s| s.0).count();
            line += &format!(
                "; at {:.0}% of the visits or more {agree} of {}",
                threshold * 100.0,
                confident.len()
            );
        }
        println!("{line}");
    }
    Ok(())
}
