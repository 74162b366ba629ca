//! Per-colour lookup tables over the 121 holes, computed once: how far a hole
//! is from the far tip of the colour's goal along the goal's axis ("rows to
//! go"), and how far it is off the centre line towards that goal.

use std::sync::OnceLock;
use stella_engine::geometry::{neighbour, point};
use stella_engine::{Colour, Hole};

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
    /// directions that gain a row towards the goal (255 = no such line).
    pub forward_jumps: [[(u8, u8); 2]; 121],
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
    let mut forward_jumps = [[(255u8, 255u8); 2]; 121];
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
    let mut all: Vec<u32> = Hole::all().map(|h| rows_to_go[h.index()] as u32).collect();
    all.sort_unstable();
    ColourTables {
        rows_to_go,
        lateral,
        min_sum_10: all[..10].iter().sum(),
        min_sum_15: all[..15].iter().sum(),
        forward_jumps,
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
}
