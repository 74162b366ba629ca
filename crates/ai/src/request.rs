//! One request for a computer move: the position, the game so far, the
//! level, the seed, an optional cap on thinking time and how to play
//! ([`Style`]). [`Request::choose`] (in the dispatch module) sends it to a
//! search.

use crate::deadline::playable_moves;
use crate::eval::Weights;
use crate::progress::Progress;
use crate::strategy::Strategy;
use stella_engine::{Move, Position};

/// How a computer player searches besides its level: the multi-player
/// strategy (`None` = [`Strategy::default_for`] the variant) and the
/// evaluation weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Multi-player strategy; `None` picks the default for the variant.
    pub strategy: Option<Strategy>,
    /// Evaluation weights.
    pub weights: Weights,
}

/// What to choose a move for. Build it with [`Request::new`] and the
/// setters; the fields are public for reading.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The position whose player to move is asked for a move.
    pub position: &'a Position,
    /// Hashes of the game's positions so far, for threefold repetition
    /// (empty when the game's history does not matter).
    pub history: &'a [u64],
    /// The level, 1 (beginner) to 8 (strongest); clamped.
    pub level: u8,
    /// The seed: the same request with the same seed gives the same move
    /// (as long as no time cap is reached).
    pub seed: u64,
    /// Cap on thinking time in milliseconds, below the level's own cap.
    pub max_ms: Option<u64>,
    /// Strategy and evaluation weights.
    pub style: Style,
    /// The player's progress over the game, for the progress guard
    /// ([`crate::progress`]); `None` when the game's history is not known.
    pub progress: Option<Progress>,
}

impl<'a> Request<'a> {
    /// A request at `level` with `seed`, no history, the level's own time
    /// cap and the default style.
    pub fn new(position: &'a Position, level: u8, seed: u64) -> Request<'a> {
        Request {
            position,
            history: &[],
            level,
            seed,
            max_ms: None,
            style: Style::default(),
            progress: None,
        }
    }

    /// This request in a game whose positions so far hash to `history`.
    pub fn history(self, history: &'a [u64]) -> Request<'a> {
        Request { history, ..self }
    }

    /// This request with the player's progress over the game (see
    /// [`Progress::of_game`]): a player that has stalled plays a move that
    /// brings it closer to its goal whenever it has one.
    pub fn progress(self, progress: Option<Progress>) -> Request<'a> {
        Request { progress, ..self }
    }

    /// This request thinking at most `max_ms` milliseconds if given.
    pub fn max_ms(self, max_ms: Option<u64>) -> Request<'a> {
        Request { max_ms, ..self }
    }

    /// This request played in `style`.
    pub fn style(self, style: Style) -> Request<'a> {
        Request { style, ..self }
    }

    /// The moves the progress guard leaves the player, when it restricts
    /// them (`None`: every safe move).
    pub fn allowed_moves(&self) -> Option<Vec<Move>> {
        let progress = self.progress.filter(Progress::stalled)?;
        let safe = playable_moves(self.position);
        let allowed = progress.allowed(self.position, safe.clone());
        (allowed.len() < safe.len()).then_some(allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FrozenClock;
    use stella_engine::Variant;

    #[test]
    fn setters_keep_the_other_fields() {
        let pos = Position::start(Variant::Classic2);
        let history = [pos.hash()];
        let style = Style {
            strategy: Some(Strategy::BestReply),
            weights: Weights::DEFAULT,
        };
        let r = Request::new(&pos, 5, 9)
            .history(&history)
            .max_ms(Some(100))
            .style(style);
        assert_eq!((r.level, r.seed, r.max_ms), (5, 9, Some(100)));
        assert_eq!(r.history, &history);
        assert_eq!(r.style, style);
    }

    #[test]
    fn every_strategy_answers_a_legal_move() {
        let pos = Position::start(Variant::Classic3);
        for strategy in Strategy::ALL {
            let style = Style {
                strategy: Some(strategy),
                ..Style::default()
            };
            let mv = Request::new(&pos, 2, 1).style(style).choose(&FrozenClock);
            assert!(
                pos.legal_moves().contains(&mv.expect("a move")),
                "{strategy:?}"
            );
        }
    }
}
