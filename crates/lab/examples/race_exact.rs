//! Measures the exact race solver on race positions from real games: plays
//! `GAMES` classic two-player games between two computer players, and in every
//! position of a race (`race::is_race`) compares the beam's plan with IDA*
//! given the beam's plan as an upper bound.
//!
//! `cargo run --release -p stella-lab --example race_exact -- [GAMES] [LEVEL] [MS]`
//! (defaults: 4 games at level 6, IDA* stopped after 1000 ms per position).

use stella_ai::ida::{solve_exact, Heuristic};
use stella_ai::race::{is_race, Problem};
use stella_ai::{best_move_in_game, Clock, SystemClock};
use stella_engine::{Game, Position, Variant};

/// The race positions of one game between two players of `level`.
fn race_positions(level: u8, seed: u64, clock: &SystemClock) -> Vec<Position> {
    let mut game = Game::new(Variant::Classic2);
    let mut out = Vec::new();
    while !game.is_over() && game.moves().len() < 300 {
        if is_race(game.position()) {
            out.push(*game.position());
        }
        let seed = seed * 1000 + game.moves().len() as u64;
        let Some(mv) = best_move_in_game(&game, level, seed, clock, None) else {
            break;
        };
        game.play(&mv).expect("the computer plays legal moves");
    }
    out
}

/// The median of `xs` (0 when empty).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (games, level, ms) = (arg(1, 4), arg(2, 6) as u8, arg(3, 1000) as f64);
    let clock = SystemClock::new();
    let (mut total, mut proved, mut shorter) = (0, 0, 0);
    let (mut times, mut proved_times, mut beam_lens) = (Vec::new(), Vec::new(), Vec::new());
    let mut setup_times = Vec::new();
    for seed in 0..games {
        for pos in race_positions(level, seed, &clock) {
            let problem = Problem::of(&pos);
            let Some(beam) = problem.solve(&clock, 500.0, 64) else {
                continue;
            };
            let t0 = clock.now_ms();
            Heuristic::new(&problem);
            setup_times.push(clock.now_ms() - t0);
            let t0 = clock.now_ms();
            let exact = solve_exact(&problem, Some(&beam), &clock, t0 + ms, u64::MAX);
            let dt = clock.now_ms() - t0;
            total += 1;
            beam_lens.push(beam.len() as f64);
            times.push(dt);
            if exact.proved() {
                proved += 1;
                proved_times.push(dt);
            }
            if exact.plan.as_ref().is_some_and(|p| p.len() < beam.len()) {
                shorter += 1;
            }
        }
    }
    println!(
        "race positions {total}, median beam plan {} moves",
        median(beam_lens)
    );
    println!("proved shortest {proved}, shorter than the beam {shorter}");
    println!(
        "median IDA* time {:.1} ms (proved ones {:.1} ms)",
        median(times),
        median(proved_times)
    );
    let worst = setup_times.iter().copied().fold(0.0, f64::max);
    println!(
        "bound tables: median {:.1} ms, worst {worst:.1} ms",
        median(setup_times)
    );
}
