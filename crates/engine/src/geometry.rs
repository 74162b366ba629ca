//! Board geometry computed once: coordinates, neighbours, jump lines, regions.
//!
//! A hole is `(l, r)`: oblique line `l` (a = 1 … q = 17) and row `r` (1 = bottom).
//! With `x = l − 9`, `y = r − 9`, `z = −x − y` a hole exists iff `x, y, z ≥ −4`
//! all, or `x, y, z ≤ 4` all. The six neighbours of `(l, r)` are `(l±1, r)`,
//! `(l, r±1)`, `(l−1, r+1)` and `(l+1, r−1)`.
//!
//! ```text
//!                 e17                    row 17   black's point (top)
//!                e16 f16
//!               e15 f15 g15
//!              e14 f14 g14 h14
//!  a13 b13 c13 d13 e13 ... m13           row 13   blue (left)   yellow (right)
//!        ...        i9        ...        row 9    the centre
//!  e5  f5  g5  h5  i5 ... q5             row 5    red (left)    green (right)
//!              j4 k4 l4 m4
//!               k3 l3 m3
//!                l2 m2
//!                 m1                     row 1    white's point (bottom)
//! ```
//!
//! Row lengths from the bottom: 1 2 3 4 13 12 11 10 9 10 11 12 13 4 3 2 1.
//!
//! ```
//! use stella_engine::geometry::row_lengths;
//! assert_eq!(row_lengths(), [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]);
//! ```

use crate::bitboard::Bitboard;
use crate::colour::Colour;
use crate::hole::Hole;

/// Marker for "no hole" in the tables.
pub(crate) const NONE: u8 = 255;

/// The six directions as `(dl, dr)`; direction `d` and `(d + 3) % 6` are opposite.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

const fn exists(l: i32, r: i32) -> bool {
    if l < 1 || l > 17 || r < 1 || r > 17 {
        return false;
    }
    let x = l - 9;
    let y = r - 9;
    let z = -x - y;
    (x >= -4 && y >= -4 && z >= -4) || (x <= 4 && y <= 4 && z <= 4)
}

const fn build_coords() -> [(u8, u8); 121] {
    let mut out = [(0u8, 0u8); 121];
    let mut n = 0;
    let mut r = 1;
    while r <= 17 {
        let mut l = 1;
        while l <= 17 {
            if exists(l, r) {
                out[n] = (l as u8, r as u8);
                n += 1;
            }
            l += 1;
        }
        r += 1;
    }
    out
}

/// `(letter, row)` of each hole index.
pub(crate) const COORDS: [(u8, u8); 121] = build_coords();

const fn build_index() -> [[u8; 17]; 17] {
    let mut out = [[NONE; 17]; 17];
    let mut i = 0;
    while i < 121 {
        let (l, r) = COORDS[i];
        out[r as usize - 1][l as usize - 1] = i as u8;
        i += 1;
    }
    out
}

const INDEX: [[u8; 17]; 17] = build_index();

/// Index of the hole at `(letter, row)`, if it exists.
pub(crate) const fn index_of(l: i32, r: i32) -> Option<u8> {
    if exists(l, r) {
        Some(INDEX[r as usize - 1][l as usize - 1])
    } else {
        None
    }
}

const fn build_neighbours() -> [[u8; 6]; 121] {
    let mut out = [[NONE; 6]; 121];
    let mut i = 0;
    while i < 121 {
        let (l, r) = COORDS[i];
        let mut d = 0;
        while d < 6 {
            let (dl, dr) = DIRECTIONS[d];
            if let Some(j) = index_of(l as i32 + dl, r as i32 + dr) {
                out[i][d] = j;
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// `NEIGHBOURS[h][d]`: the neighbour of hole `h` in direction `d`, or [`NONE`].
pub(crate) const NEIGHBOURS: [[u8; 6]; 121] = build_neighbours();

const fn build_step_masks() -> [u128; 121] {
    let mut out = [0u128; 121];
    let mut i = 0;
    while i < 121 {
        let mut d = 0;
        while d < 6 {
            let n = NEIGHBOURS[i][d];
            if n != NONE {
                out[i] |= 1u128 << n;
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// The neighbours of each hole as a mask.
pub(crate) const STEP_MASKS: [u128; 121] = build_step_masks();

/// A classic jump from a hole: the hole jumped over and the landing hole.
#[derive(Clone, Copy)]
pub(crate) struct JumpLine {
    pub over: u8,
    pub land: u8,
}

const fn build_padded_jumps() -> [[JumpLine; 6]; 121] {
    // Missing lines point at bit 127, which no board ever sets: never a jump.
    let mut out = [[JumpLine {
        over: 127,
        land: 127,
    }; 6]; 121];
    let mut i = 0;
    while i < 121 {
        let mut d = 0;
        while d < 6 {
            let over = NEIGHBOURS[i][d];
            if over != NONE {
                let land = NEIGHBOURS[over as usize][d];
                if land != NONE {
                    out[i][d] = JumpLine { over, land };
                }
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// Classic jump lines of each hole in direction order, padded to six with
/// lines over and onto bit 127 (never occupied), for branch-free loops.
pub(crate) const JUMPS6: [[JumpLine; 6]; 121] = build_padded_jumps();

const fn build_line_masks() -> [u128; 121] {
    let mut out = [0u128; 121];
    let mut i = 0;
    while i < 121 {
        let mut d = 0;
        while d < 6 {
            let line = JUMPS6[i][d];
            if line.land != 127 {
                out[i] |= 1u128 << line.over | 1u128 << line.land;
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// Every hole a classic jump from each hole looks at (holes jumped over and landed on).
pub(crate) const LINE_MASKS: [u128; 121] = build_line_masks();

/// How far apart in index two neighbouring holes can be, plus one.
const NEIGHBOUR_SPAN: usize = 16;

/// The first hole of each hole's neighbour window: its 32 holes from there
/// hold all its neighbours, so the occupied ones can be read as one 32-bit
/// word (`(occupied >> WINDOW_BASE[p]) as u32`).
const WINDOW_BASE: [u8; 121] = {
    let mut out = [0u8; 121];
    let mut i = 0;
    while i < 121 {
        out[i] = i.saturating_sub(NEIGHBOUR_SPAN) as u8;
        i += 1;
    }
    out
};

/// The three groups of a hole's neighbours, by index: the two below it
/// (directions 4 and 5), the two beside it (3 and 0) and the two above it
/// (2 and 1). The holes of a group lie `GROUP_SPACING` apart in index.
const NEIGHBOUR_GROUPS: [[usize; 2]; 3] = [[4, 5], [3, 0], [2, 1]];

/// How far apart in index the two holes of each neighbour group lie: the
/// holes below or above are next to each other in their row, the two
/// beside have the hole itself between them.
const GROUP_SPACING: [u32; 3] = [1, 2, 1];

/// The place in a hole's window ([`WINDOW_BASE`]) of the first hole of each
/// neighbour group: the group's occupied neighbours are bit 0 and bit
/// [`GROUP_SPACING`] of the window shifted down by it.
const GROUP_SHIFTS: [[u8; 3]; 121] = {
    let mut out = [[0u8; 3]; 121];
    let mut i = 0;
    while i < 121 {
        let mut g = 0;
        while g < 3 {
            let [first, second] = NEIGHBOUR_GROUPS[g];
            let lead = if NEIGHBOURS[i][first] != NONE {
                NEIGHBOURS[i][first]
            } else {
                NEIGHBOURS[i][second]
            };
            if lead != NONE {
                out[i][g] = lead - WINDOW_BASE[i];
            }
            g += 1;
        }
        i += 1;
    }
    out
};

/// `group_landings()[p][g][k]`: every landing of a classic jump from hole
/// `p` over the occupied neighbours of group `g` that the two bits of `k`
/// say are occupied (bit 0: the group's first hole, at [`GROUP_SHIFTS`];
/// bit 1: the hole [`GROUP_SPACING`] after it). A jump that would leave the
/// board lands nowhere. Only the flood's table is built from it.
const fn group_landings() -> [[[u128; 4]; 3]; 121] {
    let mut out = [[[0u128; 4]; 3]; 121];
    let mut i = 0;
    while i < 121 {
        let mut g = 0;
        while g < 3 {
            let mut e = 0;
            while e < 2 {
                let d = NEIGHBOUR_GROUPS[g][e];
                let over = NEIGHBOURS[i][d];
                let land = JUMPS6[i][d].land;
                if over != NONE && land != 127 {
                    let at = (over - WINDOW_BASE[i] - GROUP_SHIFTS[i][g]) as u32;
                    let bit = if at == 0 {
                        1
                    } else {
                        assert!(
                            at == GROUP_SPACING[g],
                            "a group's holes lie its spacing apart"
                        );
                        2
                    };
                    assert!(
                        (GROUP_SHIFTS[i][g] as u32) + at < 32,
                        "a group's holes lie within the window"
                    );
                    let mut k = 0;
                    while k < 4 {
                        if k & bit != 0 {
                            out[i][g][k] |= 1u128 << land;
                        }
                        k += 1;
                    }
                }
                e += 1;
            }
            g += 1;
        }
        i += 1;
    }
    out
}

/// Where the classic jump flood reads a hole's neighbours: its 32-bit
/// window of the occupied holes starts at hole `base` (all its neighbours
/// lie within it), and the window shifted down by `below`, `beside` or
/// `above` holds the occupancy of that pair of neighbours in its low bits
/// (the two below and the two above at bits 0 and 1, the two beside at
/// bits 0 and 2).
#[derive(Clone, Copy)]
pub(crate) struct FloodWindow {
    /// The window's first hole.
    pub base: u8,
    /// The shift to the pair of neighbours below.
    pub below: u8,
    /// The shift to the pair of neighbours beside.
    pub beside: u8,
    /// The shift to the pair of neighbours above.
    pub above: u8,
}

/// Each hole's [`FloodWindow`].
pub(crate) const FLOOD_WINDOWS: [FloodWindow; 121] = {
    let mut out = [FloodWindow {
        base: 0,
        below: 0,
        beside: 0,
        above: 0,
    }; 121];
    let mut i = 0;
    while i < 121 {
        out[i] = FloodWindow {
            base: WINDOW_BASE[i],
            below: GROUP_SHIFTS[i][0],
            beside: GROUP_SHIFTS[i][1],
            above: GROUP_SHIFTS[i][2],
        };
        i += 1;
    }
    out
};

/// `FLOOD_LANDINGS[p][k]`: the landings of the classic jumps from hole
/// `p` over the neighbours that the bits of `k` say are occupied: the two
/// below (bits 0 and 1, as read at [`FloodWindow::below`]), the two above
/// (bits 2 and 3, as read at [`FloodWindow::above`]) and the two beside
/// (bits 4 and 5: the window's bits 0 and 2 at [`FloodWindow::beside`]).
/// A jump that would leave the board lands nowhere. One lookup replaces a
/// loop over the occupied neighbours, whose varying length the processor
/// cannot predict, and reads one cache line of the table per reached hole.
pub(crate) static FLOOD_LANDINGS: [[u128; 64]; 121] = {
    let mut out = [[0u128; 64]; 121];
    let landings = group_landings();
    let mut i = 0;
    while i < 121 {
        let groups = &landings[i];
        let mut k = 0;
        while k < 64 {
            out[i][k] = groups[0][k & 3] | groups[2][k >> 2 & 3] | groups[1][k >> 4];
            k += 1;
        }
        i += 1;
    }
    out
};

const fn region(axis: u8, sign: i32, min: i32, others_nonpositive: bool) -> u128 {
    let mut out = 0u128;
    let mut i = 0;
    while i < 121 {
        let (l, r) = COORDS[i];
        let x = l as i32 - 9;
        let y = r as i32 - 9;
        let z = -x - y;
        let (main, a, b) = match axis {
            0 => (x, y, z),
            1 => (y, x, z),
            _ => (z, x, y),
        };
        if sign * main >= min && (!others_nonpositive || (sign * a <= 0 && sign * b <= 0)) {
            out |= 1u128 << i;
        }
        i += 1;
    }
    out
}

/// `(axis, sign)` of each colour's point: white bottom (y ≤ −5), red lower left
/// (z ≥ 5), blue upper left (x ≤ −5), black top (y ≥ 5), yellow upper right
/// (z ≤ −5), green lower right (x ≥ 5). Axis 0 = x, 1 = y, 2 = z.
const POINT_AXES: [(u8, i32); 6] = [(1, -1), (2, 1), (0, -1), (1, 1), (2, -1), (0, 1)];

const fn build_points() -> [u128; 6] {
    let mut out = [0u128; 6];
    let mut c = 0;
    while c < 6 {
        out[c] = region(POINT_AXES[c].0, POINT_AXES[c].1, 5, false);
        c += 1;
    }
    out
}

const fn build_homes15() -> [u128; 6] {
    let mut out = [0u128; 6];
    let mut c = 0;
    while c < 6 {
        out[c] = region(POINT_AXES[c].0, POINT_AXES[c].1, 4, true);
        c += 1;
    }
    out
}

const POINTS: [u128; 6] = build_points();
const HOMES15: [u128; 6] = build_homes15();
const HEXAGON_MASK: u128 = {
    let mut all = 0u128;
    let mut c = 0;
    while c < 6 {
        all |= POINTS[c];
        c += 1;
    }
    ((1u128 << 121) - 1) & !all
};

/// The central hexagon of 61 holes.
pub const HEXAGON: Bitboard = Bitboard(HEXAGON_MASK);

/// The 10-hole point (triangle) where `colour` starts.
#[inline]
pub const fn point(colour: Colour) -> Bitboard {
    Bitboard(POINTS[colour as usize])
}

/// The 15-hole home of `colour` in the 15-marble variants: its point plus the
/// five hexagon holes of the edge facing it.
#[inline]
pub const fn home15(colour: Colour) -> Bitboard {
    Bitboard(HOMES15[colour as usize])
}

const fn distance_tables(regions: [u128; 6]) -> [[u8; 121]; 6] {
    let mut out = [[0u8; 121]; 6];
    let mut c = 0;
    while c < 6 {
        let mut h = 0;
        while h < 121 {
            let (l, r) = COORDS[h];
            let mut best = 255u8;
            let mut g = 0;
            while g < 121 {
                if regions[c] >> g & 1 != 0 {
                    let (gl, gr) = COORDS[g];
                    let dx = l as i32 - gl as i32;
                    let dy = r as i32 - gr as i32;
                    let dz = -dx - dy;
                    let ax = if dx < 0 { -dx } else { dx };
                    let ay = if dy < 0 { -dy } else { dy };
                    let az = if dz < 0 { -dz } else { dz };
                    let m = if ax > ay { ax } else { ay };
                    let m = if m > az { m } else { az };
                    if (m as u8) < best {
                        best = m as u8;
                    }
                }
                g += 1;
            }
            out[c][h] = best;
            h += 1;
        }
        c += 1;
    }
    out
}

const DIST_TO_POINT: [[u8; 121]; 6] = distance_tables(POINTS);
const DIST_TO_HOME15: [[u8; 121]; 6] = distance_tables(HOMES15);

/// Distance in steps from `hole` to the nearest hole of `colour`'s point
/// (`fifteen` = false) or 15-hole home (`fifteen` = true), ignoring marbles.
#[inline]
pub const fn distance_to_home_of(colour: Colour, fifteen: bool, hole: Hole) -> u32 {
    if fifteen {
        DIST_TO_HOME15[colour as usize][hole.index()] as u32
    } else {
        DIST_TO_POINT[colour as usize][hole.index()] as u32
    }
}

/// The neighbours of `hole`.
#[inline]
pub fn neighbours(hole: Hole) -> Bitboard {
    Bitboard(STEP_MASKS[hole.index()])
}

/// The neighbour of `hole` in direction `d` (0–5), if any.
#[inline]
pub fn neighbour(hole: Hole, d: usize) -> Option<Hole> {
    let n = NEIGHBOURS[hole.index()][d];
    (n != NONE).then(|| Hole::from_index_unchecked(n))
}

/// Direction (0–5) from `a` to `b` if they lie on one line, with the distance.
pub fn line_between(a: Hole, b: Hole) -> Option<(usize, i32)> {
    let dl = b.letter() - a.letter();
    let dr = b.row() - a.row();
    if dl == 0 && dr == 0 {
        return None;
    }
    let n = dl.abs().max(dr.abs());
    DIRECTIONS
        .iter()
        .position(|&(x, y)| x * n == dl && y * n == dr)
        .map(|d| (d, n))
}

/// Number of holes in each row, bottom to top.
pub fn row_lengths() -> [usize; 17] {
    let mut out = [0; 17];
    for h in Hole::all() {
        out[h.row() as usize - 1] += 1;
    }
    out
}

/// Draws the star row by row, top row first, with `mark(hole)` as each hole's
/// character, offset so that neighbours touch as on the board.
///
/// ```
/// use stella_engine::geometry::draw_star;
/// let star = draw_star(|_| 'o');
/// let expected = "
///             o
///            o o
///           o o o
///          o o o o
/// o o o o o o o o o o o o o
///  o o o o o o o o o o o o
///   o o o o o o o o o o o
///    o o o o o o o o o o
///     o o o o o o o o o
///    o o o o o o o o o o
///   o o o o o o o o o o o
///  o o o o o o o o o o o o
/// o o o o o o o o o o o o o
///          o o o o
///           o o o
///            o o
///             o
/// ";
/// assert_eq!(star, expected.trim_start_matches('\n'));
/// ```
pub fn draw_star(mark: impl Fn(Hole) -> char) -> String {
    let mut out = String::new();
    for row in (1..=17).rev() {
        let holes: Vec<Hole> = Hole::all().filter(|h| h.row() == row).collect();
        // Pixel column of a hole: 2x + y (x = letter - 9, y = row - 9), shifted to start at 0.
        let col = |h: Hole| (2 * (h.letter() - 9) + (h.row() - 9) + 12) as usize;
        let mut line = String::new();
        for h in holes {
            while line.len() < col(h) {
                line.push(' ');
            }
            line.push(mark(h));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(b: Bitboard) -> Vec<String> {
        b.iter().map(|h| h.to_string()).collect()
    }

    #[test]
    fn region_sizes() {
        assert_eq!(HEXAGON.count(), 61);
        for c in Colour::ALL {
            assert_eq!(point(c).count(), 10, "{c}");
            assert_eq!(home15(c).count(), 15, "{c}");
            assert!(point(c).is_subset(home15(c)));
            assert!((point(c) & point(c.opposite())).is_empty());
        }
    }

    #[test]
    fn white_and_black_points() {
        assert_eq!(
            names(point(Colour::White)),
            ["m1", "l2", "m2", "k3", "l3", "m3", "j4", "k4", "l4", "m4"]
        );
        assert_eq!(
            names(point(Colour::Black)),
            ["e14", "f14", "g14", "h14", "e15", "f15", "g15", "e16", "f16", "e17"]
        );
        let extra = home15(Colour::White) & !point(Colour::White);
        assert_eq!(names(extra), ["i5", "j5", "k5", "l5", "m5"]);
    }

    #[test]
    fn neighbours_are_symmetric() {
        for h in Hole::all() {
            for d in 0..6 {
                if let Some(n) = neighbour(h, d) {
                    assert_eq!(neighbour(n, (d + 3) % 6), Some(h));
                }
            }
        }
        let centre: Hole = "i9".parse().unwrap();
        assert_eq!(neighbours(centre).count(), 6);
        let tip: Hole = "m1".parse().unwrap();
        assert_eq!(names(neighbours(tip)), ["l2", "m2"]);
    }
}
