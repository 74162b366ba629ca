//! What the lab's integration tests share: running the `stella-lab` binary.

use std::process::Command;

/// Runs `stella-lab ARGS…` and returns (success, stdout, stderr).
pub fn lab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_stella-lab"))
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
