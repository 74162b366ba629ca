//! `stella perft`: plays the given moves, then prints `perft d NODES` for d = 1…N.

use anyhow::{bail, Context};
use stella_engine::{divide, perft, perft_plain, MovePath, Position, Variant};

/// Arguments of `stella perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// Variant id, like classic-2 (default: classic-2, or the position's variant).
    #[arg(long)]
    variant: Option<String>,
    /// Deepest depth to count.
    #[arg(long)]
    depth: u32,
    /// Moves to play first, as paths separated by spaces.
    #[arg(long)]
    moves: Option<String>,
    /// Start from this position string instead of the variant's start.
    #[arg(long)]
    position: Option<String>,
    /// Also print each first move with its count at the deepest depth.
    #[arg(long)]
    divide: bool,
    /// Count the last ply from scratch at every node (no incremental counting).
    #[arg(long)]
    plain: bool,
}

/// Runs `stella perft`.
pub fn run(args: PerftArgs) -> anyhow::Result<()> {
    let variant = match &args.variant {
        Some(id) => Some(id.parse::<Variant>().context("--variant")?),
        None => None,
    };
    let mut pos = match &args.position {
        Some(s) => s.parse::<Position>().context("--position")?,
        None => Position::start(variant.unwrap_or(Variant::Classic2)),
    };
    if let Some(v) = variant.filter(|&v| v != pos.variant()) {
        bail!(
            "--variant {v} disagrees with the position's variant {}",
            pos.variant()
        );
    }
    for token in args.moves.as_deref().unwrap_or("").split_whitespace() {
        let path: MovePath = token.parse().with_context(|| format!("--moves: {token}"))?;
        pos.play_path(&path)
            .with_context(|| format!("--moves: {token}"))?;
    }
    if args.divide {
        for (mv, n) in divide(&pos, args.depth) {
            println!("{} {}", pos.path_of(&mv), n);
        }
    }
    for d in 1..=args.depth {
        let start = std::time::Instant::now();
        let n = if args.plain {
            perft_plain(&pos, d)
        } else {
            perft(&pos, d)
        };
        let secs = start.elapsed().as_secs_f64();
        println!("perft {d} {n}");
        eprintln!(
            "  {:.3} s, {:.1} M nodes/s",
            secs,
            n as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}
