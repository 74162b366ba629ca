//! Static evaluation. Each colour has a *cost* (lower is better, about 0 when
//! it has arrived): rows still to go towards its goal's tip, a quadratic term
//! that punishes stragglers left behind, the rearmost marble, distance off the
//! centre line, marbles still at home near the deadline, and a bonus for jump
//! structure (forward jumps ready to be played). A unit (a player, or a team)
//! is valued against every other unit pair by pair: a decided place counts as
//! a win or loss of that pair, otherwise the difference of costs counts, the
//! unit's own cost weighed [`Weights::drive`] percent more.

use crate::tables::{tables, ColourTables};
use stella_engine::{Bitboard, Colour, Position, ROUND_LIMIT};

/// Rounds before the limit from which marbles in goal weigh in.
const LATE_ROUNDS: i32 = 12;

/// The round-limit term of a pair of units (1/100 row): near the round
/// limit places go by marbles in goal (docs/rules.md §7), so `goal_lead` (our
/// marbles in goal minus theirs) weighs more the fewer rounds are left.
pub fn late_round_term(position: &Position, goal_lead: i32) -> i32 {
    let left = ROUND_LIMIT as i32 - position.round() as i32;
    if left < LATE_ROUNDS {
        goal_lead * 300 * (LATE_ROUNDS - left)
    } else {
        0
    }
}

/// Score of a won game (a won pair of units); scores near it are decided results.
pub const WIN: i32 = 1_000_000;

/// Evaluation weights (units: 1/100 of a row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per row still to go.
    pub rows: i32,
    /// Per squared row still to go (pushes stragglers first).
    pub squares: i32,
    /// Per row still to go of the rearmost marble.
    pub back: i32,
    /// Per step off the centre line, outside the goal.
    pub lateral: i32,
    /// Per marble still at home, per move made after the deadline minus ten
    /// (up to the deadline).
    pub home_late: i32,
    /// Bonus per forward jump ready to be played.
    pub jump: i32,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Extra weight, in percent, of the searching unit's own cost over the
    /// others' (0 = symmetric). Above 0 a player races rather than blocks
    /// when the two are worth the same.
    pub drive: i32,
}

impl Weights {
    /// The weights used by the levels, tuned by self-play (`stella-lab tune`,
    /// SPSA over 1 400 game pairs at level 4 from the hand-set
    /// `100,6,40,12,150,20,60`, with `drive` set afterwards by self-play
    /// length; see docs/experiments.md).
    pub const DEFAULT: Weights = Weights {
        rows: 18,
        squares: 2,
        back: 48,
        lateral: 17,
        home_late: 142,
        jump: 20,
        tempo: 73,
        drive: DRIVE,
    };
}

/// The default [`Weights::drive`], set by self-play length and strength
/// (docs/experiments.md).
const DRIVE: i32 = 30;

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// Cost of a colour eliminated or otherwise hopeless.
const HOPELESS: i32 = 40_000;

/// The cost of `colour` (lower is better; about 0 once arrived).
pub fn cost(position: &Position, colour: Colour, w: &Weights) -> i32 {
    cost_on(position, colour, w, &board_words(position.occupied().0))
}

/// [`cost`], reading the board's holes from `board` (`position`'s
/// occupied holes): a search that costs every colour of a position
/// makes [`board_bytes`] once for all of them.
#[inline]
pub(crate) fn cost_on(position: &Position, colour: Colour, w: &Weights, board: &impl Held) -> i32 {
    if position.is_eliminated(colour) {
        return HOPELESS;
    }
    if position.has_arrived(colour) {
        return 0;
    }
    let (parts, free_goal) = cost_parts_on(position, colour, board);
    cost_of_parts(position, colour, w, &parts, free_goal)
}

/// The sums over a colour's marbles that its [`cost`] weighs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CostParts {
    /// Rows still to go, over the counted marbles.
    pub(crate) sum: i32,
    /// Squared rows still to go, over the counted marbles.
    pub(crate) squares: i32,
    /// The rows still to go of the rearmost counted marble.
    pub(crate) back: i32,
    /// Distance off the centre line outside the goal, over all the marbles.
    pub(crate) lateral: i32,
    /// Forward jumps ready to be played, over all the marbles.
    pub(crate) jumps: i32,
}

/// A marble's share of the lateral term, on the hole of index `hole`: its
/// distance off the centre line, 0 inside `goal` (`outside` is
/// [`ColourTables::lateral_outside_of`] `goal`).
#[inline]
pub(crate) fn lateral_term(
    t: &ColourTables,
    outside: Option<&[u8; 121]>,
    goal: Bitboard,
    hole: usize,
) -> i32 {
    match outside {
        Some(l) => l[hole] as i32,
        None if goal.0 >> hole & 1 != 0 => 0,
        None => t.lateral[hole] as i32,
    }
}

/// A board's occupied holes as the jump term reads them, hole by hole.
pub(crate) trait Held {
    /// 1 if the hole of index `i` (below 128) holds a marble, else 0;
    /// index 127 (a missing jump line) never does.
    fn held(&self, i: u8) -> u32;
}

/// The board as two words ([`board_words`]): a hole's bit is one shift and
/// mask away.
impl Held for [u64; 2] {
    #[inline]
    fn held(&self, i: u8) -> u32 {
        (self[usize::from(i >> 6) & 1] >> (i & 63) & 1) as u32
    }
}

/// The board as two words: cheap to make, for a few reads.
#[inline]
pub(crate) fn board_words(occupied: u128) -> [u64; 2] {
    [occupied as u64, (occupied >> 64) as u64]
}

/// The board as one byte per hole, 1 where a marble is ([`board_bytes`]):
/// dearer to make than [`board_words`], but a hole is one load away, for
/// the many reads of costing every colour.
pub(crate) struct BoardBytes([u8; 128]);

impl Held for BoardBytes {
    #[inline]
    fn held(&self, i: u8) -> u32 {
        u32::from(self.0[usize::from(i & 127)])
    }
}

/// The occupied holes `occupied` as [`BoardBytes`]: each byte of eight
/// holes spread to eight bytes at once (the byte copied into every lane,
/// lane `k` keeping bit `k`, and a set bit carried up to the lane's top
/// bit and shifted down to 0 or 1).
pub(crate) fn board_bytes(occupied: u128) -> BoardBytes {
    const LANES: u64 = 0x0101_0101_0101_0101;
    let mut bytes = [0u8; 128];
    for (k, lane) in bytes.chunks_exact_mut(8).enumerate() {
        let byte = (occupied >> (8 * k)) as u8;
        let kept = (u64::from(byte) * LANES) & 0x8040_2010_0804_0201;
        let spread = ((kept + 0x7f * LANES) >> 7) & LANES;
        lane.copy_from_slice(&spread.to_le_bytes());
    }
    BoardBytes(bytes)
}

/// The forward jumps a marble on the hole of index `hole` has ready: its
/// forward lines whose first hole is occupied and second empty on `board`.
#[inline]
pub(crate) fn ready_jumps(t: &ColourTables, hole: usize, board: &impl Held) -> i32 {
    let mut jumps = 0;
    for &(over, land) in &t.forward_jumps[hole] {
        jumps += board.held(over) & !board.held(land);
    }
    jumps as i32
}

/// The parts of the cost of `colour` (neither arrived nor eliminated), and
/// the goal holes its own marbles have to fill.
pub(crate) fn cost_parts(position: &Position, colour: Colour) -> (CostParts, Bitboard) {
    cost_parts_on(position, colour, &board_words(position.occupied().0))
}

/// [`cost_parts`], reading the board's holes from `board` (`position`'s
/// occupied holes).
#[inline]
fn cost_parts_on(position: &Position, colour: Colour, board: &impl Held) -> (CostParts, Bitboard) {
    let t = tables(colour);
    let variant = position.variant();
    let goal = variant.goal(colour);
    let mine = position.marbles(colour);
    // After the deadline another player's marble left in the goal fills a
    // hole for us (docs/rules.md §4): only the best `needed` marbles count.
    let foreign = if position.moves_made(colour) >= variant.deadline() {
        goal & position.occupied() & !mine
    } else {
        Bitboard::EMPTY
    };
    let free_goal = goal & !foreign;
    let needed = free_goal.count() as usize;
    let outside = t.lateral_outside_of(goal);
    // Every marble counts unless other players' marbles fill some goal
    // holes: then only the best `needed` of the rows do, picked out of a
    // sorted list; otherwise one pass sums everything.
    let (sum, squares, back, lateral, jumps) = if needed >= mine.count() as usize {
        match outside {
            Some(l) => whole_sums(t, mine, board, |h| l[h] as i32),
            None => whole_sums(t, mine, board, |h| lateral_term(t, None, goal, h)),
        }
    } else {
        let mut rows = [0i32; 16];
        let mut n = 0;
        let mut lateral = 0i32;
        let mut jumps = 0i32;
        mine.for_each_hole(|h| {
            rows[n] = t.rows_to_go[h.index()] as i32;
            n += 1;
            lateral += lateral_term(t, outside, goal, h.index());
            jumps += ready_jumps(t, h.index(), board);
        });
        let rows = &mut rows[..n];
        rows.sort_unstable();
        let (mut sum, mut squares, mut back) = (0i32, 0i32, 0i32);
        for &r in &rows[..needed] {
            sum += r;
            squares += r * r;
            back = back.max(r);
        }
        (sum, squares, back, lateral, jumps)
    };
    let parts = CostParts {
        sum,
        squares,
        back,
        lateral,
        jumps,
    };
    (parts, free_goal)
}

/// The sums of [`CostParts`] over every marble of `mine` (rows, squares,
/// rearmost, lateral by `lateral` of a hole's index, and jumps), in one
/// pass over the marbles.
#[inline]
fn whole_sums(
    t: &ColourTables,
    mine: Bitboard,
    board: &impl Held,
    lateral: impl Fn(usize) -> i32,
) -> (i32, i32, i32, i32, i32) {
    let (mut sum, mut squares, mut back, mut lat, mut jumps) = (0i32, 0i32, 0i32, 0i32, 0i32);
    mine.for_each_hole(|h| {
        let i = h.index();
        let r = t.rows_to_go[i] as i32;
        sum += r;
        squares += r * r;
        back = back.max(r);
        lat += lateral(i);
        jumps += ready_jumps(t, i, board);
    });
    (sum, squares, back, lat, jumps)
}

/// The cost of `colour` (neither arrived nor eliminated) from its parts,
/// `free_goal` being the goal holes its own marbles have to fill.
#[inline]
pub(crate) fn cost_of_parts(
    position: &Position,
    colour: Colour,
    w: &Weights,
    parts: &CostParts,
    free_goal: Bitboard,
) -> i32 {
    let t = tables(colour);
    let variant = position.variant();
    let (min_sum, min_squares) = t.row_sums(free_goal);
    let mut c = w.rows * (parts.sum - min_sum)
        + w.squares * (parts.squares - min_squares)
        + w.back * parts.back
        + w.lateral * parts.lateral
        - w.jump * parts.jumps;
    // Growing up to the deadline; after it the check has been made (a
    // marble still at home was excused), and more moves add no risk.
    let made = position.moves_made(colour) as i32;
    let deadline = variant.deadline() as i32;
    let late = made.min(deadline) - (deadline - 10);
    if late > 0 {
        c += w.home_late * late * (position.marbles(colour) & variant.home(colour)).count() as i32;
    }
    c.max(0)
}

/// The colours of `colour`'s unit (itself, and its partner in a team variant).
pub fn unit_of(position: &Position, colour: Colour) -> Vec<Colour> {
    match position.variant().partner(colour) {
        Some(p) => vec![colour, p],
        None => vec![colour],
    }
}

/// The value of the position for `colour`'s unit: the mean over the other
/// units of the pair value (decided places as ±[`WIN`], else cost difference,
/// our own cost weighed [`Weights::drive`] percent more), with each colour's
/// cost from `cost_of` (which must answer [`cost`] of `position` under `w`: a
/// memory of costs, say). With drive a balanced position is worth about
/// minus [`drive_offset`]; a search adds its root's offset to undecided
/// values.
pub(crate) fn value_with(
    position: &Position,
    colour: Colour,
    w: &Weights,
    cost_of: &mut impl FnMut(Colour) -> i32,
) -> i32 {
    let variant = position.variant();
    let units = variant.unit_count();
    if units < 2 {
        return -cost_of(colour);
    }
    let teams = variant.has_teams();
    let value = match variant.seats() {
        &[a, b] if !teams && (a == colour || b == colour) => {
            let other = if a == colour { b } else { a };
            two_player_pair(position, colour, other, w, cost_of)
        }
        _ => mean_pair_value(position, colour, w, cost_of),
    };
    if position.is_over() || position.turn() == colour {
        value
    } else {
        value - w.tempo
    }
}

/// The pair value of `me` against `other` at a table of two players (the
/// mean over the one other unit of [`mean_pair_value`]).
#[inline]
fn two_player_pair(
    position: &Position,
    me: Colour,
    other: Colour,
    w: &Weights,
    cost_of: &mut impl FnMut(Colour) -> i32,
) -> i32 {
    let (my_place, their_place) = (position.place(me) as i32, position.place(other) as i32);
    // The best place neither player holds (2 when both are taken).
    let free_best = if my_place != 1 && their_place != 1 {
        1
    } else {
        2
    };
    pair_value(my_place, their_place, free_best, || {
        let my_cost = cost_of(me);
        let in_goal = |c: Colour| position.marbles_in_goal(c) as i32;
        undecided_pair(
            position,
            w,
            my_cost,
            cost_of(other),
            in_goal(me) - in_goal(other),
        )
    })
}

/// The value of a pair of units from their places: once either has one,
/// ±[`WIN`] by who finishes better (a unit still playing is ranked at
/// `free_best`, the best place nobody holds); while neither has,
/// `undecided()`.
#[inline]
fn pair_value(
    my_place: i32,
    their_place: i32,
    free_best: i32,
    undecided: impl FnOnce() -> i32,
) -> i32 {
    match (my_place, their_place) {
        (0, 0) => undecided(),
        (0, p) if p < free_best => -WIN,
        (0, _) => WIN,
        (p, 0) if p < free_best => WIN,
        (_, 0) => -WIN,
        (a, b) => (b - a).signum() * WIN,
    }
}

/// The value of an undecided pair: the cost difference, our own cost
/// weighed [`Weights::drive`] percent more, plus the late-round term of our
/// lead in marbles home (`goal_lead`), within ±[`WIN`]/2.
#[inline]
fn undecided_pair(
    position: &Position,
    w: &Weights,
    my_cost: i32,
    their_cost: i32,
    goal_lead: i32,
) -> i32 {
    let v = their_cost - my_cost - my_cost * w.drive / 100 + late_round_term(position, goal_lead);
    v.clamp(-WIN / 2, WIN / 2)
}

/// The mean over the other units of `colour`'s unit's pair value against
/// each (decided places as ±[`WIN`], else cost difference, our own cost
/// weighed [`Weights::drive`] percent more), before the tempo.
fn mean_pair_value(
    position: &Position,
    colour: Colour,
    w: &Weights,
    cost_of: &mut impl FnMut(Colour) -> i32,
) -> i32 {
    let variant = position.variant();
    let units = variant.unit_count();
    // A unit is named by its first colour (white, red or blue in a team
    // variant, whose partners are their opposites), and the units are
    // walked without building them: this runs at every leaf.
    let teams = variant.has_teams();
    let first = |c: Colour| {
        if teams && c.index() >= 3 {
            c.opposite()
        } else {
            c
        }
    };
    let mut unit_cost = |u: Colour| cost_of(u) + if teams { cost_of(u.opposite()) } else { 0 };
    let in_goal = |u: Colour| {
        position.marbles_in_goal(u) as i32
            + if teams {
                position.marbles_in_goal(u.opposite()) as i32
            } else {
                0
            }
    };
    let firsts = || {
        variant
            .seats()
            .iter()
            .copied()
            .filter(move |c| !teams || c.index() < 3)
    };
    let me = first(colour);
    let my_place = position.place(me) as i32;
    let my_cost = unit_cost(me);
    let free_best = (1..=units as u8)
        .find(|&p| !firsts().any(|u| position.place(u) == p))
        .unwrap_or(units as u8) as i32;
    let mut total: i64 = 0;
    for other in firsts().filter(|&u| u != me) {
        let their_place = position.place(other) as i32;
        let pair = pair_value(my_place, their_place, free_best, || {
            undecided_pair(
                position,
                w,
                my_cost,
                unit_cost(other),
                in_goal(me) - in_goal(other),
            )
        });
        total += pair as i64;
    }
    (total / (units as i64 - 1)) as i32
}

/// The drive term of `colour`'s unit at `position`: [`Weights::drive`]
/// percent of the unit's cost. Added to [`value_with`] of positions below a
/// search root (with the root's offset), it leaves a balanced root at about 0
/// while own progress since the root still weighs more.
pub fn drive_offset(position: &Position, colour: Colour, w: &Weights) -> i32 {
    if w.drive == 0 || position.variant().unit_count() < 2 {
        return 0;
    }
    let own: i32 = unit_of(position, colour)
        .iter()
        .map(|&c| cost(position, c, w))
        .sum();
    own * w.drive / 100
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    /// [`value_with`] with each cost computed afresh.
    fn value_for(position: &Position, colour: Colour, w: &Weights) -> i32 {
        value_with(position, colour, w, &mut |c| cost(position, c, w))
    }

    #[test]
    fn drive_weighs_our_own_progress_more() {
        let pos = Position::start(Variant::Classic2);
        let mut next = pos;
        next.play_path(&"m3-m5".parse().unwrap()).unwrap();
        let flat = Weights {
            drive: 0,
            ..Weights::DEFAULT
        };
        let driven = Weights {
            drive: 30,
            ..Weights::DEFAULT
        };
        let gain =
            |w: &Weights| value_for(&next, Colour::White, w) - value_for(&pos, Colour::White, w);
        let drop = |w: &Weights| cost(&pos, Colour::White, w) - cost(&next, Colour::White, w);
        assert!(drop(&flat) > 0);
        let extra = cost(&pos, Colour::White, &driven) * 30 / 100
            - cost(&next, Colour::White, &driven) * 30 / 100;
        assert_eq!(gain(&driven) - gain(&flat), extra);
        assert!(extra > 0);
        // Without drive the evaluation is zero-sum between the two players.
        assert_eq!(
            value_for(&next, Colour::White, &flat) + flat.tempo,
            -value_for(&next, Colour::Black, &flat)
        );
    }

    /// The cost as first written: every marble's terms read one by one
    /// from the tables, the goal's floor summed over its holes.
    fn reference_cost(position: &Position, colour: Colour, w: &Weights) -> i32 {
        if position.is_eliminated(colour) {
            return HOPELESS;
        }
        if position.has_arrived(colour) {
            return 0;
        }
        let t = tables(colour);
        let variant = position.variant();
        let goal = variant.goal(colour);
        let mine = position.marbles(colour);
        let occupied = position.occupied().0;
        let made = position.moves_made(colour) as i32;
        let foreign = if made >= variant.deadline() as i32 {
            goal & position.occupied() & !mine
        } else {
            stella_engine::Bitboard::EMPTY
        };
        let free_goal = goal & !foreign;
        let needed = free_goal.count() as usize;
        let mut rows = Vec::new();
        let (mut lateral, mut jumps) = (0, 0);
        for h in mine {
            let i = h.index();
            rows.push(t.rows_to_go[i] as i32);
            if !goal.contains(h) {
                lateral += t.lateral[i] as i32;
            }
            for &(over, land) in &t.forward_jumps[i] {
                if occupied >> over & 1 != 0 && occupied >> land & 1 == 0 {
                    jumps += 1;
                }
            }
        }
        rows.sort_unstable();
        let counted = &rows[..needed.min(rows.len())];
        let sum: i32 = counted.iter().sum();
        let squares: i32 = counted.iter().map(|r| r * r).sum();
        let back = counted.iter().copied().max().unwrap_or(0);
        let min_sum: i32 = free_goal
            .iter()
            .map(|h| t.rows_to_go[h.index()] as i32)
            .sum();
        let min_squares: i32 = free_goal
            .iter()
            .map(|h| (t.rows_to_go[h.index()] as i32).pow(2))
            .sum();
        let mut c = w.rows * (sum - min_sum)
            + w.squares * (squares - min_squares)
            + w.back * back
            + w.lateral * lateral
            - w.jump * jumps;
        let deadline = variant.deadline() as i32;
        let late = made.min(deadline) - (deadline - 10);
        if late > 0 {
            c += w.home_late * late * (mine & variant.home(colour)).count() as i32;
        }
        c.max(0)
    }

    #[test]
    fn cost_equals_the_reference_over_games_of_every_variant() {
        // Games of a player mixing greedy and random moves, long enough to
        // pass the deadline with foreign marbles left in goals.
        let w = Weights::DEFAULT;
        let mut rng = crate::rng::Rng::new(5);
        let (mut checked, mut foreign_filled) = (0, 0);
        for variant in Variant::ALL {
            for game in 0..3u64 {
                let mut pos = Position::start(variant);
                for ply in 0..300u64 {
                    for c in variant.seats().iter().copied() {
                        assert_eq!(
                            cost(&pos, c, &w),
                            reference_cost(&pos, c, &w),
                            "{variant} game {game} ply {ply} {c:?}"
                        );
                        checked += 1;
                        let goal = variant.goal(c);
                        if pos.moves_made(c) >= variant.deadline()
                            && !(goal & pos.occupied() & !pos.marbles(c)).is_empty()
                        {
                            foreign_filled += 1;
                        }
                    }
                    if !crate::greedy::play_mixed(&mut pos, &mut rng, ply, 3) {
                        break;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
        assert!(foreign_filled > 100, "{foreign_filled}");
    }

    /// Two players' values, taken by the pair of the two, are the values of
    /// the general walk over the units, decided games included.
    #[test]
    fn the_two_player_value_is_the_general_one() {
        let w = Weights::DEFAULT;
        let mut rng = crate::rng::Rng::new(9);
        let mut checked = 0;
        let mut decided = 0;
        for variant in Variant::ALL {
            if variant.players() != 2 || variant.has_teams() {
                continue;
            }
            for _ in 0..4 {
                let mut pos = Position::start(variant);
                for ply in 0..400u64 {
                    for &c in variant.seats() {
                        let general = mean_pair_value(&pos, c, &w, &mut |u| cost(&pos, u, &w));
                        let general = if pos.is_over() || pos.turn() == c {
                            general
                        } else {
                            general - w.tempo
                        };
                        assert_eq!(value_for(&pos, c, &w), general, "{variant} ply {ply}");
                        checked += 1;
                    }
                    if pos.is_over() {
                        decided += 1;
                        break;
                    }
                    if !crate::greedy::play_mixed(&mut pos, &mut rng, ply, 4) {
                        break;
                    }
                }
            }
        }
        assert!(checked > 1_000, "{checked}");
        assert!(decided > 0);
    }

    #[test]
    fn the_board_as_bytes_holds_what_the_words_hold() {
        let mut rng = crate::rng::Rng::new(3);
        for _ in 0..200 {
            let bits =
                (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) & Bitboard::ALL.0;
            let (words, bytes) = (board_words(bits), board_bytes(bits));
            for i in 0..128u8 {
                assert_eq!(bytes.held(i), words.held(i), "{bits:x} {i}");
                assert_eq!(bytes.held(i), (bits >> i & 1) as u32, "{bits:x} {i}");
            }
            for c in Colour::ALL {
                let t = tables(c);
                for hole in 0..121 {
                    assert_eq!(ready_jumps(t, hole, &bytes), ready_jumps(t, hole, &words));
                }
            }
        }
    }

    #[test]
    fn start_is_balanced_and_progress_lowers_cost() {
        let pos = Position::start(Variant::Classic2);
        let w = Weights::DEFAULT;
        assert_eq!(cost(&pos, Colour::White, &w), cost(&pos, Colour::Black, &w));
        let mut next = pos;
        next.play_path(&"m3-m5".parse().unwrap()).unwrap();
        assert!(cost(&next, Colour::White, &w) < cost(&pos, Colour::White, &w));
        assert!(value_for(&next, Colour::White, &w) + drive_offset(&pos, Colour::White, &w) > 0);
    }
}
