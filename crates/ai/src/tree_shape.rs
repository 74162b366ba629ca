//! The shape of a level's Monte Carlo tree search at one table size: how
//! widely its nodes explore, whether its root explores more widely than the
//! rest of the tree, and whether the root chooses by sequential halving. A
//! level has one shape for tables of up to five units (players, or teams)
//! and one for six units (classic-6), where five opponent layers sit
//! between two of a player's own moves and what helps at three or four
//! units need not help.

/// How a tree search is shaped (constants in hundredths).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeShape {
    /// The UCB1 exploration constant, in hundredths.
    pub exploration_pct: u8,
    /// The constant at the root, in hundredths, where it differs from the
    /// rest of the tree: a root that explores more than the nodes below
    /// keeps comparing its moves while the lines under them deepen.
    pub root_exploration_pct: Option<u8>,
    /// Whether the root chooses by sequential halving (Karnin, Koren and
    /// Somekh 2013; as in Gumbel MuZero) instead of UCB1: every root move
    /// gets an equal share of a round's iterations, the better half by mean
    /// value goes on to the next round, and the last one standing is
    /// played. Below the root the tree selects by UCB1 as usual. Off, the
    /// root is one more UCB1 node and the most visited move is played.
    pub halving: bool,
}

impl TreeShape {
    /// One tree exploring at `pct` hundredths throughout.
    pub const fn one_tree(pct: u8) -> TreeShape {
        TreeShape {
            exploration_pct: pct,
            root_exploration_pct: None,
            halving: false,
        }
    }

    /// The UCB1 exploration constant.
    pub fn exploration(&self) -> f64 {
        hundredths(self.exploration_pct)
    }

    /// The constant at the root, where it differs from
    /// [`TreeShape::exploration`].
    pub fn root_exploration(&self) -> Option<f64> {
        self.root_exploration_pct.map(hundredths)
    }
}

/// A constant stored in hundredths, as a fraction.
fn hundredths<T: Into<f64>>(pct: T) -> f64 {
    pct.into() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_read_as_fractions() {
        let plain = TreeShape::one_tree(70);
        assert_eq!(plain.exploration(), 0.7);
        assert_eq!(plain.root_exploration(), None);
        assert!(!plain.halving);
        let rooted = TreeShape {
            root_exploration_pct: Some(50),
            ..TreeShape::one_tree(30)
        };
        assert_eq!(rooted.exploration(), 0.3);
        assert_eq!(rooted.root_exploration(), Some(0.5));
    }
}
