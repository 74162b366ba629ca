//! The 1-ply greedy player: the move that gains the most distance towards the
//! goal (rows towards the goal's tip), ties to the rearmost marble, then to a
//! seeded random draw. Never an eliminating move while another exists. It is
//! the baseline of the benchmarks and the heart of the lowest level.

use crate::rng::Rng;
use crate::tables::tables;
use stella_engine::{Move, Position};

/// Rows towards the goal tip that `mv` gains for the player to move.
pub fn gain(position: &Position, mv: &Move) -> i32 {
    let t = tables(position.turn());
    t.rows_to_go[mv.from.index()] as i32 - t.rows_to_go[mv.to.index()] as i32
}

/// The legal moves of the player to move without the eliminating ones, unless
/// every move eliminates: after the deadline a move ending in the player's own
/// home, and on the deadline move itself a move that leaves a marble at home
/// that could have left (RULES.md §5).
pub fn safe_moves(position: &Position) -> Vec<Move> {
    let all = position.legal_moves();
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
    let safe: Vec<Move> = all.iter().copied().filter(|m| !eliminates(m)).collect();
    if safe.is_empty() {
        all
    } else {
        safe
    }
}

/// Moves that take a marble out of its home when the home-leaving deadline
/// is close (as many moves left as marbles at home, plus two); otherwise (or
/// if there is none) all of `moves`.
pub fn deadline_moves(position: &Position, moves: Vec<Move>) -> Vec<Move> {
    let c = position.turn();
    let variant = position.variant();
    let home = variant.home(c);
    let at_home = (position.marbles(c) & home).count() as i32;
    let left = variant.deadline() as i32 - position.moves_made(c) as i32;
    if at_home == 0 || left <= 0 || left > at_home + 2 {
        return moves;
    }
    let leaving: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| home.contains(m.from) && !home.contains(m.to))
        .collect();
    if leaving.is_empty() {
        moves
    } else {
        leaving
    }
}

/// The greedy move: most rows gained, then the rearmost marble, then a seeded
/// random tie-break; it leaves home in time for the deadline. `None` when
/// there is no legal move.
pub fn greedy_move(position: &Position, seed: u64) -> Option<Move> {
    let t = tables(position.turn());
    let mut rng = Rng::new(seed ^ position.hash());
    deadline_moves(position, safe_moves(position))
        .into_iter()
        .map(|m| {
            let key = (
                gain(position, &m),
                t.rows_to_go[m.from.index()],
                rng.next_u64(),
            );
            (key, m)
        })
        .max_by_key(|(k, _)| *k)
        .map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::{Colour, Variant};

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
        let mv = greedy_move(&pos, 3).unwrap();
        assert!(safe.contains(&mv));
    }

    #[test]
    fn greedy_moves_forward() {
        let pos = Position::start(Variant::Classic2);
        let mv = greedy_move(&pos, 1).unwrap();
        assert!(gain(&pos, &mv) >= 2);
    }
}
