//! `stella solo`: the solitaire crossing (variant `solo`) in as few moves as
//! the single-agent search finds in the given time. Prints one move per line,
//! then `solo N moves`.

use anyhow::bail;
use stella_ai::race::Problem;
use stella_ai::SystemClock;
use stella_engine::{Colour, Position, Variant};

/// Arguments of `stella solo`.
#[derive(clap::Args)]
pub struct SoloArgs {
    /// Thinking time in seconds.
    #[arg(long, default_value_t = 10.0)]
    time: f64,
    /// Widest beam tried (larger finds shorter crossings, given time).
    #[arg(long, default_value_t = 1 << 16)]
    width: usize,
}

/// Runs `stella solo`.
pub fn run(args: SoloArgs) -> anyhow::Result<()> {
    let start = Position::start(Variant::Solo);
    let problem = Problem::of(&start);
    let clock = SystemClock::new();
    let Some(plan) = problem.solve(&clock, args.time * 1000.0, args.width) else {
        bail!("no crossing found in {} s", args.time);
    };
    // Replay the plan on checked positions built move by move (the engine's
    // game ends a one-seat game after its first move, so each step is set up
    // afresh from the marbles), checking every move is legal.
    let mut setup = start.to_setup();
    for (i, mv) in plan.iter().enumerate() {
        setup.made[Colour::White.index()] = i as u16;
        setup.round = (i + 1) as u16;
        let pos = Position::from_setup(&setup)?;
        if !pos.is_legal(mv) {
            bail!("move {} of the plan is illegal", i + 1);
        }
        println!("{}", pos.path_of(mv));
        let w = &mut setup.marbles[Colour::White.index()];
        *w = w.without(mv.from).with(mv.to);
    }
    if !setup.marbles[Colour::White.index()].is_subset(Variant::Solo.goal(Colour::White)) {
        bail!("the plan does not finish the crossing");
    }
    println!("solo {} moves", plan.len());
    Ok(())
}
