//! `stella analyse`: the evaluation and principal variation of a position.

use anyhow::Context;
use stella_ai::judgement::pv_paths;
use stella_ai::{Limits, Searcher, Settings, Strategy, SystemClock};
use stella_engine::Position;

/// Arguments of `stella analyse`.
#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// The position string to analyse.
    #[arg(long)]
    position: String,
    /// Thinking time in seconds.
    #[arg(long, default_value_t = 2.0)]
    time: f64,
}

/// Runs `stella analyse`: prints one line per completed depth, then the result.
pub fn run(args: AnalyseArgs) -> anyhow::Result<()> {
    let position: Position = args.position.parse().context("--position")?;
    let mut searcher = Searcher::new(Settings {
        strategy: Strategy::alpha_beta_for(position.variant()),
        ..Settings::default()
    });
    let limits = Limits::movetime((args.time * 1000.0).max(1.0) as u64);
    let result = searcher.search_with(&position, limits, &SystemClock::new(), &mut |info| {
        println!(
            "depth {} score {} nodes {} time {} ms pv {}",
            info.depth,
            info.score,
            info.nodes,
            info.time_ms,
            pv_text(&position, &info.pv)
        );
    });
    match result {
        Some(r) => {
            println!(
                "strategy {}",
                Strategy::alpha_beta_for(position.variant()).name()
            );
            println!("score {} (1/100 row, for {})", r.score, position.turn());
            println!("best {}", position.path_of(&r.best));
            println!("pv {}", pv_text(&position, &r.pv));
        }
        None => println!("no legal move"),
    }
    Ok(())
}

/// The principal variation `pv` from `position` as paths separated by spaces.
fn pv_text(position: &Position, pv: &[stella_engine::Move]) -> String {
    pv_paths(position, pv).join(" ")
}
