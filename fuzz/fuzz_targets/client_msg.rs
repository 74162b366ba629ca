//! The server's client message decoder: any text gives a message or a precise error
//! (never a panic); an error has a message; a decoded message written back as JSON
//! decodes to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stella_server::ws::{decode_client_msg, MAX_TEXT_BYTES};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match decode_client_msg(text) {
        Ok(msg) => {
            let again = serde_json::to_string(&msg).expect("client messages serialize");
            if again.len() <= MAX_TEXT_BYTES {
                assert_eq!(decode_client_msg(&again), Ok(msg), "round trip of {again}");
            }
        }
        Err(e) => assert!(!e.message.is_empty(), "error without a message"),
    }
});
