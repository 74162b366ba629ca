//! Resumes a recorded game (from `stella-lab match --records DIR`) at a ply and
//! plays it out again with the levels its seat tags name (`level:N`), to see
//! how the current code finishes a game that once went wrong (a stall, a
//! blunder). Prints the outcome, the rounds played, and on how many turns
//! the progress guard was on (the player had stalled, whether or not it had
//! a closer move to be held to).
//!
//! `cargo run --release -p stella-lab --example resume -- RECORD --ply N [--no-guard] [--seed S]`

use stella_ai::progress::Progress;
use stella_ai::{Request, SystemClock};
use stella_engine::{Game, Record};

mod records;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut file = None;
    let mut ply = 0usize;
    let mut guard = true;
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--ply" => ply = args.next().ok_or("--ply needs a number")?.parse()?,
            "--seed" => seed = args.next().ok_or("--seed needs a number")?.parse()?,
            "--no-guard" => guard = false,
            _ => file = Some(a),
        }
    }
    let file = file.ok_or("give a game record")?;
    let (record, full) = records::read(&file)?;
    let mut game = Game::from_position(*full.start());
    for (mv, _) in full.moves().iter().take(ply) {
        game.play(mv)?;
    }
    let level_of = |game: &Game| -> Result<u8, String> {
        let tag = Record::seat_tag(game.turn());
        let player = record.tag(tag).ok_or(format!("no {tag} tag"))?;
        player
            .strip_prefix("level:")
            .and_then(|l| l.split(':').next())
            .and_then(|l| l.parse().ok())
            .ok_or(format!("{tag} is {player:?}, not level:N"))
    };
    let clock = SystemClock::new();
    let mut positions = game.positions();
    let mut hashes: Vec<u64> = positions.iter().map(|p| p.hash()).collect();
    let mut guarded = 0;
    while !game.is_over() {
        let progress = Progress::of_game(&positions).filter(|_| guard);
        if progress.is_some_and(|p| p.stalled()) {
            guarded += 1;
        }
        let request = Request::new(
            game.position(),
            level_of(&game)?,
            seed ^ hashes.len() as u64,
        )
        .history(&hashes)
        .progress(progress);
        let mv = request
            .choose(&clock)
            .ok_or("no move in a game that is not over")?;
        game.play(&mv)?;
        positions.push(*game.position());
        hashes.push(game.position().hash());
        if hashes.len().is_multiple_of(60) {
            eprintln!("ply {} round {}", hashes.len() - 1, game.position().round());
        }
    }
    let outcome = game.outcome().ok_or("over")?;
    println!(
        "{file} from ply {ply}: {outcome:?}, round {}, {} plies, guard on for {guarded} turns",
        game.position().round(),
        game.moves().len()
    );
    Ok(())
}
