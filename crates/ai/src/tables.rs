//! Per-colour lookup tables over the 121 holes, computed once: how far a hole
//! is from the far tip of the colour's goal along the goal's axis ("rows to
//! go"), and how far it is off the centre line towards that goal.

use std::sync::OnceLock;
use stella_engine::geometry::{home15, neighbour, point};
use stella_engine::{Bitboard, Colour, Hole};

/// The hole index standing for "no such line" in
/// [`ColourTables::forward_jumps`]: past the 121 holes, never set on a board.
pub(crate) const NO_LINE: u8 = 127;

/// Lookup tables of one colour.
#[derive(Debug)]
pub struct ColourTables {
    /// Rows still to go from each hole to the goal's tip row (0 at the tip, 16 at the home tip).
    pub rows_to_go: [u8; 121],
    /// Distance from each hole to the straight line joining home tip and goal tip.
    pub lateral: [u8; 121],
    /// The smallest possible sum of `rows_to_go` over `marbles` marbles (10 or 15):
    /// the sum over a filled goal.
    pub min_sum_10: u32,
    /// As `min_sum_10`, for 15 marbles.
    pub min_sum_15: u32,
    /// Forward jump lines of each hole: `(over, land)` hole indices for the two
    /// directions that gain a row towards the goal (`NO_LINE` = no such
    /// line: bit 127 of a board, which no board sets, so no jump is seen
    /// along it).
    pub forward_jumps: [[(u8, u8); 2]; 121],
    /// The holes of each hole's forward jump lines (both the hole jumped
    /// over and the landing hole of each): the holes whose contents decide
    /// a marble's jump term in the evaluation.
    pub jump_holes: [Bitboard; 121],
    /// The holes whose [`ColourTables::jump_holes`] hold each hole: the
    /// marbles whose jump term a change of the hole can change.
    pub jump_sources: [Bitboard; 121],
    /// `lateral` with 0 on the holes of the goal of the same place in
    /// [`ColourTables::goal_sums`]: the evaluation counts lateral distance
    /// only outside the goal.
    pub lateral_outside: [[u8; 121]; 2],
    /// The goals of the colour (its opposite's home of 10 and of 15 holes),
    /// each with the sum of `rows_to_go` and of its squares over its holes:
    /// the evaluation's floor for a goal no foreign marble fills.
    pub goal_sums: [(Bitboard, i32, i32); 2],
    /// The holes with at most `k` rows still to go, for each `k` from 0 to
    /// 16: a marble's moves gaining at least `g` rows end in
    /// `rows_at_most[rows_to_go[from] - g]`.
    pub rows_at_most: [Bitboard; 17],
}

/// The sum of `rows` and of its squares over the holes of `holes`.
fn sums(rows: &[u8; 121], holes: Bitboard) -> (i32, i32) {
    holes.iter().fold((0, 0), |(s, q), h| {
        let r = rows[h.index()] as i32;
        (s + r, q + r * r)
    })
}

impl ColourTables {
    /// The sum of `rows_to_go` and of its squares over `holes`, read from
    /// [`ColourTables::goal_sums`] when `holes` is a whole goal.
    #[inline]
    pub fn row_sums(&self, holes: Bitboard) -> (i32, i32) {
        for &(goal, sum, squares) in &self.goal_sums {
            if goal == holes {
                return (sum, squares);
            }
        }
        sums(&self.rows_to_go, holes)
    }

    /// [`ColourTables::lateral_outside`] of `goal`, if it is one of the
    /// colour's goals.
    #[inline]
    pub fn lateral_outside_of(&self, goal: Bitboard) -> Option<&[u8; 121]> {
        let k = self.goal_sums.iter().position(|g| g.0 == goal)?;
        Some(&self.lateral_outside[k])
    }
}

fn coord(h: Hole, axis: usize) -> i32 {
    let (x, y, z) = h.cube();
    [x, y, z][axis]
}

fn build(c: Colour) -> ColourTables {
    let goal = point(c.opposite());
    let tip = goal
        .iter()
        .max_by_key(|h| {
            let (x, y, z) = h.cube();
            x.abs().max(y.abs()).max(z.abs())
        })
        .expect("a goal has holes");
    let axis = (0..3)
        .find(|&a| coord(tip, a).abs() == 8)
        .expect("the tip lies on an axis");
    let sign = coord(tip, axis).signum();
    let (o1, o2) = match axis {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    let mut rows_to_go = [0u8; 121];
    let mut lateral = [0u8; 121];
    for h in Hole::all() {
        rows_to_go[h.index()] = (8 - sign * coord(h, axis)) as u8;
        lateral[h.index()] = ((coord(h, o1) - coord(h, o2)).abs() / 2) as u8;
    }
    let mut forward_jumps = [[(NO_LINE, NO_LINE); 2]; 121];
    for h in Hole::all() {
        let mut k = 0;
        for d in 0..6 {
            let Some(over) = neighbour(h, d) else {
                continue;
            };
            if rows_to_go[over.index()] + 1 != rows_to_go[h.index()] {
                continue;
            }
            if let Some(land) = neighbour(over, d) {
                forward_jumps[h.index()][k] = (over.index() as u8, land.index() as u8);
                k += 1;
            }
        }
    }
    let jump_holes: [Bitboard; 121] = std::array::from_fn(|i| {
        forward_jumps[i]
            .iter()
            .flat_map(|&(over, land)| [over, land])
            .filter_map(|h| Hole::from_index(usize::from(h)))
            .collect()
    });
    let jump_sources = std::array::from_fn(|i| {
        Hole::all()
            .filter(|h| jump_holes[h.index()].contains(Hole::from_index(i).expect("a hole")))
            .collect()
    });
    let mut all: Vec<u32> = Hole::all().map(|h| rows_to_go[h.index()] as u32).collect();
    all.sort_unstable();
    let goal_sums = [point(c.opposite()), home15(c.opposite())].map(|goal| {
        let (sum, squares) = sums(&rows_to_go, goal);
        (goal, sum, squares)
    });
    let lateral_outside = goal_sums.map(|(goal, _, _)| {
        let mut outside = lateral;
        for h in goal {
            outside[h.index()] = 0;
        }
        outside
    });
    let rows_at_most = std::array::from_fn(|k| {
        Hole::all()
            .filter(|h| usize::from(rows_to_go[h.index()]) <= k)
            .collect()
    });
    ColourTables {
        rows_at_most,
        goal_sums,
        lateral_outside,
        rows_to_go,
        lateral,
        min_sum_10: all[..10].iter().sum(),
        min_sum_15: all[..15].iter().sum(),
        forward_jumps,
        jump_holes,
        jump_sources,
    }
}

/// The tables of `colour`.
pub fn tables(colour: Colour) -> &'static ColourTables {
    static ALL: OnceLock<[ColourTables; 6]> = OnceLock::new();
    &ALL.get_or_init(|| Colour::ALL.map(build))[colour.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_rows_to_go_is_rows_from_top() {
        let t = tables(Colour::White);
        for h in Hole::all() {
            assert_eq!(t.rows_to_go[h.index()] as i32, 17 - h.row());
        }
        assert_eq!(t.min_sum_10, 20);
        let b = tables(Colour::Black);
        let m1: Hole = "m1".parse().unwrap();
        assert_eq!(b.rows_to_go[m1.index()], 0);
        assert_eq!(t.lateral["i9".parse::<Hole>().unwrap().index()], 0);
    }

    #[test]
    fn rows_at_most_holds_the_holes_that_near_the_goal_enough() {
        for c in Colour::ALL {
            let t = tables(c);
            for k in 0..17 {
                for h in Hole::all() {
                    let near = usize::from(t.rows_to_go[h.index()]) <= k;
                    assert_eq!(t.rows_at_most[k].contains(h), near, "{c:?} {k}");
                }
            }
            assert_eq!(t.rows_at_most[16], Bitboard::ALL);
        }
    }

    #[test]
    fn jump_holes_and_sources_are_the_holes_of_the_forward_jump_lines() {
        for c in Colour::ALL {
            let t = tables(c);
            for h in Hole::all() {
                let lines = t.forward_jumps[h.index()];
                for other in Hole::all() {
                    let on_a_line = lines.iter().any(|&(over, land)| {
                        usize::from(over) == other.index() || usize::from(land) == other.index()
                    });
                    assert_eq!(t.jump_holes[h.index()].contains(other), on_a_line);
                    assert_eq!(t.jump_sources[other.index()].contains(h), on_a_line);
                }
            }
        }
        // A hole two rows from the goal's far side has two whole lines.
        let t = tables(Colour::White);
        let counts: Vec<u32> = Hole::all()
            .map(|h| t.jump_holes[h.index()].count())
            .collect();
        assert_eq!(counts.iter().max(), Some(&4));
        assert!(counts.contains(&0));
    }

    #[test]
    fn row_sums_of_a_whole_goal_match_the_sums_over_its_holes() {
        for c in Colour::ALL {
            let t = tables(c);
            for goal in [point(c.opposite()), home15(c.opposite())] {
                let walked = sums(&t.rows_to_go, goal);
                assert_eq!(t.row_sums(goal), walked, "{c:?}");
                // Part of a goal is summed over its holes.
                let part = goal.without(goal.first().unwrap());
                let (s, q) = t.row_sums(part);
                let first = t.rows_to_go[goal.first().unwrap().index()] as i32;
                assert_eq!((s + first, q + first * first), walked);
            }
        }
        assert_eq!(tables(Colour::White).row_sums(point(Colour::Black)).0, 20);
    }
}
