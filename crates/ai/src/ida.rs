//! Exact single-agent search: IDA* with a transposition table over a race
//! [`Problem`], proving a plan shortest or finding a shorter one.
//!
//! The beam search of [`Problem::solve`] gives an upper bound quickly;
//! [`solve_exact`] then runs iterative-deepening A* (depth-first passes with a
//! growing threshold on `g + h`, a table of the marble sets visited in the
//! current pass with the smallest `g` they were reached at) on the thresholds
//! below that bound. A pass that ends without a plan raises the proved lower
//! bound; a plan found is shortest. `best_plan` chains the two.
//!
//! ## The lower bound and why it is admissible
//!
//! One move moves exactly one marble, so if every marble that must still
//! enter the goal needs at least `v_i` moves *of its own*, the problem needs
//! at least the sum of those `v_i`. With the anti-block rule only
//! `k` marbles must enter (the free goal holes not yet filled by us), so the
//! sum of the `k` smallest `v_i` is a bound. Three per-marble bounds are
//! combined by `max` (each is a lower bound on that marble's own moves):
//!
//! 1. **One move at least** for a marble outside the goal.
//! 2. **Relaxed hole distance** (per problem): the fewest moves from its hole
//!    to a goal hole not held by a frozen marble, where one move is a step or
//!    any chain of jumps whose jumped-over holes *could* hold a marble (a
//!    frozen marble, a hole our marbles may end a move on, or one of our
//!    starting holes) and whose landing holes could be empty (not frozen).
//!    Every real move is such a relaxed move, so the distance is a bound.
//! 3. **Pivot lines** (classic jumps only), on each of the board's three
//!    axes: the holes lie on 17 parallel lines (on one axis these are the
//!    rows towards the goal). A classic jump moves 0 or ±2 lines over a
//!    marble on the line in between, so a chain of jumps from line `x` to
//!    line `x - 2m` must, for each `j` in `1..=m`, jump from line
//!    `x - 2j + 2` to `x - 2j` at some point, over a marble on line
//!    `x - 2j + 1`: `m` marbles on `m` different lines. A line through a goal
//!    hole or holding a frozen marble may always provide one ("fixed"); any
//!    other line needs one of *our* marbles outside the goal (a marble in the
//!    goal never leaves it, so it stays on lines through goal holes), other
//!    than the moving one. Marbles never leave the goal, so the number `n` of
//!    our marbles outside it never grows: every future move has at most
//!    `n - 1` such "mobile" pivots. The marble must end on a line through a
//!    free goal hole; a shortest path over the 17 lines with these moves
//!    (steps ±1, jumps the pivot count allows) bounds its moves, and the
//!    maximum over the three axes too. Moreover the *last* marble to enter
//!    has at most `n - k` mobile pivots for its entering move (the other
//!    entering marbles are in the goal by then), so one marble — the
//!    cheapest to charge — pays the extra of a path whose last move uses at
//!    most `n - k` mobile pivots.
//!
//! So `h = (sum of the k smallest v_i) + min_i (w_i - v_i)` with `v_i` the
//! max of 1–3 and `w_i` the same with the last-move restriction: whichever
//! set of `>= k` marbles enters and whichever enters last, its moves number
//! at least that.
//!
//! 4. **Line-multiset database** (`LinePdb`, at most `PDB_MARBLES`
//!    marbles outside): on an axis where every free hole of a target line is
//!    a goal hole (the rows towards a ten-hole goal), the problem abstracted
//!    to the multiset of lines of our marbles outside the goal, a marble
//!    leaving it when it enters. Jumps need the crossed lines fixed or held by
//!    another marble of the multiset, so helpers must really be in place,
//!    and moving them costs moves. The abstraction keeps every real move, so
//!    its exact distance (breadth-first, once per problem) is a bound; the
//!    heuristic is the maximum of it and the sum above.
//!
//! `h` is 0 only on solved marble sets.

use crate::clock::Clock;
use crate::deadline::playable_moves;
use crate::race::{is_final_approach, is_race, Problem};
use std::collections::HashMap;
use stella_engine::geometry::neighbour;
use stella_engine::{Bitboard, Hole, JumpRule, Move, Position, Variant};

/// Parallel lines of holes along each axis of the board.
const LINES: usize = 17;
/// The bound of a marble set that can never be solved.
pub const UNSOLVABLE: u32 = 1 << 20;
/// More marbles than any variant has.
const MAX_MARBLES: usize = Variant::MAX_MARBLES + 1;
/// Distance meaning "unreachable".
const FAR: u8 = u8::MAX;
/// Most marble sets kept in the transposition table.
const TT_CAP: usize = 1 << 20;
/// Nodes between two readings of the clock.
const CLOCK_EVERY: u64 = 1024;

/// The outcome of [`solve_exact`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// The shortest plan known (the one given, or a shorter one found).
    pub plan: Option<Vec<Move>>,
    /// A proved lower bound on the length of any plan (`usize::MAX` when
    /// no plan exists at all).
    pub lower_bound: usize,
    /// Nodes searched.
    pub nodes: u64,
}

impl Exact {
    /// Whether the plan is proved shortest.
    pub fn proved(&self) -> bool {
        self.plan
            .as_ref()
            .is_some_and(|p| p.len() <= self.lower_bound)
    }
}

/// The length of the mover's shortest finish, as far as a bounded solver
/// could tell: the best plan found and a proved lower bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishLength {
    /// The shortest plan found, first move first.
    pub plan: Vec<Move>,
    /// No plan can be shorter than this.
    pub lower_bound: usize,
}

impl FinishLength {
    /// Whether the plan is proved shortest.
    pub fn proved(&self) -> bool {
        self.plan.len() <= self.lower_bound
    }
}

/// Per-axis tables `v[m][x]` and `w[m][j][x]` of the line model.
type AxisTables = (
    [[u8; LINES]; MAX_MARBLES],
    Box<[[[u8; LINES]; MAX_MARBLES]; MAX_MARBLES]>,
);

/// The admissible lower bound of one [`Problem`] (see the module docs).
#[derive(Clone, Debug)]
pub struct Heuristic {
    goal: Bitboard,
    anti_block: bool,
    /// Goal holes not held by frozen marbles.
    free_goal: u32,
    /// Relaxed moves from each hole to a free goal hole.
    hole: [u8; Hole::COUNT],
    /// The line of each hole on each axis (classic jumps only).
    line: Vec<[u8; Hole::COUNT]>,
    /// Per axis, `v[m][x]`: line-model moves from line `x` with at most
    /// `m` mobile pivots.
    v: Vec<[[u8; LINES]; MAX_MARBLES]>,
    /// Per axis, `w[m][j][x]`: as `v`, the last move using at most `j`.
    w: Vec<Box<[[[u8; LINES]; MAX_MARBLES]; MAX_MARBLES]>>,
    /// Line-multiset databases of the axes where they are sound.
    pdbs: Vec<LinePdb>,
}

impl Heuristic {
    /// The tables of `problem`.
    pub fn new(problem: &Problem) -> Heuristic {
        let axes = if problem.rule == JumpRule::Classic {
            0..3
        } else {
            0..0
        };
        let models: Vec<LineModel> = axes.clone().map(|a| LineModel::new(problem, a)).collect();
        let pdbs = axes.filter_map(|a| LinePdb::new(problem, a)).collect();
        let (v, w) = models.iter().map(line_tables).unzip();
        Heuristic {
            goal: problem.goal,
            anti_block: problem.anti_block,
            free_goal: (problem.goal & !problem.others).count(),
            hole: hole_distances(problem),
            line: models.iter().map(|m| m.line).collect(),
            v,
            w,
            pdbs,
        }
    }

    /// Lower bounds on the moves of the marble on `h` to enter the goal:
    /// any time with `m` mobile pivots, and if it enters last (`j` pivots
    /// for its entering move).
    fn marble(&self, h: Hole, m: usize, j: usize) -> (u8, u8) {
        let mut vi = self.hole[h.index()].max(1);
        let mut wi = vi;
        for (a, line) in self.line.iter().enumerate() {
            let x = line[h.index()] as usize;
            vi = vi.max(self.v[a][m][x]);
            wi = wi.max(self.w[a][m][j][x]);
        }
        (vi, wi)
    }

    /// A lower bound on the moves `mine` still needs (0 only when solved,
    /// [`UNSOLVABLE`] or more when no plan exists).
    pub fn of(&self, mine: Bitboard) -> u32 {
        let outside = mine & !self.goal;
        let n = outside.count() as usize;
        let inside = mine.count() as usize - n;
        let k = if self.anti_block {
            n.min((self.free_goal as usize).saturating_sub(inside))
        } else {
            n
        };
        if k == 0 {
            // Solved, or (anti-block) full but not yet touched by us.
            let solved = n == 0 || (self.anti_block && inside > 0);
            return if solved { 0 } else { UNSOLVABLE };
        }
        let m = (n - 1).min(MAX_MARBLES - 1);
        let j = (n - k).min(m);
        let mut own = [0u8; MAX_MARBLES];
        let mut extra = u8::MAX;
        for (i, h) in outside.iter().take(MAX_MARBLES).enumerate() {
            let (vi, wi) = self.marble(h, m, j);
            own[i] = vi;
            extra = extra.min(wi.saturating_sub(vi));
        }
        let own = &mut own[..n.min(MAX_MARBLES)];
        if k < own.len() {
            own.sort_unstable();
        }
        if own[..k].contains(&FAR) {
            return UNSOLVABLE;
        }
        let additive = own[..k].iter().map(|&x| u32::from(x)).sum::<u32>() + u32::from(extra);
        self.pdbs
            .iter()
            .map(|p| p.of(outside))
            .fold(additive, u32::max)
    }
}

/// Calls `f` with each landing of one relaxed jump from `p`: the
/// jumped-over holes are in `pivot`, the holes passed and the landing in `free`.
fn relaxed_hops(rule: JumpRule, p: Hole, pivot: Bitboard, free: Bitboard, mut f: impl FnMut(Hole)) {
    for d in 0..6 {
        // The holes from `p` outwards in direction `d`.
        let mut line = [p; LINES];
        let mut len = 0;
        let mut cur = p;
        while let Some(n) = neighbour(cur, d) {
            line[len] = n;
            len += 1;
            cur = n;
        }
        let line = &line[..len];
        match rule {
            JumpRule::Classic => {
                if len >= 2 && pivot.contains(line[0]) && free.contains(line[1]) {
                    f(line[1]);
                }
            }
            JumpRule::Long => {
                // Over an unbroken run of marbles to the first hole beyond.
                if len == 0 || !pivot.contains(line[0]) {
                    continue;
                }
                for &h in &line[1..] {
                    if free.contains(h) {
                        f(h);
                    }
                    if !pivot.contains(h) {
                        break;
                    }
                }
            }
            JumpRule::Symmetric => {
                // Over one marble `k` holes away to `2k` holes away, the
                // holes passed empty.
                for k in 1..=len / 2 {
                    let before = line[..k - 1].iter().all(|&h| free.contains(h));
                    let after = line[k..2 * k].iter().all(|&h| free.contains(h));
                    if before && after && pivot.contains(line[k - 1]) {
                        f(line[2 * k - 1]);
                    }
                }
            }
        }
    }
}

/// The holes one relaxed move of a marble outside the goal can end on.
fn relaxed_reach(problem: &Problem, from: Hole, pivot: Bitboard, free: Bitboard) -> Bitboard {
    let mut seen = Bitboard::from_hole(from);
    let mut todo = seen;
    while let Some(p) = todo.first() {
        todo = todo.without(p);
        relaxed_hops(problem.rule, p, pivot, free, |t| {
            if !seen.contains(t) {
                seen = seen.with(t);
                todo = todo.with(t);
            }
        });
    }
    let steps: Bitboard = (0..6).filter_map(|d| neighbour(from, d)).collect();
    (seen.without(from) | steps) & free & problem.allowed
}

/// Relaxed moves from each hole to a goal hole not held by a frozen marble.
fn hole_distances(problem: &Problem) -> [u8; Hole::COUNT] {
    let free = !problem.others & Bitboard::ALL;
    let pivot = problem.others | problem.allowed | problem.mine;
    let target = problem.goal & free;
    let reach: Vec<Bitboard> = Hole::all()
        .map(|h| relaxed_reach(problem, h, pivot, free))
        .collect();
    let mut dist = [FAR; Hole::COUNT];
    for h in target {
        dist[h.index()] = 0;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for h in Hole::all() {
            let best = reach[h.index()]
                .iter()
                .map(|t| dist[t.index()])
                .min()
                .unwrap_or(FAR);
            if best != FAR && best + 1 < dist[h.index()] {
                dist[h.index()] = best + 1;
                changed = true;
            }
        }
    }
    dist
}

/// One axis of the board for the pivot-line bound: the holes lie on 17
/// parallel lines, numbered across the axis.
struct LineModel {
    /// The line of each hole.
    line: [u8; Hole::COUNT],
    /// Lines holding a goal hole not held by a frozen marble.
    target: [bool; LINES],
    /// Lines that always offer a pivot (a goal hole or a frozen marble on them).
    fixed: [bool; LINES],
}

impl LineModel {
    fn new(problem: &Problem, axis: usize) -> LineModel {
        let mut line = [0u8; Hole::COUNT];
        for h in Hole::all() {
            let (x, y, z) = h.cube();
            line[h.index()] = ([x, y, z][axis] + 8) as u8;
        }
        let mut target = [false; LINES];
        let mut fixed = [false; LINES];
        for h in problem.goal & !problem.others {
            target[line[h.index()] as usize] = true;
        }
        for h in problem.goal | problem.others {
            fixed[line[h.index()] as usize] = true;
        }
        LineModel {
            line,
            target,
            fixed,
        }
    }

    /// Mobile pivots one chain of classic jumps from line `a` to line `b`
    /// needs, `None` when no chain changes the line that way.
    fn mobile(&self, a: usize, b: usize) -> Option<usize> {
        if a == b || a.abs_diff(b) % 2 == 1 {
            return None;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        Some((lo + 1..hi).step_by(2).filter(|&r| !self.fixed[r]).count())
    }

    /// Whether one move may go from line `a` to line `b` with `m` mobile pivots.
    fn one_move(&self, a: usize, b: usize, m: usize) -> bool {
        a.abs_diff(b) == 1 || self.mobile(a, b).is_some_and(|need| need <= m)
    }

    /// Fewest moves between every pair of lines with `m` mobile pivots.
    fn all_pairs(&self, m: usize) -> [[u8; LINES]; LINES] {
        let mut d = [[FAR; LINES]; LINES];
        for (a, da) in d.iter_mut().enumerate() {
            da[a] = 0;
            let mut frontier = vec![a];
            let mut k = 0;
            while !frontier.is_empty() {
                k += 1;
                let mut next = Vec::new();
                for &x in &frontier {
                    for (y, dy) in da.iter_mut().enumerate() {
                        if *dy == FAR && self.one_move(x, y, m) {
                            *dy = k;
                            next.push(y);
                        }
                    }
                }
                frontier = next;
            }
        }
        d
    }
}

/// The line-model tables `v[m][x]` and `w[m][j][x]` of one axis (see [`Heuristic`]).
fn line_tables(model: &LineModel) -> AxisTables {
    let mut v = [[0u8; LINES]; MAX_MARBLES];
    let mut w = Box::new([[[0u8; LINES]; MAX_MARBLES]; MAX_MARBLES]);
    let targets: Vec<usize> = (0..LINES).filter(|&t| model.target[t]).collect();
    for m in 0..MAX_MARBLES {
        let d = model.all_pairs(m);
        for x in (0..LINES).filter(|&x| !model.target[x]) {
            v[m][x] = targets.iter().map(|&t| d[x][t]).min().unwrap_or(FAR);
            for j in 0..MAX_MARBLES {
                w[m][j][x] = (0..LINES)
                    .filter(|&s| targets.iter().any(|&t| model.one_move(s, t, j.min(m))))
                    .map(|s| d[x][s].saturating_add(1))
                    .min()
                    .unwrap_or(FAR);
            }
        }
    }
    (v, w)
}

/// Most marbles outside the goal for which [`LinePdb`] is built.
pub(crate) const PDB_MARBLES: usize = 8;

/// Binomial coefficients `C(n, k)` for `n < 40`, `k <= PDB_MARBLES + 1`.
fn binomials() -> [[u64; PDB_MARBLES + 2]; 40] {
    let mut c = [[0u64; PDB_MARBLES + 2]; 40];
    for n in 0..40 {
        c[n][0] = 1;
        for k in 1..PDB_MARBLES + 2 {
            c[n][k] = if n == 0 {
                0
            } else {
                c[n - 1][k - 1] + c[n - 1][k]
            };
        }
    }
    c
}

/// An abstraction of the problem onto one axis: the multiset of lines of our
/// marbles outside the goal, a marble leaving the multiset when it reaches
/// a line of free goal holes (sound only on an axis where every free hole
/// of such a line is a goal hole, so reaching it means entering the goal for
/// good). A move is a step to a neighbouring line, or a chain of jumps whose
/// crossed lines (every other line strictly between) each hold a frozen marble, a
/// goal hole or another marble of the multiset. Every real move maps to such
/// a move, so the exact distance in the abstraction, computed once by
/// breadth-first search backwards from the finished multisets, is a lower
/// bound.
#[derive(Clone, Debug)]
pub(crate) struct LinePdb {
    /// The line of each hole.
    line: [u8; Hole::COUNT],
    /// Index of each line among the non-target lines (`u8::MAX` for targets).
    slot: [u8; LINES],
    /// The non-target lines.
    lines: Vec<u8>,
    /// Lines offering a pivot whatever our marbles do.
    fixed: [bool; LINES],
    /// Lines of free goal holes.
    target: [bool; LINES],
    /// First index of the multisets of each size.
    offset: Vec<usize>,
    binom: [[u64; PDB_MARBLES + 2]; 40],
    /// Moves from each multiset to a finished one.
    dist: Vec<u8>,
}

impl LinePdb {
    /// The database of `problem` on `axis`, if the abstraction is sound there
    /// and at most [`PDB_MARBLES`] marbles are outside the goal.
    pub fn new(problem: &Problem, axis: usize) -> Option<LinePdb> {
        let model = LineModel::new(problem, axis);
        let free = !problem.others;
        let sound = Hole::all()
            .filter(|h| free.contains(*h) && model.target[model.line[h.index()] as usize])
            .all(|h| problem.goal.contains(h));
        let n = (problem.mine & !problem.goal).count() as usize;
        if !sound || n > PDB_MARBLES {
            return None;
        }
        let lines: Vec<u8> = (0..LINES as u8)
            .filter(|&x| !model.target[x as usize])
            .collect();
        let mut slot = [u8::MAX; LINES];
        for (i, &x) in lines.iter().enumerate() {
            slot[x as usize] = i as u8;
        }
        let binom = binomials();
        let r = lines.len();
        let mut offset = vec![0usize];
        for k in 0..=n {
            let size = if r == 0 {
                usize::from(k == 0)
            } else {
                binom[r + k - 1][k] as usize
            };
            offset.push(offset[k] + size);
        }
        let remain = if problem.anti_block {
            (problem.mine.count() as usize).saturating_sub((problem.goal & free).count() as usize)
        } else {
            0
        };
        let mut pdb = LinePdb {
            line: model.line,
            slot,
            lines,
            fixed: model.fixed,
            target: model.target,
            dist: vec![FAR; offset[n + 1]],
            offset,
            binom,
        };
        pdb.fill(n, remain);
        Some(pdb)
    }

    /// The index of a sorted multiset of slots.
    fn rank(&self, slots: &[u8]) -> usize {
        let k = slots.len();
        let mut r = 0u64;
        for (i, &x) in slots.iter().enumerate() {
            r += self.binom[x as usize + i][i + 1];
        }
        self.offset[k] + r as usize
    }

    /// The sorted multiset of slots of `index`, of size `k`.
    fn unrank(&self, index: usize, k: usize, out: &mut Vec<u8>) {
        let mut r = (index - self.offset[k]) as u64;
        out.clear();
        out.resize(k, 0);
        for i in (0..k).rev() {
            let mut y = i;
            while self.binom[y + 1][i + 1] <= r {
                y += 1;
            }
            r -= self.binom[y][i + 1];
            out[i] = (y - i) as u8;
        }
    }

    /// Whether a move from line `a` to line `b` is possible with pivots on
    /// the lines counted in `others`.
    fn can_move(&self, a: usize, b: usize, others: &[u8; LINES]) -> bool {
        if a.abs_diff(b) == 1 {
            return true;
        }
        if a == b || a.abs_diff(b) % 2 == 1 {
            return false;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        (lo + 1..hi)
            .step_by(2)
            .all(|x| self.fixed[x] || others[x] > 0)
    }

    /// Breadth-first search backwards from the multisets of at most
    /// `remain` marbles, over multisets of at most `n`.
    fn fill(&mut self, n: usize, remain: usize) {
        let mut queue: Vec<usize> = Vec::new();
        for k in 0..=remain.min(n) {
            for i in self.offset[k]..self.offset[k + 1] {
                self.dist[i] = 0;
                queue.push(i);
            }
        }
        let lines = self.lines.clone();
        let mut slots = Vec::new();
        let mut head = 0;
        while head < queue.len() {
            let index = queue[head];
            head += 1;
            let k = self.offset.partition_point(|&o| o <= index) - 1;
            self.unrank(index, k, &mut slots);
            let d = self.dist[index] + 1;
            let mut count = [0u8; LINES];
            for &x in &slots {
                count[lines[x as usize] as usize] += 1;
            }
            let mut pred = [0u8; PDB_MARBLES + 1];
            // A marble of the multiset came from another non-target line.
            for (j, &x) in slots.iter().enumerate() {
                if j > 0 && slots[j - 1] == x {
                    continue;
                }
                let b = lines[x as usize] as usize;
                count[b] -= 1;
                for (y, &a) in lines.iter().enumerate() {
                    if y != x as usize && self.can_move(a as usize, b, &count) {
                        pred[..k].copy_from_slice(&slots);
                        pred[j] = y as u8;
                        self.visit(&mut pred[..k], d, &mut queue);
                    }
                }
                count[b] += 1;
            }
            // A marble left the multiset by entering the goal.
            if k < n {
                for (y, &a) in lines.iter().enumerate() {
                    let enters =
                        (0..LINES).any(|t| self.target[t] && self.can_move(a as usize, t, &count));
                    if enters {
                        pred[..k].copy_from_slice(&slots);
                        pred[k] = y as u8;
                        self.visit(&mut pred[..=k], d, &mut queue);
                    }
                }
            }
        }
    }

    /// Records distance `d` for the multiset `slots` if it has none yet.
    fn visit(&mut self, slots: &mut [u8], d: u8, queue: &mut Vec<usize>) {
        slots.sort_unstable();
        let i = self.rank(slots);
        if self.dist[i] == FAR {
            self.dist[i] = d;
            queue.push(i);
        }
    }

    /// The bound of `outside` (our marbles outside the goal; at most as many
    /// as when the database was built).
    pub fn of(&self, outside: Bitboard) -> u32 {
        let mut slots = [0u8; PDB_MARBLES];
        let mut k = 0;
        for h in outside {
            let s = self.slot[self.line[h.index()] as usize];
            if s != u8::MAX {
                if k == PDB_MARBLES {
                    return 0;
                }
                slots[k] = s;
                k += 1;
            }
        }
        if k + 1 >= self.offset.len() {
            return 0;
        }
        let slots = &mut slots[..k];
        slots.sort_unstable();
        let i = self.rank(slots);
        self.dist.get(i).map_or(0, |&d| u32::from(d))
    }
}

/// Why a depth-first pass stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Found,
    Exhausted,
    OutOfBudget,
}

/// One IDA* run.
struct Ida<'a> {
    problem: &'a Problem,
    h: Heuristic,
    clock: &'a dyn Clock,
    deadline_ms: f64,
    node_limit: u64,
    nodes: u64,
    /// Smallest `g` each marble set was reached at in this pass.
    seen: HashMap<u128, u32>,
    /// Smallest `f` above the threshold met in this pass.
    next: u32,
    path: Vec<Move>,
    /// Reused child buffers, one per depth.
    buffers: Vec<Vec<(u32, Bitboard, Move)>>,
}

impl Ida<'_> {
    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        self.nodes >= self.node_limit
            || (self.nodes.is_multiple_of(CLOCK_EVERY) && self.clock.past(self.deadline_ms))
    }

    /// Depth-first search below `mine`, reached in `g` moves, within `limit`.
    fn dfs(&mut self, mine: Bitboard, g: u32, limit: u32) -> Pass {
        if self.out_of_budget() {
            return Pass::OutOfBudget;
        }
        match self.seen.get(&mine.0) {
            Some(&old) if old <= g => return Pass::Exhausted,
            _ => {
                if self.seen.len() < TT_CAP || self.seen.contains_key(&mine.0) {
                    self.seen.insert(mine.0, g);
                }
            }
        }
        let depth = g as usize;
        if self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.buffers[depth]);
        kids.clear();
        let mut finish = None;
        let mut next = self.next;
        let (problem, h) = (self.problem, &self.h);
        problem.for_each_move(mine, |m| {
            if finish.is_some() {
                return;
            }
            let after = mine.without(m.from).with(m.to);
            if problem.solved(after) {
                finish = Some(m);
                return;
            }
            let f = g + 1 + h.of(after);
            if f > limit {
                next = next.min(f);
            } else {
                kids.push((f, after, m));
            }
        });
        self.next = next;
        let mut result = Pass::Exhausted;
        if let Some(m) = finish {
            self.path.push(m);
            result = Pass::Found;
        } else {
            kids.sort_unstable_by_key(|k| k.0);
            for &(_, after, m) in &kids {
                self.path.push(m);
                match self.dfs(after, g + 1, limit) {
                    Pass::Exhausted => {
                        self.path.pop();
                    }
                    other => {
                        result = other;
                        break;
                    }
                }
            }
        }
        self.buffers[depth] = kids;
        result
    }
}

/// IDA* on `problem`, given the best plan known (`upper`, searching only for
/// strictly shorter ones), until `deadline_ms` on `clock` or `node_limit` nodes.
pub fn solve_exact(
    problem: &Problem,
    upper: Option<&[Move]>,
    clock: &dyn Clock,
    deadline_ms: f64,
    node_limit: u64,
) -> Exact {
    let mut best = upper.map(<[Move]>::to_vec);
    if problem.solved(problem.mine) {
        return Exact {
            plan: Some(Vec::new()),
            lower_bound: 0,
            nodes: 0,
        };
    }
    let mut ida = Ida {
        problem,
        h: Heuristic::new(problem),
        clock,
        deadline_ms,
        node_limit,
        nodes: 0,
        seen: HashMap::new(),
        next: u32::MAX,
        path: Vec::new(),
        buffers: Vec::new(),
    };
    let mut lower = ida.h.of(problem.mine);
    let cap = best.as_ref().map_or(u32::MAX, |b| b.len() as u32);
    while lower < cap && lower < UNSOLVABLE {
        ida.seen.clear();
        ida.next = u32::MAX;
        ida.path.clear();
        match ida.dfs(problem.mine, 0, lower) {
            Pass::Found => {
                lower = ida.path.len() as u32;
                best = Some(std::mem::take(&mut ida.path));
                break;
            }
            Pass::OutOfBudget => break,
            Pass::Exhausted => lower = ida.next,
        }
    }
    Exact {
        plan: best,
        lower_bound: if lower >= UNSOLVABLE {
            usize::MAX
        } else {
            lower as usize
        },
        nodes: ida.nodes,
    }
}

/// The beam's plan (an upper bound, half the budget at most),
/// then IDA* for the rest of `budget_ms` and `node_limit` nodes to prove it
/// shortest or find a shorter one.
pub(crate) fn best_plan(
    problem: &Problem,
    clock: &dyn Clock,
    budget_ms: f64,
    width: usize,
    node_limit: u64,
) -> Option<FinishLength> {
    let start = clock.now_ms();
    let beam = problem.solve(clock, budget_ms * 0.5, width);
    let exact = solve_exact(
        problem,
        beam.as_deref(),
        clock,
        start + budget_ms,
        node_limit,
    );
    exact.plan.map(|plan| FinishLength {
        lower_bound: exact.lower_bound.min(plan.len()),
        plan,
    })
}

/// In a race ([`is_race`]) or on a final approach
/// ([`is_final_approach`]), the fastest finish of the player to move that
/// [`best_plan`] finds within `budget_ms` and `node_limit` nodes, when its
/// first move is one the player may play (not eliminating, leaving home in
/// time); `None` otherwise. The one race stage of every search.
pub(crate) fn race_plan(
    position: &Position,
    clock: &dyn Clock,
    budget_ms: f64,
    width: usize,
    node_limit: u64,
) -> Option<Vec<Move>> {
    if !is_race(position) && !is_final_approach(position) {
        return None;
    }
    let plan = best_plan(&Problem::of(position), clock, budget_ms, width, node_limit)?.plan;
    let first = *plan.first()?;
    playable_moves(position).contains(&first).then_some(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FrozenClock;
    use crate::rng::Rng;
    use crate::tables::tables;
    use std::collections::HashSet;
    use stella_engine::{Colour, Position, Setup, Variant};

    /// Fewest moves of `problem` by breadth-first search over marble sets
    /// (`None` beyond `max_depth`), with the marble sets of every layer.
    fn bfs(problem: &Problem, max_depth: usize) -> Option<usize> {
        if problem.solved(problem.mine) {
            return Some(0);
        }
        let mut seen: HashSet<u128> = HashSet::from([problem.mine.0]);
        let mut layer = vec![problem.mine];
        for depth in 1..=max_depth {
            let mut next = Vec::new();
            for &mine in &layer {
                let mut done = false;
                problem.for_each_move(mine, |m| {
                    let after = mine.without(m.from).with(m.to);
                    done |= problem.solved(after);
                    if seen.insert(after.0) {
                        next.push(after);
                    }
                });
                if done {
                    return Some(depth);
                }
            }
            layer = next;
        }
        None
    }

    /// `count` random holes of `from` not in `taken`.
    fn pick(rng: &mut Rng, from: Bitboard, taken: Bitboard, count: usize) -> Bitboard {
        let holes: Vec<Hole> = (from & !taken).iter().collect();
        let mut out = Bitboard::EMPTY;
        while (out.count() as usize) < count.min(holes.len()) {
            out = out.with(holes[rng.below(holes.len() as u64) as usize]);
        }
        out
    }

    /// A classic-2 race ending: white with `outside` marbles a few rows short
    /// of its goal, black frozen around white's home, `blockers` black
    /// marbles in white's goal (anti-block when there are any).
    fn race_end(rng: &mut Rng, outside: usize, blockers: usize) -> Position {
        let v = Variant::Classic2;
        let (w, b) = (Colour::White, Colour::Black);
        let t = tables(w);
        let near: Bitboard = Hole::all()
            .filter(|h| (4..=7).contains(&t.rows_to_go[h.index()]))
            .collect::<Bitboard>()
            & v.allowed_ends(w);
        let goal = v.goal(w);
        let in_goal = pick(rng, goal, Bitboard::EMPTY, blockers);
        let white_out = pick(rng, near, Bitboard::EMPTY, outside);
        let white_in = pick(rng, goal, in_goal, 10 - outside - blockers);
        let white = white_out | white_in;
        let back: Bitboard = Hole::all()
            .filter(|h| t.rows_to_go[h.index()] >= 9)
            .collect::<Bitboard>()
            & v.allowed_ends(b);
        let black = in_goal | pick(rng, back, white, 10 - blockers);
        let made = if blockers > 0 { 40 } else { 20 };
        let mut setup = Setup::empty(v);
        setup.marbles[w.index()] = white;
        setup.marbles[b.index()] = black;
        setup.made = [made; 6];
        setup.round = made + 1;
        Position::from_setup(&setup).unwrap()
    }

    /// Plays `plan` for the player to move in `pos`, each move checked by the
    /// engine, and whether it ends solved.
    fn replay(pos: &Position, plan: &[Move]) -> bool {
        let c = pos.turn();
        let problem = Problem::of(pos);
        let mut setup = pos.to_setup();
        for mv in plan {
            setup.turn = c;
            let p = Position::from_setup(&setup).unwrap();
            assert!(p.is_legal(mv), "illegal {mv:?} in {p}");
            let m = &mut setup.marbles[c.index()];
            *m = m.without(mv.from).with(mv.to);
        }
        problem.solved(setup.marbles[c.index()])
    }

    #[test]
    fn row_model_needs_pivots_on_every_other_row() {
        let pos: Position =
            "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h13 black:m1,l2,m2,k3,l3,m3,j4,k4,l4,m4 made:39,39"
                .parse()
                .unwrap();
        let h = Heuristic::new(&Problem::of(&pos));
        // Axis 1 numbers white's rows from its home: 8 rows to go is line 8.
        // Without a mobile pivot, lines 9 and 11 hold no frozen marble and
        // no goal hole: four steps to line 12, then a jump over line 13.
        assert_eq!(h.v[1][0][8], 5);
        // With helpers: over 9 to 10, then over 11 and 13 into the goal.
        assert_eq!(h.v[1][1][8], 2);
        assert_eq!(h.v[1][5][8], 1);
        assert_eq!(h.v[1][0][12], 1);
        // Entering last (no helper for the final move) costs more.
        assert_eq!(h.w[1][3][0][8], 2);
        assert_eq!(h.of(Problem::of(&pos).mine), 1);
    }

    #[test]
    fn proves_the_one_move_finish() {
        let pos: Position =
            "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h13 black:m1,l2,m2,k3,l3,m3,j4,k4,l4,m4 made:39,39"
                .parse()
                .unwrap();
        let p = Problem::of(&pos);
        let exact = solve_exact(&p, None, &FrozenClock, 0.0, 1_000_000);
        assert!(exact.proved());
        assert_eq!(exact.plan.as_ref().map(Vec::len), Some(1));
        assert!(replay(&pos, exact.plan.as_ref().unwrap()));
        let finish = best_plan(&p, &FrozenClock, 1000.0, 64, 1_000_000).unwrap();
        assert!(finish.proved() && finish.plan.len() == 1);
    }

    /// On random race endings: the bound never exceeds the true distance
    /// (at the root and along an optimal plan), IDA* finds a shortest plan
    /// the engine accepts, never longer than the beam's.
    #[test]
    fn bound_is_admissible_and_plans_are_shortest() {
        let mut rng = Rng::new(7);
        let mut checked = 0;
        for case in 0..40 {
            let outside = 2 + case % 2;
            let blockers = if case % 4 == 3 { 1 + case % 2 } else { 0 };
            let pos = race_end(&mut rng, outside, blockers);
            let p = Problem::of(&pos);
            let Some(opt) = bfs(&p, 6) else {
                continue;
            };
            let h = Heuristic::new(&p);
            assert!(h.of(p.mine) as usize <= opt, "bound above {opt} in {pos}");
            let exact = solve_exact(&p, None, &FrozenClock, 0.0, 5_000_000);
            assert!(exact.proved(), "not proved in {pos}");
            let plan = exact.plan.unwrap();
            assert_eq!(plan.len(), opt, "{pos}");
            assert!(replay(&pos, &plan), "{pos}");
            // Every position along the plan: bound <= moves left.
            let mut mine = p.mine;
            for (i, mv) in plan.iter().enumerate() {
                assert!(h.of(mine) as usize <= opt - i, "{pos} after {i}");
                mine = mine.without(mv.from).with(mv.to);
            }
            if let Some(beam) = p.solve(&FrozenClock, 1000.0, 64) {
                assert!(plan.len() <= beam.len());
            }
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} positions checked");
    }

    /// The bound of every marble set one or two moves from a random race
    /// ending never exceeds the breadth-first distance from that set.
    #[test]
    fn bound_is_admissible_around_race_endings() {
        let mut rng = Rng::new(11);
        let mut checked = 0;
        for case in 0..12 {
            let pos = race_end(&mut rng, 2 + case % 2, usize::from(case % 3 == 2));
            let root = Problem::of(&pos);
            let h = Heuristic::new(&root);
            let mut around = Vec::new();
            root.for_each_move(root.mine, |m| {
                around.push(root.mine.without(m.from).with(m.to))
            });
            for (i, &mine) in around.iter().enumerate().step_by(7) {
                let p = Problem { mine, ..root };
                if let Some(opt) = bfs(&p, 5) {
                    assert!(h.of(mine) as usize <= opt, "case {case} child {i}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 8, "only {checked} marble sets checked");
    }

    #[test]
    fn a_budget_stops_the_search_with_a_valid_bound() {
        let pos = Position::start(Variant::Solo);
        let p = Problem::of(&pos);
        let exact = solve_exact(&p, None, &FrozenClock, 0.0, 20_000);
        assert!(exact.plan.is_none());
        assert!(exact.lower_bound >= 10 && exact.lower_bound < 27);
        assert!(exact.nodes <= 20_000);
        // The start of a two-player game is not a race: black fills the goal.
        let blocked = Problem::of(&Position::start(Variant::Classic2));
        let exact = solve_exact(&blocked, None, &FrozenClock, 0.0, 20_000);
        assert_eq!((exact.plan, exact.lower_bound), (None, usize::MAX));
    }
}
