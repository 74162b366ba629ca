//! The `stella` command line: one subcommand per tool, thin over the libraries.

use clap::{Parser, Subcommand};

mod analyse;
mod engine;
mod loadtest;
mod match_cmd;
mod perft;
mod score;
mod serve;
mod solo;
mod tally;
mod tune;

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
    /// Speak the engine protocol on stdin/stdout (docs/engine-protocol.md).
    Engine(engine::EngineArgs),
    /// Play games between two players and report score and Elo.
    Match(match_cmd::MatchArgs),
    /// Solve the solitaire crossing (variant solo) in as few moves as possible.
    Solo(solo::SoloArgs),
    /// Evaluate a position and print the principal variation.
    Analyse(analyse::AnalyseArgs),
    /// Score one player over saved match records (pools runs with different seeds).
    Tally(tally::TallyArgs),
    /// Tune the evaluation weights by self-play (SPSA) and write them to a file.
    Tune(tune::TuneArgs),
    /// Run the game server (HTTP, WebSocket, embedded web client).
    Serve(serve::ServeArgs),
    /// Simulated players over HTTP and WebSockets: throughput, latency, errors.
    Loadtest(loadtest::LoadtestArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Solo(args) => solo::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Tally(args) => tally::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Loadtest(args) => loadtest::run(args),
    }
}
