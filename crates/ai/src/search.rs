//! The game-tree search: iterative deepening, alpha-beta with principal
//! variation search (null windows, re-searches) and late-move reductions
//! (the `reductions` module), a Zobrist transposition table, and move
//! ordering by TT move, killers, history and rows gained.
//!
//! Scores are from the point of view of the *root unit* (the player to move at
//! the root, with its partner in team variants): it maximises, every other
//! player minimises. With two players this is ordinary minimax; with more it is
//! the *paranoid* search (docs/experiments.md compares it with max-n).

use crate::clock::Clock;
use crate::cost_memo::CostMemo;
use crate::deadline::playable_moves;
use crate::eval::{drive_offset, value_with, Weights, WIN};
use crate::leaf_cache::{leaf_key, LeafCache};
use crate::limits::Limits;
use crate::ordering::{hist_index, MoverOrder, NodeOrder, HISTORY_PER_COLOUR};
use crate::progress::{distance, restrict};
use crate::race::Problem;
use crate::reductions::Reductions;
use crate::repetition::GameHistory;
use crate::rng::seeded_noise;
use crate::strategy::Strategy;
use crate::tables::tables;
use crate::tt::{Bound, PackedMove, Table};
use stella_engine::move_cache::MoveCache;
use stella_engine::{Colour, Move, Position};

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 96;
const INF: i32 = WIN * 2;
/// Longest finishing plan played without searching the opponent's replies.
pub const FINISH_PLAN: usize = 6;

/// What the search reports after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Depth completed, in plies.
    pub depth: u32,
    /// Score for the player to move at the root (1/100 row; ±1 000 000 = decided).
    pub score: i32,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move chosen.
    pub best: Move,
    /// Its score for the player to move (see [`Info::score`]).
    pub score: i32,
    /// The deepest completed depth.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation, `best` first.
    pub pv: Vec<Move>,
}

/// Settings of a searcher that stay across searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Evaluation weights.
    pub weights: Weights,
    /// Amplitude of the seeded evaluation noise (weakens the lower levels).
    pub noise: i32,
    /// Seed of the noise.
    pub seed: u64,
    /// Transposition table size in megabytes.
    pub tt_mb: usize,
    /// Widest beam of the race solver used once the armies have passed each
    /// other (0 = never hand over to it).
    pub race_width: usize,
    /// How opponents are searched at tables of three or more.
    pub strategy: Strategy,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            weights: Weights::DEFAULT,
            noise: 0,
            seed: 0,
            tt_mb: 16,
            race_width: 256,
            strategy: Strategy::Paranoid,
        }
    }
}

/// A reusable searcher: keeps its transposition table and history between
/// searches of the same game.
pub struct Searcher {
    settings: Settings,
    tt: Table,
    game_history: GameHistory,
    // Per search.
    root: Colour,
    root_key: u64,
    /// [`drive_offset`] of the root: added to undecided leaf values so that
    /// the drive term only ranks moves and a balanced position scores about 0.
    drive_offset: i32,
    best_reply: bool,
    nodes: u64,
    node_limit: u64,
    deadline: f64,
    start_ms: f64,
    stopped: bool,
    killers: [[PackedMove; 2]; MAX_PLY],
    history: Vec<i32>,
    path: Vec<u64>,
    /// The only moves the root may play, when restricted.
    root_only: Option<Vec<Move>>,
    /// Each ply's move-ordering keys (reused).
    key_lists: Vec<Vec<u64>>,
    /// Each ply's move list (reused, so that a node allocates none).
    move_lists: Vec<Vec<(Move, u8)>>,
    /// Each colour's marbles' destinations, reused from node to node while
    /// the holes they depend on stay as they were.
    move_cache: MoveCache,
    /// The values of the leaves met in this search.
    leaf_cache: LeafCache,
    /// Each colour's last cost, for leaves where it did not change.
    cost_memo: CostMemo,
    /// How much less deep late moves are first searched.
    reductions: Reductions,
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

fn unit_key(colour: Colour) -> u64 {
    0x9E37_79B9_7F4A_7C15u64.wrapping_mul(colour.index() as u64 + 1)
}

impl Searcher {
    /// A searcher with these settings.
    pub fn new(settings: Settings) -> Searcher {
        Searcher {
            settings,
            tt: Table::new(settings.tt_mb),
            game_history: GameHistory::new(&[]),
            root: Colour::White,
            root_key: 0,
            drive_offset: 0,
            best_reply: false,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: f64::INFINITY,
            start_ms: 0.0,
            stopped: false,
            killers: [[PackedMove::NONE; 2]; MAX_PLY],
            history: vec![0; 6 * HISTORY_PER_COLOUR],
            path: Vec::with_capacity(MAX_PLY),
            root_only: None,
            key_lists: vec![Vec::new(); MAX_PLY],
            move_lists: vec![Vec::new(); MAX_PLY],
            move_cache: MoveCache::new(),
            leaf_cache: LeafCache::new(),
            cost_memo: CostMemo::new(settings.weights),
            reductions: Reductions::new(),
        }
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Changes the noise and its seed (the transposition table is cleared,
    /// since its scores carry the old noise).
    pub fn set_noise(&mut self, noise: i32, seed: u64) {
        if (noise, seed) != (self.settings.noise, self.settings.seed) {
            self.settings.noise = noise;
            self.settings.seed = seed;
            self.tt.clear();
        }
    }

    /// Changes the evaluation weights (the transposition table is cleared).
    pub fn set_weights(&mut self, weights: Weights) {
        if weights != self.settings.weights {
            self.settings.weights = weights;
            self.tt.clear();
        }
    }

    /// Changes the multi-player strategy (the transposition table is cleared).
    pub fn set_strategy(&mut self, strategy: Strategy) {
        if strategy != self.settings.strategy {
            self.settings.strategy = strategy;
            self.tt.clear();
        }
    }

    /// Sets the widest beam of the race solver (0 = never use it).
    pub fn set_race_width(&mut self, width: usize) {
        self.settings.race_width = width;
    }

    /// The hashes of the game's positions so far (the current one included),
    /// so that the search sees threefold repetitions.
    pub fn set_game_history(&mut self, hashes: &[u64]) {
        self.game_history.set(hashes);
    }

    /// Restricts the root of the next searches to the legal moves among
    /// `moves` (the progress guard's choice); `None` lifts the restriction,
    /// and so does a list that leaves no move.
    pub fn set_root_moves(&mut self, moves: Option<Vec<Move>>) {
        self.root_only = moves;
    }

    /// Forgets everything learnt (transposition table, history, killers).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers = [[PackedMove::NONE; 2]; MAX_PLY];
    }

    /// Searches `position` within `limits`. `None` when the player to move
    /// has no legal move (or the game is over).
    pub fn search(
        &mut self,
        position: &Position,
        limits: Limits,
        clock: &dyn Clock,
    ) -> Option<SearchResult> {
        self.search_with(position, limits, clock, &mut |_| {})
    }

    /// As [`Searcher::search`], reporting each completed depth to `on_info`.
    pub fn search_with(
        &mut self,
        position: &Position,
        limits: Limits,
        clock: &dyn Clock,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        let mut root_moves = playable_moves(position);
        if root_moves.is_empty() {
            return None;
        }
        if let Some(only) = &self.root_only {
            root_moves = restrict(root_moves, only);
        }
        self.start_ms = clock.now_ms();
        let moves_left = estimate_moves_left(position);
        self.deadline = limits
            .budget_ms(moves_left)
            .map_or(f64::INFINITY, |b| self.start_ms + b);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.stopped = clock.stopped();
        self.root = position.turn();
        self.root_key = unit_key(self.unit_leader(position.turn(), position));
        self.drive_offset = drive_offset(position, self.root, &self.settings.weights);
        self.best_reply =
            self.settings.strategy == Strategy::BestReply && position.variant().unit_count() > 2;
        self.tt.new_search();
        self.leaf_cache.clear();
        self.cost_memo.reset(self.settings.weights);
        self.killers = [[PackedMove::NONE; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.path.clear();
        self.path.push(position.hash());

        if let Some(result) = self.race(position, &root_moves, clock) {
            return Some(result);
        }
        // A short finish with the opponent frozen, played unless the search
        // below proves a win of its own.
        let finish = if self.settings.race_width > 0 {
            let budget = ((self.deadline - self.start_ms) * 0.2).min(1e9);
            self.finishing_plan(position, clock, budget)
                .filter(|p| p.first().is_some_and(|m| root_moves.contains(m)))
        } else {
            None
        };
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 2)
            .clamp(1, MAX_PLY as u32 - 2);
        self.order(position, &mut root_moves, PackedMove::NONE, 0);
        let mut best = SearchResult {
            best: root_moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![root_moves[0]],
        };
        if root_moves.len() == 1 && limits.depth.is_none() {
            let mut child = *position;
            child.play_unchecked(&root_moves[0]);
            best.score = self.leaf(&child);
            best.depth = 1;
            return Some(best);
        }
        for depth in 1..=max_depth {
            let (score, mv, pv, complete) =
                self.root_search(clock, position, &mut root_moves, depth as i32);
            if let Some(mv) = mv {
                if complete || mv != best.best || depth == 1 {
                    best.best = mv;
                    best.score = score;
                    best.pv = pv;
                    if complete {
                        best.depth = depth;
                    }
                }
            }
            best.nodes = self.nodes;
            if !complete {
                break;
            }
            let elapsed = clock.now_ms() - self.start_ms;
            on_info(&Info {
                depth,
                score: best.score,
                nodes: self.nodes,
                time_ms: elapsed.max(0.0) as u64,
                pv: best.pv.clone(),
            });
            if best.score.abs() >= WIN - MAX_PLY as i32 {
                break;
            }
            // Another depth would take several times longer: do not start it
            // past half the budget.
            if self.start_ms + 2.0 * elapsed > self.deadline {
                break;
            }
            if self.nodes.saturating_mul(3) > self.node_limit {
                break;
            }
            if self.check_stop(clock) {
                break;
            }
        }
        if let Some(plan) = finish {
            if best.score < WIN - MAX_PLY as i32 {
                best.best = plan[0];
                best.pv = plan;
            }
        }
        Some(best)
    }

    /// In a race (or on a multi-player final approach), the first move of the
    /// fastest finish found.
    fn race(
        &mut self,
        position: &Position,
        root_moves: &[Move],
        clock: &dyn Clock,
    ) -> Option<SearchResult> {
        if self.settings.race_width == 0 {
            return None;
        }
        let budget = ((self.deadline - self.start_ms) * 0.6).min(1e9);
        let plan = crate::ida::race_plan(
            position,
            clock,
            budget,
            self.settings.race_width,
            self.node_limit,
        )?;
        let first = *plan.first()?;
        if !root_moves.contains(&first) {
            return None;
        }
        let mut child = *position;
        child.play_unchecked(&first);
        Some(SearchResult {
            best: first,
            score: self.leaf(&child),
            depth: plan.len() as u32,
            nodes: 0,
            pv: plan,
        })
    }

    /// Two players, both past the deadline (so neither can end a move in the
    /// other's goal any more): when the mover can finish in at most
    /// [`FINISH_PLAN`] moves with the opponent frozen, and the opponent
    /// cannot finish sooner, the mover just finishes.
    fn finishing_plan(
        &self,
        position: &Position,
        clock: &dyn Clock,
        budget: f64,
    ) -> Option<Vec<Move>> {
        let v = position.variant();
        if v.players() != 2 || v.masters_swap() {
            return None;
        }
        let me = position.turn();
        let them = *v.seats().iter().find(|&&c| c != me)?;
        let deadline = v.deadline();
        if position.moves_made(me) < deadline || position.moves_made(them) < deadline {
            return None;
        }
        let mine = Problem::of(position);
        if mine.lower_bound(mine.mine) > FINISH_PLAN as u32 {
            return None;
        }
        let plan = crate::ida::best_plan(&mine, clock, budget / 2.0, 64, self.node_limit / 4)?.plan;
        if plan.len() > FINISH_PLAN {
            return None;
        }
        let theirs = Problem {
            colour: them,
            mine: position.marbles(them),
            others: position.marbles(me),
            allowed: v.allowed_ends(them),
            goal: v.goal(them),
            anti_block: true,
            rule: v.jump_rule(),
        };
        // White moves first: black needs strictly fewer moves to get there first.
        let their_lb = theirs.lower_bound(theirs.mine) as usize;
        if their_lb >= plan.len() {
            return Some(plan);
        }
        match crate::ida::best_plan(&theirs, clock, budget / 2.0, 64, self.node_limit / 4) {
            Some(p) if p.plan.len() < plan.len() => None,
            _ => Some(plan),
        }
    }

    fn unit_leader(&self, colour: Colour, position: &Position) -> Colour {
        match position.variant().partner(colour) {
            Some(p) if p.index() < colour.index() => p,
            _ => colour,
        }
    }

    fn is_ours(&self, colour: Colour, position: &Position) -> bool {
        colour == self.root || position.variant().partner(self.root) == Some(colour)
    }

    /// Whether a colour of the root's unit still plays at `position`.
    fn ours_still_play(&self, position: &Position) -> bool {
        position
            .variant()
            .seats()
            .iter()
            .any(|&c| self.is_ours(c, position) && position.is_active(c))
    }

    fn check_stop(&mut self, clock: &dyn Clock) -> bool {
        if self.nodes >= self.node_limit || clock.past(self.deadline) {
            self.stopped = true;
        }
        self.stopped
    }

    fn leaf(&mut self, position: &Position) -> i32 {
        let key = leaf_key(position);
        if let Some(v) = self.leaf_cache.get(key) {
            return v;
        }
        let v = self.value(position)
            + seeded_noise(position.hash(), self.settings.seed, self.settings.noise);
        self.leaf_cache.put(key, v);
        v
    }

    /// The root unit's value of `position`, undecided values shifted by the
    /// root's drive offset.
    fn value(&mut self, position: &Position) -> i32 {
        let memo = &mut self.cost_memo;
        let v = value_with(position, self.root, &self.settings.weights, &mut |c| {
            memo.cost(position, c)
        });
        if v.abs() < WIN / 2 {
            v + self.drive_offset
        } else {
            v
        }
    }

    fn terminal(&mut self, position: &Position, ply: usize) -> i32 {
        let v = self.value(position);
        if v >= WIN / 2 {
            v - ply as i32
        } else if v <= -WIN / 2 {
            v + ply as i32
        } else {
            v
        }
    }

    fn repeats(&self, hash: u64) -> bool {
        let in_path = self.path.iter().filter(|&&h| h == hash).count();
        in_path + self.game_history.count(hash) >= 3
    }

    /// Sorts `moves` best first for the player to move.
    fn order(&self, position: &Position, moves: &mut [Move], tt_move: PackedMove, ply: usize) {
        let order = NodeOrder::new(tt_move, self.killers[ply.min(MAX_PLY - 1)]);
        let mover = MoverOrder::of(position.turn(), &self.history);
        let mut keyed: Vec<(i32, Move)> =
            moves.iter().map(|m| (order.key(&mover, m), *m)).collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
            *slot = m;
        }
    }

    /// The ordering keys of the moves of a layer (each with the index of
    /// the prefix position it is played from), for their movers, into
    /// `keys`: each move's key and its place in the list packed into one
    /// number, so that larger numbers go first and ties keep the
    /// generator's order. [`next_in_order`] hands them out.
    fn order_layer(
        &self,
        prefixes: &[Position],
        moves: &[(Move, u8)],
        tt_move: PackedMove,
        ply: usize,
        keys: &mut Vec<u64>,
    ) {
        let order = NodeOrder::new(tt_move, self.killers[ply.min(MAX_PLY - 1)]);
        keys.clear();
        let pack = |i: usize, key: i32| {
            let biased = (i64::from(key) - i64::from(i32::MIN)) as u64;
            biased << 32 | u64::from(u32::MAX - i as u32)
        };
        if let [only] = prefixes {
            // One mover: its tables and history row, looked up once.
            let mover = MoverOrder::of(only.turn(), &self.history);
            keys.extend(
                moves
                    .iter()
                    .enumerate()
                    .map(|(i, (m, _))| pack(i, order.key(&mover, m))),
            );
            return;
        }
        // Each mover's tables and history row, looked up once for the layer
        // (a layer has at most five movers: the opponents of one player).
        debug_assert!(prefixes.len() <= 6);
        let movers: [MoverOrder; 6] = std::array::from_fn(|k| {
            let p = prefixes.get(k).unwrap_or(&prefixes[0]);
            MoverOrder::of(p.turn(), &self.history)
        });
        keys.extend(
            moves
                .iter()
                .enumerate()
                .map(|(i, (m, from))| pack(i, order.key(&movers[*from as usize], m))),
        );
    }

    fn root_search(
        &mut self,
        clock: &dyn Clock,
        position: &Position,
        moves: &mut [Move],
        depth: i32,
    ) -> (i32, Option<Move>, Vec<Move>, bool) {
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<Move> = None;
        let mut best_pv = Vec::new();
        let mut scores = vec![-INF; moves.len()];
        for (i, mv) in moves.iter().enumerate() {
            let mut child = *position;
            child.play_unchecked(mv);
            self.path.push(child.hash());
            let mut pv = Vec::new();
            let v = if i == 0 {
                self.alphabeta(clock, &child, depth - 1, alpha, beta, 1, &mut pv)
            } else {
                let v = self.alphabeta(clock, &child, depth - 1, alpha, alpha + 1, 1, &mut pv);
                if v > alpha && !self.stopped {
                    pv.clear();
                    self.alphabeta(clock, &child, depth - 1, alpha, beta, 1, &mut pv)
                } else {
                    v
                }
            };
            self.path.pop();
            if self.stopped {
                return (alpha, best, best_pv, false);
            }
            scores[i] = v;
            if v > alpha || best.is_none() {
                alpha = v;
                best = Some(*mv);
                best_pv = std::iter::once(*mv).chain(pv).collect();
            }
        }
        // Next iteration: best first, then by this iteration's scores.
        let mut keyed: Vec<(i32, Move)> = scores.into_iter().zip(moves.iter().copied()).collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        if let Some(b) = best {
            if let Some(pos) = keyed.iter().position(|(_, m)| *m == b) {
                let e = keyed.remove(pos);
                keyed.insert(0, e);
            }
        }
        for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
            *slot = m;
        }
        (alpha, best, best_pv, true)
    }

    #[allow(clippy::too_many_arguments)]
    fn alphabeta(
        &mut self,
        clock: &dyn Clock,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv: &mut Vec<Move>,
    ) -> i32 {
        self.nodes += 1;
        if self.stopped {
            return 0;
        }
        if self.nodes & 255 == 0 && self.check_stop(clock) {
            return 0;
        }
        if position.is_over() {
            return self.terminal(position, ply);
        }
        if self.repeats(position.hash()) {
            let mut ended = *position;
            ended.end_by_repetition();
            return self.terminal(&ended, ply);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.leaf(position);
        }
        let key = position.hash() ^ self.root_key;
        let mut tt_move = PackedMove::NONE;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            if e.depth as i32 >= depth {
                let s = shift_decided(e.score, -(ply as i32));
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let maximizing = self.is_ours(position.turn(), position);
        // Once the root's unit has arrived or is out, no turn of its own
        // follows and an opponents' layer would run to the end of the game:
        // its place is decided, and the position is valued as it stands.
        if self.best_reply && !maximizing && !self.ours_still_play(position) {
            return self.leaf(position);
        }
        // Best-Reply Search: every opponent's moves in one layer, each played
        // after the default replies of the opponents before it.
        let layer;
        let prefixes: &[Position] = if self.best_reply && !maximizing {
            layer = crate::brs::layer_prefixes(position, |c| self.is_ours(c, position));
            &layer
        } else {
            std::slice::from_ref(position)
        };
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        for (i, p) in prefixes.iter().enumerate() {
            let first = moves.len();
            self.move_cache
                .for_each_move_of(p, p.turn(), |m| moves.push((m, i as u8)));
            drop_eliminating(p, &mut moves, first);
        }
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return self.leaf(position);
        }
        let mut keys = std::mem::take(&mut self.key_lists[ply]);
        self.order_layer(prefixes, &moves, tt_move, ply, &mut keys);
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = PackedMove::NONE;
        for i in 0..moves.len() {
            let (ref mv, from) = moves[next_in_order(&mut keys, i)];
            let prefix = &prefixes[from as usize];
            let mover = prefix.turn();
            let t = tables(mover);
            let mut child = *prefix;
            child.play_unchecked(mv);
            if self.best_reply && !maximizing {
                let first = position.turn();
                crate::brs::finish_layer(&mut child, |c| c == first || self.is_ours(c, position));
            }
            self.path.push(child.hash());
            let mut child_pv = Vec::new();
            let gain = t.rows_to_go[mv.from.index()] as i32 - t.rows_to_go[mv.to.index()] as i32;
            let reduction = self.reductions.of(depth, i, gain < 0);
            // Principal variation search: the first move with the full
            // window; the others with a null window on the mover's side of
            // it (reduced first when late), searched again in full only when
            // they may fall inside the window.
            let search = |s: &mut Self, depth: i32, (lo, hi): (i32, i32), pv: &mut Vec<Move>| {
                s.alphabeta(clock, &child, depth, lo, hi, ply + 1, pv)
            };
            let v = if i == 0 {
                search(self, depth - 1, (alpha, beta), &mut child_pv)
            } else {
                let null = if maximizing {
                    (alpha, alpha + 1)
                } else {
                    (beta - 1, beta)
                };
                let escapes = |v: i32| if maximizing { v > alpha } else { v < beta };
                let mut v = search(self, depth - 1 - reduction, null, &mut child_pv);
                if reduction > 0 && escapes(v) {
                    v = search(self, depth - 1, null, &mut child_pv);
                }
                if v > alpha && v < beta {
                    child_pv.clear();
                    v = search(self, depth - 1, (alpha, beta), &mut child_pv);
                }
                v
            };
            self.path.pop();
            if self.stopped {
                self.move_lists[ply] = moves;
                self.key_lists[ply] = keys;
                return 0;
            }
            let better = if maximizing { v > best } else { v < best };
            if better {
                best = v;
                best_move = PackedMove::pack(mv);
                pv.clear();
                pv.push(*mv);
                pv.extend_from_slice(&child_pv);
            }
            if maximizing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                let p = PackedMove::pack(mv);
                let k = &mut self.killers[ply];
                if k[0] != p {
                    k[1] = k[0];
                    k[0] = p;
                }
                self.history[hist_index(mover, mv)] += depth * depth;
                break;
            }
        }
        self.move_lists[ply] = moves;
        self.key_lists[ply] = keys;
        // The window is never empty (alpha0 < beta0), so at most one bound holds.
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let stored = shift_decided(best, ply as i32);
        self.tt.store(key, best_move, stored, depth, bound);
        best
    }
}

/// Drops from `moves[first..]` (moves of `position`'s player) those that
/// would eliminate it, unless every one would. Before the player's deadline
/// no move eliminates, and the list is left as it is without looking.
fn drop_eliminating(position: &Position, moves: &mut Vec<(Move, u8)>, first: usize) {
    if position.moves_made(position.turn()) < position.variant().deadline() {
        return;
    }
    if moves[first..]
        .iter()
        .any(|(m, _)| !position.would_eliminate(m))
    {
        let mut k = first;
        for j in first..moves.len() {
            if !position.would_eliminate(&moves[j].0) {
                moves[k] = moves[j];
                k += 1;
            }
        }
        moves.truncate(k);
    }
}

/// Moves picked one by one (the best of the rest each time) before the
/// rest is sorted: a node cut off after its first few moves never pays for
/// sorting them all.
const PICKED_FIRST: usize = 3;

/// The place in its list of the move to search `i`-th, given the packed
/// ordering keys of [`Searcher::order_layer`] with the `i` before it handed
/// out already: the same order as sorting all the keys largest first.
fn next_in_order(keys: &mut [u64], i: usize) -> usize {
    if i < PICKED_FIRST {
        let best = (i..keys.len()).max_by_key(|&j| keys[j]).unwrap_or(i);
        keys.swap(i, best);
    } else if i == PICKED_FIRST {
        keys[i..].sort_unstable_by(|a, b| b.cmp(a));
    }
    (u32::MAX - keys[i] as u32) as usize
}

/// `score` with a decided result's distance shortened by `plies` (lengthened
/// when negative); undecided scores as they are. The search counts a win's
/// distance from the root, the table from the node: a store at `ply` shifts
/// by `ply`, a probe back by `-ply`.
fn shift_decided(score: i32, plies: i32) -> i32 {
    if score >= WIN - MAX_PLY as i32 {
        score + plies
    } else if score <= -WIN + MAX_PLY as i32 {
        score - plies
    } else {
        score
    }
}

/// A rough number of moves the player to move still has to make, for
/// spreading a game clock.
pub fn estimate_moves_left(position: &Position) -> u32 {
    let t = tables(position.turn());
    let least = if position.variant().marbles() == 15 {
        t.min_sum_15
    } else {
        t.min_sum_10
    };
    (distance(position, position.turn()).saturating_sub(least) / 3 + 6).max(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player whose marbles fill its goal has the fewest moves left, with
    /// ten marbles and with fifteen, and one at its start has more.
    #[test]
    fn moves_left_reach_the_floor_with_every_marble_in_the_goal() {
        use stella_engine::{Setup, Variant};
        for variant in [Variant::Classic2, Variant::Fifteen2] {
            let mut setup = Setup::empty(variant);
            setup.marbles[Colour::White.index()] = variant.goal(Colour::White);
            let arrived = Position::from_setup(&setup).unwrap();
            assert_eq!(estimate_moves_left(&arrived), 10, "{variant}");
            assert!(
                estimate_moves_left(&Position::start(variant)) > 20,
                "{variant}"
            );
        }
    }

    /// Past the deadline a move back into the home is dropped unless all
    /// are; before it nothing is dropped (no move eliminates then).
    #[test]
    fn only_eliminating_moves_are_dropped() {
        let mut rng = crate::rng::Rng::new(4);
        let (mut dropped, mut checked) = (0, 0);
        for game in 0..6 {
            let mut pos = Position::start(stella_engine::Variant::Classic2);
            for ply in 0..300u64 {
                if pos.is_over() {
                    break;
                }
                let all: Vec<(Move, u8)> = pos.legal_moves().into_iter().map(|m| (m, 0)).collect();
                let kept_all = all.iter().all(|(m, _)| pos.would_eliminate(m));
                let expected: Vec<(Move, u8)> = all
                    .iter()
                    .copied()
                    .filter(|(m, _)| kept_all || !pos.would_eliminate(m))
                    .collect();
                let mut moves = vec![(Move::new(all[0].0.from, all[0].0.to), 7)];
                moves.extend_from_slice(&all);
                drop_eliminating(&pos, &mut moves, 1);
                assert_eq!(&moves[1..], &expected[..], "game {game} ply {ply}");
                assert_eq!(moves[0].1, 7);
                dropped += all.len() - expected.len();
                checked += 1;
                // Stepping back and forth keeps marbles near home past the
                // deadline now and then.
                let legal: Vec<Move> = all.iter().map(|(m, _)| *m).collect();
                let Some(mv) = crate::greedy::mixed_move(&pos, &legal, &mut rng, ply, 4) else {
                    break;
                };
                pos.play_unchecked(&mv);
            }
        }
        assert!(checked > 100, "{checked}");
        assert!(dropped > 0, "{dropped}");
    }

    /// A cleared searcher searches as a new one: same move, score, depth and
    /// node count, whatever it searched before.
    #[test]
    fn a_cleared_searcher_searches_as_a_new_one() {
        use crate::clock::FrozenClock;
        let mut a = Position::start(stella_engine::Variant::Classic2);
        for ply in 0..6 {
            let mv = crate::greedy::greedy_move(&a, ply).unwrap();
            a.play_unchecked(&mv);
        }
        let mut b = a;
        for ply in 6..12 {
            let mv = crate::greedy::greedy_move(&b, ply).unwrap();
            b.play_unchecked(&mv);
        }
        let settings = Settings {
            tt_mb: 1,
            ..Settings::default()
        };
        let limits = Limits {
            nodes: Some(60_000),
            ..Limits::default()
        };
        let fresh = Searcher::new(settings).search(&a, limits, &FrozenClock);
        let mut reused = Searcher::new(settings);
        for position in [b, a, b] {
            reused.search(&position, limits, &FrozenClock);
        }
        reused.clear();
        let again = reused.search(&a, limits, &FrozenClock);
        assert!(fresh.is_some());
        assert_eq!(again, fresh);
    }

    #[test]
    fn moves_come_in_the_order_of_the_sorted_keys() {
        let mut rng = crate::rng::Rng::new(3);
        for n in [0usize, 1, 2, 3, 4, 5, 40] {
            // Keys as order_layer packs them: a key, then the place.
            let keys: Vec<u64> = (0..n)
                .map(|i| rng.below(8) << 32 | u64::from(u32::MAX - i as u32))
                .collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let expected: Vec<usize> = sorted
                .iter()
                .map(|k| (u32::MAX - *k as u32) as usize)
                .collect();
            let mut handed = keys.clone();
            let got: Vec<usize> = (0..n).map(|i| next_in_order(&mut handed, i)).collect();
            assert_eq!(got, expected, "{n} moves");
        }
    }
}
