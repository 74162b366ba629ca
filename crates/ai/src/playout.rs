//! Playout policies of the Monte Carlo tree search: how the moves after the
//! tree's new leaf are chosen before the position is evaluated. Both are
//! epsilon-greedy (with chance `epsilon` a random forward move) and differ in
//! what "greedy" means:
//!
//! - [`Playout::Rows`]: the move gaining the most rows towards the goal, the
//!   rearmost marble first (the 1-ply greedy player's choice).
//! - [`Playout::Cost`]: the move lowering the mover's evaluation cost most,
//!   counting the terms a single move changes (rows, squared rows, rearmost
//!   marble, distance off the centre line; not the jump structure). It
//!   brings stragglers along as the evaluation wants, so the positions the
//!   tree evaluates are the ones a good player would reach. The upper levels
//!   use it: at six seats more iterations alone did not make level 6 beat
//!   level 5 (docs/benchmarks.md, session 5).

use crate::deadline::{deadline_moves, safe_moves};
use crate::eval::Weights;
use crate::greedy::gain;
use crate::rng::Rng;
use crate::tables::tables;
use stella_engine::{Hole, Move, Position};

/// How a playout picks its greedy moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Most rows gained, rearmost marble first.
    Rows,
    /// Largest drop of the mover's cost under the given weights.
    Cost,
}

/// A playout move at `pos`: with chance `epsilon` a random forward move,
/// otherwise the greedy move of `policy` (ties to the rearmost marble, then
/// a draw from `rng`). Never an eliminating move unless forced; leaves home
/// in time for the deadline. `None` when there is no legal move.
pub fn playout_move(
    pos: &Position,
    rng: &mut Rng,
    epsilon: f64,
    policy: Playout,
    weights: &Weights,
) -> Option<Move> {
    let moves = deadline_moves(pos, safe_moves(pos));
    if moves.is_empty() {
        return None;
    }
    if rng.unit() < epsilon {
        let forward: Vec<Move> = moves.iter().copied().filter(|m| gain(pos, m) > 0).collect();
        let pool = if forward.is_empty() { &moves } else { &forward };
        return Some(pool[rng.below(pool.len() as u64) as usize]);
    }
    let t = tables(pos.turn());
    let drop = CostDrop::of(pos, weights);
    moves
        .into_iter()
        .map(|m| {
            let score = match policy {
                Playout::Rows => gain(pos, &m),
                Playout::Cost => drop.of_move(&m),
            };
            ((score, t.rows_to_go[m.from.index()], rng.next_u64()), m)
        })
        .max_by_key(|(k, _)| *k)
        .map(|(_, m)| m)
}

/// What the mover's cost drops by for each of its moves, from the rows of
/// its marbles before the move: the terms of [`crate::eval::cost`] that one
/// move changes, with every marble counted.
struct CostDrop<'a> {
    pos: &'a Position,
    weights: &'a Weights,
    /// Rows to go of the rearmost marble.
    back: i32,
    /// How many marbles are that far back.
    at_back: u32,
    /// Rows to go of the rearmost marble among the others.
    next_back: i32,
}

impl<'a> CostDrop<'a> {
    fn of(pos: &'a Position, weights: &'a Weights) -> CostDrop<'a> {
        let t = tables(pos.turn());
        let (mut back, mut at_back, mut next_back) = (0i32, 0u32, 0i32);
        for h in pos.marbles(pos.turn()) {
            let r = t.rows_to_go[h.index()] as i32;
            if r > back {
                next_back = back;
                back = r;
                at_back = 1;
            } else if r == back {
                at_back += 1;
            } else if r > next_back {
                next_back = r;
            }
        }
        CostDrop {
            pos,
            weights,
            back,
            at_back,
            next_back,
        }
    }

    /// How much `m` lowers the mover's cost (negative if it raises it).
    fn of_move(&self, m: &Move) -> i32 {
        let c = self.pos.turn();
        let t = tables(c);
        let goal = self.pos.variant().goal(c);
        let lateral = |h: Hole| {
            if goal.contains(h) {
                0
            } else {
                t.lateral[h.index()] as i32
            }
        };
        let from = t.rows_to_go[m.from.index()] as i32;
        let to = t.rows_to_go[m.to.index()] as i32;
        let others_back = if from == self.back && self.at_back == 1 {
            self.next_back
        } else {
            self.back
        };
        let w = self.weights;
        w.rows * (from - to)
            + w.squares * (from * from - to * to)
            + w.back * (self.back - others_back.max(to))
            + w.lateral * (lateral(m.from) - lateral(m.to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::cost;
    use stella_engine::Variant;

    /// The cost terms a single move changes, as `eval::cost` counts them.
    fn local_weights() -> Weights {
        Weights {
            jump: 0,
            home_late: 0,
            ..Weights::DEFAULT
        }
    }

    #[test]
    fn the_cost_drop_is_what_the_evaluation_sees() {
        let w = local_weights();
        for variant in [Variant::Classic2, Variant::Classic3, Variant::Classic6] {
            let mut pos = Position::start(variant);
            for ply in 0..40 {
                let drop = CostDrop::of(&pos, &w);
                let before = cost(&pos, pos.turn(), &w);
                for m in pos.legal_moves() {
                    let mut after = pos;
                    after.play_unchecked(&m);
                    let now = cost(&after, pos.turn(), &w);
                    if now > 0 && !after.is_over() {
                        assert_eq!(drop.of_move(&m), before - now, "{variant} ply {ply} {m:?}");
                    }
                }
                let mut rng = Rng::new(ply);
                let Some(m) = playout_move(&pos, &mut rng, 0.0, Playout::Rows, &w) else {
                    break;
                };
                pos.play_unchecked(&m);
            }
        }
    }

    #[test]
    fn the_cost_policy_brings_the_straggler_and_the_rows_policy_the_leader() {
        // White's block in the middle can jump two rows, its straggler at
        // home's tip only step: rows want the jump, the cost (squared rows,
        // the rearmost marble) wants the straggler moved.
        let pos: Position = "classic-2 white 11 white:m1,h9,i9,j9,h10,i10,j10,h11,i11,j11 black:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14 made:10,10"
            .parse()
            .unwrap();
        let w = Weights::DEFAULT;
        let t = tables(pos.turn());
        let mut rng = Rng::new(1);
        let by_rows = playout_move(&pos, &mut rng, 0.0, Playout::Rows, &w).unwrap();
        let by_cost = playout_move(&pos, &mut rng, 0.0, Playout::Cost, &w).unwrap();
        assert!(
            gain(&pos, &by_rows) > gain(&pos, &by_cost),
            "{by_rows:?} {by_cost:?}"
        );
        assert_eq!(
            t.rows_to_go[by_cost.from.index()],
            pos.marbles(pos.turn())
                .iter()
                .map(|h| t.rows_to_go[h.index()])
                .max()
                .unwrap(),
            "{by_cost:?}"
        );
    }

    #[test]
    fn playouts_never_eliminate_and_stop_without_moves() {
        let pos = Position::start(Variant::Classic3);
        let mut rng = Rng::new(7);
        for policy in [Playout::Rows, Playout::Cost] {
            for eps in [0.0, 1.0] {
                let m = playout_move(&pos, &mut rng, eps, policy, &Weights::DEFAULT).unwrap();
                assert!(pos.legal_moves().contains(&m));
            }
        }
    }
}
