//! The `stella` command line: one subcommand per tool, thin over the libraries.

use clap::{Parser, Subcommand};

mod perft;

/// Stella: Chinese checkers (Stern-Halma) server, engine and tools.
#[derive(Parser)]
#[command(name = "stella", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move-generation leaves to depth N (the move generator's contract).
    Perft(perft::PerftArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft(args) => perft::run(args),
    }
}
