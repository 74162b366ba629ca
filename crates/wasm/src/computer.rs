//! The computer's choice of move for the browser.
//!
//! Until `stella_ai` exposes its search, this uses [`greedy_fallback`]: the move that
//! gains the most distance towards the goal, ties broken by a seeded random draw.

use stella_engine::{Colour, Hole, Move, Position};

/// A small deterministic pseudo-random generator (SplitMix64), so the same seed gives
/// the same choices.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Sum over `colour`'s marbles of the distance to the far tip of its goal: smaller is
/// better, and it rewards filling the goal from the back.
fn tip_distance(pos: &Position, colour: Colour) -> u32 {
    let goal = pos.variant().goal(colour);
    // The tip is the goal hole farthest from the centre.
    let centre = Hole::from_letter_row(9, 9).expect("i9 exists");
    let tip = goal.iter().max_by_key(|h| h.distance(centre)).unwrap_or(centre);
    pos.marbles(colour).iter().map(|h| h.distance(tip)).sum()
}

/// How far `colour` is from its goal, with a growing penalty for marbles still at
/// home as the home-leaving deadline nears (RULES.md §5). Smaller is better.
fn remaining(pos: &Position, colour: Colour) -> i64 {
    let variant = pos.variant();
    let at_home = i64::from((pos.marbles(colour) & variant.home(colour) & !variant.goal(colour)).count());
    let made = i64::from(pos.moves_made(colour));
    let deadline = i64::from(variant.deadline());
    let urgency = if made * 2 >= deadline { 40 + 20 * made } else { 0 };
    i64::from(pos.distance_to_goal(colour)) * 4 + i64::from(tip_distance(pos, colour)) + at_home * urgency
}

/// Score of a move for the mover (higher is better).
fn score(pos: &Position, mv: &Move) -> i64 {
    let me = pos.turn();
    let mut next = *pos;
    next.play_unchecked(mv);
    if next.has_arrived(me) {
        return i64::MAX / 2;
    }
    remaining(pos, me) - remaining(&next, me)
}

/// The greedy fallback: the legal move that gains the most distance, never an
/// eliminating move while another exists. `None` when there is no legal move.
pub fn greedy_fallback(pos: &Position, seed: u64) -> Option<Move> {
    let moves = pos.legal_moves();
    let safe: Vec<Move> = moves.iter().copied().filter(|m| !pos.would_eliminate(m)).collect();
    let pool = if safe.is_empty() { moves } else { safe };
    let mut rng = SplitMix64::new(seed);
    pool.into_iter()
        .map(|m| (score(pos, &m), rng.next_u64(), m))
        .max_by_key(|(s, r, _)| (*s, *r))
        .map(|(_, _, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::{Game, Variant};

    #[test]
    fn greedy_plays_a_two_player_game_to_the_end() {
        let mut game = Game::new(Variant::from_id("classic-2").unwrap());
        let mut seed = 1;
        while !game.is_over() && game.moves().len() < 600 {
            let mv = greedy_fallback(game.position(), seed).expect("a move");
            game.play(&mv).unwrap();
            seed += 1;
        }
        assert!(game.is_over(), "game did not end in 600 moves");
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.reason, stella_engine::EndReason::Arrived, "{outcome}");
    }

    #[test]
    fn same_seed_same_move() {
        let game = Game::new(Variant::from_id("classic-3").unwrap());
        assert_eq!(greedy_fallback(game.position(), 7), greedy_fallback(game.position(), 7));
    }
}
