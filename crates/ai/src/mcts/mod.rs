//! Monte Carlo tree search for tables of three to six players (and teams).
//!
//! UCT over the real game tree with max-n backups: every node keeps the
//! statistics of the unit (a player, or a team) whose move led to it, so each
//! player picks the move best for its own unit, and in team variants a player
//! values its partner's progress as its own. The tree widens progressively:
//! a node with `n` visits has at most `1 + ⌊√n⌋` children, taken in the
//! order of a cheap prior (rows gained, rearmost marble first), so the 50–150
//! moves of a position do not all have to be tried. Each iteration ends with
//! a short epsilon-greedy playout (mostly the greedy move, sometimes a random
//! forward one) cut after a few plies and a static evaluation: for every pair
//! of units the logistic of their cost difference (`eval::cost`), decided
//! places counting as won or lost pairs, averaged per unit and blended with
//! the unit's own progress so that a player far ahead still hurries home.
//! Finished games are scored by their real places.
//!
//! Like the other levels it never plays an eliminating move unless forced,
//! leaves home in time for the deadline, sees threefold repetitions through
//! the game's history, is limited by the level's iteration budget (time is
//! only a cap, read from an injected [`Clock`]), and is deterministic given
//! its seed. A search whose most visited root move can no longer be
//! overtaken within the iterations left stops there: it plays the move the
//! whole budget would, sooner.

mod buffers;
mod candidates;
mod choice;
mod logistic;
mod node;
mod playout;

use crate::clock::Clock;
use crate::eval::{board_bytes, cost_on, late_round_term, Weights};
use crate::levels::Level;
use crate::progress::restrict;
use crate::repetition::GameHistory;
use crate::rng::{seeded_noise, Rng};
use crate::search::estimate_moves_left;
use crate::tree_shape::TreeShape;
use buffers::Buffers;
use candidates::{bring_best_forward, unordered_candidates};
use choice::{best_scored, mean_bounds};
use logistic::LogisticMemo;
use node::{inv_sqrt_visits, sqrt_ln_visits, Node, UNKNOWN};
use playout::playout_move;
use stella_engine::{Colour, Hole, Move, Position};

// The search's fixed tuning, the same at every level and table (chosen by
// short match runs against the paranoid search). A level sets the tree's
// shape, its budget and its evaluation noise.

/// Playout length in rounds, a round being one move for every player.
const PLAYOUT_ROUNDS: usize = 1;

/// Chance that a playout move is a random forward move instead of the
/// greedy one.
const PLAYOUT_EPSILON: f64 = 0.2;

/// Cost difference (1/100 row) worth one unit of the logistic of a pair's
/// standing: a pair this far apart scores 73% / 27%.
const LOGISTIC_SCALE: f64 = 400.0;

/// Weight of a unit's own progress beside its pairwise standing, so that a
/// unit far ahead, whose standings are all near 1, still hurries home.
const PROGRESS_WEIGHT: f64 = 0.1;

/// Cost (1/100 row) at which a unit's progress term is one half (it is 1
/// at no cost left).
const PROGRESS_SCALE: f64 = 3_000.0;

/// What one search found and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The move chosen: the most visited root child, or under sequential
    /// halving the last root move left.
    pub best: Move,
    /// Iterations run.
    pub iterations: u64,
}

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Iterations to run at most.
    pub iterations: u64,
    /// Stop once the clock reads this (milliseconds, clock's origin).
    pub deadline_ms: f64,
}

impl Budget {
    /// The budget of `level` for `position` starting at `start_ms`: the
    /// level's iterations at this table size, and its time cap (lowered to
    /// `max_ms` if given) as a deadline.
    pub fn of(level: &Level, max_ms: Option<u64>, position: &Position, start_ms: f64) -> Budget {
        let deadline_ms = level
            .capped(max_ms)
            .budget_ms(estimate_moves_left(position))
            .map_or(f64::INFINITY, |b| start_ms + b);
        Budget {
            iterations: level.tree(position.variant().unit_count()).iterations,
            deadline_ms,
        }
    }
}

/// A Monte Carlo tree search from one position.
#[derive(Debug)]
pub struct Mcts {
    root: Position,
    /// The nodes, the root first, each node's children in a block of
    /// slots; a block outgrown is copied to the end and its old slots, like
    /// the slots not yet filled, are never read.
    nodes: Vec<Node>,
    /// Every node's position ([`Node::position`]), played once when the
    /// node is made, repetition ending included: an iteration walks down
    /// the tree by index instead of replaying the moves.
    positions: Vec<Position>,
    /// Every widened node's candidate moves, in order, generated once.
    arena: Vec<Move>,
    history: GameHistory,
    path: Vec<u64>,
    /// The nodes of the current iteration's path (reused between iterations).
    visited: Vec<u32>,
    /// A playout's move list, when it needs one (reused between moves).
    scratch: Vec<Move>,
    rng: Rng,
    seed: u64,
    noise: i32,
    weights: Weights,
    /// The UCB1 exploration constant below the root.
    exploration: f64,
    /// The UCB1 exploration constant at the root.
    root_exploration: f64,
    /// Whether the root chooses by sequential halving
    /// ([`TreeShape::halving`]).
    halving: bool,
    /// The logistic of the pair standings, at [`LOGISTIC_SCALE`].
    logistic: LogisticMemo,
    units: Vec<Vec<Colour>>,
    unit_of: [usize; 6],
    /// The only moves the root may play, when restricted.
    root_only: Option<Vec<Move>>,
}

impl Mcts {
    /// A search of `position`, with the game's position hashes `history`
    /// (for threefold repetition), seeded evaluation noise of amplitude
    /// `noise` (1/100 row), the given weights, and a tree shaped as `shape`.
    pub fn new(
        position: &Position,
        history: &[u64],
        seed: u64,
        noise: i32,
        weights: Weights,
        shape: TreeShape,
    ) -> Mcts {
        let units = position.variant().teams();
        let mut unit_of = [0usize; 6];
        for (i, u) in units.iter().enumerate() {
            for &c in u {
                unit_of[c.index()] = i;
            }
        }
        // The root's move is never read: any hole stands in for it.
        let any = Hole::all().next().expect("a board has holes");
        let root = Node::new(Move::new(any, any), position.turn(), 0);
        let Buffers {
            mut nodes,
            mut positions,
            arena,
        } = Buffers::take();
        nodes.push(root);
        positions.push(*position);
        Mcts {
            root: *position,
            nodes,
            positions,
            arena,
            history: GameHistory::new(history),
            path: Vec::with_capacity(64),
            visited: Vec::with_capacity(64),
            scratch: Vec::with_capacity(128),
            rng: Rng::new(seed ^ position.hash()),
            seed,
            noise,
            weights,
            exploration: shape.exploration(),
            root_exploration: shape
                .root_exploration()
                .unwrap_or_else(|| shape.exploration()),
            halving: shape.halving,
            logistic: LogisticMemo::new(LOGISTIC_SCALE),
            units,
            unit_of,
            root_only: None,
        }
    }

    /// Restricts the root to the candidate moves among `moves` (the
    /// progress guard's choice); ignored when none of them is a candidate.
    pub fn restrict_root(&mut self, moves: &[Move]) {
        self.root_only = Some(moves.to_vec());
    }

    /// `moves` at `node`: the root's restricted to the moves
    /// [`Mcts::restrict_root`] allows (the list's order kept).
    fn restricted(&self, node: u32, moves: Vec<Move>) -> Vec<Move> {
        match &self.root_only {
            Some(only) if node == 0 => restrict(moves, only),
            _ => moves,
        }
    }

    /// Runs iterations until the budget is spent or the move is decided, and
    /// returns the move chosen ([`Report::best`]). `None` when the player to
    /// move has no legal move.
    pub fn run(&mut self, budget: Budget, clock: &dyn Clock) -> Option<Report> {
        match self.generate_candidates(0) {
            0 => return None,
            1 => {
                return Some(Report {
                    best: self.arena[self.nodes[0].arena_start as usize],
                    iterations: 0,
                })
            }
            _ => {}
        }
        let (done, chosen) = if self.halving {
            self.run_halving(budget, clock)
        } else {
            let mut done = 0;
            while done < budget.iterations {
                if done % 32 == 0
                    && done > 0
                    && (clock.past(budget.deadline_ms) || self.decided(budget.iterations - done))
                {
                    break;
                }
                self.iterate(None);
                done += 1;
            }
            (done, None)
        };
        let best = chosen.or_else(|| self.best_child())?;
        let node = &self.nodes[best as usize];
        Some(Report {
            best: node.mv,
            iterations: done,
        })
    }

    /// Sequential halving at the root ([`TreeShape::halving`]): rounds of
    /// equal shares over the moves still in, the worse half by mean value
    /// dropped after each, until one is left. Each round gets an equal
    /// share of the iterations and of the time left, and ends early (its
    /// moves still visited alike) when its time is up. Returns the
    /// iterations run and the root child chosen.
    fn run_halving(&mut self, budget: Budget, clock: &dyn Clock) -> (u64, Option<u32>) {
        self.expand_root();
        let mut alive: Vec<u32> = self.children_of(0).collect();
        let rounds = alive.len().next_power_of_two().trailing_zeros() as u64;
        let mut done = 0u64;
        for round in 0..rounds {
            if alive.len() <= 1 {
                break;
            }
            let left = rounds - round;
            let share = budget.iterations.saturating_sub(done) / left;
            let now = clock.now_ms();
            let round_deadline = now + (budget.deadline_ms - now) / left as f64;
            for _ in 0..(share / alive.len() as u64).max(1) {
                if done > 0 && clock.past(round_deadline) {
                    break;
                }
                for &child in &alive {
                    self.iterate(Some(child));
                }
                done += alive.len() as u64;
            }
            self.rank_by_mean(&mut alive);
            alive.truncate(alive.len().div_ceil(2));
        }
        self.rank_by_mean(&mut alive);
        (done, alive.first().copied())
    }

    /// Sorts `nodes` best first by their mean value (visited before unvisited).
    fn rank_by_mean(&self, nodes: &mut [u32]) {
        let mean = |i: &u32| {
            let n = &self.nodes[*i as usize];
            if n.visits == 0 {
                f64::NEG_INFINITY
            } else {
                n.mean
            }
        };
        nodes.sort_by(|a, b| mean(b).total_cmp(&mean(a)));
    }

    /// Every root move tried, with its visits and summed value (for the
    /// player to move), in the tree's order.
    pub fn root_moves(&self) -> Vec<(Move, u32, f64)> {
        self.children_of(0)
            .map(|i| {
                let n = &self.nodes[i as usize];
                (n.mv, n.visits, n.value)
            })
            .collect()
    }

    /// The most visited child of the root (ties to the better mean).
    fn best_child(&self) -> Option<u32> {
        let mut best: Option<(u32, f64, u32)> = None;
        for i in self.children_of(0) {
            let n = &self.nodes[i as usize];
            let q = n.mean;
            if best.is_none_or(|(v, bq, _)| n.visits > v || (n.visits == v && q > bq)) {
                best = Some((n.visits, q, i));
            }
        }
        best.map(|b| b.2)
    }

    /// Whether the most visited root move leads every other (and every
    /// move not tried yet) by more than `remaining` visits: each iteration
    /// visits one root child, so no run of `remaining` more iterations can
    /// change the move [`Mcts::best_child`] plays, and stopping now plays
    /// the same move sooner. Time saved on a clear choice is what a larger
    /// budget spends on the close ones.
    fn decided(&self, remaining: u64) -> bool {
        let (mut first, mut second) = (0u32, 0u32);
        for i in self.children_of(0) {
            let v = self.nodes[i as usize].visits;
            if v > first {
                (first, second) = (v, first);
            } else if v > second {
                second = v;
            }
        }
        u64::from(first - second) > remaining
    }

    /// The children of `node`, in the order they were added.
    fn children_of(&self, node: u32) -> std::ops::Range<u32> {
        let n = &self.nodes[node as usize];
        n.first_child..n.first_child.wrapping_add(u32::from(n.children))
    }

    /// The position of `node`.
    fn position(&self, node: u32) -> &Position {
        &self.positions[self.nodes[node as usize].position as usize]
    }

    /// One iteration: select down the tree (widening as visits grow), play
    /// out from the new leaf, and back the values up.
    /// `root_child`, if given, is the root's child every iteration goes
    /// through (sequential halving's share), else the root selects as any
    /// node does.
    fn iterate(&mut self, root_child: Option<u32>) {
        let mut node = 0u32;
        let mut visited = std::mem::take(&mut self.visited);
        visited.clear();
        visited.push(0);
        self.path.clear();
        let values = loop {
            let pos = self.position(node);
            if pos.is_over() {
                break self.evaluate(pos);
            }
            if node != 0 && self.nodes[node as usize].visits == 0 {
                let mut pos = *pos;
                self.playout(&mut pos);
                break self.evaluate(&pos);
            }
            let forced = root_child.filter(|_| node == 0);
            if forced.is_none() {
                self.widen(node);
            }
            let Some(child) = forced.or_else(|| self.select(node)) else {
                break self.evaluate(self.position(node));
            };
            self.path.push(self.position(child).hash());
            node = child;
            visited.push(node);
        };
        for &i in &visited {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.value += values[n.mover as usize];
            n.mean = n.value / f64::from(n.visits);
            n.inv_sqrt_visits = inv_sqrt_visits(n.visits);
        }
        self.visited = visited;
    }

    /// Whether the position `hash`, reached one move below the end of the
    /// current path, would then have been seen three times.
    fn repeats(&self, hash: u64) -> bool {
        let in_path = self.path.iter().filter(|&&h| h == hash).count();
        in_path + 1 + self.history.count(hash) >= 3
    }

    /// Adds the next candidate child of `node` if its visits allow one more.
    fn widen(&mut self, node: u32) {
        let n = &self.nodes[node as usize];
        // A node with `n` visits has at most `1 + ⌊√n⌋` children: it is
        // full once the children's count squared exceeds the visits (the
        // test in whole numbers: `c ≥ 1 + ⌊√n⌋` exactly when `c² > n`).
        let full = u64::from(n.children) * u64::from(n.children) > u64::from(n.visits);
        if full {
            return;
        }
        self.add_child(node);
    }

    /// Adds every candidate move of the root as a child.
    fn expand_root(&mut self) {
        self.path.clear();
        while self.add_child(0) {}
    }

    /// Generates the candidate moves of `node` into the arena, in the
    /// generator's order (the root's restricted when
    /// [`Mcts::restrict_root`] says so), unless they already are there;
    /// answers how many there are.
    fn generate_candidates(&mut self, node: u32) -> usize {
        if self.nodes[node as usize].candidates == UNKNOWN {
            let moves = self.restricted(node, unordered_candidates(self.position(node)));
            let count = moves.len().min(UNKNOWN as usize - 1);
            let parent = &mut self.nodes[node as usize];
            parent.candidates = count as u16;
            parent.arena_start = self.arena.len() as u32;
            self.arena.extend_from_slice(&moves[..count]);
        }
        self.nodes[node as usize].candidates as usize
    }

    /// Adds the next candidate child of `node`, whose path from the root
    /// is [`Mcts::path`] (generating the candidates the first time), with
    /// its position played (ended if it repeats a third time); `false`
    /// when every candidate is a child already. The candidates are kept in
    /// the generator's order and the next best is brought forward only when
    /// a child needs it.
    fn add_child(&mut self, node: u32) -> bool {
        self.generate_candidates(node);
        let parent = &self.nodes[node as usize];
        let k = parent.children as usize;
        if k >= parent.candidates as usize {
            return false;
        }
        let start = parent.arena_start as usize;
        let rest = &mut self.arena[start + k..start + parent.candidates as usize];
        let parent_position = parent.position as usize;
        bring_best_forward(rest, &self.positions[parent_position], self.seed);
        let mv = rest[0];
        let mut next = self.positions[parent_position];
        let mover = next.turn();
        next.play_unchecked(&mv);
        if self.repeats(next.hash()) {
            next.end_by_repetition();
        }
        if self.nodes[node as usize].children == self.nodes[node as usize].capacity {
            self.grow_block(node);
        }
        // Keep the children in candidate order: fill the next slot.
        let parent = &mut self.nodes[node as usize];
        let child = parent.first_child + u32::from(parent.children);
        parent.children += 1;
        self.nodes[child as usize] = Node::new(mv, mover, self.positions.len() as u32);
        self.positions.push(next);
        true
    }

    /// Moves the children of `node` to a new block at the end of the
    /// nodes, twice as large (every candidate at once at the root, which
    /// comes to try them all), at most as large as its candidates.
    fn grow_block(&mut self, node: u32) {
        let n = &self.nodes[node as usize];
        let (old, children, candidates) = (n.first_child, n.children, n.candidates);
        let capacity = if node == 0 {
            candidates
        } else {
            n.capacity.saturating_mul(2).max(2).min(candidates)
        };
        let first = self.nodes.len() as u32;
        if children > 0 {
            let old = old as usize;
            self.nodes.extend_from_within(old..old + children as usize);
        }
        // The slots not yet filled hold copies of the parent; no one reads them.
        let filler = self.nodes[node as usize].clone();
        self.nodes
            .resize(first as usize + capacity as usize, filler);
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.capacity = capacity;
    }

    /// The child of `node` with the highest UCB1 score for the player to move
    /// there; an unvisited child first. The children's means are rescaled to
    /// `[0, 1]` between the lowest and the highest (as in MuZero), so that
    /// small differences still count where the logistic saturates (a player
    /// far behind or far ahead).
    fn select(&mut self, node: u32) -> Option<u32> {
        let children = self.children_of(node);
        let block = &self.nodes[children.start as usize..children.end as usize];
        let (lo, hi) = match mean_bounds(block) {
            Ok(bounds) => bounds,
            Err(unvisited) => return Some(children.start + unvisited as u32),
        };
        let span = if hi - lo > 1e-12 { hi - lo } else { 1.0 };
        let exploration = if node == 0 {
            self.root_exploration
        } else {
            self.exploration
        };
        // q + c·√(ln N / n), with 1/span and c·√(ln N) taken out of the loop.
        let to_unit = span.recip();
        let reach = exploration * sqrt_ln_visits(self.nodes[node as usize].visits);
        let score = |n: &Node| (n.mean - lo) * to_unit + reach * f64::from(n.inv_sqrt_visits);
        best_scored(block, score).map(|k| children.start + k as u32)
    }

    /// A short epsilon-greedy playout: [`PLAYOUT_ROUNDS`] rounds of moves.
    fn playout(&mut self, pos: &mut Position) {
        let plies = PLAYOUT_ROUNDS * self.units_seats();
        for _ in 0..plies {
            if pos.is_over() {
                return;
            }
            let Some(mv) = playout_move(pos, &mut self.rng, PLAYOUT_EPSILON, &mut self.scratch)
            else {
                return;
            };
            pos.play_unchecked(&mv);
        }
    }

    fn units_seats(&self) -> usize {
        self.root.variant().players()
    }

    /// The value of `pos` for every colour, in `[0, 1]`: its unit's mean
    /// pairwise standing against the other units (decided places as won or
    /// lost pairs, else the logistic of the cost difference), blended with
    /// the unit's own progress while the game goes on.
    fn evaluate(&self, pos: &Position) -> [f64; 6] {
        let n = self.units.len();
        let over = pos.is_over();
        // Costs are whole numbers: kept as integers, so that a pair's cost
        // difference is one subtraction and finds its logistic without a
        // conversion (the values are those of the same sums in floating
        // point, exact at these sizes).
        let mut costs = [0i32; 6];
        let mut places = [0u8; 6];
        let mut in_goal = [0i32; 6];
        // The weight of a marble of lead in goal, 0 before the last rounds.
        let late = late_round_term(pos, 1);
        // The board read once for every colour's jump term.
        let board = board_bytes(if over { 0 } else { pos.occupied().0 });
        let mut any_place = 0u8;
        for (i, u) in self.units.iter().enumerate() {
            places[i] = pos.place(u[0]);
            any_place |= places[i];
            if over {
                continue;
            }
            let c: i32 = u
                .iter()
                .map(|&c| cost_on(pos, c, &self.weights, &board))
                .sum();
            // Each unit's own noise: the unit salts the position's hash.
            costs[i] = c + seeded_noise(pos.hash() ^ (i as u64 + 1), self.seed, self.noise);
            if late != 0 {
                in_goal[i] = u.iter().map(|&c| pos.marbles_in_goal(c) as i32).sum();
            }
        }
        if !over {
            costs[self.unit_of[pos.turn().index()]] -= self.weights.tempo;
        }
        let free_best = (1..=n as u8)
            .find(|p| !places[..n].contains(p))
            .unwrap_or(n as u8);
        let mut unit_values = [0f64; 6];
        for i in 0..n {
            let mut sum = 0.0;
            if any_place == 0 {
                // No place decided: every pair stands by its cost difference.
                for j in (0..n).filter(|&j| j != i) {
                    sum += self
                        .logistic
                        .of(costs[j] - costs[i] + (in_goal[i] - in_goal[j]) * late);
                }
            } else {
                for j in (0..n).filter(|&j| j != i) {
                    sum += match (places[i], places[j]) {
                        (0, 0) => self
                            .logistic
                            .of(costs[j] - costs[i] + (in_goal[i] - in_goal[j]) * late),
                        (0, p) => f64::from(p >= free_best),
                        (p, 0) => f64::from(p < free_best),
                        (a, b) => f64::from(a < b) + 0.5 * f64::from(a == b),
                    };
                }
            }
            let progress = PROGRESS_SCALE / (PROGRESS_SCALE + f64::from(costs[i]).max(0.0));
            unit_values[i] = if over {
                if n > 1 {
                    sum / (n - 1) as f64
                } else {
                    1.0
                }
            } else if n > 1 {
                (1.0 - PROGRESS_WEIGHT) * sum / (n - 1) as f64 + PROGRESS_WEIGHT * progress
            } else {
                progress
            };
        }
        let mut values = [0f64; 6];
        for c in Colour::ALL {
            values[c.index()] = unit_values[self.unit_of[c.index()]];
        }
        values
    }
}

impl Drop for Mcts {
    /// Gives the tree's lists back to the process's pool for a later search.
    fn drop(&mut self) {
        Buffers {
            nodes: std::mem::take(&mut self.nodes),
            positions: std::mem::take(&mut self.positions),
            arena: std::mem::take(&mut self.arena),
        }
        .give_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FrozenClock;
    use crate::tables::tables;
    use candidates::sorted::candidates;
    use stella_engine::Variant;

    /// A tree exploring at 0.7 throughout, its root choosing by UCB1.
    const PLAIN: TreeShape = TreeShape::one_tree(70);

    /// Positions of a classic-3 game played by the greedy player.
    pub(super) fn greedy_game(variant: Variant, plies: usize) -> Vec<Position> {
        let mut pos = Position::start(variant);
        let mut out = vec![pos];
        for i in 0..plies {
            let Some(mv) = crate::greedy::greedy_move(&pos, i as u64) else {
                break;
            };
            pos.play_unchecked(&mv);
            out.push(pos);
        }
        out
    }

    fn search(pos: &Position, seed: u64, iterations: u64) -> Report {
        let budget = Budget {
            iterations,
            deadline_ms: f64::INFINITY,
        };
        Mcts::new(pos, &[pos.hash()], seed, 0, Weights::DEFAULT, PLAIN)
            .run(budget, &FrozenClock)
            .expect("a move")
    }

    #[test]
    fn a_search_on_the_lists_of_an_earlier_one_grows_the_same_tree() {
        // The first search of each pair may get fresh lists or kept ones;
        // the second always gets the lists the first left, full of its
        // nodes and positions. Both must grow the same tree.
        let games = [
            greedy_game(Variant::Classic3, 30),
            greedy_game(Variant::Classic6, 30),
        ];
        for pos in games.iter().flat_map(|g| g.iter().step_by(10)) {
            let first = search(pos, 3, 400);
            let _other = search(&games[1][5], 9, 700);
            assert_eq!(search(pos, 3, 400), first, "{pos}");
        }
    }

    #[test]
    fn plays_a_legal_move_and_never_eliminates_unless_forced() {
        // Past the deadline white's j5 could step back home into j4 or k4.
        let pos: Position = "classic-3 white 32 white:j5,e15,e16,f14,f15,f16,g14,g15,h14,i9 \
             blue:a13,b12,b13,c11,c12,c13,d10,d11,d12,d13 \
             yellow:j13,k12,k13,l11,l12,l13,m10,m11,m12,m13 made:31,31,31"
            .parse()
            .unwrap();
        assert!(pos.legal_moves().iter().any(|m| pos.would_eliminate(m)));
        for seed in 0..4 {
            let mv = search(&pos, seed, 300).best;
            assert!(pos.legal_moves().contains(&mv));
            assert!(!pos.would_eliminate(&mv), "{mv:?}");
        }
        for p in greedy_game(Variant::Classic6, 40).iter().step_by(7) {
            let mv = crate::Request::new(p, 3, 5).choose(&FrozenClock).unwrap();
            assert!(p.legal_moves().contains(&mv) && !p.would_eliminate(&mv));
        }
    }

    /// Walks the tree from `node` at `pos` and checks that every node's
    /// children are the first of its position's candidate moves, in order
    /// (the arena hands out what `candidates` would), and that the counts
    /// agree. Returns the nodes checked.
    fn check_children(tree: &Mcts, node: u32, pos: &Position) -> usize {
        let n = &tree.nodes[node as usize];
        let children: Vec<u32> = tree.children_of(node).collect();
        assert_eq!(children.len(), n.children as usize);
        if children.is_empty() {
            return 1;
        }
        let expected = candidates(pos, tree.seed);
        assert_eq!(n.candidates as usize, expected.len());
        let mut checked = 1;
        for (k, &c) in children.iter().enumerate() {
            let mv = tree.nodes[c as usize].mv;
            assert_eq!(mv, expected[k], "child {k} of node {node}");
            let mut next = *pos;
            next.play_unchecked(&mv);
            checked += check_children(tree, c, &next);
        }
        checked
    }

    /// Checks that every node's stored position is its parent's with the
    /// node's move played (and ended if that repeats a position a third
    /// time on its line, the game's history included). Returns the nodes
    /// checked.
    fn check_positions(tree: &Mcts, node: u32, line: &mut Vec<u64>) -> usize {
        let pos = *tree.position(node);
        let mut checked = 1;
        for c in tree.children_of(node).collect::<Vec<_>>() {
            let mut next = pos;
            next.play_unchecked(&tree.nodes[c as usize].mv);
            line.push(next.hash());
            let seen = line.iter().filter(|&&h| h == next.hash()).count();
            if seen + tree.history.count(next.hash()) >= 3 {
                next.end_by_repetition();
            }
            assert_eq!(*tree.position(c), next, "node {c}");
            checked += check_positions(tree, c, line);
            line.pop();
        }
        checked
    }

    #[test]
    fn every_node_keeps_the_position_its_line_reaches() {
        for (variant, ply) in [(Variant::Classic3, 20), (Variant::Classic6, 40)] {
            let game = greedy_game(variant, ply);
            let pos = game[ply];
            let history: Vec<u64> = game.iter().map(Position::hash).collect();
            let mut tree = Mcts::new(&pos, &history, 3, 0, Weights::DEFAULT, PLAIN);
            let budget = Budget {
                iterations: 2_000,
                deadline_ms: f64::INFINITY,
            };
            tree.run(budget, &FrozenClock).expect("a move");
            assert_eq!(*tree.position(0), pos);
            let checked = check_positions(&tree, 0, &mut Vec::new());
            assert_eq!(checked, tree.positions.len(), "{variant}");
        }
    }

    #[test]
    fn a_child_repeating_a_position_a_third_time_keeps_the_ended_game() {
        let pos = greedy_game(Variant::Classic3, 12)[12];
        let first = candidates(&pos, 3)[0];
        let mut after = pos;
        after.play_unchecked(&first);
        // The game met the position after `first` twice already.
        let history = [after.hash(), pos.hash(), after.hash(), pos.hash()];
        let mut tree = Mcts::new(&pos, &history, 3, 0, Weights::DEFAULT, PLAIN);
        let budget = Budget {
            iterations: 500,
            deadline_ms: f64::INFINITY,
        };
        tree.run(budget, &FrozenClock).expect("a move");
        let child = tree
            .children_of(0)
            .find(|&c| tree.nodes[c as usize].mv == first)
            .expect("the first candidate is a child");
        let kept = *tree.position(child);
        let outcome = kept.outcome().expect("the repetition ends the game");
        assert_eq!(outcome.reason, stella_engine::EndReason::Repetition);
        assert!(tree.children_of(child).next().is_none());
        assert_eq!(
            check_positions(&tree, 0, &mut Vec::new()),
            tree.positions.len()
        );
    }

    #[test]
    fn children_follow_the_candidate_order_at_every_node() {
        for (variant, ply) in [(Variant::Classic3, 12), (Variant::Classic6, 30)] {
            let pos = greedy_game(variant, ply)[ply];
            let mut tree = Mcts::new(&pos, &[], 3, 0, Weights::DEFAULT, PLAIN);
            let budget = Budget {
                iterations: 3_000,
                deadline_ms: f64::INFINITY,
            };
            tree.run(budget, &FrozenClock).expect("a move");
            let checked = check_children(&tree, 0, &pos);
            assert_eq!(checked, tree.positions.len(), "{variant}");
            assert!(checked > 1_000, "{variant}: {checked} nodes");
        }
    }

    #[test]
    fn same_seed_same_move() {
        for p in greedy_game(Variant::Classic3, 30).iter().step_by(10) {
            let a = search(p, 7, 400);
            let b = search(p, 7, 400);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn a_wider_root_keeps_comparing_its_moves() {
        let budget = Budget {
            iterations: 4_000,
            deadline_ms: f64::INFINITY,
        };
        let narrow = TreeShape::one_tree(30);
        let wide = TreeShape {
            root_exploration_pct: Some(70),
            ..narrow
        };
        // The share of the root's visits its most visited move takes, the
        // mean over four seeds (one tree's share varies with its draws).
        let top_share = |pos: &Position, shape: TreeShape| {
            let share = |seed: u64| {
                let mut t = Mcts::new(pos, &[pos.hash()], seed, 0, Weights::DEFAULT, shape);
                t.run(budget, &FrozenClock).expect("a move");
                let visits: Vec<u32> = t.root_moves().iter().map(|m| m.1).collect();
                let total: u32 = visits.iter().sum();
                f64::from(*visits.iter().max().expect("children")) / f64::from(total)
            };
            (1..=4).map(share).sum::<f64>() / 4.0
        };
        for pos in greedy_game(Variant::Classic3, 30).iter().step_by(10) {
            let (n, w) = (top_share(pos, narrow), top_share(pos, wide));
            assert!(w < n, "root share {w:.3} with a wide root, {n:.3} without");
        }
    }

    #[test]
    fn sequential_halving_shares_the_root_and_plays_the_best_finalist() {
        let iterations = 6_000;
        let halving = TreeShape {
            halving: true,
            ..TreeShape::one_tree(30)
        };
        for pos in greedy_game(Variant::Classic6, 60).iter().step_by(20) {
            let (t, report) = grown(pos, iterations, halving);
            assert!(report.iterations <= iterations);
            assert!(report.iterations * 100 >= iterations * 95);
            let moves = t.root_moves();
            assert_eq!(moves.len(), candidates(pos, 5).len(), "every move a child");
            assert!(moves.iter().all(|m| m.1 > 0), "every move tried");
            // The two finalists share the most visits; the better mean plays.
            let most = moves.iter().map(|m| m.1).max().expect("children");
            let finalists: Vec<_> = moves.iter().filter(|m| m.1 == most).collect();
            assert_eq!(finalists.len(), 2, "{moves:?}");
            let mean = |m: &(Move, u32, f64)| m.2 / f64::from(m.1);
            let best = finalists
                .iter()
                .max_by(|a, b| mean(a).total_cmp(&mean(b)))
                .expect("two");
            assert_eq!(report.best, best.0);
            // Deterministic given the seed.
            assert_eq!(grown(pos, iterations, halving).1.best, report.best);
        }
    }

    /// A tree of `pos` shaped as `shape` (seed 5, no noise) after
    /// `iterations` iterations, and its report.
    fn grown(pos: &Position, iterations: u64, shape: TreeShape) -> (Mcts, Report) {
        let budget = Budget {
            iterations,
            deadline_ms: f64::INFINITY,
        };
        let mut tree = Mcts::new(pos, &[pos.hash()], 5, 0, Weights::DEFAULT, shape);
        let report = tree.run(budget, &FrozenClock).expect("a move");
        (tree, report)
    }

    #[test]
    fn a_clear_choice_stops_early_and_plays_the_move_of_the_whole_budget() {
        let iterations = 4_000;
        let shape = TreeShape {
            root_exploration_pct: Some(70),
            ..TreeShape::one_tree(30)
        };
        let mut stopped_early = 0;
        for pos in greedy_game(Variant::Classic3, 60).iter().step_by(6) {
            let (_, report) = grown(pos, iterations, shape);
            assert!(report.iterations <= iterations);
            if report.iterations < iterations {
                stopped_early += 1;
            }
            // The same search run to the end of its budget, with no check.
            let mut whole = Mcts::new(pos, &[pos.hash()], 5, 0, Weights::DEFAULT, shape);
            for _ in 0..iterations {
                whole.iterate(None);
            }
            let best = whole.best_child().expect("a move");
            assert_eq!(report.best, whole.nodes[best as usize].mv, "{pos:?}");
        }
        assert!(stopped_early > 0, "no search stopped early");
    }

    #[test]
    fn every_node_keeps_its_mean_and_inverse_root_of_visits() {
        // What a choice reads must be what it stands for: the summed value
        // over the visits, exactly, and 1/√visits to a 32-bit float.
        let pos = greedy_game(Variant::Classic3, 20)[20];
        let (tree, _) = grown(&pos, 3_000, PLAIN);
        let mut seen = 0;
        let mut stack = vec![0u32];
        while let Some(node) = stack.pop() {
            let n = &tree.nodes[node as usize];
            if n.visits > 0 {
                assert_eq!(n.mean, n.value / f64::from(n.visits));
                let expected = (f64::from(n.visits).sqrt().recip()) as f32;
                assert_eq!(n.inv_sqrt_visits, expected);
                seen += 1;
            } else {
                assert_eq!((n.mean, n.inv_sqrt_visits), (0.0, 0.0));
            }
            stack.extend(tree.children_of(node));
        }
        assert!(seen > 1_000, "{seen}");
    }

    #[test]
    fn mcts_players_finish_a_classic_3_game() {
        let mut pos = Position::start(Variant::Classic3);
        let mut history = vec![pos.hash()];
        let budget = Budget {
            iterations: 60,
            deadline_ms: f64::INFINITY,
        };
        while !pos.is_over() {
            let mut m = Mcts::new(
                &pos,
                &history,
                history.len() as u64,
                0,
                Weights::DEFAULT,
                PLAIN,
            );
            let mv = m.run(budget, &FrozenClock).unwrap().best;
            assert!(pos.legal_moves().contains(&mv));
            pos.play_unchecked(&mv);
            history.push(pos.hash());
            assert!(
                history.len() < 3 * 90,
                "no finish after {} plies",
                history.len()
            );
        }
        let outcome = pos.outcome().unwrap();
        assert_eq!(outcome.reason, stella_engine::EndReason::Arrived, "{pos}");
    }

    #[test]
    fn a_partner_keeps_the_ladder_for_its_partner() {
        // Pairs: white and black are partners. Black's straggler h12 can run
        // down the ladder h11 (white), h9, h7 (black) to h6, gaining six rows.
        // For itself white's best moves are h11's jumps to h13 or f13 (two
        // rows), and its rearmost marble i9 can step to h10 or i10 alike;
        // both h11's jumps and h10 break the ladder.
        let pos: Position = "pairs-2x2 white 41 \
             white:e14,e15,e16,e17,f15,f16,g15,g12,h11,i9 \
             red:j13,k9,k12,k13,l11,l12,l13,m10,m11,m12 \
             black:h7,h9,h12,j4,k3,l2,l3,m1,m2,m3 \
             yellow:e6,e7,e8,f5,f6,f7,g5,g6,h5,k6 made:40,40,40,40"
            .parse()
            .unwrap();
        // The most rows black can gain in one move.
        let black_best = |p: &Position| {
            let t = tables(Colour::Black);
            let mut best = 0;
            p.for_each_move_of(Colour::Black, |m| {
                best = best
                    .max(t.rows_to_go[m.from.index()] as i32 - t.rows_to_go[m.to.index()] as i32)
            });
            best
        };
        assert_eq!(black_best(&pos), 6);
        let selfish = crate::greedy::greedy_move(&pos, 1).unwrap();
        let mut after = pos;
        after.play_unchecked(&selfish);
        assert!(black_best(&after) < 6, "greedy {selfish:?} should break it");
        for seed in 0..3 {
            let mv = search(&pos, seed, 3_000).best;
            let mut after = pos;
            after.play_unchecked(&mv);
            assert_eq!(
                black_best(&after),
                6,
                "seed {seed}: {mv:?} breaks the ladder"
            );
        }
    }

    #[test]
    fn partners_share_a_value_and_a_partner_s_progress_counts() {
        let pos = Position::start(Variant::Pairs2x2);
        let m = Mcts::new(&pos, &[], 0, 0, Weights::DEFAULT, PLAIN);
        let v = m.evaluate(&pos);
        assert_eq!(v[Colour::White.index()], v[Colour::Black.index()]);
        assert_eq!(v[Colour::Red.index()], v[Colour::Yellow.index()]);
        // Black (white's partner) moves forward: white is better off.
        let mut next: Position = pos;
        let red_move = crate::greedy::greedy_move(&next, 0).unwrap();
        next.play_unchecked(&red_move);
        let w = m.evaluate(&next);
        assert!(w[Colour::Black.index()] > w[Colour::Red.index()]);
    }
}
