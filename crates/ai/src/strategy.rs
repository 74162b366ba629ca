//! How the search treats the other players at tables of three or more:
//! paranoid (everyone else against me), Best-Reply Search (only the strongest
//! reply of any one opponent, the others play their first-ordered move), or
//! Monte Carlo tree search. With two players the first two are the same
//! minimax search.

use std::fmt;
use stella_engine::Variant;

/// A search strategy for multi-player tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Alpha-beta with every other unit minimising the root unit's value.
    Paranoid,
    /// Best-Reply Search (Schadd & Winands 2011) in its BRS+ form (Esser et
    /// al. 2013): at each opponent layer one opponent plays a searched move
    /// and the others play their best-ordered move, so positions stay legal.
    BestReply,
    /// Monte Carlo tree search with evaluation-cut playouts, each player
    /// maximising its own value (max-n backups).
    Mcts,
}

impl Strategy {
    /// Every strategy, in the order they are listed in help texts.
    pub const ALL: [Strategy; 3] = [Strategy::Paranoid, Strategy::BestReply, Strategy::Mcts];

    /// The strategy the levels use for `variant`, chosen by the match runs in
    /// docs/experiments.md: with two units paranoid (both alpha-beta forms are
    /// then the same minimax); beyond two units MCTS, which beat Best-Reply
    /// Search at equal time at classic-3, -4 and -6 (and BRS beat paranoid).
    pub fn default_for(variant: Variant) -> Strategy {
        if variant.unit_count() > 2 {
            Strategy::Mcts
        } else {
            Strategy::Paranoid
        }
    }

    /// The alpha-beta strategy for `variant`, for the tools that need a
    /// score and a principal variation (`stella analyse`, the engine
    /// protocol): Best-Reply Search beyond two units, paranoid otherwise.
    pub fn alpha_beta_for(variant: Variant) -> Strategy {
        if variant.unit_count() > 2 {
            Strategy::BestReply
        } else {
            Strategy::Paranoid
        }
    }

    /// The short name used on command lines (`paranoid`, `brs`, `mcts`).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Paranoid => "paranoid",
            Strategy::BestReply => "brs",
            Strategy::Mcts => "mcts",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcts_is_the_default_beyond_two_units_and_best_reply_the_alpha_beta() {
        for v in [Variant::Classic2, Variant::Pairs2x2] {
            assert_eq!(Strategy::default_for(v), Strategy::Paranoid);
            assert_eq!(Strategy::alpha_beta_for(v), Strategy::Paranoid);
        }
        for v in [Variant::Classic3, Variant::Classic6, Variant::Pairs3x2] {
            assert_eq!(Strategy::default_for(v), Strategy::Mcts);
            assert_eq!(Strategy::alpha_beta_for(v), Strategy::BestReply);
        }
    }
}
