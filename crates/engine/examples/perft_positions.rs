//! Prints mid-game perft lines for `tests/perft/midgame.perft`: seeded random
//! playouts in every variant, each followed by its perft counts.
//!
//! `cargo run --release -p stella-engine --example perft_positions`

use stella_engine::{perft, Position, Variant};

fn main() {
    let mut state: u64 = 0x5EED_1234_ABCD_0001;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for variant in Variant::ALL.into_iter().chain([Variant::Solo]) {
        for plies in [12, 40] {
            let mut pos = Position::start(variant);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(next() % moves.len() as u64) as usize];
                pos.play_unchecked(&mv);
            }
            let mut counts = Vec::new();
            for d in 1..=4 {
                let n = perft(&pos, d);
                counts.push(n.to_string());
                if n > 3_000_000 {
                    break;
                }
            }
            println!("{} ; {}", pos, counts.join(" "));
        }
    }
}
