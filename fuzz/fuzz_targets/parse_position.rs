//! Any text either fails to parse as a position or round-trips, and its moves can be generated.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stella_engine::Position;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(p) = s.parse::<Position>() {
            let printed = p.to_string();
            assert_eq!(printed.parse::<Position>().unwrap(), p);
            for mv in p.legal_moves() {
                let mut q = p;
                q.play_unchecked(&mv);
            }
        }
    }
});
