//! The home-leaving deadline (docs/rules.md §5) as the players see it: which moves
//! would eliminate the mover, and, as the deadline nears, which moves still
//! get every marble out of home in time.

use std::sync::OnceLock;
use stella_engine::geometry::{home15, neighbours, point};
use stella_engine::{Bitboard, Colour, Hole, Move, Position};

/// Spare moves kept before the deadline: the restriction to home-leaving
/// moves starts when the moves left are at most the moves needed plus this.
const MARGIN: u32 = 2;

/// The legal moves of the player to move without the eliminating ones, unless
/// every move eliminates: after the deadline a move ending in the player's own
/// home, and on the deadline move itself a move that leaves a marble at home
/// that could have left (docs/rules.md §5).
pub fn safe_moves(position: &Position) -> Vec<Move> {
    let all = position.legal_moves();
    if !can_eliminate(position) {
        return all;
    }
    let c = position.turn();
    let deadline_move = position.moves_made(c) + 1 == position.variant().deadline();
    let eliminates = |m: &Move| {
        if position.would_eliminate(m) {
            return true;
        }
        if !deadline_move {
            return false;
        }
        let mut after = *position;
        after.play_unchecked(m);
        after.is_eliminated(c)
    };
    if !all.iter().any(eliminates) {
        return all;
    }
    let safe: Vec<Move> = all.iter().copied().filter(|m| !eliminates(m)).collect();
    if safe.is_empty() {
        all
    } else {
        safe
    }
}

/// Whether any move of the player to move could eliminate it: only its
/// deadline move and the moves after the deadline can (docs/rules.md §5).
pub(crate) fn can_eliminate(position: &Position) -> bool {
    position.moves_made(position.turn()) + 1 >= position.variant().deadline()
}

/// The holes the player to move may not enter from outside them when
/// that is all [`playable_moves`] keeps out: after its deadline, its home
/// (docs/rules.md §5; unless every move enters it, when [`safe_moves`]
/// keeps them all). `None` up to the deadline move, when the deadline may
/// restrict the moves in other ways.
pub(crate) fn barred_home(position: &Position) -> Option<Bitboard> {
    let c = position.turn();
    let variant = position.variant();
    (position.moves_made(c) >= variant.deadline()).then(|| variant.home(c))
}

/// Whether every legal move of the player to move is one [`playable_moves`]
/// keeps: no move can eliminate and the deadline is still too far to
/// restrict the moves. The playouts then choose among the moves as the
/// generator hands them out, without a list.
pub(crate) fn every_move_counts(position: &Position) -> bool {
    !can_eliminate(position) && !deadline_near(position)
}

/// Whether the home-leaving deadline is near enough that [`playable_moves`]
/// may restrict the moves: marbles still at home and moves left at most
/// what they need (each marble's steps out, a walled-in one counting one)
/// plus the margin.
fn deadline_near(position: &Position) -> bool {
    let c = position.turn();
    let variant = position.variant();
    let home = variant.home(c);
    let at_home = position.marbles(c) & home;
    let made = position.moves_made(c);
    if at_home.is_empty() || made >= variant.deadline() {
        return false;
    }
    let left = u32::from(variant.deadline() - made);
    if left <= at_home.count() + MARGIN {
        // Every marble at home needs at least one move.
        return true;
    }
    let blocked = position.occupied() & !at_home;
    // A move out only lowers a marble's need to 1 (or gives a walled-in one a
    // need of 1), so this bounds the need without scanning the moves.
    left <= exit_steps_sum_memo(c, blocked, home, at_home) + MARGIN
}

/// Slots of each thread's memo of [`exit_steps_sum`].
const MEMO_SLOTS: usize = 1024;

/// One remembered [`exit_steps_sum`]: the home (by number), the blocked
/// holes in and next to it, the marbles at home, and the sum.
#[derive(Clone, Copy)]
struct Remembered {
    home: u8,
    near_blocked: Bitboard,
    at_home: Bitboard,
    sum: u32,
}

/// [`exit_steps_sum`] for `colour`'s home `home`, remembered per thread:
/// the sum depends only on the blocked holes in and next to the home and on
/// the marbles at home, which repeat from one playout to the next, so most
/// calls read a slot instead of searching.
fn exit_steps_sum_memo(
    colour: Colour,
    blocked: Bitboard,
    home: Bitboard,
    at_home: Bitboard,
) -> u32 {
    let Some((id, near)) = home_near(colour, home) else {
        return exit_steps_sum(blocked, home, at_home);
    };
    let near_blocked = blocked & near;
    let mixed = near_blocked.0 ^ at_home.0.rotate_left(61) ^ u128::from(id);
    let folded = (mixed as u64) ^ ((mixed >> 64) as u64);
    let slot = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize % MEMO_SLOTS;
    thread_local! {
        static MEMO: std::cell::RefCell<Vec<Option<Remembered>>> =
            std::cell::RefCell::new(vec![None; MEMO_SLOTS]);
    }
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if let Some(r) = memo[slot] {
            if r.home == id && r.near_blocked == near_blocked && r.at_home == at_home {
                return r.sum;
            }
        }
        let sum = exit_steps_sum(near_blocked, home, at_home);
        memo[slot] = Some(Remembered {
            home: id,
            near_blocked,
            at_home,
            sum,
        });
        sum
    })
}

/// The number of `colour`'s home `home` (its point of 10 holes or of 15)
/// among all homes, and the home with the holes next to it: only blocked
/// holes there change [`exit_steps_sum`].
fn home_near(colour: Colour, home: Bitboard) -> Option<(u8, Bitboard)> {
    static ALL: OnceLock<[[(Bitboard, Bitboard); 2]; 6]> = OnceLock::new();
    let homes = ALL.get_or_init(|| {
        Colour::ALL.map(|c| {
            [point(c), home15(c)].map(|h| (h, h.iter().fold(h, |near, x| near | neighbours(x))))
        })
    });
    let k = homes[colour.index()].iter().position(|(h, _)| *h == home)?;
    Some(((colour.index() * 2 + k) as u8, homes[colour.index()][k].1))
}

/// The sum over the marbles `at_home` of their [`exit_steps`], a walled-in
/// marble counting one, by one breadth-first search from outside the home
/// inwards: a home hole's steps out are its distance, over the passable
/// home holes, to the nearest open hole outside the home.
pub(crate) fn exit_steps_sum(blocked: Bitboard, home: Bitboard, at_home: Bitboard) -> u32 {
    let mut todo = home & !blocked;
    let mut layer = !blocked & !home;
    let mut total = 0;
    let mut steps = 0;
    loop {
        steps += 1;
        let mut next = Bitboard::EMPTY;
        for h in todo {
            if !(neighbours(h) & layer).is_empty() {
                next = next.with(h);
            }
        }
        if next.is_empty() {
            break;
        }
        total += steps * (next & at_home).count();
        todo &= !next;
        layer = next;
    }
    total + (todo & at_home).count()
}

/// Steps a marble at `from` needs to reach a hole outside `home` over the holes
/// not in `blocked`, or `None` when it is walled in.
pub(crate) fn exit_steps(blocked: Bitboard, home: Bitboard, from: Hole) -> Option<u32> {
    let mut seen = Bitboard::from_hole(from);
    let mut frontier = seen;
    let mut steps = 0;
    while !frontier.is_empty() {
        steps += 1;
        let mut next = Bitboard::EMPTY;
        for p in frontier {
            next |= neighbours(p) & !blocked & !seen;
        }
        if !(next & !home).is_empty() {
            return Some(steps);
        }
        seen |= next;
        frontier = next;
    }
    None
}

/// The moves a computer player chooses among: the [`safe_moves`], and as
/// the deadline nears (moves left at most the moves the marbles still at
/// home need, plus a margin) only those of home marbles that leave home or
/// come closer to leaving, if there are any. A marble needs one move if it
/// has a move out, else its steps to the edge of home, counting the
/// player's other home marbles as passable (they leave first); a marble
/// walled in by other players' marbles does not count.
pub(crate) fn playable_moves(position: &Position) -> Vec<Move> {
    let moves = safe_moves(position);
    if !deadline_near(position) {
        return moves;
    }
    let c = position.turn();
    let variant = position.variant();
    let home = variant.home(c);
    let at_home = position.marbles(c) & home;
    let left = u32::from(variant.deadline() - position.moves_made(c));
    let blocked = position.occupied() & !at_home;
    let steps: Vec<(Hole, Option<u32>)> = at_home
        .iter()
        .map(|h| (h, exit_steps(blocked, home, h)))
        .collect();
    let needs: Vec<(Hole, u32)> = steps
        .into_iter()
        .filter_map(|(h, steps)| {
            let jumps_out = moves.iter().any(|m| m.from == h && !home.contains(m.to));
            if jumps_out {
                Some((h, 1))
            } else {
                steps.map(|n| (h, n))
            }
        })
        .collect();
    let needed: u32 = needs.iter().map(|&(_, n)| n).sum();
    if needed == 0 || left > needed + MARGIN {
        return moves;
    }
    let urgent: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            let Some(&(_, need)) = needs.iter().find(|(h, _)| *h == m.from) else {
                return false;
            };
            !home.contains(m.to) || exit_steps(blocked, home, m.to).is_some_and(|n| n < need)
        })
        .collect();
    if urgent.is_empty() {
        moves
    } else {
        urgent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::tables;
    use stella_engine::Colour;

    #[test]
    fn after_the_deadline_the_barred_home_is_all_the_kept_moves_leave_out() {
        let mut checked = 0;
        for variant in stella_engine::Variant::ALL {
            let mut pos = Position::start(variant);
            for ply in 0..400u64 {
                if pos.is_over() {
                    break;
                }
                let made = pos.moves_made(pos.turn());
                match barred_home(&pos) {
                    None => assert!(made < variant.deadline(), "{pos}"),
                    Some(home) => {
                        assert_eq!(home, variant.home(pos.turn()));
                        let all = pos.legal_moves();
                        let kept: Vec<Move> = all
                            .iter()
                            .copied()
                            .filter(|m| home.contains(m.from) || !home.contains(m.to))
                            .collect();
                        let expected = if kept.is_empty() { all } else { kept };
                        assert_eq!(playable_moves(&pos), expected, "{pos}");
                        checked += 1;
                    }
                }
                let Some(mv) = crate::greedy::greedy_move(&pos, ply) else {
                    break;
                };
                pos.play_unchecked(&mv);
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn on_the_deadline_move_only_moves_that_empty_the_home_are_safe() {
        // White's 30th move: j4 is still at home and can leave; other marbles
        // could move instead, but each of those moves would eliminate white.
        let pos: Position = "classic-2 white 30 white:j4,e14,e15,e16,f14,f15,f16,g14,h9,i9 \
             black:j13,k13,k12,l12,l11,m11,h7,h6,g6,f6 made:29,29"
            .parse()
            .unwrap();
        let home = pos.variant().home(pos.turn());
        let all = pos.legal_moves();
        assert!(all.iter().any(|m| !home.contains(m.from)));
        let safe = safe_moves(&pos);
        assert!(!safe.is_empty());
        for m in &safe {
            assert!(home.contains(m.from) && !home.contains(m.to), "{m:?}");
            let mut after = pos;
            after.play_unchecked(m);
            assert!(!after.is_eliminated(Colour::White));
        }
        let mv = crate::greedy::greedy_move(&pos, 3).unwrap();
        assert!(safe.contains(&mv));
    }

    #[test]
    fn a_marble_deep_at_home_is_walked_out_in_time() {
        // White's m1 is alone at the tip of its home and needs four steps to
        // leave; with five moves left only its moves towards the edge remain.
        let text = "classic-2 white 26 white:m1,e14,e15,e16,f14,f15,f16,g14,h9,i9 \
             black:j13,k13,k12,l12,l11,m11,h7,h6,g6,f6 made:25,25";
        let pos: Position = text.parse().unwrap();
        let home = pos.variant().home(Colour::White);
        let tip: Hole = "m1".parse().unwrap();
        assert_eq!(exit_steps(pos.occupied() & !home, home, tip), Some(4));
        let moves = playable_moves(&pos);
        let t = tables(Colour::White);
        assert!(!moves.is_empty());
        for m in &moves {
            assert_eq!(m.from, tip);
            assert!(t.rows_to_go[m.to.index()] < t.rows_to_go[tip.index()]);
        }
        // With more moves left, every move is allowed.
        let early: Position = text.replace("made:25,25", "made:20,20").parse().unwrap();
        assert_eq!(playable_moves(&early), safe_moves(&early));
    }

    #[test]
    fn one_search_inwards_sums_the_marbles_own_searches_outwards() {
        use stella_engine::Variant;
        for variant in [Variant::Classic2, Variant::Classic3, Variant::Classic6] {
            let mut pos = Position::start(variant);
            for ply in 0..90u64 {
                if pos.is_over() {
                    break;
                }
                for c in variant.seats() {
                    let home = variant.home(*c);
                    let at_home = pos.marbles(*c) & home;
                    let blocked = pos.occupied() & !at_home;
                    let each: u32 = at_home
                        .iter()
                        .map(|h| exit_steps(blocked, home, h).unwrap_or(1))
                        .sum();
                    assert_eq!(exit_steps_sum(blocked, home, at_home), each, "{pos}");
                }
                let mv = crate::greedy::greedy_move(&pos, ply).unwrap();
                pos.play_unchecked(&mv);
            }
        }
        // A marble walled in by other players counts one.
        let home = Position::start(Variant::Classic2)
            .variant()
            .home(Colour::White);
        let tip: Hole = "m1".parse().unwrap();
        let lone = Bitboard::from_hole(tip);
        assert_eq!(exit_steps_sum(neighbours(tip), home, lone), 1);
        assert_eq!(exit_steps_sum(Bitboard::EMPTY, home, lone), 4);
    }

    #[test]
    fn the_remembered_sums_are_the_searched_ones() {
        use stella_engine::Variant;
        let mut checked = 0;
        for round in 0..2 {
            for variant in Variant::ALL {
                let mut pos = Position::start(variant);
                for ply in 0..120u64 {
                    if pos.is_over() {
                        break;
                    }
                    for &c in variant.seats() {
                        let home = variant.home(c);
                        let at_home = pos.marbles(c) & home;
                        let blocked = pos.occupied() & !at_home;
                        let searched = exit_steps_sum(blocked, home, at_home);
                        let memo = exit_steps_sum_memo(c, blocked, home, at_home);
                        assert_eq!(memo, searched, "round {round} {variant} {pos}");
                        checked += 1;
                    }
                    let mv = crate::greedy::greedy_move(&pos, ply + round).unwrap();
                    pos.play_unchecked(&mv);
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
        // Only the holes in and next to the home matter.
        let white = Variant::Classic2.home(Colour::White);
        let far: Hole = "e9".parse().unwrap();
        assert!((home_near(Colour::White, white).unwrap().1 & Bitboard::from_hole(far)).is_empty());
    }

    #[test]
    fn walled_in_marbles_do_not_count() {
        let home = Position::start(stella_engine::Variant::Classic2)
            .variant()
            .home(Colour::White);
        let tip: Hole = "m1".parse().unwrap();
        let wall = neighbours(tip);
        assert_eq!(exit_steps(wall, home, tip), None);
    }
}
