//! Move generation that remembers each marble's destinations between calls.
//!
//! A search generates the moves of the same colour again and again in
//! positions that differ by a few marbles. Under classic jumps the
//! destinations of a marble depend only on the contents of the holes its
//! step and jump flood looked at
//! ([`movegen::classic_destinations_with_dependencies`]); when none of those
//! holes changed since they were computed, they are reused. The moves come
//! in the same order as [`Position::for_each_move_of`]: marbles by hole
//! index, each marble's destinations by hole index.

use crate::bitboard::Bitboard;
use crate::colour::Colour;
use crate::movegen::{self, MoveContext};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::JumpRule;

/// The remembered destinations of one colour's marbles.
#[derive(Clone)]
struct ColourMemory {
    /// The occupied holes when the memory was last brought up to date.
    occupied: u128,
    /// The goal the entries were computed for (a colour's goal differs
    /// between variants of 10 and 15 marbles).
    goal: u128,
    /// The holes whose entries are valid.
    valid: u128,
    /// Destinations of a marble on each hole.
    destinations: [u128; 121],
    /// The holes each entry's destinations depend on.
    looked: [u128; 121],
}

impl ColourMemory {
    const EMPTY: ColourMemory = ColourMemory {
        occupied: 0,
        goal: 0,
        valid: 0,
        destinations: [0; 121],
        looked: [0; 121],
    };
}

/// Remembered per-marble destinations of every colour, for generating the
/// moves of positions that differ little from one call to the next (about
/// 23 KB). Results are exactly those of [`Position::for_each_move_of`].
///
/// ```
/// use stella_engine::{move_cache::MoveCache, Position, Variant};
/// let pos = Position::start(Variant::Classic2);
/// let mut cache = MoveCache::new();
/// let mut moves = Vec::new();
/// cache.for_each_move_of(&pos, pos.turn(), |m| moves.push(m));
/// assert_eq!(moves, pos.legal_moves());
/// ```
#[derive(Clone)]
pub struct MoveCache {
    colours: Box<[ColourMemory; 6]>,
}

impl Default for MoveCache {
    fn default() -> Self {
        MoveCache::new()
    }
}

impl std::fmt::Debug for MoveCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let remembered: Vec<u32> = self.colours.iter().map(|c| c.valid.count_ones()).collect();
        f.debug_struct("MoveCache")
            .field("remembered", &remembered)
            .finish()
    }
}

impl MoveCache {
    /// An empty memory.
    pub fn new() -> MoveCache {
        MoveCache {
            colours: Box::new([const { ColourMemory::EMPTY }; 6]),
        }
    }

    /// Calls `f` with every move `colour` could make in `position`, in the
    /// order of [`Position::for_each_move_of`], reusing each marble's
    /// destinations when no hole they depend on changed since they were
    /// computed. Positions with other jump rules or Masters swap targets
    /// are generated from scratch.
    pub fn for_each_move_of(
        &mut self,
        position: &Position,
        colour: Colour,
        mut f: impl FnMut(Move),
    ) {
        let ctx = position.context(colour);
        if ctx.rule != JumpRule::Classic || !ctx.swap_targets.is_empty() {
            position.for_each_move_of(colour, f);
            return;
        }
        let memory = &mut self.colours[colour.index()];
        let mine = position.marbles(colour);
        memory.bring_up_to_date(&ctx, mine);
        mine.for_each_hole(|from| {
            Bitboard(memory.destinations[from.index()]).for_each_hole(|to| f(Move::new(from, to)));
        });
    }
}

impl ColourMemory {
    /// Makes the entries of the marbles `mine` valid for `ctx`: an entry
    /// is kept when none of the holes it looked at changed since the last
    /// update, and recomputed otherwise; entries of other holes are dropped
    /// (they were not checked against this update's changes).
    #[inline]
    fn bring_up_to_date(&mut self, ctx: &MoveContext, mine: Bitboard) {
        if self.goal != ctx.goal.0 {
            self.goal = ctx.goal.0;
            self.valid = 0;
        }
        let changed = self.occupied ^ ctx.occupied.0;
        let mut valid = self.valid & mine.0;
        for from in mine {
            let i = from.index();
            if valid >> i & 1 != 0 && self.looked[i] & changed == 0 {
                continue;
            }
            let (dests, looked) = movegen::classic_destinations_with_dependencies(ctx, from);
            self.destinations[i] = dests.0;
            self.looked[i] = looked.0;
            valid |= 1 << i;
        }
        self.valid = valid;
        self.occupied = ctx.occupied.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// A cheap deterministic generator for picking moves.
    fn next(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *state >> 33
    }

    fn plain(position: &Position, colour: Colour) -> Vec<Move> {
        let mut out = Vec::new();
        position.for_each_move_of(colour, |m| out.push(m));
        out
    }

    fn cached(cache: &mut MoveCache, position: &Position, colour: Colour) -> Vec<Move> {
        let mut out = Vec::new();
        cache.for_each_move_of(position, colour, |m| out.push(m));
        out
    }

    /// Random games of every variant, with jumps back to earlier positions
    /// (as a search backtracks) and every colour's moves asked at every
    /// position: the remembered moves are always the generated ones.
    #[test]
    fn remembered_moves_equal_generated_moves_over_random_games() {
        let mut state = 12_345u64;
        let mut cache = MoveCache::new();
        for variant in Variant::ALL {
            for _game in 0..3 {
                let mut line = vec![Position::start(variant)];
                for _ply in 0..160 {
                    // Now and then go back a few plies, as a search does.
                    if line.len() > 4 && next(&mut state).is_multiple_of(5) {
                        let back = 1 + next(&mut state) as usize % 3;
                        line.truncate(line.len() - back);
                    }
                    let position = *line.last().expect("the line starts with a position");
                    if position.is_over() {
                        break;
                    }
                    for &c in variant.seats() {
                        assert_eq!(
                            cached(&mut cache, &position, c),
                            plain(&position, c),
                            "{variant} {c:?}"
                        );
                    }
                    let moves = position.legal_moves();
                    let mv = moves[next(&mut state) as usize % moves.len()];
                    let mut child = position;
                    child.play_unchecked(&mv);
                    line.push(child);
                }
            }
        }
    }

    /// Switching between variants whose goals differ in size drops what
    /// was remembered for the other goal.
    #[test]
    fn a_different_goal_starts_afresh() {
        let mut cache = MoveCache::new();
        for variant in [Variant::Classic2, Variant::Fifteen2, Variant::Classic2] {
            let position = Position::start(variant);
            for &c in variant.seats() {
                assert_eq!(cached(&mut cache, &position, c), plain(&position, c));
            }
        }
    }
}
