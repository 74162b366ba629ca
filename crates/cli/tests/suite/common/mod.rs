//! What the CLI integration tests share: running the `stella` binary.

use std::process::Command;

/// Runs `stella ARGS…` and returns (success, stdout, stderr).
pub fn stella(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_stella"))
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
