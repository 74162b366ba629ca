//! Root-parallel Monte Carlo tree search, played one tree after another:
//! the budget is shared among several independent trees (each with its own
//! seed, so each orders and samples the moves differently), and the move
//! chosen is the one with the most visits summed over all trees (ties to
//! the better summed value).
//!
//! One tree that exploits hard (exploration 0.3) settles early on the moves
//! it likes first; more iterations then deepen those lines rather than
//! revisit the choice. Independent trees settle independently, and their
//! summed visits vote among the favourites (Chaslot, Winands and van den
//! Herik, "Parallel Monte-Carlo Tree Search", 2008). Level 8 used five
//! trees at classic-6 from session 11 to 19 (53.5% against level 7 over 71
//! games); it now chooses its root move by sequential halving there, and
//! below six units one tree whose root explores more than the rest of it
//! ([`Level::tree_shape`], docs/benchmarks.md). The ensemble stays for
//! experiments (`trees=N` in `stella match`).
//!
//! [`Level::tree_shape`]: crate::levels::Level::tree_shape

use crate::clock::Clock;
use crate::eval::Weights;
use crate::mcts::{Budget, Config, Mcts};
use stella_engine::{Move, Position};

/// Several independent trees sharing one budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ensemble {
    /// Number of trees (at least 1).
    pub trees: u8,
    /// Tuning of every tree.
    pub config: Config,
    /// Evaluation noise amplitude (1/100 row).
    pub noise: i32,
    /// Evaluation weights.
    pub weights: Weights,
}

impl Ensemble {
    /// The move the trees' summed visits choose from `position` (game
    /// hashes `history`), each tree getting an equal share of the
    /// iterations and of the time to the deadline. `None` when the player
    /// to move has no legal move. Deterministic given `seed` as long as no
    /// tree reaches its share of the time.
    pub fn choose(
        &self,
        position: &Position,
        history: &[u64],
        seed: u64,
        budget: Budget,
        clock: &dyn Clock,
    ) -> Option<Move> {
        self.choose_among(position, history, None, seed, budget, clock)
    }

    /// As [`Ensemble::choose`], the root's moves restricted to `root_moves`
    /// if given (see [`Mcts::restrict_root`]).
    pub fn choose_among(
        &self,
        position: &Position,
        history: &[u64],
        root_moves: Option<&[Move]>,
        seed: u64,
        budget: Budget,
        clock: &dyn Clock,
    ) -> Option<Move> {
        let trees = u64::from(self.trees.max(1));
        let start = clock.now_ms();
        let mut votes: Vec<(Move, u64, f64)> = Vec::new();
        for k in 0..trees {
            let share = Budget {
                iterations: budget.iterations / trees,
                deadline_ms: start + (budget.deadline_ms - start) * (k + 1) as f64 / trees as f64,
            };
            let mut mcts = Mcts::new(
                position,
                history,
                tree_seed(seed, k),
                self.noise,
                self.weights,
                self.config,
            );
            if let Some(only) = root_moves {
                mcts.restrict_root(only);
            }
            let report = mcts.run(share, clock)?;
            if report.iterations == 0 {
                // Only one move, or none worth searching: every tree agrees.
                return Some(report.best);
            }
            add_votes(&mut votes, &mcts);
        }
        votes
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map(|v| v.0)
    }
}

/// The seed of tree `k` of a search seeded `seed` (tree 0 keeps `seed`, so
/// one tree is the plain search).
fn tree_seed(seed: u64, k: u64) -> u64 {
    seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Adds the root statistics of `mcts` to `votes` (move, summed visits,
/// summed value).
fn add_votes(votes: &mut Vec<(Move, u64, f64)>, mcts: &Mcts) {
    for (mv, visits, value) in mcts.root_moves() {
        match votes.iter_mut().find(|v| v.0 == mv) {
            Some(v) => {
                v.1 += u64::from(visits);
                v.2 += value;
            }
            None => votes.push((mv, u64::from(visits), value)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FrozenClock;
    use stella_engine::Variant;

    fn ensemble(trees: u8) -> Ensemble {
        Ensemble {
            trees,
            config: Config {
                exploration: 0.3,
                ..Config::DEFAULT
            },
            noise: 0,
            weights: Weights::DEFAULT,
        }
    }

    fn budget(iterations: u64) -> Budget {
        Budget {
            iterations,
            deadline_ms: f64::INFINITY,
        }
    }

    #[test]
    fn one_tree_plays_what_a_single_search_plays() {
        let pos = Position::start(Variant::Classic3);
        let single = Mcts::new(
            &pos,
            &[pos.hash()],
            9,
            0,
            Weights::DEFAULT,
            ensemble(1).config,
        )
        .run(budget(500), &FrozenClock)
        .unwrap()
        .best;
        let voted = ensemble(1).choose(&pos, &[pos.hash()], 9, budget(500), &FrozenClock);
        assert_eq!(voted, Some(single));
    }

    #[test]
    fn several_trees_play_a_legal_move_and_repeat_it_given_the_seed() {
        let mut pos = Position::start(Variant::Classic6);
        for ply in 0..12u64 {
            let a = ensemble(3).choose(&pos, &[pos.hash()], ply, budget(600), &FrozenClock);
            let b = ensemble(3).choose(&pos, &[pos.hash()], ply, budget(600), &FrozenClock);
            let mv = a.expect("a move");
            assert_eq!(a, b);
            assert!(pos.legal_moves().contains(&mv) && !pos.would_eliminate(&mv));
            pos.play_unchecked(&mv);
        }
    }

    #[test]
    fn the_vote_follows_the_summed_visits() {
        // Trees with different seeds can disagree; the move chosen must be
        // the most visited over all of them.
        let pos = Position::start(Variant::Classic4);
        let e = ensemble(4);
        let mut summed = Vec::new();
        for k in 0..4u64 {
            let s = tree_seed(5, k);
            let mut m = Mcts::new(&pos, &[pos.hash()], s, 0, Weights::DEFAULT, e.config);
            m.run(budget(200), &FrozenClock).unwrap();
            add_votes(&mut summed, &m);
        }
        let visits: u64 = summed.iter().map(|v| v.1).sum();
        assert_eq!(visits, 4 * 200, "every iteration visits one root child");
        let most = summed.iter().map(|v| v.1).max().unwrap();
        let chosen = e
            .choose(&pos, &[pos.hash()], 5, budget(800), &FrozenClock)
            .unwrap();
        assert_eq!(summed.iter().find(|v| v.0 == chosen).unwrap().1, most);
    }
}
