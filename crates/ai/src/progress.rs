//! The progress guard: a computer player never stalls a game.
//!
//! A search that values a position by how far each side is from its goal
//! can come to like a blockade: keeping an opponent's marble walled in
//! scores better than anything it can do itself, so it shuffles marbles
//! inside its goal for as long as the opponent stays stuck, and the game
//! runs to the round limit (two pairs-3x2 games did; docs/experiments.md).
//! The guard measures the player's *distance* (the sum of its
//! marbles' rows to go) over the game: once the player has gone
//! [`STALL_MOVES`] of its own moves without bringing it below its best so
//! far, it plays only moves that do, whenever it has one. The distance is a
//! whole number that never goes below the goal's, so forced moves come to an
//! end, and a player that cannot get closer at all is left free. Once the
//! guard has had to step in after the home-leaving deadline, it stays on for
//! the rest of the game: a blockade that needs only one forced step in eight
//! would otherwise still outlast the round limit (it did, replaying one of
//! those games). Before the deadline a jam in the crowded middle can
//! hold a player back for a while, and there the guard does not stay on.

use crate::deadline::safe_moves;
use crate::tables::tables;
use stella_engine::{Colour, Move, Position};

/// Own moves without a new best distance after which the guard applies.
pub const STALL_MOVES: u32 = 8;

/// How far `colour` is from its goal: the sum of its marbles' rows to go.
pub fn distance(position: &Position, colour: Colour) -> u32 {
    let t = tables(colour);
    position
        .marbles(colour)
        .iter()
        .map(|h| u32::from(t.rows_to_go[h.index()]))
        .sum()
}

/// The player to move's progress over the game so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The smallest distance the player has had at its turns, now included.
    pub best: u32,
    /// The player's turns since it first had that distance.
    pub since: u32,
    /// Whether the guard has already restricted the player's moves at an
    /// earlier turn of the game after its home-leaving deadline (it then
    /// stays on).
    pub latched: bool,
}

impl Progress {
    /// The progress of the player to move at the last of `positions` (a
    /// game's positions in order, the current one last). `None` when there
    /// is no position.
    pub fn of_game(positions: &[Position]) -> Option<Progress> {
        let now = positions.last()?;
        let colour = now.turn();
        let mut progress = Progress {
            best: u32::MAX,
            since: 0,
            latched: false,
        };
        let own_turns: Vec<&Position> = positions.iter().filter(|p| p.turn() == colour).collect();
        for (i, p) in own_turns.iter().enumerate() {
            let d = distance(p, colour);
            if d < progress.best {
                progress.best = d;
                progress.since = 0;
            } else {
                progress.since += 1;
            }
            let earlier = i + 1 < own_turns.len();
            let late = p.moves_made(colour) >= p.variant().deadline();
            if earlier && late && !progress.latched && progress.stalled() {
                progress.latched = progress.can_get_closer(p);
            }
        }
        Some(progress)
    }

    /// Whether the guard applies: [`STALL_MOVES`] turns or more without a
    /// new best distance, or the guard has stayed on ([`Progress::latched`]).
    pub fn stalled(&self) -> bool {
        self.latched || self.since >= STALL_MOVES
    }

    /// Whether the player to move at `position` has a move that brings it
    /// below its best distance.
    fn can_get_closer(&self, position: &Position) -> bool {
        let colour = position.turn();
        safe_moves(position)
            .iter()
            .any(|m| self.is_closer(position, colour, m))
    }

    fn is_closer(&self, position: &Position, colour: Colour, m: &Move) -> bool {
        let mut after = *position;
        after.play_unchecked(m);
        distance(&after, colour) < self.best
    }

    /// The moves among `moves` the player at `position` may choose from:
    /// when it has stalled, those that bring it below its best distance, if
    /// there is any; otherwise all of them.
    pub fn allowed(&self, position: &Position, moves: Vec<Move>) -> Vec<Move> {
        if !self.stalled() {
            return moves;
        }
        let colour = position.turn();
        let closer: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| self.is_closer(position, colour, m))
            .collect();
        restrict(moves, &closer)
    }
}

/// The moves of `moves` that are in `only`, in their order; all of `moves`
/// when none is (a restriction never leaves a player without a move).
pub(crate) fn restrict(moves: Vec<Move>, only: &[Move]) -> Vec<Move> {
    if moves.iter().any(|m| only.contains(m)) {
        moves.into_iter().filter(|m| only.contains(m)).collect()
    } else {
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::{Game, Variant};

    /// White to move, after the home-leaving deadline (a level-3 game).
    const LATE: &str = "classic-2 white 36 white:h10,h12,h13,i9,i12,i13,j12,k6,k10,m6 black:g10,i8,j7,k8,l3,l4,l5,m3,m4,m5 made:35,35";

    /// A classic-2 game from `start` (white to move) of `white_moves`
    /// rounds: white's first move brings it closer, its others are sideways
    /// (same distance); black plays its first safe move. Neither repeats a
    /// position.
    fn shuffle_game(start: Position, white_moves: usize) -> Game {
        let mut game = Game::from_position(start);
        for round in 0..white_moves {
            let pos = *game.position();
            let d0 = distance(&pos, Colour::White);
            let after = |m: &Move| {
                let mut a = pos;
                a.play_unchecked(m);
                distance(&a, Colour::White)
            };
            let fresh = fresh_moves(&game);
            let mv = if round == 0 {
                *fresh.iter().min_by_key(|m| after(m)).unwrap()
            } else {
                *fresh.iter().find(|m| after(m) == d0).unwrap()
            };
            game.play(&mv).unwrap();
            let reply = fresh_moves(&game)[0];
            game.play(&reply).unwrap();
        }
        game
    }

    /// The safe moves of the player to move that lead to a position the
    /// game has not had.
    fn fresh_moves(game: &Game) -> Vec<Move> {
        let seen: Vec<u64> = game.positions().iter().map(Position::hash).collect();
        safe_moves(game.position())
            .into_iter()
            .filter(|m| {
                let mut a = *game.position();
                a.play_unchecked(m);
                !seen.contains(&a.hash())
            })
            .collect()
    }

    /// `game` after white plays a move the guard allows and black replies.
    fn step_closer(mut game: Game) -> Game {
        let stalled = Progress::of_game(&game.positions()).unwrap();
        assert!(stalled.stalled());
        let step = stalled.allowed(game.position(), game.legal_moves())[0];
        game.play(&step).unwrap();
        let reply = fresh_moves(&game)[0];
        game.play(&reply).unwrap();
        game
    }

    #[test]
    fn a_restriction_keeps_the_order_and_never_leaves_no_move() {
        let moves = Position::start(Variant::Classic2).legal_moves();
        let only = [moves[3], moves[1]];
        assert_eq!(restrict(moves.clone(), &only), vec![moves[1], moves[3]]);
        assert_eq!(restrict(moves[..1].to_vec(), &only), moves[..1].to_vec());
    }

    #[test]
    fn distance_falls_as_marbles_advance_and_is_least_in_the_goal() {
        let start = Position::start(Variant::Classic2);
        let d = distance(&start, Colour::White);
        let mut pos = start;
        let mv = *pos
            .legal_moves()
            .iter()
            .min_by_key(|m| {
                let mut a = start;
                a.play_unchecked(m);
                distance(&a, Colour::White)
            })
            .unwrap();
        pos.play_unchecked(&mv);
        assert!(distance(&pos, Colour::White) < d);
        let arrived: Position =
            "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14 black:m1,l2,m2,k3,l3,m3,j4,k4,l4,m4 made:39,39"
                .parse()
                .unwrap();
        assert_eq!(
            distance(&arrived, Colour::White),
            tables(Colour::White).min_sum_10
        );
    }

    #[test]
    fn sideways_moves_count_as_stalled_and_only_closer_moves_are_allowed() {
        let game = shuffle_game(Position::start(Variant::Classic2), 1 + STALL_MOVES as usize);
        let positions = game.positions();
        let p = Progress::of_game(&positions).unwrap();
        assert_eq!(p.since, STALL_MOVES);
        assert!(p.stalled());
        let pos = game.position();
        let all = pos.legal_moves();
        let allowed = p.allowed(pos, all.clone());
        assert!(!allowed.is_empty() && allowed.len() < all.len());
        for m in &allowed {
            let mut a = *pos;
            a.play_unchecked(m);
            assert!(distance(&a, Colour::White) < p.best);
        }
    }

    #[test]
    fn after_the_deadline_the_guard_stays_on_once_it_has_stepped_in() {
        let stalled = shuffle_game(LATE.parse().unwrap(), 1 + STALL_MOVES as usize);
        let best = Progress::of_game(&stalled.positions()).unwrap().best;
        let p = Progress::of_game(&step_closer(stalled).positions()).unwrap();
        assert_eq!(p.since, 0);
        assert!(p.best < best);
        assert!(p.latched && p.stalled());
    }

    #[test]
    fn before_the_deadline_the_guard_lets_go_once_the_player_is_closer() {
        let stalled = shuffle_game(Position::start(Variant::Classic2), 1 + STALL_MOVES as usize);
        let p = Progress::of_game(&step_closer(stalled).positions()).unwrap();
        assert_eq!(p.since, 0);
        assert!(!p.latched && !p.stalled());
    }

    #[test]
    fn a_player_that_keeps_getting_closer_is_free() {
        let game = shuffle_game(Position::start(Variant::Classic2), STALL_MOVES as usize);
        let p = Progress::of_game(&game.positions()).unwrap();
        assert_eq!(p.since, STALL_MOVES - 1);
        assert!(!p.stalled() && !p.latched);
        let all = game.legal_moves();
        assert_eq!(p.allowed(game.position(), all.clone()), all);
        let start = Progress::of_game(&[Position::start(Variant::Classic2)]).unwrap();
        assert_eq!(start.since, 0);
        assert_eq!(Progress::of_game(&[]), None);
    }

    #[test]
    fn a_player_that_cannot_get_closer_keeps_all_its_moves() {
        // Nothing gets below the distance of a full goal.
        let pos = Position::start(Variant::Classic2);
        let p = Progress {
            best: tables(Colour::White).min_sum_10,
            since: STALL_MOVES,
            latched: false,
        };
        let all = pos.legal_moves();
        assert_eq!(p.allowed(&pos, all.clone()), all);
    }
}
