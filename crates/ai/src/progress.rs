//! The progress guard: a computer player never stalls a game.
//!
//! A search that values a position by how far each side is from its goal
//! can come to like a blockade: keeping an opponent's marble walled in
//! scores better than anything it can do itself, so it shuffles marbles
//! inside its goal for as long as the opponent stays stuck, and the game
//! runs to the round limit (two pairs-3x2 games did, docs/benchmarks.md,
//! session 13). The guard measures the player's *distance* (the sum of its
//! marbles' rows to go) over the game: once the player has gone
//! [`STALL_MOVES`] of its own moves without bringing it below its best so
//! far, it plays only moves that do, whenever it has one. The distance is a
//! whole number that never goes below the goal's, so forced moves come to an
//! end, and a player that cannot get closer at all is left free. Once the
//! guard has had to step in, it stays on for the rest of the game: a
//! blockade that needs only one forced step in eight would otherwise still
//! outlast the round limit (it did, replaying the session-13 game).

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
    /// earlier turn of the game (it then stays on).
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
            if earlier && !progress.latched && progress.stalled() {
                progress.latched = progress.can_get_closer(p);
            }
        }
        Some(progress)
    }

    /// Whether the player has stalled: [`STALL_MOVES`] turns or more without
    /// a new best distance.
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
        if closer.is_empty() {
            moves
        } else {
            closer
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::{Game, Variant};

    /// A classic-2 game of `white_moves` rounds: white's first move brings
    /// it closer, its others are sideways (same distance); black plays its
    /// first legal move.
    fn shuffle_game(white_moves: usize) -> Game {
        let mut game = Game::new(Variant::Classic2);
        let mut first = true;
        for _ in 0..white_moves {
            let pos = *game.position();
            let moves = pos.legal_moves();
            let colour = pos.turn();
            let d0 = distance(&pos, colour);
            // White: keep its distance (a sideways step) once out.
            let mv = if first {
                first = false;
                *moves
                    .iter()
                    .min_by_key(|m| {
                        let mut a = pos;
                        a.play_unchecked(m);
                        distance(&a, colour)
                    })
                    .unwrap()
            } else {
                *moves
                    .iter()
                    .find(|m| {
                        let mut a = pos;
                        a.play_unchecked(m);
                        distance(&a, colour) == d0
                    })
                    .unwrap()
            };
            game.play(&mv).unwrap();
            // Black: any move.
            let reply = game.legal_moves()[0];
            game.play(&reply).unwrap();
        }
        game
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
        let game = shuffle_game(1 + STALL_MOVES as usize);
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
    fn once_the_guard_has_stepped_in_it_stays_on() {
        let mut game = shuffle_game(1 + STALL_MOVES as usize);
        let stalled = Progress::of_game(&game.positions()).unwrap();
        let step = stalled.allowed(game.position(), game.legal_moves())[0];
        game.play(&step).unwrap();
        let reply = game.legal_moves()[0];
        game.play(&reply).unwrap();
        let p = Progress::of_game(&game.positions()).unwrap();
        assert_eq!(p.since, 0);
        assert!(p.best < stalled.best);
        assert!(p.latched && p.stalled());
    }

    #[test]
    fn a_player_that_keeps_getting_closer_is_free() {
        let game = shuffle_game(STALL_MOVES as usize);
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
