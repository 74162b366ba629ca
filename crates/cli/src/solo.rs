//! `stella solo`: the solitaire crossing (variant `solo`) in as few moves as
//! the single-agent search finds in the given time. Prints one move per line,
//! then whether the crossing is proved shortest (`proved optimal`, or the
//! lower bound proved and how many final moves are proved shortest), then
//! `solo N moves`.
//!
//! Half the time goes to the beam search, which finds the crossing; then
//! IDA* re-solves ever longer endings of it exactly (from the position after
//! move `k`, for `k` going down from the end), splicing in any shorter ending
//! it finds, until an ending is out of its reach; the rest of the time goes
//! to IDA* on the whole crossing for a lower bound.

use anyhow::bail;
use stella_ai::ida::solve_exact;
use stella_ai::race::Problem;
use stella_ai::{Clock, SystemClock};
use stella_engine::{Colour, Move, Position, Variant};

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

/// What the exact search proved about a crossing.
struct Proof {
    /// A lower bound on the length of any crossing.
    lower_bound: usize,
    /// How many final moves of the crossing are proved shortest from where they start.
    proved_ending: usize,
}

/// Runs `stella solo`.
pub fn run(args: SoloArgs) -> anyhow::Result<()> {
    let start = Position::start(Variant::Solo);
    let problem = Problem::of(&start);
    let clock = SystemClock::new();
    let budget = args.time * 1000.0;
    let Some(mut plan) = problem.solve(&clock, budget * 0.5, args.width) else {
        bail!("no crossing found in {} s", args.time);
    };
    let proved_ending = shorten_ending(&problem, &mut plan, &clock, budget * 0.8);
    let whole = solve_exact(&problem, Some(&plan), &clock, budget, u64::MAX);
    if let Some(p) = whole.plan.filter(|p| p.len() < plan.len()) {
        plan = p;
    }
    let proof = Proof {
        lower_bound: whole.lower_bound.min(plan.len()),
        proved_ending: if whole.lower_bound >= plan.len() {
            plan.len()
        } else {
            proved_ending
        },
    };
    print_checked(&start, &plan)?;
    println!("{}", proof_line(&proof, plan.len()));
    println!("solo {} moves", plan.len());
    Ok(())
}

/// The marbles of `problem` after the first `k` moves of `plan`.
fn after(problem: &Problem, plan: &[Move], k: usize) -> Problem {
    let mut mine = problem.mine;
    for mv in &plan[..k] {
        mine = mine.without(mv.from).with(mv.to);
    }
    Problem { mine, ..*problem }
}

/// Solves ever longer endings of `plan` exactly until `deadline_ms`, splicing
/// in shorter ones; the number of final moves proved shortest.
fn shorten_ending(
    problem: &Problem,
    plan: &mut Vec<Move>,
    clock: &dyn Clock,
    deadline_ms: f64,
) -> usize {
    let mut proved = 0;
    for k in (0..plan.len()).rev() {
        let from = after(problem, plan, k);
        let exact = solve_exact(&from, Some(&plan[k..]), clock, deadline_ms, u64::MAX);
        if !exact.proved() {
            break;
        }
        if let Some(ending) = exact.plan.filter(|e| e.len() < plan.len() - k) {
            plan.truncate(k);
            plan.extend(ending);
        }
        proved = plan.len() - k;
    }
    proved
}

/// The line saying what is proved about a crossing of `len` moves.
fn proof_line(proof: &Proof, len: usize) -> String {
    if proof.lower_bound >= len {
        "proved optimal".to_string()
    } else {
        format!(
            "lower bound {}, last {} moves proved shortest",
            proof.lower_bound, proof.proved_ending
        )
    }
}

/// Prints `plan` one move per line, checking each move on a position built
/// afresh from the marbles (the engine's game ends a one-seat game after its
/// first move), and that it finishes the crossing.
fn print_checked(start: &Position, plan: &[Move]) -> anyhow::Result<()> {
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proof_line_says_what_is_proved() {
        let proved = Proof {
            lower_bound: 27,
            proved_ending: 27,
        };
        assert_eq!(proof_line(&proved, 27), "proved optimal");
        let partial = Proof {
            lower_bound: 12,
            proved_ending: 9,
        };
        assert_eq!(
            proof_line(&partial, 27),
            "lower bound 12, last 9 moves proved shortest"
        );
    }

    #[test]
    fn an_ending_is_proved_and_never_longer() {
        let start = Position::start(Variant::Solo);
        let problem = Problem::of(&start);
        let clock = SystemClock::new();
        let mut plan = problem.solve(&clock, 2000.0, 256).unwrap();
        let len = plan.len();
        let proved = shorten_ending(&problem, &mut plan, &clock, 300.0);
        assert!(plan.len() <= len);
        assert!(proved >= 1 && proved <= plan.len());
        print_checked(&start, &plan).unwrap();
    }
}
