//! `stella-lab tune`: tunes the evaluation weights by self-play with SPSA
//! (simultaneous perturbation stochastic approximation, as used to tune chess
//! engines).
//!
//! Each iteration `k` draws a random sign `Δᵢ = ±1` for every weight and plays
//! a game pair (same opening, seats swapped) between `θ + c_k·Δ` and
//! `θ − c_k·Δ` at a fixed level. With `d` the score difference of the pair
//! (from −2 to +2), every weight moves by `a_k · d / (θ⁺ᵢ − θ⁻ᵢ)`, i.e.
//! `a_k · d · Δᵢ / (2 c_k)`: towards the side that scored better. The gains
//! are the usual ones, `a_k = a / (A + k + 1)^0.602` and
//! `c_k = c / (k + 1)^0.101`, with `A` a tenth of the iterations. Each weight
//! has its own `c` (15% of its starting magnitude, at least 2, and never below
//! 1 so that the rounded perturbation is never zero) and its own `a`, chosen
//! so that a won pair at the first iteration moves the weight by
//! `min(0.5, 4/√iterations)` of its `c`.
//!
//! At tables of more than two units (classic-3, -4, -6, pairs-3x2) θ⁺
//! holds every other unit (the even ones in the pair's first game, the odd
//! ones in its second) and θ⁻ the rest; a game's score is θ⁺'s share of
//! the pairs of one θ⁺ unit and one θ⁻ unit that θ⁺ placed ahead (½ for a
//! tie), so across the pair each weight set holds every seat once. There
//! the levels play the Monte Carlo tree search (a low level keeps a six-seat
//! game to seconds), and `--hold drive` keeps a weight the tree search does
//! not read at its start value.
//!
//! Play is deterministic and machine-independent: the players search with a
//! clock that never advances, so only the level's node and depth budgets stop
//! a search. Game pairs are played in batches from the same weights and the
//! updates applied in order, so the result depends on the seed and the batch
//! size, not on how many games run at once.

use crate::match_cmd::opening;
use crate::score::pair_score;
use crate::weight_text;
use anyhow::{anyhow, bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use stella_ai::levels::{MAX_LEVEL, MIN_LEVEL};
use stella_ai::progress::Progress;
use stella_ai::rng::Rng;
use stella_ai::{FrozenClock, Request, Style, Weights};
use stella_engine::{Game, Variant};

/// Exponent of the step-size sequence `a_k`.
const ALPHA: f64 = 0.602;
/// Exponent of the perturbation sequence `c_k`.
const GAMMA: f64 = 0.101;
/// Starting perturbation as a fraction of each weight's magnitude.
const C_FRACTION: f64 = 0.15;
/// Smallest starting perturbation of a weight.
const C_MIN: f64 = 2.0;
/// Smallest perturbation at any iteration (keeps rounded θ⁺ and θ⁻ apart).
const C_FLOOR: f64 = 1.0;
/// Thinking-time cap handed to the players; the frozen clock never reaches it.
const GENEROUS_MS: u64 = 600_000;

/// Arguments of `stella-lab tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// Variant id; it must have at least two sides (players, or teams).
    #[arg(long, default_value = "classic-2")]
    variant: String,
    /// Level both sides play at (1-8); its node budget bounds every search.
    #[arg(long, default_value_t = 4)]
    level: u8,
    /// SPSA iterations (one game pair each).
    #[arg(long, default_value_t = 1000)]
    iterations: usize,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Game pairs played from the same weights before these are updated.
    #[arg(long, default_value_t = 2)]
    batch: usize,
    /// Random opening moves per seat before the players take over.
    #[arg(long, default_value_t = 2)]
    opening: usize,
    /// Seed for perturbations, openings and players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Starting weights, eight comma-separated integers (rows, squares, back,
    /// lateral, home_late, jump, tempo, drive); default: the built-in weights.
    #[arg(long)]
    start: Option<String>,
    /// Weights kept at their start values, comma-separated names (e.g.
    /// `drive`, which the tree search of more than two units does not read).
    #[arg(long, value_name = "NAMES")]
    hold: Option<String>,
    /// Print the current weights (and write them to --out) every N iterations.
    #[arg(long, default_value_t = 100)]
    report_every: usize,
    /// File to write the tuned weights to.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Validated settings of a tuning run.
struct Config {
    variant: Variant,
    level: u8,
    iterations: usize,
    concurrency: usize,
    batch: usize,
    opening: usize,
    seed: u64,
    start: Weights,
    held: [bool; weight_text::COUNT],
    report_every: usize,
    out: Option<PathBuf>,
}

impl Config {
    /// Checks the arguments; errors name the argument at fault.
    fn from_args(args: &TuneArgs) -> anyhow::Result<Config> {
        let variant: Variant = args.variant.parse().context("--variant")?;
        if variant.unit_count() < 2 {
            bail!(
                "--variant: tuning needs at least two sides, {variant} has {}",
                variant.unit_count()
            );
        }
        if !(MIN_LEVEL..=MAX_LEVEL).contains(&args.level) {
            bail!(
                "--level: levels are {MIN_LEVEL}-{MAX_LEVEL}, got {}",
                args.level
            );
        }
        for (name, value) in [
            ("--iterations", args.iterations),
            ("--concurrency", args.concurrency),
            ("--batch", args.batch),
            ("--report-every", args.report_every),
        ] {
            if value == 0 {
                bail!("{name} must be at least 1");
            }
        }
        let start = match &args.start {
            Some(s) => weight_text::parse(s).map_err(|e| anyhow!("--start: {e}"))?,
            None => Weights::DEFAULT,
        };
        let mut held = [false; weight_text::COUNT];
        for name in args.hold.iter().flat_map(|h| h.split(',')) {
            let i = weight_text::NAMES
                .iter()
                .position(|n| *n == name)
                .ok_or_else(|| {
                    anyhow!(
                        "--hold: no weight {name:?} (weights: {})",
                        weight_text::NAMES.join(",")
                    )
                })?;
            held[i] = true;
        }
        Ok(Config {
            variant,
            level: args.level,
            iterations: args.iterations,
            concurrency: args.concurrency,
            batch: args.batch,
            opening: args.opening,
            seed: args.seed,
            start,
            held,
            report_every: args.report_every,
            out: args.out.clone(),
        })
    }
}

/// The two perturbed weight sets of one iteration, and the seed of its games.
#[derive(Clone, Copy, Debug)]
struct Pair {
    /// `θ + c_k·Δ`, rounded.
    plus: Weights,
    /// `θ − c_k·Δ`, rounded.
    minus: Weights,
    /// Seed of the pair's opening and players.
    seed: u64,
}

/// The SPSA state: the current weights (unrounded) and the gain constants.
#[derive(Clone, Debug)]
struct Spsa {
    theta: [f64; weight_text::COUNT],
    held: [bool; weight_text::COUNT],
    c: [f64; weight_text::COUNT],
    a: [f64; weight_text::COUNT],
    big_a: f64,
}

/// The smallest value each weight may take (`rows` scales everything else).
fn lower_bound(i: usize) -> f64 {
    if i == 0 {
        1.0
    } else {
        0.0
    }
}

impl Spsa {
    /// A run of `iterations` iterations from `start` in which the weights
    /// marked in `held` are neither perturbed nor moved.
    fn new(start: Weights, iterations: usize, held: [bool; weight_text::COUNT]) -> Spsa {
        let theta = weight_text::to_array(start).map(f64::from);
        let c = theta.map(|t| (t.abs() * C_FRACTION).max(C_MIN));
        let big_a = iterations as f64 / 10.0;
        let first_step = (4.0 / (iterations as f64).sqrt()).min(0.5);
        let a = c.map(|ci| first_step * ci * ci * (big_a + 1.0).powf(ALPHA));
        Spsa {
            theta,
            held,
            c,
            a,
            big_a,
        }
    }

    /// Perturbation sizes at iteration `k`.
    fn c_k(&self, k: usize) -> [f64; weight_text::COUNT] {
        let decay = ((k + 1) as f64).powf(GAMMA);
        self.c.map(|c| (c / decay).max(C_FLOOR))
    }

    /// Step sizes at iteration `k`.
    fn a_k(&self, k: usize) -> [f64; weight_text::COUNT] {
        let decay = (self.big_a + (k + 1) as f64).powf(ALPHA);
        self.a.map(|a| a / decay)
    }

    /// `θ ± c_k·Δ`, rounded and kept within bounds, for the signs `delta`.
    fn perturb(&self, k: usize, delta: [f64; weight_text::COUNT], seed: u64) -> Pair {
        let c = self.c_k(k);
        let side = |sign: f64| {
            let mut w = [0i32; weight_text::COUNT];
            for i in 0..weight_text::COUNT {
                let step = if self.held[i] { 0.0 } else { c[i] * delta[i] };
                let v = (self.theta[i] + sign * step).round();
                w[i] = v.max(lower_bound(i)) as i32;
            }
            weight_text::from_array(w)
        };
        Pair {
            plus: side(1.0),
            minus: side(-1.0),
            seed,
        }
    }

    /// Moves θ after iteration `k`, whose pair scored `diff` (θ⁺'s score
    /// minus θ⁻'s) with the weights of `pair`.
    fn update(&mut self, k: usize, pair: &Pair, diff: f64) {
        let a = self.a_k(k);
        let (plus, minus) = (
            weight_text::to_array(pair.plus),
            weight_text::to_array(pair.minus),
        );
        for i in 0..weight_text::COUNT {
            let spread = f64::from(plus[i] - minus[i]);
            if spread != 0.0 {
                self.theta[i] = (self.theta[i] + a[i] * diff / spread).max(lower_bound(i));
            }
        }
    }

    /// The current weights, rounded.
    fn weights(&self) -> Weights {
        weight_text::from_array(self.theta.map(|t| t.round() as i32))
    }
}

/// One random sign per weight, ±1.
fn signs(rng: &mut Rng) -> [f64; weight_text::COUNT] {
    let bits = rng.next_u64();
    std::array::from_fn(|i| if bits >> i & 1 == 1 { 1.0 } else { -1.0 })
}

/// How iterations are grouped and run.
#[derive(Clone, Copy, Debug)]
struct Schedule {
    iterations: usize,
    batch: usize,
    concurrency: usize,
    seed: u64,
}

/// θ⁺'s score in game `g` (0 or 1, seats swapped) of a pair, from 0 to 1.
type PlayGame<'a> = dyn Fn(&Pair, usize) -> anyhow::Result<f64> + Sync + 'a;

/// Runs the SPSA iterations of `schedule`, playing games with `play`, and
/// calls `after(k, spsa)` once iteration `k`'s update is applied.
fn run_spsa(
    spsa: &mut Spsa,
    schedule: Schedule,
    play: &PlayGame<'_>,
    mut after: impl FnMut(usize, &Spsa),
) -> anyhow::Result<()> {
    let mut rng = Rng::new(schedule.seed);
    let mut k = 0;
    while k < schedule.iterations {
        let end = (k + schedule.batch).min(schedule.iterations);
        let pairs: Vec<Pair> = (k..end)
            .map(|i| {
                let delta = signs(&mut rng);
                spsa.perturb(i, delta, rng.next_u64())
            })
            .collect();
        let scores = play_all(pairs.len() * 2, schedule.concurrency, &|j| {
            play(&pairs[j / 2], j % 2)
        })?;
        for (i, pair) in pairs.iter().enumerate() {
            let plus = scores[2 * i] + scores[2 * i + 1];
            spsa.update(k + i, pair, plus - (2.0 - plus));
            after(k + i, spsa);
        }
        k = end;
    }
    Ok(())
}

/// Runs `job(0..jobs)` on up to `concurrency` threads; results in job order.
fn play_all(
    jobs: usize,
    concurrency: usize,
    job: &(dyn Fn(usize) -> anyhow::Result<f64> + Sync),
) -> anyhow::Result<Vec<f64>> {
    if concurrency <= 1 {
        return (0..jobs).map(job).collect();
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<anyhow::Result<f64>>>> =
        Mutex::new((0..jobs).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..concurrency.min(jobs) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= jobs {
                    break;
                }
                let r = job(i);
                results.lock().expect("lock")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("lock")
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

/// Plays game `g` of `pair`: θ⁺ holds the units of parity `g` (0 or 1;
/// with two sides, side `g`) and θ⁻ the others. Returns θ⁺'s score, from
/// 0 to 1: its share of the pairs of one θ⁺ unit and one θ⁻ unit that it
/// placed ahead, a tie counting ½.
fn play_game(cfg: &Config, pair: &Pair, g: usize) -> anyhow::Result<f64> {
    let teams = cfg.variant.teams();
    let plus_holds = |unit: usize| unit % 2 == g % 2;
    let mut game: Game = opening(cfg.variant, cfg.opening, pair.seed);
    let mut positions = game.positions();
    let mut hashes: Vec<u64> = positions.iter().map(|p| p.hash()).collect();
    while !game.is_over() {
        let turn = game.turn();
        let unit = teams.iter().position(|u| u.contains(&turn)).unwrap_or(0);
        let weights = if plus_holds(unit) {
            pair.plus
        } else {
            pair.minus
        };
        let style = Style {
            strategy: None,
            weights,
        };
        let seed = pair.seed ^ game.moves().len() as u64;
        let mv = Request::new(game.position(), cfg.level, seed)
            .history(&hashes)
            .progress(Progress::of_game(&positions))
            .max_ms(Some(GENEROUS_MS))
            .style(style)
            .choose(&FrozenClock)
            .ok_or_else(|| anyhow!("no move in a game that is not over"))?;
        game.play(&mv).map_err(|e| anyhow!("illegal move: {e}"))?;
        hashes.push(game.position().hash());
        positions.push(*game.position());
    }
    let outcome = game.outcome().expect("the game is over");
    let place = |unit: usize| outcome.place_of(teams[unit][0]).unwrap_or(u8::MAX);
    Ok(plus_share(teams.len(), plus_holds, place))
}

/// θ⁺'s share of the pairs of one θ⁺ unit and one θ⁻ unit (among `units`)
/// whose θ⁺ unit placed ahead by `place` (lower is better), a tie ½.
fn plus_share(
    units: usize,
    plus_holds: impl Fn(usize) -> bool,
    place: impl Fn(usize) -> u8,
) -> f64 {
    let (mut won, mut pairs) = (0.0, 0.0);
    for p in (0..units).filter(|&u| plus_holds(u)) {
        for m in (0..units).filter(|&u| !plus_holds(u)) {
            pairs += 1.0;
            won += pair_score(place(p), place(m));
        }
    }
    if pairs > 0.0 {
        won / pairs
    } else {
        0.5
    }
}

/// Writes `weights` as one line of text to `path`.
fn write_weights(path: &PathBuf, weights: Weights) -> anyhow::Result<()> {
    std::fs::write(path, format!("{}\n", weight_text::format(weights)))
        .with_context(|| format!("--out: writing {}", path.display()))
}

/// Runs `stella-lab tune`.
pub fn run(args: TuneArgs) -> anyhow::Result<()> {
    let cfg = Config::from_args(&args)?;
    let mut spsa = Spsa::new(cfg.start, cfg.iterations, cfg.held);
    println!(
        "tuning {} from {} at {} level {}: {} iterations, seed {}",
        weight_text::NAMES.join(","),
        weight_text::format(cfg.start),
        cfg.variant,
        cfg.level,
        cfg.iterations,
        cfg.seed
    );
    let bar = ProgressBar::new(cfg.iterations as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} iterations {elapsed_precise} eta {eta} {msg}",
        )
        .expect("a valid template"),
    );
    let schedule = Schedule {
        iterations: cfg.iterations,
        batch: cfg.batch,
        concurrency: cfg.concurrency,
        seed: cfg.seed,
    };
    let mut write_error = None;
    run_spsa(
        &mut spsa,
        schedule,
        &|pair, g| play_game(&cfg, pair, g),
        |k, s| {
            bar.inc(1);
            bar.set_message(weight_text::format(s.weights()));
            if (k + 1) % cfg.report_every == 0 {
                bar.suspend(|| {
                    println!("iteration {}: {}", k + 1, weight_text::format(s.weights()))
                });
                if let Some(out) = &cfg.out {
                    write_error = write_weights(out, s.weights()).err().or(write_error.take());
                }
            }
        },
    )?;
    bar.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    let tuned = spsa.weights();
    println!(
        "tuned weights after {} iterations: {}",
        cfg.iterations,
        weight_text::format(tuned)
    );
    if let Some(out) = &cfg.out {
        write_weights(out, tuned)?;
        println!("written to {}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// No weight held.
    const FREE: [bool; weight_text::COUNT] = [false; weight_text::COUNT];

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: TuneArgs,
    }

    fn config(extra: &[&str]) -> anyhow::Result<Config> {
        let mut argv = vec!["tune"];
        argv.extend_from_slice(extra);
        Config::from_args(&Cli::try_parse_from(argv).expect("clap accepts").args)
    }

    /// A fake game: θ⁺ wins with a probability rising with how much closer it
    /// is than θ⁻ to `optimum` (relative squared distance), drawn from a
    /// generator seeded by the pair and the game.
    fn noisy_quadratic(
        optimum: [f64; weight_text::COUNT],
    ) -> impl Fn(&Pair, usize) -> anyhow::Result<f64> + Sync {
        move |pair, g| {
            let loss = |w: Weights| -> f64 {
                let w = weight_text::to_array(w);
                (0..weight_text::COUNT)
                    .map(|i| ((f64::from(w[i]) - optimum[i]) / optimum[i].max(10.0)).powi(2))
                    .sum()
            };
            let edge = loss(pair.minus) - loss(pair.plus);
            let p = 1.0 / (1.0 + (-4.0 * edge).exp());
            let mut rng = Rng::new(pair.seed ^ g as u64);
            Ok(if rng.unit() < p { 1.0 } else { 0.0 })
        }
    }

    fn distance(theta: [f64; weight_text::COUNT], optimum: [f64; weight_text::COUNT]) -> f64 {
        (0..weight_text::COUNT)
            .map(|i| ((theta[i] - optimum[i]) / optimum[i].max(10.0)).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    #[test]
    fn an_update_moves_every_weight_towards_the_side_that_scored_better() {
        let spsa = Spsa::new(Weights::DEFAULT, 100, FREE);
        let pair = spsa.perturb(0, [1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0], 7);
        for diff in [2.0, -1.0] {
            let mut moved = spsa.clone();
            moved.update(0, &pair, diff);
            let (plus, minus) = (
                weight_text::to_array(pair.plus),
                weight_text::to_array(pair.minus),
            );
            for i in 0..weight_text::COUNT {
                let towards = if diff > 0.0 { plus[i] } else { minus[i] };
                let before = (f64::from(towards) - spsa.theta[i]).abs();
                let after = (f64::from(towards) - moved.theta[i]).abs();
                assert!(after < before, "{} did not move", weight_text::NAMES[i]);
            }
        }
        let mut still = spsa.clone();
        still.update(0, &pair, 0.0);
        assert_eq!(still.theta, spsa.theta);
    }

    #[test]
    fn perturbations_shrink_but_stay_at_least_one_and_scale_with_the_weight() {
        let spsa = Spsa::new(
            weight_text::from_array([100, 6, 40, 12, 150, 20, 60, 0]),
            1000,
            FREE,
        );
        let (first, last) = (spsa.c_k(0), spsa.c_k(999));
        assert!(
            first[0] > first[1],
            "rows 100 is perturbed more than squares 6"
        );
        for i in 0..weight_text::COUNT {
            assert!(last[i] < first[i] || last[i] == C_FLOOR);
            assert!(last[i] >= C_FLOOR);
        }
        assert!(spsa.a_k(999)[0] < spsa.a_k(0)[0]);
        let pair = spsa.perturb(999, [1.0; weight_text::COUNT], 0);
        let (plus, minus) = (
            weight_text::to_array(pair.plus),
            weight_text::to_array(pair.minus),
        );
        assert!((0..weight_text::COUNT).all(|i| plus[i] > minus[i]));
    }

    #[test]
    fn spsa_approaches_the_optimum_of_a_noisy_quadratic() {
        let optimum = [130.0, 12.0, 20.0, 25.0, 110.0, 35.0, 40.0, 20.0];
        let play = noisy_quadratic(optimum);
        // The hand-set weights the real tuning started from.
        let start = weight_text::from_array([100, 6, 40, 12, 150, 20, 60, 0]);
        let mut spsa = Spsa::new(start, 3000, FREE);
        let start = distance(spsa.theta, optimum);
        let schedule = Schedule {
            iterations: 3000,
            batch: 2,
            concurrency: 1,
            seed: 5,
        };
        run_spsa(&mut spsa, schedule, &play, |_, _| {}).unwrap();
        let end = distance(spsa.theta, optimum);
        assert!(
            end < start / 4.0,
            "distance {start:.3} -> {end:.3}: {:?}",
            spsa.theta
        );
    }

    #[test]
    fn the_result_depends_on_the_seed_not_on_concurrency() {
        let play = noisy_quadratic([130.0, 12.0, 20.0, 25.0, 110.0, 35.0, 40.0, 20.0]);
        let tuned = |concurrency, seed| {
            let mut spsa = Spsa::new(Weights::DEFAULT, 200, FREE);
            let schedule = Schedule {
                iterations: 200,
                batch: 4,
                concurrency,
                seed,
            };
            let mut seen = 0;
            run_spsa(&mut spsa, schedule, &play, |k, _| {
                assert_eq!(k, seen);
                seen += 1;
            })
            .unwrap();
            assert_eq!(seen, 200);
            spsa.theta
        };
        assert_eq!(tuned(1, 3), tuned(3, 3));
        assert_ne!(tuned(1, 3), tuned(1, 4));
    }

    #[test]
    fn a_game_error_stops_the_run() {
        let mut spsa = Spsa::new(Weights::DEFAULT, 10, FREE);
        let schedule = Schedule {
            iterations: 10,
            batch: 2,
            concurrency: 2,
            seed: 1,
        };
        let failing = |_: &Pair, _: usize| -> anyhow::Result<f64> { bail!("engine broke") };
        let e = run_spsa(&mut spsa, schedule, &failing, |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("engine broke"));
    }

    #[test]
    fn bad_arguments_are_named() {
        for (argv, name) in [
            (&["--level", "9"][..], "--level"),
            (&["--level", "0"][..], "--level"),
            (&["--iterations", "0"][..], "--iterations"),
            (&["--concurrency", "0"][..], "--concurrency"),
            (&["--batch", "0"][..], "--batch"),
            (&["--start", "100,6,40"][..], "--start"),
            (&["--start", "100,6,x,12,150,20,60,0"][..], "--start"),
            (&["--variant", "nonsense"][..], "--variant"),
            (&["--variant", "solo"][..], "--variant"),
            (&["--hold", "drive,speed"][..], "speed"),
        ] {
            let e = format!("{:#}", config(argv).err().expect("rejected"));
            assert!(e.contains(name), "{argv:?}: {e}");
        }
        let e = format!(
            "{:#}",
            config(&["--start", "100,6,x,12,150,20,60,0"])
                .err()
                .unwrap()
        );
        assert!(e.contains("back"), "{e}");
        let ok = config(&["--start", "90,5,30,10,150,25,50,0", "--level", "1"]).unwrap();
        assert_eq!(ok.start.rows, 90);
        assert_eq!(ok.level, 1);
        let held = config(&["--hold", "drive,tempo"]).unwrap().held;
        assert_eq!(held, [false, false, false, false, false, false, true, true]);
    }

    #[test]
    fn held_weights_are_neither_perturbed_nor_moved() {
        let mut held = [false; weight_text::COUNT];
        held[7] = true;
        let mut spsa = Spsa::new(Weights::DEFAULT, 100, held);
        let pair = spsa.perturb(0, [1.0; weight_text::COUNT], 3);
        assert_eq!(pair.plus.drive, pair.minus.drive);
        assert!(pair.plus.rows > pair.minus.rows);
        spsa.update(0, &pair, 2.0);
        assert_eq!(spsa.weights().drive, Weights::DEFAULT.drive);
        assert!(spsa.weights().rows > Weights::DEFAULT.rows);
    }

    #[test]
    fn plus_scores_its_share_of_the_pairs_across_the_two_sets() {
        let even = |u: usize| u.is_multiple_of(2);
        // Two sides: one pair.
        assert_eq!(plus_share(2, even, |u| [1, 2][u]), 1.0);
        assert_eq!(plus_share(2, even, |u| [2, 1][u]), 0.0);
        // Six units, θ⁺ holding 0, 2, 4: places 1, 2, 3, 4, 5, 6 win the
        // pairs (0,1) (0,3) (0,5) (2,3) (2,5) (4,5): 6 of 9.
        assert_eq!(plus_share(6, even, |u| u as u8 + 1), 6.0 / 9.0);
        // Three units, θ⁺ holding 0 and 2 against 1, ties counting ½.
        assert_eq!(plus_share(3, even, |u| [1, 1, 3][u]), 0.25);
        // Its complement: θ⁺ holding unit 1 alone.
        assert_eq!(plus_share(3, |u| u == 1, |u| [1, 1, 3][u]), 0.75);
    }

    #[test]
    fn a_real_game_pair_is_scored_from_plus_seat_and_is_deterministic() {
        let cfg = config(&["--level", "1", "--opening", "1"]).unwrap();
        let spsa = Spsa::new(Weights::DEFAULT, 10, FREE);
        let pair = spsa.perturb(0, [1.0; weight_text::COUNT], 42);
        let first: Vec<f64> = (0..2).map(|g| play_game(&cfg, &pair, g).unwrap()).collect();
        let again: Vec<f64> = (0..2).map(|g| play_game(&cfg, &pair, g).unwrap()).collect();
        assert_eq!(first, again);
        assert!(first.iter().all(|s| [0.0, 0.5, 1.0].contains(s)));
    }

    #[test]
    fn a_six_seat_game_pair_plays_the_tree_search() {
        let cfg = config(&["--variant", "classic-6", "--level", "2", "--opening", "1"]).unwrap();
        let spsa = Spsa::new(Weights::DEFAULT, 10, FREE);
        let pair = spsa.perturb(0, [1.0; weight_text::COUNT], 11);
        let first: Vec<f64> = (0..2).map(|g| play_game(&cfg, &pair, g).unwrap()).collect();
        let again: Vec<f64> = (0..2).map(|g| play_game(&cfg, &pair, g).unwrap()).collect();
        assert_eq!(first, again);
        // Nine pairs a game: the score is a multiple of 1/18.
        for s in first {
            assert!((0.0..=1.0).contains(&s));
            assert!(((s * 18.0).round() - s * 18.0).abs() < 1e-9, "{s}");
        }
    }
}
