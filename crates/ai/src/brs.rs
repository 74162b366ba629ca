//! The opponent layers of Best-Reply Search in its BRS+ form (Schadd &
//! Winands 2011; Esser, Gras, Winands et al. 2013).
//!
//! Between two turns of the searching unit the other units move one after
//! the other. Paranoid search branches on every one of them; Best-Reply
//! Search merges them into a single layer in which exactly one opponent
//! plays a searched move. In the BRS+ form the opponents not searched play
//! their *default reply* (the move a cheap ordering puts first) instead of
//! passing, so every position in the tree is a real, legal position and the
//! rules (deadline, arrivals, turn order) apply unchanged.

use crate::tables::tables;
use stella_engine::{Colour, Move, Position};

/// The move a cheap ordering puts first for the player to move: the most
/// rows gained, then the rearmost marble, never an eliminating move while
/// another exists. `None` when the player has no move.
pub fn default_reply(position: &Position) -> Option<Move> {
    let c = position.turn();
    let t = tables(c);
    let mut keyed: Vec<((i32, u8), Move)> = Vec::with_capacity(64);
    position.for_each_move_of(c, |m| {
        let gain = t.rows_to_go[m.from.index()] as i32 - t.rows_to_go[m.to.index()] as i32;
        keyed.push(((gain, t.rows_to_go[m.from.index()]), m));
    });
    keyed.sort_unstable_by_key(|k| std::cmp::Reverse(k.0));
    keyed
        .iter()
        .find(|(_, m)| !position.would_eliminate(m))
        .or(keyed.first())
        .map(|(_, m)| *m)
}

/// The positions in which each opponent of the layer starting at `position`
/// would move, when the opponents before it play their default replies. The
/// first is `position` itself; the layer ends at the first turn of a colour
/// for which `ours` is true, when the game ends, or after one round (where
/// the colours of `ours` no longer play), so it holds at most one position
/// per seat.
pub fn layer_prefixes(position: &Position, ours: impl Fn(Colour) -> bool) -> Vec<Position> {
    let seats = position.variant().players();
    let mut prefixes = vec![*position];
    let mut p = *position;
    while let Some(mv) = default_reply(&p) {
        p.play_unchecked(&mv);
        if p.is_over() || ours(p.turn()) || prefixes.len() == seats - 1 {
            break;
        }
        prefixes.push(p);
    }
    prefixes
}

/// Plays default replies from `position` until it is a turn of a colour for
/// which `stop` is true (ours, or the layer's first mover when ours no
/// longer play), the game ends, or every other seat has moved once: the
/// rest of the layer after the searched move.
pub fn finish_layer(position: &mut Position, stop: impl Fn(Colour) -> bool) {
    for _ in 1..position.variant().players() {
        if position.is_over() || stop(position.turn()) {
            return;
        }
        match default_reply(position) {
            Some(mv) => position.play_unchecked(&mv),
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    #[test]
    fn a_three_player_layer_has_one_prefix_per_opponent_and_ends_on_our_turn() {
        let mut pos = Position::start(Variant::Classic3);
        let root = pos.turn();
        let first = default_reply(&pos).unwrap();
        assert!(pos.legal_moves().contains(&first));
        pos.play_unchecked(&first);
        let prefixes = layer_prefixes(&pos, |c| c == root);
        assert_eq!(prefixes.len(), 2);
        assert_ne!(prefixes[0].turn(), prefixes[1].turn());
        assert!(prefixes.iter().all(|p| p.turn() != root));
        // The searched move of the first opponent, then the second's default.
        let mut child = prefixes[0];
        child.play_unchecked(&prefixes[0].legal_moves()[0]);
        finish_layer(&mut child, |c| c == root);
        assert_eq!(child.turn(), root);
        assert_eq!(child.moves_made(prefixes[1].turn()), 1);
    }

    #[test]
    fn a_layer_ends_after_one_round_once_ours_no_longer_play() {
        // White broke the home-leaving deadline and is out; blue and yellow
        // play on, so no turn of white's ends the layer.
        let pos: Position = "classic-3 blue 30 white: \
             blue:g10,h8,k7,l6,l9,m7,n6,n7,n8,o7 \
             yellow:e8,e9,e10,e11,f7,f8,f12,g8,g9,i7 made:30,29,29 out:white places:white=3"
            .parse()
            .unwrap();
        let white = |c| c == Colour::White;
        let prefixes = layer_prefixes(&pos, white);
        assert_eq!(prefixes.len(), 2);
        assert_eq!(prefixes[1].turn(), Colour::Yellow);
        // Blue's searched move, then yellow's default reply, and the layer
        // ends where it began.
        let mut child = pos;
        child.play_unchecked(&default_reply(&pos).unwrap());
        finish_layer(&mut child, |c| white(c) || c == Colour::Blue);
        assert_eq!(child.turn(), Colour::Blue);
        assert_eq!(child.moves_made(Colour::Blue), 30);
        assert_eq!(child.moves_made(Colour::Yellow), 30);
    }

    #[test]
    fn the_default_reply_moves_forward() {
        let pos = Position::start(Variant::Classic2);
        let mv = default_reply(&pos).unwrap();
        let t = tables(pos.turn());
        assert!(t.rows_to_go[mv.to.index()] < t.rows_to_go[mv.from.index()]);
    }
}
