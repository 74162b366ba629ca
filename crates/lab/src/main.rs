//! The `stella-lab` command line: the tools that measure Stella rather than
//! play it — matches between levels or engines, their tallies, tuning the
//! evaluation weights, and load tests of a running server.

use clap::{Parser, Subcommand};

mod cpu;
mod loadtest;
mod match_cmd;
mod score;
mod tally;
mod thread_clock;
mod tune;
mod weight_text;

/// Stella's laboratory: matches, tallies, tuning and load tests.
#[derive(Parser)]
#[command(name = "stella-lab", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play games between two players and report score and Elo.
    Match(match_cmd::MatchArgs),
    /// Score one player over saved match records (pools runs with different seeds).
    Tally(tally::TallyArgs),
    /// Tune the evaluation weights by self-play (SPSA) and write them to a file.
    Tune(tune::TuneArgs),
    /// Simulated players over HTTP and WebSockets: throughput, latency, errors.
    Loadtest(loadtest::LoadtestArgs),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Match(args) => match_cmd::run(args),
        Command::Tally(args) => tally::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Loadtest(args) => loadtest::run(args),
    }
}
