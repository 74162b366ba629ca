//! Any text either fails to parse/replay as a record or replays to a game that exports again.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stella_engine::Record;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(r) = Record::parse(s) {
            if let Ok(game) = r.replay() {
                let text = Record::from_game(&game, &[]).to_string();
                let again = Record::parse(&text).unwrap().replay().unwrap();
                assert_eq!(again.position(), game.position());
            }
        }
    }
});
