//! Bytes pick a variant and a sequence of moves; every generated move must be
//! accepted by checked play through its canonical path.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stella_engine::{Game, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&v, picks)) = data.split_first() else { return };
    let variant = Variant::ALL[v as usize % Variant::ALL.len()];
    let mut game = Game::new(variant);
    for &b in picks {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[b as usize % moves.len()];
        let path = game.position().path_of(&mv);
        assert!(!game.would_eliminate(&mv) || game.position().moves_made(game.turn()) >= variant.deadline());
        assert_eq!(game.play_path(&path), Ok(mv), "{path}");
    }
});
