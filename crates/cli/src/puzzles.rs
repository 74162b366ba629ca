//! `stella puzzles --from DB --out FILE`: "finish in N" puzzles taken from the
//! finished games of a server's database. A puzzle is a position of a real game
//! where the armies have passed each other (a race) and the race solver proves
//! the shortest finish of the player to move: N moves, 2 ≤ N ≤ `--max-moves`.
//! From each game, for each player, the puzzle is the earliest such position
//! (the longest finish within the bound). The file is JSON (docs/puzzles.md).

use anyhow::Context;
use stella_ai::multipv::finish_length;
use stella_ai::race::is_race;
use stella_ai::{Clock, SystemClock};
use stella_engine::{Colour, Record};
use stella_server::puzzles::PuzzleSet;
pub use stella_server::puzzles::{rating_of, Puzzle, PuzzleFile, FORMAT};
use stella_server::storage::Storage;

/// Games read from the database at a time.
const PAGE: i64 = 200;

/// Arguments of `stella puzzles`.
#[derive(clap::Args)]
pub struct PuzzlesArgs {
    /// The server's database (a SQLite file path or URL, or a `postgres://` URL).
    #[arg(long)]
    from: String,
    /// The puzzle file to write (JSON).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Longest finish of a puzzle, in moves.
    #[arg(long, default_value_t = 5)]
    max_moves: usize,
    /// Time the solver may spend on one position, in seconds.
    #[arg(long, default_value_t = 2.0)]
    time: f64,
    /// Nodes the solver may visit on one position.
    #[arg(long, default_value_t = 2_000_000)]
    nodes: u64,
}

/// The puzzles of one finished game given by its record, for each player the
/// earliest race position whose proved shortest finish takes 2…`max_moves`
/// moves. Work per position is bounded by `budget_ms` and `nodes`.
pub fn puzzles_of_record(
    game_id: &str,
    record: &str,
    max_moves: usize,
    clock: &dyn Clock,
    budget_ms: f64,
    nodes: u64,
) -> anyhow::Result<Vec<Puzzle>> {
    let game = Record::parse(record)?.replay()?;
    let positions = game.positions();
    let mut found: Vec<Puzzle> = Vec::new();
    let mut done: Vec<Colour> = Vec::new();
    // From the end backwards: finishes grow longer, and each player's walk stops
    // at the first position that is no longer a short proved race.
    let mut stopped: Vec<Colour> = Vec::new();
    let mut best: Vec<(Colour, usize, usize)> = Vec::new();
    for (ply, pos) in positions.iter().enumerate().rev() {
        if pos.is_over() {
            continue;
        }
        let colour = pos.turn();
        if stopped.contains(&colour) {
            continue;
        }
        let length = if is_race(pos) {
            finish_length(pos, clock, budget_ms, nodes)
                .filter(|f| f.proved())
                .map(|f| f.plan.len())
        } else {
            None
        };
        match length {
            Some(n) if n <= max_moves => {
                if n >= 2 {
                    best.retain(|(c, _, _)| *c != colour);
                    best.push((colour, ply, n));
                }
            }
            _ => stopped.push(colour),
        }
    }
    best.sort_by_key(|&(_, ply, _)| ply);
    for (colour, ply, n) in best {
        if done.contains(&colour) {
            continue;
        }
        done.push(colour);
        found.push(Puzzle {
            id: format!("{game_id}-{ply}"),
            position: positions[ply].to_string(),
            moves: n,
            rating: rating_of(n),
            game: game_id.to_string(),
            ply,
        });
    }
    Ok(found)
}

/// Runs `stella puzzles`.
pub fn run(args: PuzzlesArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        (2..=12).contains(&args.max_moves),
        "--max-moves must be 2 to 12, not {}",
        args.max_moves
    );
    let runtime = tokio::runtime::Runtime::new()?;
    let games = runtime.block_on(async {
        let storage = Storage::connect(&args.from)
            .await
            .with_context(|| format!("--from {}: cannot open the database", args.from))?;
        let mut games = Vec::new();
        let mut after: Option<(i64, String)> = None;
        loop {
            let page = storage
                .finished_records(after.as_ref().map(|(ms, id)| (*ms, id.as_str())), PAGE)
                .await?;
            let Some(last) = page.last() else { break };
            after = Some((last.2, last.0.clone()));
            games.extend(page.into_iter().map(|(id, record, _)| (id, record)));
        }
        storage.close().await;
        anyhow::Ok(games)
    })?;
    let clock = SystemClock::new();
    let mut puzzles = Vec::new();
    let mut skipped = 0;
    for (id, record) in &games {
        match puzzles_of_record(
            id,
            record,
            args.max_moves,
            &clock,
            args.time * 1000.0,
            args.nodes,
        ) {
            Ok(p) => puzzles.extend(p),
            Err(e) => {
                skipped += 1;
                eprintln!("game {id}: record skipped: {e}");
            }
        }
    }
    let file = PuzzleFile {
        format: FORMAT.to_string(),
        puzzles,
    };
    // The same check `stella serve --puzzles` makes, so a written file is servable.
    PuzzleSet::from_file(file.clone()).context("the puzzles found do not form a valid set")?;
    let text = serde_json::to_string_pretty(&file)?;
    // Written next to the target and renamed, so a server never reads half a file.
    let tmp = args.out.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("--out {}", args.out.display()))?;
    std::fs::rename(&tmp, &args.out).with_context(|| format!("--out {}", args.out.display()))?;
    println!(
        "{} puzzles from {} finished games ({} skipped) written to {}",
        file.puzzles.len(),
        games.len(),
        skipped,
        args.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_ai::FrozenClock;
    use stella_engine::{Game, Position, Variant};

    /// A game between two level-1 players to its end, as a record.
    fn played_record(seed: u64) -> String {
        let mut game = Game::new(Variant::Classic2);
        while !game.is_over() {
            let mv = stella_ai::best_move_in_game(
                &game,
                1,
                seed + game.moves().len() as u64,
                &FrozenClock,
                None,
            )
            .expect("a move");
            let path = game.position().path_of(&mv);
            game.play_path(&path).unwrap();
        }
        Record::from_game(&game, &[]).to_string()
    }

    #[test]
    fn puzzles_of_a_played_game_are_proved_short_finishes_of_its_positions() {
        let record = played_record(7);
        let puzzles = puzzles_of_record("g1", &record, 5, &FrozenClock, 1e9, 2_000_000).unwrap();
        assert!(!puzzles.is_empty(), "a finished game ends in a race");
        assert!(puzzles.len() <= 2);
        let game = Record::parse(&record).unwrap().replay().unwrap();
        let positions = game.positions();
        for p in &puzzles {
            assert!((2..=5).contains(&p.moves));
            assert_eq!(p.position, positions[p.ply].to_string());
            assert_eq!(p.id, format!("g1-{}", p.ply));
            let pos: Position = p.position.parse().unwrap();
            let f = finish_length(&pos, &FrozenClock, 1e9, 2_000_000).unwrap();
            assert!(f.proved());
            assert_eq!(f.plan.len(), p.moves);
            assert_eq!(p.rating, rating_of(p.moves));
        }
        let file = PuzzleFile {
            format: FORMAT.to_string(),
            puzzles,
        };
        assert!(PuzzleSet::from_file(file).is_ok(), "a server serves them");
    }

    #[test]
    fn a_bad_record_is_an_error() {
        assert!(puzzles_of_record(
            "g",
            "[Variant \"classic-2\"]\n\n1. m3-m9\n",
            5,
            &FrozenClock,
            1e9,
            1000
        )
        .is_err());
    }
}
