//! `stella solo`: the solitaire crossing (variant `solo`) in as few moves as
//! the single-agent search finds. Prints one move per line, then what is
//! proved about the crossing (`proved optimal`, or the lower bound proved and
//! how many final moves are proved shortest), then `solo N moves`.
//!
//! The search is limited by work, never by time, so it finds the same
//! crossing on every machine, however busy: the beam search runs passes of
//! growing width up to `--width` over four heuristic weightings; then IDA*
//! re-solves ever longer endings of the crossing exactly (from the position
//! after move `k`, for `k` going down from the end), splicing in any shorter
//! ending, until `--nodes` nodes are spent. With `--prove`, IDA* runs on the
//! whole crossing for `--prove-nodes` more nodes with its admissible bound
//! (`stella_ai::ida`): it proves that no shorter crossing exists or reports
//! the best lower bound it reached.

use anyhow::bail;
use stella_ai::ida::{solve_exact, Heuristic};
use stella_ai::race::Problem;
use stella_ai::FrozenClock;
use stella_engine::{Colour, Move, Position, Variant};

/// Arguments of `stella solo`.
#[derive(clap::Args)]
pub struct SoloArgs {
    /// Widest beam tried: the passes run at widths 16, 64, 256, … up to this
    /// (larger finds shorter crossings and takes longer).
    #[arg(long, default_value_t = 1 << 12, value_parser = clap::value_parser!(u64).range(1..=1 << 22))]
    width: u64,
    /// Nodes of exact search spent on shortening the crossing's ending.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Also run the exact search on the whole crossing: prove that no
    /// shorter crossing exists, or report the best lower bound reached.
    #[arg(long)]
    prove: bool,
    /// Nodes of the whole-crossing search of `--prove`.
    #[arg(long, default_value_t = 20_000_000)]
    prove_nodes: u64,
}

/// What the exact search proved about a crossing.
#[derive(Debug, PartialEq, Eq)]
struct Proof {
    /// A lower bound on the length of any crossing.
    lower_bound: usize,
    /// How many final moves of the crossing are proved shortest from where they start.
    proved_ending: usize,
}

/// A crossing found and what is proved about it.
#[derive(Debug, PartialEq, Eq)]
struct Crossing {
    plan: Vec<Move>,
    proof: Proof,
}

/// Runs `stella solo`.
pub fn run(args: SoloArgs) -> anyhow::Result<()> {
    let start = Position::start(Variant::Solo);
    let prove_nodes = args.prove.then_some(args.prove_nodes);
    let Some(crossing) = cross(&start, args.width as usize, args.nodes, prove_nodes) else {
        bail!("no crossing found with a beam of width {}", args.width);
    };
    print_checked(&start, &crossing.plan)?;
    println!("{}", proof_line(&crossing.proof, crossing.plan.len()));
    println!("solo {} moves", crossing.plan.len());
    Ok(())
}

/// The crossing from `start` by beam passes up to `width`, its ending
/// shortened by `nodes` nodes of exact search, and with `prove_nodes` the
/// whole crossing searched exactly for a lower bound. Deterministic: no
/// clock is read.
fn cross(start: &Position, width: usize, nodes: u64, prove_nodes: Option<u64>) -> Option<Crossing> {
    let problem = Problem::of(start);
    let mut plan = problem.solve(&FrozenClock, f64::INFINITY, width)?;
    let proved_ending = shorten_ending(&problem, &mut plan, nodes);
    let mut lower_bound = Heuristic::new(&problem).of(problem.mine) as usize;
    if let Some(limit) = prove_nodes {
        let whole = solve_exact(&problem, Some(&plan), &FrozenClock, f64::INFINITY, limit);
        if let Some(p) = whole.plan.filter(|p| p.len() < plan.len()) {
            plan = p;
        }
        lower_bound = lower_bound.max(whole.lower_bound);
    }
    let lower_bound = lower_bound.min(plan.len());
    let proof = Proof {
        lower_bound,
        proved_ending: if lower_bound >= plan.len() {
            plan.len()
        } else {
            proved_ending
        },
    };
    Some(Crossing { plan, proof })
}

/// The marbles of `problem` after the first `k` moves of `plan`.
fn after(problem: &Problem, plan: &[Move], k: usize) -> Problem {
    let mut mine = problem.mine;
    for mv in &plan[..k] {
        mine = mine.without(mv.from).with(mv.to);
    }
    Problem { mine, ..*problem }
}

/// Solves ever longer endings of `plan` exactly with at most `nodes` nodes
/// in all, splicing in shorter ones; the number of final moves proved
/// shortest.
fn shorten_ending(problem: &Problem, plan: &mut Vec<Move>, nodes: u64) -> usize {
    let mut proved = 0;
    let mut left = nodes;
    for k in (0..plan.len()).rev() {
        let from = after(problem, plan, k);
        let exact = solve_exact(&from, Some(&plan[k..]), &FrozenClock, f64::INFINITY, left);
        left = left.saturating_sub(exact.nodes);
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
        let mut plan = problem.solve(&FrozenClock, f64::INFINITY, 256).unwrap();
        let len = plan.len();
        let proved = shorten_ending(&problem, &mut plan, 200_000);
        assert!(plan.len() <= len);
        assert!(proved >= 1 && proved <= plan.len());
        print_checked(&start, &plan).unwrap();
    }

    #[test]
    fn a_small_budget_gives_the_same_crossing_every_time() {
        let start = Position::start(Variant::Solo);
        let first = cross(&start, 256, 100_000, None).unwrap();
        let again = cross(&start, 256, 100_000, None).unwrap();
        assert_eq!(first, again);
        print_checked(&start, &first.plan).unwrap();
        // A wider beam never finds a longer crossing.
        let wider = cross(&start, 1024, 100_000, None).unwrap();
        assert!(wider.plan.len() <= first.plan.len());
        assert!(first.proof.lower_bound >= 10 && first.proof.lower_bound < first.plan.len());
    }

    #[test]
    fn prove_proves_the_bound_of_a_short_crossing() {
        // Three marbles still outside the goal: the whole search ends well
        // within its budget, so the crossing is proved shortest.
        let mut start = Position::start(Variant::Solo);
        let problem = Problem::of(&start);
        let plan = problem.solve(&FrozenClock, f64::INFINITY, 64).unwrap();
        let mut setup = start.to_setup();
        let marbles = &mut setup.marbles[Colour::White.index()];
        for mv in &plan[..plan.len() - 5] {
            *marbles = marbles.without(mv.from).with(mv.to);
        }
        start = Position::from_setup(&setup).unwrap();
        let proved = cross(&start, 16, 0, Some(1_000_000)).unwrap();
        assert!(proved.plan.len() <= 5);
        assert_eq!(proved.proof.lower_bound, proved.plan.len());
        assert_eq!(
            proof_line(&proved.proof, proved.plan.len()),
            "proved optimal"
        );
        // Without the proof only the heuristic's bound is claimed.
        let unproved = cross(&start, 16, 0, None).unwrap();
        assert!(unproved.proof.lower_bound <= proved.proof.lower_bound);
    }
}
