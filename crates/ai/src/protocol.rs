//! The `stella engine` text protocol (docs/engine-protocol.md): one command a
//! line on the input, answers on the output. Bad lines get one `error …` line
//! and the engine keeps running.
//!
//! ```
//! use stella_ai::protocol::run;
//! use stella_ai::FrozenClock;
//! let input = b"variant classic-2\nposition startpos moves m3-m5\ngo depth 2\nisready\nquit\n";
//! let mut out = Vec::new();
//! run(&input[..], &mut out, &FrozenClock).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.lines().any(|l| l.starts_with("bestmove ")));
//! assert!(text.ends_with("readyok\n"));
//! ```

use crate::clock::Clock;
use crate::levels::Level;
use crate::limits::Limits;
use crate::request::Request;
use crate::search::{Info, Searcher, Settings};
use crate::stop_clock::StopClock;
use crate::strategy::Strategy;
use crate::with_game_request;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use stella_engine::{Colour, Game, MovePath, Position, Variant};

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was read.
    Quit,
}

/// The engine's state between commands: the game set up by `variant` and
/// `position`, and the searcher of `go` without `level`, which keeps its
/// tables across moves (`go level L` searches as the level does anywhere,
/// from cleared tables of the level's own size). That searcher is made at
/// the first such `go`, so an engine asked only for levels' moves never
/// holds its tables.
pub struct Engine {
    game: Game,
    searcher: Option<Searcher>,
    seed: u64,
    /// Raised to stop the running search (read through a [`StopClock`]).
    stop: Arc<AtomicBool>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("position", &self.game.position().to_string())
            .finish_non_exhaustive()
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// Short clock field prefixes: `w` white, `r` red, `u` blue, `b` black,
/// `y` yellow, `g` green (full colour names work too: `whitetime`, `blueinc`).
fn clock_prefix(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "w",
        Colour::Red => "r",
        Colour::Blue => "u",
        Colour::Black => "b",
        Colour::Yellow => "y",
        Colour::Green => "g",
    }
}

impl Engine {
    /// An engine set up at the start of `classic-2`.
    pub fn new() -> Engine {
        Engine {
            game: Game::new(Variant::Classic2),
            searcher: None,
            seed: 0,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The stop flag (set it from another thread to answer `stop`): every
    /// `go` reads the time through a [`StopClock`] on it, and clears it
    /// when its search ends.
    pub fn stop_signal(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Handles one command line, writing the answer to `out`.
    pub fn handle(
        &mut self,
        line: &str,
        out: &mut dyn Write,
        clock: &dyn Clock,
    ) -> io::Result<Flow> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return Ok(Flow::Continue);
        };
        let result = match command {
            "quit" => return Ok(Flow::Quit),
            "isready" => {
                writeln!(out, "readyok")?;
                Ok(())
            }
            "stop" => Ok(()),
            "newgame" => {
                if let Some(searcher) = &mut self.searcher {
                    searcher.clear();
                }
                Ok(())
            }
            "variant" => self.cmd_variant(&tokens[1..]),
            "position" => self.cmd_position(&tokens[1..]),
            "seed" => match tokens.get(1).map(|s| s.parse::<u64>()) {
                Some(Ok(s)) if tokens.len() == 2 => {
                    self.seed = s;
                    Ok(())
                }
                _ => Err("seed needs one number".to_string()),
            },
            "show" => {
                writeln!(out, "position {}", self.game.position())?;
                Ok(())
            }
            "go" => {
                let stop = self.stop.clone();
                let result = self.cmd_go(&tokens[1..], out, &StopClock::new(clock, &stop));
                stop.store(false, Ordering::Relaxed);
                result
            }
            other => Err(format!("unknown command {other:?}")),
        };
        match result {
            Ok(()) => {}
            Err(e) => writeln!(out, "error {e}")?,
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn cmd_variant(&mut self, args: &[&str]) -> Result<(), String> {
        let [id] = args else {
            return Err("variant needs one id".into());
        };
        let v: Variant = id.parse().map_err(|e| format!("{e}"))?;
        self.game = Game::new(v);
        Ok(())
    }

    fn cmd_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match head.first() {
            Some(&"startpos") if head.len() == 1 => Position::start(self.game.variant()),
            Some(&"fen") if head.len() > 1 => head[1..]
                .join(" ")
                .parse::<Position>()
                .map_err(|e| format!("bad position string: {e}"))?,
            _ => return Err("position needs startpos or fen STRING".into()),
        };
        let mut game = Game::from_position(start);
        for m in moves {
            let path: MovePath = m.parse().map_err(|e| format!("bad move {m:?}: {e}"))?;
            game.play_path(&path)
                .map_err(|e| format!("illegal move {m:?}: {e}"))?;
        }
        self.game = game;
        Ok(())
    }

    fn cmd_go(
        &mut self,
        args: &[&str],
        out: &mut dyn Write,
        clock: &dyn Clock,
    ) -> Result<(), String> {
        let mut limits = Limits::default();
        let mut level: Option<u8> = None;
        let turn = self.game.turn();
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            if key == "infinite" {
                i += 1;
                continue;
            }
            let value: u64 = args
                .get(i + 1)
                .ok_or_else(|| format!("go {key} needs a value"))?
                .parse()
                .map_err(|_| format!("go {key} needs a number"))?;
            let p = clock_prefix(turn);
            let name = turn.name();
            match key {
                "movetime" => limits.movetime_ms = Some(value),
                "depth" => limits.depth = Some(value.clamp(1, 90) as u32),
                "nodes" => limits.nodes = Some(value),
                "level" => {
                    if !(1..=8).contains(&value) {
                        return Err("level must be 1-8".into());
                    }
                    level = Some(value as u8);
                }
                k if k == format!("{p}time") || k == format!("{name}time") => {
                    limits.remaining_ms = Some(value)
                }
                k if k == format!("{p}inc") || k == format!("{name}inc") => {
                    limits.increment_ms = Some(value)
                }
                k if k.ends_with("time") || k.ends_with("inc") => {}
                other => return Err(format!("unknown go parameter {other:?}")),
            }
            i += 2;
        }
        if let Some(l) = level {
            return with_game_request(&self.game, l, self.seed, |request| {
                go_level(&request.max_ms(limits.movetime_ms), out, clock)
            });
        }
        let history: Vec<u64> = self.game.positions().iter().map(|p| p.hash()).collect();
        let position = *self.game.position();
        // The default settings have level 8's race width.
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(Settings::default()));
        searcher.set_noise(0, self.seed);
        if limits == Limits::default() {
            limits = Level::get(8).limits();
        }
        searcher.set_game_history(&history);
        searcher.set_strategy(Strategy::alpha_beta_for(self.game.variant()));
        let mut report = InfoWriter::new(out, &position);
        let result = searcher.search_with(&position, limits, clock, &mut |info| report.write(info));
        report.finish()?;
        let line = match result {
            Some(r) => format!("bestmove {}", position.path_of(&r.best)),
            None => "bestmove none".to_string(),
        };
        writeln!(out, "{line}").map_err(|e| e.to_string())
    }
}

/// `go level L`: the level's own move, chosen by [`Request::choose`]'s
/// dispatch (the race solver, then alpha-beta at two units or the tree
/// search beyond, with the game's history and the progress guard), so that
/// it is the move the level plays everywhere else for the same seed. Each
/// depth alpha-beta completes gets an `info depth` line; a move found
/// without one (by the race solver, the tree search, or a search stopped
/// before its first depth) gets one line with the time spent and the move.
/// A `stop` ends the search at its next look at the clock.
fn go_level(request: &Request, out: &mut dyn Write, clock: &dyn Clock) -> Result<(), String> {
    let t0 = clock.now_ms();
    let mut report = InfoWriter::new(out, request.position);
    let best = request.choose_reporting(clock, &mut |info| report.write(info));
    let depth_lines = report.finish()?;
    let line = match best {
        Some(mv) => {
            let path = request.position.path_of(&mv);
            if depth_lines == 0 {
                let ms = (clock.now_ms() - t0).max(0.0) as u64;
                writeln!(out, "info time {ms} pv {path}").map_err(|e| e.to_string())?;
            }
            format!("bestmove {path}")
        }
        None => "bestmove none".to_string(),
    };
    writeln!(out, "{line}").map_err(|e| e.to_string())
}

/// Writes the `info` lines of one search as its depths complete, keeping the
/// first write error to report once the search is over.
struct InfoWriter<'a> {
    out: &'a mut dyn Write,
    position: &'a Position,
    lines: usize,
    error: Option<io::Error>,
}

impl<'a> InfoWriter<'a> {
    fn new(out: &'a mut dyn Write, position: &'a Position) -> InfoWriter<'a> {
        InfoWriter {
            out,
            position,
            lines: 0,
            error: None,
        }
    }

    /// Writes `info`'s line, unless an earlier write failed.
    fn write(&mut self, info: &Info) {
        if self.error.is_none() {
            match write_info(self.out, self.position, info) {
                Ok(()) => self.lines += 1,
                Err(e) => self.error = Some(e),
            }
        }
    }

    /// The number of lines written, or the first write error.
    fn finish(self) -> Result<usize, String> {
        match self.error {
            Some(e) => Err(format!("output failed: {e}")),
            None => Ok(self.lines),
        }
    }
}

/// Writes one `info` line: depth, score, nodes, time, nps and the PV as paths.
fn write_info(out: &mut dyn Write, position: &Position, info: &Info) -> io::Result<()> {
    let pv = crate::judgement::pv_paths(position, &info.pv);
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    writeln!(
        out,
        "info depth {} score {} nodes {} time {} nps {} pv {}",
        info.depth,
        info.score,
        info.nodes,
        info.time_ms,
        nps,
        pv.join(" ")
    )?;
    out.flush()
}

/// Runs the protocol until `quit` or the end of the input. Commands are
/// handled one after the other (`stop` has nothing to stop here; see
/// [`run_threaded`] for a loop that can interrupt a search).
pub fn run(input: impl BufRead, mut output: impl Write, clock: &dyn Clock) -> io::Result<()> {
    let mut engine = Engine::new();
    for line in input.lines() {
        if engine.handle(&line?, &mut output, clock)? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// Runs the protocol with the input read on its own thread, so that `stop`
/// and `quit` interrupt a running search, even one whose `go` had not
/// started yet when the `stop` was read (native only; the crate's
/// `stop_gate` module tells how).
#[cfg(not(target_arch = "wasm32"))]
pub fn run_threaded(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    clock: &dyn Clock,
) -> io::Result<()> {
    let mut engine = Engine::new();
    let gate = std::sync::Arc::new(crate::stop_gate::StopGate::new(engine.stop_signal()));
    let reader_gate = gate.clone();
    let (tx, rx) = std::sync::mpsc::channel::<io::Result<String>>();
    std::thread::spawn(move || {
        for line in input.lines() {
            if let Ok(l) = &line {
                reader_gate.on_read(l);
            }
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    for line in rx {
        let line = line?;
        if line.split_whitespace().next() == Some("go") {
            gate.before_go();
        }
        if engine.handle(&line, &mut output, clock)? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FrozenClock;

    /// `go` without a level searches with the default settings, whose race
    /// width must be level 8's.
    #[test]
    fn the_default_race_width_is_level_8_s() {
        assert_eq!(Settings::default().race_width, Level::get(8).race_width);
    }

    #[test]
    fn the_analysis_searcher_is_made_at_the_first_go_without_a_level() {
        let mut engine = Engine::new();
        let mut out = Vec::new();
        for line in ["newgame", "position startpos", "go level 1"] {
            engine.handle(line, &mut out, &FrozenClock).unwrap();
        }
        assert!(engine.searcher.is_none());
        engine.handle("go depth 1", &mut out, &FrozenClock).unwrap();
        assert!(engine.searcher.is_some());
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("bestmove ").count(), 2, "{text}");
    }
}
