//! `stella engine`: speaks the engine protocol (docs/engine-protocol.md) on
//! stdin/stdout.

use stella_ai::{protocol, SystemClock};

/// Arguments of `stella engine`.
#[derive(clap::Args)]
pub struct EngineArgs {}

/// Runs `stella engine` until `quit` or the end of the input.
pub fn run(_args: EngineArgs) -> anyhow::Result<()> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout();
    protocol::run_threaded(stdin, stdout.lock(), &SystemClock::new())?;
    Ok(())
}
