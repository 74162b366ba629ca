//! Prints the move levels 5 and 8 choose at fixed positions, each search
//! running its whole work budget (a clock that never advances): at every
//! 10th ply of the first 60 of a game level 4 plays on, at classic-2, -3,
//! -4 and -6 (48 searches). A change meant only to make the search cheaper
//! must leave this output as it was: run it before and after and compare.
//!
//! `cargo run --release -p stella-lab --example level_moves > moves.txt`

use stella_ai::{best_move_in_game, FrozenClock};
use stella_engine::{Game, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for variant in [
        Variant::Classic2,
        Variant::Classic3,
        Variant::Classic4,
        Variant::Classic6,
    ] {
        for level in [5u8, 8] {
            let mut game = Game::new(variant);
            for ply in 0..60u64 {
                if game.is_over() {
                    break;
                }
                if ply % 10 == 0 {
                    let mv = best_move_in_game(&game, level, 99 + ply, &FrozenClock, None);
                    println!("{variant} level {level} ply {ply}: {mv:?}");
                }
                let Some(mv) = best_move_in_game(&game, 4, 7 + ply, &FrozenClock, None) else {
                    break;
                };
                game.play(&mv)?;
            }
        }
    }
    Ok(())
}
