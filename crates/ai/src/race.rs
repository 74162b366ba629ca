//! Single-agent search: the fastest way for one colour to bring all its
//! marbles home when nobody else can interfere (a race, or the solitaire).
//!
//! The other marbles are frozen obstacles (and stepping stones). The search is
//! a beam search over layers of positions reached in the same number of
//! moves, duplicates removed, each layer cut to the `width` best by a
//! rows-to-go heuristic; several heuristic weightings and widths are tried
//! while time allows and the shortest plan wins. Plans are checked move by
//! move with the engine's move generator. With [`is_race`] the two-player
//! search hands over to it once the armies have passed each other, and with
//! `is_final_approach` every strategy at bigger tables once the player to
//! move has only a few marbles left to bring in.

use crate::clock::Clock;
use crate::tables::{tables, ColourTables};
use std::collections::HashSet;
use stella_engine::movegen::{for_each_marble_move, MoveContext};
use stella_engine::{Bitboard, Colour, Move, Position};

/// A single-agent problem: one colour's marbles, frozen others, and the goal.
#[derive(Clone, Copy, Debug)]
pub struct Problem {
    /// The colour that moves.
    pub colour: Colour,
    /// Its marbles now.
    pub mine: Bitboard,
    /// Every other marble (never moves).
    pub others: Bitboard,
    /// Where its moves may end.
    pub allowed: Bitboard,
    /// Its goal.
    pub goal: Bitboard,
    /// Whether another colour's marble in the goal fills a hole (after the deadline).
    pub anti_block: bool,
    /// The jump rule.
    pub rule: stella_engine::JumpRule,
}

/// Heuristic weights of one beam pass: rows, squared rows, rearmost marble, lateral.
#[derive(Clone, Copy, Debug)]
struct Weights(i32, i32, i32, i32);

impl Problem {
    /// The problem of the player to move in `position`.
    pub fn of(position: &Position) -> Problem {
        let c = position.turn();
        let v = position.variant();
        let mine = position.marbles(c);
        Problem {
            colour: c,
            mine,
            others: position.occupied() & !mine,
            allowed: v.allowed_ends(c),
            goal: v.goal(c),
            anti_block: position.moves_made(c) >= v.deadline(),
            rule: v.jump_rule(),
        }
    }

    /// Whether `mine` is finished.
    pub fn solved(&self, mine: Bitboard) -> bool {
        mine.is_subset(self.goal)
            || (self.anti_block
                && self.goal.is_subset(mine | self.others)
                && !(mine & self.goal).is_empty())
    }

    fn context(&self, mine: Bitboard) -> MoveContext {
        MoveContext {
            occupied: mine | self.others,
            allowed: self.allowed,
            goal: self.goal,
            swap_targets: Bitboard::EMPTY,
            rule: self.rule,
        }
    }

    /// Calls `f` with every move available to `mine`.
    pub fn for_each_move(&self, mine: Bitboard, mut f: impl FnMut(Move)) {
        let ctx = self.context(mine);
        for from in mine {
            for_each_marble_move(&ctx, from, &mut f);
        }
    }

    /// A lower bound on the moves still needed: each marble outside the goal
    /// needs one (minus the holes others fill for us).
    pub fn lower_bound(&self, mine: Bitboard) -> u32 {
        if self.solved(mine) {
            return 0;
        }
        let outside = (mine & !self.goal).count();
        let filled_by_others = if self.anti_block {
            (self.goal & self.others).count()
        } else {
            0
        };
        outside.saturating_sub(filled_by_others).max(1)
    }

    fn score(&self, t: &ColourTables, mine: Bitboard, w: Weights) -> i64 {
        let mut sum = 0i64;
        let mut sq = 0i64;
        let mut back = 0i64;
        let mut lat = 0i64;
        for h in mine {
            let r = t.rows_to_go[h.index()] as i64;
            sum += r;
            sq += r * r;
            back = back.max(r);
            if !self.goal.contains(h) {
                lat += t.lateral[h.index()] as i64;
            }
        }
        w.0 as i64 * sum + w.1 as i64 * sq + w.2 as i64 * back + w.3 as i64 * lat
    }

    /// One beam pass of `width`; the plan found, if any, no longer than `cap` moves.
    fn beam(
        &self,
        width: usize,
        w: Weights,
        cap: usize,
        clock: &dyn Clock,
        deadline: f64,
    ) -> Option<Vec<Move>> {
        let t = tables(self.colour);
        if self.solved(self.mine) {
            return Some(Vec::new());
        }
        // Each layer: (marbles, index of the parent in the previous layer, move).
        let root = Move::new(self.mine.first()?, self.mine.first()?);
        let mut layers: Vec<Vec<(Bitboard, u32, Move)>> = Vec::new();
        let mut current: Vec<(Bitboard, u32, Move)> = vec![(self.mine, u32::MAX, root)];
        let mut seen: HashSet<u128> = HashSet::new();
        seen.insert(self.mine.0);
        for depth in 1..=cap {
            if clock.past(deadline) {
                return None;
            }
            let mut children: Vec<(i64, Bitboard, u32, Move)> = Vec::new();
            for (i, &(mine, _, _)) in current.iter().enumerate() {
                let mut found = None;
                self.for_each_move(mine, |m| {
                    if found.is_some() {
                        return;
                    }
                    let next = mine.without(m.from).with(m.to);
                    if self.solved(next) {
                        found = Some(m);
                        return;
                    }
                    if depth as u32 + self.lower_bound(next) > cap as u32 {
                        return;
                    }
                    if seen.insert(next.0) {
                        children.push((self.score(t, next, w), next, i as u32, m));
                    }
                });
                if let Some(m) = found {
                    layers.push(std::mem::take(&mut current));
                    let mut plan = vec![m];
                    let mut idx = i;
                    for layer in layers[1..].iter().rev() {
                        let (_, parent, mv) = layer[idx];
                        plan.push(mv);
                        idx = parent as usize;
                    }
                    plan.reverse();
                    return Some(plan);
                }
            }
            if children.is_empty() {
                return None;
            }
            if children.len() > width {
                children.select_nth_unstable_by_key(width, |c| c.0);
                children.truncate(width);
            }
            layers.push(std::mem::replace(
                &mut current,
                children.into_iter().map(|(_, b, p, m)| (b, p, m)).collect(),
            ));
        }
        None
    }

    /// The shortest plan found within `budget_ms`: beam passes of growing
    /// width over a few heuristic weightings, each capped by the best so far.
    pub fn solve(&self, clock: &dyn Clock, budget_ms: f64, max_width: usize) -> Option<Vec<Move>> {
        let start = clock.now_ms();
        let deadline = start + budget_ms;
        let weightings = [
            Weights(100, 6, 40, 12),
            Weights(100, 0, 0, 20),
            Weights(100, 12, 80, 6),
            Weights(100, 3, 150, 30),
        ];
        let mut best: Option<Vec<Move>> = None;
        let mut width = 16;
        loop {
            for &w in &weightings {
                let cap = best.as_ref().map_or(200, |b| b.len().saturating_sub(1));
                if cap == 0 || clock.past(deadline) {
                    return best;
                }
                if let Some(plan) = self.beam(width, w, cap, clock, deadline) {
                    best = Some(plan);
                }
            }
            if width >= max_width {
                return best;
            }
            width *= 4;
        }
    }
}

/// Whether the two armies of a two-player game have passed each other: no
/// marble of the player to move is level with or behind any opponent marble,
/// so neither can jump over or block the other any more.
pub fn is_race(position: &Position) -> bool {
    let v = position.variant();
    if v.players() != 2 || v.masters_swap() {
        return false;
    }
    let me = position.turn();
    let Some(&them) = v.seats().iter().find(|&&c| c != me) else {
        return false;
    };
    let back = |c: Colour| {
        let t = tables(c);
        position
            .marbles(c)
            .iter()
            .map(|h| t.rows_to_go[h.index()])
            .max()
            .unwrap_or(0) as u32
    };
    back(me) + back(them) < 16
}

/// Marbles outside its goal up to which a player at a table of more than two
/// plays its final approach by single-agent search ([`is_final_approach`]).
pub(crate) const FINAL_APPROACH_MARBLES: u32 = 3;

/// Whether the player to move, at a table of more than two players, is on
/// its final approach: between one and [`FINAL_APPROACH_MARBLES`] marbles
/// outside its goal. What is left of its game is bringing them in, and the
/// evaluation sees that too coarsely (a straggler level with its goal's last
/// free hole but not next to it gains no row by walking there), so the
/// multi-player search plays the first move of the fastest plan instead,
/// the other marbles taken as they stand. Never with the Masters swap, which
/// the single-agent search does not play.
pub(crate) fn is_final_approach(position: &Position) -> bool {
    let v = position.variant();
    if v.players() <= 2 || v.masters_swap() {
        return false;
    }
    let c = position.turn();
    let outside = (position.marbles(c) & !v.goal(c)).count();
    (1..=FINAL_APPROACH_MARBLES).contains(&outside)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FrozenClock;
    use stella_engine::Variant;

    #[test]
    fn finishing_in_one() {
        let pos: Position =
            "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h13 black:m1,l2,m2,k3,l3,m3,j4,k4,l4,m4 made:39,39"
                .parse()
                .unwrap();
        let p = Problem::of(&pos);
        let plan = p.solve(&FrozenClock, 1000.0, 64).unwrap();
        assert_eq!(plan.len(), 1);
        assert!(is_race(&pos));
    }

    #[test]
    fn final_approach_needs_a_few_marbles_out_at_a_bigger_table() {
        // Blue, at a six-player table, with one marble outside its goal.
        let pos: Position = "classic-6 blue 91 white:e14,e16,e17,f14,f15,f16,g13,g14,g15,h14 \
            red:j13,k12,k13,l11,l12,l13,m10,m11,m12,m13 blue:l5,n5,n6,n7,o5,o6,o7,p5,p6,q5 \
            black:i7,j4,j9,k3,k4,l2,l4,m1,m3,m4 yellow:e5,e6,e7,e8,f5,f6,f7,g5,g6,h5 \
            green:a13,b12,b13,c11,c12,c13,d10,d11,d12,d13 made:42,47,90,90,45,46 \
            arrived:white,red,yellow,green places:white=1,red=4,yellow=2,green=3"
            .parse()
            .unwrap();
        assert!(is_final_approach(&pos));
        assert!(!is_final_approach(&Position::start(Variant::Classic6)));
        // Two players: that is what is_race is for.
        let two: Position =
            "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h13 black:m1,l2,m2,k3,l3,m3,j4,k4,l4,m4 made:39,39"
                .parse()
                .unwrap();
        assert!(!is_final_approach(&two));
    }
}
