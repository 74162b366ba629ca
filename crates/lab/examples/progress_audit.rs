//! Counts, in game records (from `stella-lab match --records DIR`), the turns at
//! which the progress guard ([`stella_ai::progress`]) restricts the player
//! to move ([`Request::allowed_moves`]), by colour and from which ply: how
//! often the guard steps into games.
//!
//! `cargo run --release -p stella-lab --example progress_audit -- RECORD…`

use stella_ai::progress::Progress;
use stella_ai::Request;
use stella_engine::Position;

mod records;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        return Err("give at least one game record".into());
    }
    let (mut games, mut turns, mut restricted, mut touched) = (0, 0, 0, 0);
    for file in &files {
        let (_, game) = records::read(file)?;
        let positions: Vec<Position> = game.positions();
        let mut here = 0;
        let mut by_colour: Vec<(String, u32, usize)> = Vec::new();
        for end in 1..positions.len() {
            let p = &positions[end - 1];
            if p.is_over() {
                continue;
            }
            turns += 1;
            let progress = Progress::of_game(&positions[..end]);
            // The level does not matter: the restriction depends on the game only.
            let request = Request::new(p, 1, 0).progress(progress);
            if request.allowed_moves().is_some() {
                here += 1;
                let name = p.turn().to_string();
                match by_colour.iter_mut().find(|c| c.0 == name) {
                    Some(c) => c.1 += 1,
                    None => by_colour.push((name, 1, end - 1)),
                }
            }
        }
        games += 1;
        restricted += here;
        if here > 0 {
            touched += 1;
            let detail: Vec<String> = by_colour
                .iter()
                .map(|(c, n, ply)| format!("{c} {n} from ply {ply}"))
                .collect();
            println!("{file}: {here} turns restricted ({})", detail.join(", "));
        }
    }
    println!(
        "{games} games, {turns} turns, guard restricted {restricted} turns in {touched} games"
    );
    Ok(())
}
