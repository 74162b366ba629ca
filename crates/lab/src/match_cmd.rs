//! `stella-lab match`: plays N games between two players (internal levels, the
//! greedy baseline, or external programs speaking the engine protocol),
//! several at once, seats rotated, openings varied; prints the score, the Elo
//! difference with a 95% interval, the average length and each player's
//! think time (wall and CPU); saves the records.
//!
//! A game in which an external engine fails (rejects the game's moves, answers
//! an illegal move, reports an error or exits) is aborted, not the match: its
//! record is saved with an `Aborted` tag naming the engine and its answer,
//! the game is reported and left out of the score (a rules disagreement
//! says nothing about strength), and the match goes on with the next game.

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
use stella_ai::{Clock, FrozenClock, Request, Strategy, Style, SystemClock};
use stella_engine::{Colour, Game, Move, Record, Variant};

use crate::cpu::{process_cpu_ms, thread_cpu_ms};
use crate::score::{ends_line, pairwise_score, Summary};
use crate::thread_clock::ThreadCpuClock;
use crate::weight_text;

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
    #[arg(long, conflicts_with = "cpu_clock")]
    budget_only: bool,
    /// Levels' time caps count the CPU time of the thread that searches,
    /// not wall time: a capped level then gets the same work for its cap on
    /// a busy machine as on a quiet one. External engines keep their own
    /// clocks.
    #[arg(long)]
    cpu_clock: bool,
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
                    style.weights = weight_text::parse(w).map_err(|e| anyhow!(e))?;
                } else if let Some((key, _)) = part.split_once('=') {
                    bail!("unknown setting {key:?} in {s:?}: only w=WEIGHTS");
                } else {
                    style.strategy = Some(strategy_named(part)?);
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

/// The strategy whose command-line name ([`Strategy::name`]) is `name`.
fn strategy_named(name: &str) -> anyhow::Result<Strategy> {
    Strategy::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
            anyhow!("unknown strategy {name:?}: use {}", names.join(", "))
        })
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

    /// CPU time the engine process has used so far, in milliseconds.
    fn cpu_ms(&self) -> Option<f64> {
        process_cpu_ms(self.child.id())
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

/// One player's thinking over a game: moves chosen, their wall time and
/// CPU time (`None` when the system cannot tell the CPU time).
#[derive(Clone, Copy, Debug, Default)]
struct Think {
    moves: usize,
    wall_ms: f64,
    cpu_ms: Option<f64>,
}

impl Think {
    fn add(&mut self, wall_ms: f64, cpu_ms: Option<f64>) {
        self.cpu_ms = match (self.moves, self.cpu_ms, cpu_ms) {
            (0, _, c) => c,
            (_, Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        self.moves += 1;
        self.wall_ms += wall_ms;
    }

    fn merge(&mut self, other: &Think) {
        if other.moves == 0 {
            return;
        }
        self.cpu_ms = match (self.moves, self.cpu_ms, other.cpu_ms) {
            (0, _, c) => c,
            (_, Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        self.moves += other.moves;
        self.wall_ms += other.wall_ms;
    }

    /// "N moves, average W ms wall, C ms CPU".
    fn line(&self) -> String {
        let n = self.moves.max(1) as f64;
        let cpu = self.cpu_ms.map_or("CPU unknown".to_string(), |c| {
            format!("{:.0} ms CPU", c / n)
        });
        format!(
            "{} moves, average {:.0} ms wall, {cpu}",
            self.moves,
            self.wall_ms / n
        )
    }
}

/// One game, from the first player's point of view.
struct GameResult {
    index: usize,
    score: f64,
    plies: usize,
    seats: usize,
    reason: String,
    max_ms: [f64; 2],
    think: [Think; 2],
    /// Why the game was aborted (which engine failed, and how); `None` for
    /// a finished game.
    aborted: Option<String>,
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
    } else if args.cpu_clock {
        &ThreadCpuClock
    } else {
        &system
    };
    let mut max_ms = [0.0f64; 2];
    let mut think = [Think::default(); 2];
    let mut aborted = None;
    let mut positions = game.positions();
    let mut hashes: Vec<u64> = positions.iter().map(|p| p.hash()).collect();
    while !game.is_over() {
        let p = owner(game.turn());
        let seed = args.seed ^ ((index as u64) << 20) ^ game.moves().len() as u64;
        let cpu_of = |externals: &[Option<External>; 2]| match &externals[p] {
            Some(e) => e.cpu_ms(),
            None => thread_cpu_ms(),
        };
        let cpu0 = cpu_of(&externals);
        let t0 = Instant::now();
        let mv = match &specs[p] {
            PlayerSpec::Greedy => greedy_move(game.position(), seed),
            PlayerSpec::Level(l, style) => Request::new(game.position(), *l, seed)
                .history(&hashes)
                .progress(Progress::of_game(&positions))
                .max_ms(args.movetime)
                .style(*style)
                .choose(clock),
            PlayerSpec::External(_) => {
                let engine = externals[p].as_mut().expect("started");
                match engine.choose(&game, args.movetime, seed) {
                    Ok(mv) => Some(mv),
                    Err(e) => {
                        aborted = Some(format!("{}: {e:#}", names[p]));
                        break;
                    }
                }
            }
        };
        let wall_ms = t0.elapsed().as_secs_f64() * 1000.0;
        let cpu_ms = cpu0.zip(cpu_of(&externals)).map(|(a, b)| b - a);
        think[p].add(wall_ms, cpu_ms);
        max_ms[p] = max_ms[p].max(wall_ms);
        let Some(mv) = mv else {
            bail!("no move in a game that is not over");
        };
        game.play(&mv)
            .map_err(|e| anyhow!("{} played an illegal move: {e}", names[p]))?;
        hashes.push(game.position().hash());
        positions.push(*game.position());
    }
    let tags: Vec<(String, String)> = variant
        .seats()
        .iter()
        .map(|&c| (Record::seat_tag(c).to_string(), names[owner(c)].clone()))
        .collect();
    let mut tag_refs: Vec<(&str, &str)> = vec![("Event", "stella match")];
    tag_refs.extend(tags.iter().map(|(a, b)| (a.as_str(), b.as_str())));
    // One line, so that the record's tag stays one line whatever the engine said.
    let abort_text = aborted.as_ref().map(|a| a.replace(['\n', '\r', '"'], " "));
    if let Some(a) = &abort_text {
        tag_refs.push(("Aborted", a));
    }
    let record = Record::from_game(&game, &tag_refs).to_string();
    let (score, reason) = match game.outcome() {
        Some(outcome) => (
            pairwise_score(&outcome.places, &teams, one_unit),
            outcome.reason.to_string(),
        ),
        None => (0.0, "aborted".to_string()),
    };
    Ok(GameResult {
        index,
        score,
        plies: game.moves().len(),
        seats: variant.players(),
        reason,
        max_ms,
        think,
        aborted: abort_text,
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
                        if let Some(why) = &r.aborted {
                            bar.suspend(|| eprintln!("game {} aborted: {why}", r.index + 1));
                        }
                        all.push(r);
                        let scored: Vec<f64> = all
                            .iter()
                            .filter(|r| r.aborted.is_none())
                            .map(|r| r.score)
                            .collect();
                        let total: f64 = scored.iter().sum();
                        let aborted = all.len() - scored.len();
                        let mut progress = format!("score {:.1}/{}", total, scored.len());
                        if aborted > 0 {
                            progress.push_str(&format!(", {aborted} aborted"));
                        }
                        if bar.is_hidden() {
                            // No terminal to draw the bar on (a log file): one line a
                            // game, with the think times so far, so that a run stopped
                            // before its last game still tells them.
                            let think = total_think(&all);
                            eprintln!(
                                "game {}/{}: {progress}; think {}: {}; think {}: {}",
                                all.len(),
                                args.games,
                                names[0],
                                think[0].line(),
                                names[1],
                                think[1].line()
                            );
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

/// Each player's thinking over all of `all`, aborted games included.
fn total_think(all: &[GameResult]) -> [Think; 2] {
    let mut think = [Think::default(); 2];
    for r in all {
        think[0].merge(&r.think[0]);
        think[1].merge(&r.think[1]);
    }
    think
}

fn report(all: &[GameResult], names: &[String; 2], variant: Variant) {
    let aborted: Vec<&GameResult> = all.iter().filter(|r| r.aborted.is_some()).collect();
    for r in &aborted {
        println!(
            "aborted game {} after {} plies, not scored: {}",
            r.index + 1,
            r.plies,
            r.aborted.as_deref().unwrap_or_default()
        );
    }
    let think = total_think(all);
    let results: Vec<&GameResult> = all.iter().filter(|r| r.aborted.is_none()).collect();
    let scores: Vec<f64> = results.iter().map(|r| r.score).collect();
    let Some(summary) = Summary::of(&scores) else {
        println!("no games finished ({} aborted)", aborted.len());
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
        "variant {variant}: {} vs {}, {} games{}",
        names[0],
        names[1],
        results.len(),
        if aborted.is_empty() {
            String::new()
        } else {
            format!(" ({} more aborted)", aborted.len())
        }
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
    for p in 0..2 {
        println!("think {}: {}", names[p], think[p].line());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let unknown = format!("{:#}", PlayerSpec::parse("level:3:maxn").unwrap_err());
        assert!(unknown.contains("\"maxn\"") && unknown.contains("paranoid, brs, mcts"));
        for s in Strategy::ALL {
            assert_eq!(strategy_named(s.name()).unwrap(), s);
        }
    }

    #[test]
    fn think_times_add_up_and_cpu_unknown_once_stays_unknown() {
        let mut a = Think::default();
        a.add(100.0, Some(80.0));
        a.add(300.0, Some(120.0));
        assert_eq!(a.line(), "2 moves, average 200 ms wall, 100 ms CPU");
        let mut b = Think::default();
        b.add(50.0, None);
        let mut all = Think::default();
        all.merge(&Think::default());
        all.merge(&a);
        assert_eq!(all.cpu_ms, Some(200.0));
        all.merge(&b);
        assert_eq!(all.moves, 3);
        assert_eq!(all.line(), "3 moves, average 150 ms wall, CPU unknown");
    }

    #[test]
    fn the_think_times_so_far_add_every_game_keeping_the_players_apart() {
        let game = |one: f64, two: f64, aborted: Option<String>| {
            let mut think = [Think::default(); 2];
            think[0].add(one, Some(one));
            think[1].add(two, Some(two / 2.0));
            GameResult {
                index: 0,
                score: 0.5,
                plies: 2,
                seats: 2,
                reason: "arrived".to_string(),
                max_ms: [one, two],
                think,
                aborted,
                record: String::new(),
            }
        };
        let all = [
            game(100.0, 300.0, None),
            game(200.0, 500.0, Some("an illegal answer".to_string())),
        ];
        let total = total_think(&all);
        assert_eq!(total[0].line(), "2 moves, average 150 ms wall, 150 ms CPU");
        assert_eq!(total[1].line(), "2 moves, average 400 ms wall, 200 ms CPU");
    }

    #[test]
    fn player_specs_refuse_settings_other_than_weights() {
        let unknown = format!("{:#}", PlayerSpec::parse("level:7:it=3").unwrap_err());
        assert!(unknown.contains("\"it\""), "{unknown}");
    }
}
