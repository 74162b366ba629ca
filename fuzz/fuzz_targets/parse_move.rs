//! Any text either fails to parse as a move path or prints back to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stella_engine::MovePath;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(p) = s.parse::<MovePath>() {
            let printed = p.to_string();
            assert_eq!(printed.parse::<MovePath>().unwrap(), p);
        }
    }
});
