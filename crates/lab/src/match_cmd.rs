//! `stella-lab match`: plays N games between two players (internal levels, the
//! greedy baseline, or external programs speaking the engine protocol),
//! several at once, seats rotated, openings varied; prints the score, the Elo
//! difference with a 95% interval and the average length; saves the records.

use anyhow::{anyhow, bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use stella_ai::greedy::greedy_move;
use stella_ai::progress::Progress;
use stella_ai::rng::Rng;
use stella_ai::tables::tables;
use stella_ai::{Clock, FrozenClock, Request, Style, SystemClock};
use stella_engine::{Colour, Game, Move, Record, Variant};

use crate::score::{ends_line, pairwise_score, Summary};

/// Arguments of `stella-lab match`.
#[derive(clap::Args)]
pub struct MatchArgs {
    /// First player: `greedy`, `level:N[:STRATEGY][:w=WEIGHTS]` (N = 1-8;
    /// STRATEGY = paranoid, brs or mcts; WEIGHTS = eight comma-separated
    /// evaluation weights) or `cmd:PROGRAM ARGS…` (an external engine
    /// speaking the engine protocol, asked for `go level 8` or, with
    /// --movetime, `go movetime`).
    #[arg(long)]
    one: String,
    /// Second player, same forms as --one.
    #[arg(long)]
    two: String,
    /// Variant id.
    #[arg(long, default_value = "classic-2")]
    variant: String,
    /// Number of games.
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Thinking time per move in milliseconds: a cap for levels, `go movetime`
    /// for external engines (without it they get `go level 8`).
    #[arg(long)]
    movetime: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Random opening moves per seat before the players take over.
    #[arg(long, default_value_t = 1)]
    opening: usize,
    /// Seed for openings and players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Levels stop on their work budgets only (nodes, depth, iterations), not
    /// on their time caps: the games are then the same on a busy machine as
    /// on a quiet one. External engines keep their own clocks.
    #[arg(long)]
    budget_only: bool,
    /// Directory to save the game records in.
    #[arg(long)]
    records: Option<PathBuf>,
}

#[derive(Clone, Debug)]
enum PlayerSpec {
    Greedy,
    Level(u8, Style),
    External(Vec<String>),
}

impl PlayerSpec {
    fn parse(s: &str) -> anyhow::Result<PlayerSpec> {
        if s == "greedy" {
            return Ok(PlayerSpec::Greedy);
        }
        if let Some(rest) = s.strip_prefix("level:") {
            let mut parts = rest.split(':');
            let l = parts.next().unwrap_or_default();
            let l: u8 = l
                .parse()
                .with_context(|| format!("level:N needs a number, got {l:?}"))?;
            if !(1..=8).contains(&l) {
                bail!("levels are 1-8, got {l}");
            }
            let mut style = Style::default();
            for part in parts {
                if let Some(w) = part.strip_prefix("w=") {
                    style.weights = w.parse().map_err(|e: String| anyhow!(e))?;
                } else if let Some((key, _)) = part.split_once('=') {
                    bail!("unknown setting {key:?} in {s:?}: only w=WEIGHTS");
                } else {
                    style.strategy = Some(part.parse()?);
                }
            }
            return Ok(PlayerSpec::Level(l, style));
        }
        if let Some(c) = s.strip_prefix("cmd:") {
            let words: Vec<String> = c.split_whitespace().map(String::from).collect();
            if words.is_empty() {
                bail!("cmd: needs a program");
            }
            return Ok(PlayerSpec::External(words));
        }
        bail!("unknown player {s:?}: use greedy, level:N[:STRATEGY][:w=WEIGHTS] or cmd:PROGRAM")
    }
}

/// An external engine process for one game.
struct External {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl External {
    fn start(words: &[String], variant: Variant) -> anyhow::Result<External> {
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", words[0]))?;
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("no stdin"))?;
        let stdout = BufReader::new(child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?);
        let mut e = External {
            child,
            stdin,
            stdout,
        };
        writeln!(e.stdin, "variant {variant}")?;
        Ok(e)
    }

    fn choose(&mut self, game: &Game, movetime: Option<u64>, seed: u64) -> anyhow::Result<Move> {
        let start = game.start().to_string();
        let moves: Vec<String> = game.moves().iter().map(|(_, p)| p.to_string()).collect();
        writeln!(self.stdin, "seed {seed}")?;
        if moves.is_empty() {
            writeln!(self.stdin, "position fen {start}")?;
        } else {
            writeln!(self.stdin, "position fen {start} moves {}", moves.join(" "))?;
        }
        match movetime {
            Some(ms) => writeln!(self.stdin, "go movetime {ms}")?,
            None => writeln!(self.stdin, "go level 8")?,
        }
        self.stdin.flush()?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("engine closed its output");
            }
            if let Some(path) = line.trim().strip_prefix("bestmove ") {
                let path = path
                    .parse()
                    .map_err(|e| anyhow!("bad bestmove {path}: {e}"))?;
                return game
                    .position()
                    .resolve_path(&path)
                    .map_err(|e| anyhow!("illegal bestmove: {e}"));
            }
            if let Some(e) = line.trim().strip_prefix("error ") {
                bail!("engine error: {e}");
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// One finished game, from the first player's point of view.
struct GameResult {
    index: usize,
    score: f64,
    plies: usize,
    seats: usize,
    reason: String,
    max_ms: [f64; 2],
    record: String,
}

pub(crate) fn opening(variant: Variant, plies_per_seat: usize, seed: u64) -> Game {
    let mut game = Game::new(variant);
    let mut rng = Rng::new(seed);
    for _ in 0..plies_per_seat * variant.players() {
        if game.is_over() {
            break;
        }
        let pos = *game.position();
        let t = tables(pos.turn());
        let moves = stella_ai::deadline::safe_moves(&pos);
        let forward: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| t.rows_to_go[m.from.index()] > t.rows_to_go[m.to.index()])
            .collect();
        let pool = if forward.is_empty() { moves } else { forward };
        let mv = pool[rng.below(pool.len() as u64) as usize];
        game.play(&mv).expect("a legal opening move");
    }
    game
}

fn play_one(
    index: usize,
    variant: Variant,
    specs: &[PlayerSpec; 2],
    names: &[String; 2],
    args: &MatchArgs,
) -> anyhow::Result<GameResult> {
    let teams = variant.teams();
    let k = teams.len();
    let one_unit = index % k;
    let owner = |c: Colour| -> usize {
        if teams[one_unit].contains(&c) {
            0
        } else {
            1
        }
    };
    let mut game = opening(
        variant,
        args.opening,
        args.seed.wrapping_mul(7919) + (index / k) as u64,
    );
    let mut externals: [Option<External>; 2] = [None, None];
    for p in 0..2 {
        if let PlayerSpec::External(words) = &specs[p] {
            externals[p] = Some(External::start(words, variant)?);
        }
    }
    let system = SystemClock::new();
    let clock: &dyn Clock = if args.budget_only {
        &FrozenClock
    } else {
        &system
    };
    let mut max_ms = [0.0f64; 2];
    let mut positions = game.positions();
    let mut hashes: Vec<u64> = positions.iter().map(|p| p.hash()).collect();
    while !game.is_over() {
        let p = owner(game.turn());
        let seed = args.seed ^ ((index as u64) << 20) ^ game.moves().len() as u64;
        let t0 = Instant::now();
        let mv = match &specs[p] {
            PlayerSpec::Greedy => greedy_move(game.position(), seed),
            PlayerSpec::Level(l, style) => Request::new(game.position(), *l, seed)
                .history(&hashes)
                .progress(Progress::of_game(&positions))
                .max_ms(args.movetime)
                .style(*style)
                .choose(clock),
            PlayerSpec::External(_) => Some(externals[p].as_mut().expect("started").choose(
                &game,
                args.movetime,
                seed,
            )?),
        };
        max_ms[p] = max_ms[p].max(t0.elapsed().as_secs_f64() * 1000.0);
        let Some(mv) = mv else {
            bail!("no move in a game that is not over");
        };
        game.play(&mv)
            .map_err(|e| anyhow!("{} played an illegal move: {e}", names[p]))?;
        hashes.push(game.position().hash());
        positions.push(*game.position());
    }
    let outcome = game.outcome().expect("over");
    let score = pairwise_score(&outcome.places, &teams, one_unit);
    let tags: Vec<(String, String)> = variant
        .seats()
        .iter()
        .map(|&c| (Record::seat_tag(c).to_string(), names[owner(c)].clone()))
        .collect();
    let mut tag_refs: Vec<(&str, &str)> = vec![("Event", "stella match")];
    tag_refs.extend(tags.iter().map(|(a, b)| (a.as_str(), b.as_str())));
    let record = Record::from_game(&game, &tag_refs).to_string();
    Ok(GameResult {
        index,
        score,
        plies: game.moves().len(),
        seats: variant.players(),
        reason: outcome.reason.to_string(),
        max_ms,
        record,
    })
}

/// Writes the record of a finished game into `dir` (if given) at once, so
/// that an interrupted match keeps the games it played.
fn save_record(dir: Option<&std::path::Path>, r: &GameResult) -> anyhow::Result<()> {
    if let Some(dir) = dir {
        let path = dir.join(format!("game-{:04}.txt", r.index + 1));
        std::fs::write(&path, &r.record).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Runs `stella-lab match`.
pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let variant: Variant = args.variant.parse().context("--variant")?;
    if variant == Variant::Solo {
        bail!("solo has one player: use stella solo");
    }
    let specs = [PlayerSpec::parse(&args.one)?, PlayerSpec::parse(&args.two)?];
    let names = [args.one.clone(), args.two.clone()];
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games {elapsed_precise} eta {eta} {msg}",
        )
        .expect("a valid template"),
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<GameResult>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..args.concurrency.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= args.games || failure.lock().expect("lock").is_some() {
                    break;
                }
                let played = play_one(i, variant, &specs, &names, &args)
                    .and_then(|r| save_record(args.records.as_deref(), &r).map(|()| r));
                match played {
                    Ok(r) => {
                        let mut all = results.lock().expect("lock");
                        all.push(r);
                        let total: f64 = all.iter().map(|r| r.score).sum();
                        let progress = format!("score {:.1}/{}", total, all.len());
                        if bar.is_hidden() {
                            // No terminal to draw the bar on (a log file): one line a game.
                            eprintln!("game {}/{}: {progress}", all.len(), args.games);
                        }
                        bar.set_message(progress);
                        bar.inc(1);
                    }
                    Err(e) => {
                        *failure.lock().expect("lock") = Some(e.context(format!("game {}", i + 1)));
                        break;
                    }
                }
            });
        }
    });
    bar.finish();
    if let Some(e) = failure.into_inner().expect("lock") {
        return Err(e);
    }
    let mut results = results.into_inner().expect("lock");
    results.sort_by_key(|r| r.index);
    report(&results, &names, variant);
    Ok(())
}

fn report(results: &[GameResult], names: &[String; 2], variant: Variant) {
    let scores: Vec<f64> = results.iter().map(|r| r.score).collect();
    let Some(summary) = Summary::of(&scores) else {
        println!("no games played");
        return;
    };
    let n = results.len() as f64;
    let avg_len = results
        .iter()
        .map(|r| r.plies as f64 / r.seats as f64)
        .sum::<f64>()
        / n;
    let max0 = results.iter().map(|r| r.max_ms[0]).fold(0.0, f64::max);
    let max1 = results.iter().map(|r| r.max_ms[1]).fold(0.0, f64::max);
    println!(
        "variant {variant}: {} vs {}, {} games",
        names[0],
        names[1],
        results.len()
    );
    println!("{}", summary.lines(&names[0]));
    println!("average length {avg_len:.1} moves a side");
    println!(
        "ends: {}",
        ends_line(results.iter().map(|r| r.reason.as_str()))
    );
    println!(
        "longest think: {} {:.0} ms, {} {:.0} ms",
        names[0], max0, names[1], max1
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_ai::Strategy;

    #[test]
    fn player_specs_parse_levels_strategies_and_weights() {
        let PlayerSpec::Level(8, style) = PlayerSpec::parse("level:8:brs").unwrap() else {
            panic!("not a level");
        };
        assert_eq!(style.strategy, Some(Strategy::BestReply));
        let PlayerSpec::Level(5, style) =
            PlayerSpec::parse("level:5:w=90,5,30,10,150,25,50,0").unwrap()
        else {
            panic!("not a level");
        };
        assert_eq!(style.weights.rows, 90);
        assert_eq!(style.strategy, None);
        for bad in [
            "level:9",
            "level:x",
            "level:3:maxn",
            "level:3:w=1,2",
            "gready",
        ] {
            let e = PlayerSpec::parse(bad).unwrap_err();
            assert!(!format!("{e:#}").is_empty(), "{bad}");
        }
        assert!(format!("{:#}", PlayerSpec::parse("level:3:maxn").unwrap_err()).contains("maxn"));
    }

    #[test]
    fn player_specs_refuse_settings_other_than_weights() {
        let unknown = format!("{:#}", PlayerSpec::parse("level:7:it=3").unwrap_err());
        assert!(unknown.contains("\"it\""), "{unknown}");
    }
}
