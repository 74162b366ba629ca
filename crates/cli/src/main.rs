//! The `stella` command line: one subcommand per tool, thin over the libraries.

use clap::{Parser, Subcommand};

mod analyse;
mod bot;
mod engine;
mod perft;
mod puzzles;
mod serve;
mod solo;

/// Stella: Chinese checkers (Stern-Halma) server, engine and tools.
#[derive(Parser)]
#[command(name = "stella", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the game server (HTTP, WebSocket, embedded web client).
    Serve(serve::ServeArgs),
    /// Speak the engine protocol on stdin/stdout (docs/engine-protocol.md).
    Engine(engine::EngineArgs),
    /// Count move-generation leaves to depth N (the move generator's contract).
    Perft(perft::PerftArgs),
    /// Evaluate a position and print the principal variation.
    Analyse(analyse::AnalyseArgs),
    /// Solve the solitaire crossing (variant solo) in as few moves as possible.
    Solo(solo::SoloArgs),
    /// Play online as a bot account: any engine-protocol program answers the moves
    /// (docs/bot-api.md).
    Bot(bot::BotArgs),
    /// Make "finish in N" puzzles from the finished games of a database.
    Puzzles(puzzles::PuzzlesArgs),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Serve(args) => serve::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Solo(args) => solo::run(args),
        Command::Bot(args) => bot::run(args),
        Command::Puzzles(args) => puzzles::run(args),
    }
}
