//! Settings of a level's tree search replaced for an experiment: `stella
//! match --one level:7:it=15000:c=0.3:implicit=0.4` plays level 7 with
//! 15 000 iterations, exploration 0.3 and implicit max-n values weighted
//! 0.4, so that a change to the search can be measured against the levels
//! with the committed build before a level takes it. Only the Monte Carlo
//! tree search (tables of more than two units) reads them.

use crate::levels::Level;
use crate::mcts::{Budget, Config};
use crate::tree_shape::{hundredths, TreeShape};

/// Replacements for a level's tree-search settings (`None` keeps the
/// level's own). Fractions are kept in hundredths, as in [`TreeShape`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// Iterations (`it=N`).
    pub iterations: Option<u64>,
    /// Independent trees the iterations are shared among (`trees=N`).
    pub trees: Option<u8>,
    /// Exploration constant throughout, the root included (`c=F`).
    pub exploration_pct: Option<u8>,
    /// Weight of the implicit max-n values ([`Config::implicit`], `implicit=F`).
    pub implicit_pct: Option<u8>,
    /// Widening at the opponents' nodes ([`Config::opponent_widening`], `ow=F`).
    pub opponent_widening_pct: Option<u16>,
    /// Evaluation noise amplitude, 1/100 row (`noise=N`).
    pub noise: Option<i32>,
    /// Progressive widening everywhere ([`Config::widening`], `pw=F`).
    pub widening_pct: Option<u16>,
    /// Chance of a random forward playout move ([`Config::epsilon`], `eps=F`).
    pub epsilon_pct: Option<u8>,
    /// Cost difference worth one unit of the logistic ([`Config::scale`],
    /// `scale=N`, 1/100 row).
    pub scale: Option<u32>,
    /// Playout length in rounds ([`Config::rollout_rounds`], `rounds=N`).
    pub rounds: Option<u32>,
    /// Weight of a unit's own progress ([`Config::progress`], `progress=F`).
    pub progress_pct: Option<u8>,
    /// Sequential halving at the root ([`Config::halving`], `sh=0|1`).
    pub halving: Option<bool>,
    /// Exploration at the opponents' nodes ([`Config::opponent_exploration`],
    /// `oc=F`).
    pub opponent_exploration_pct: Option<u8>,
}

impl Overrides {
    /// The keys [`Overrides::set`] knows, in the order the help lists them.
    pub const KEYS: [&'static str; 13] = [
        "it", "trees", "c", "implicit", "ow", "noise", "pw", "eps", "scale", "rounds", "progress",
        "sh", "oc",
    ];

    /// Sets the override named `key` (one of [`Overrides::KEYS`]) to `value`.
    /// Returns `Ok(false)` when `key` is not one of them, and an error
    /// naming the key when the value does not fit it.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let bad = |what: &str| format!("{key}={value}: {key} takes {what}");
        let whole = |lo: u64, hi: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| bad(&format!("a whole number, {lo}-{hi}")))
        };
        match key {
            "it" => self.iterations = Some(whole(1, 1_000_000_000)?),
            "trees" => self.trees = Some(whole(1, 16)? as u8),
            "noise" => self.noise = Some(whole(0, 1000)? as i32),
            "scale" => self.scale = Some(whole(1, 100_000)? as u32),
            "rounds" => self.rounds = Some(whole(0, 20)? as u32),
            "sh" => self.halving = Some(whole(0, 1)? == 1),
            "c" => {
                self.exploration_pct =
                    Some(fraction(value, 255).ok_or_else(|| bad("0-2.55"))? as u8)
            }
            "oc" => {
                self.opponent_exploration_pct =
                    Some(fraction(value, 255).ok_or_else(|| bad("0-2.55"))? as u8)
            }
            "implicit" => {
                self.implicit_pct = Some(fraction(value, 100).ok_or_else(|| bad("0-1"))? as u8)
            }
            "ow" => {
                self.opponent_widening_pct = Some(fraction(value, 1000).ok_or_else(|| bad("0-10"))?)
            }
            "pw" => self.widening_pct = Some(fraction(value, 1000).ok_or_else(|| bad("0-10"))?),
            "eps" => self.epsilon_pct = Some(fraction(value, 100).ok_or_else(|| bad("0-1"))? as u8),
            "progress" => {
                self.progress_pct = Some(fraction(value, 100).ok_or_else(|| bad("0-1"))? as u8)
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `shape` with the trees and exploration replaced where set.
    pub fn shape(&self, shape: TreeShape) -> TreeShape {
        let mut replaced = TreeShape {
            trees: self.trees.unwrap_or(shape.trees),
            ..shape
        };
        if let Some(pct) = self.exploration_pct {
            replaced.exploration_pct = pct;
            replaced.root_exploration_pct = None;
        }
        replaced
    }

    /// `config` with the implicit weight, the widening, the playouts, the
    /// logistic's scale and the progress weight replaced where set.
    pub fn config(&self, config: Config) -> Config {
        Config {
            implicit: self.implicit_pct.map_or(config.implicit, hundredths),
            opponent_widening: self
                .opponent_widening_pct
                .map(hundredths)
                .or(config.opponent_widening),
            widening: self.widening_pct.map_or(config.widening, hundredths),
            epsilon: self.epsilon_pct.map_or(config.epsilon, hundredths),
            scale: self.scale.map_or(config.scale, f64::from),
            rollout_rounds: self.rounds.unwrap_or(config.rollout_rounds),
            progress: self.progress_pct.map_or(config.progress, hundredths),
            halving: self.halving.unwrap_or(config.halving),
            opponent_exploration: self
                .opponent_exploration_pct
                .map(hundredths)
                .or(config.opponent_exploration),
            ..config
        }
    }

    /// `budget` with the iterations replaced where set.
    pub fn budget(&self, budget: Budget) -> Budget {
        Budget {
            iterations: self.iterations.unwrap_or(budget.iterations),
            ..budget
        }
    }

    /// `level` with the noise replaced where set.
    pub fn level(&self, level: Level) -> Level {
        Level {
            noise: self.noise.unwrap_or(level.noise),
            ..level
        }
    }
}

/// `value` (a decimal fraction with at most two places) in hundredths, if
/// it lies within 0 and `max` hundredths.
fn fraction(value: &str, max: u16) -> Option<u16> {
    let x: f64 = value.parse().ok()?;
    let h = (x * 100.0).round();
    ((x * 100.0 - h).abs() < 1e-6 && (0.0..=f64::from(max)).contains(&h)).then_some(h as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(parts: &[(&str, &str)]) -> Overrides {
        let mut o = Overrides::default();
        for (k, v) in parts {
            assert_eq!(o.set(k, v), Ok(true), "{k}={v}");
        }
        o
    }

    #[test]
    fn each_key_replaces_its_setting_and_nothing_else() {
        let o = parsed(&[
            ("it", "15000"),
            ("c", "0.3"),
            ("implicit", "0.4"),
            ("ow", "0.25"),
        ]);
        let five = TreeShape {
            root_exploration_pct: Some(70),
            trees: 5,
            ..TreeShape::one_tree(30)
        };
        assert_eq!(
            o.shape(five),
            TreeShape {
                trees: 5,
                ..TreeShape::one_tree(30)
            }
        );
        assert_eq!(
            parsed(&[("trees", "2")]).shape(five).root_exploration_pct,
            Some(70)
        );
        let config = o.config(Config::DEFAULT);
        assert_eq!(
            (config.implicit, config.opponent_widening),
            (0.4, Some(0.25))
        );
        assert_eq!(config.widening, Config::DEFAULT.widening);
        let playouts = parsed(&[
            ("pw", "2.5"),
            ("eps", "0.05"),
            ("scale", "250"),
            ("rounds", "0"),
            ("progress", "0.3"),
            ("sh", "1"),
            ("oc", "0.7"),
        ])
        .config(Config::DEFAULT);
        assert_eq!(
            playouts,
            Config {
                widening: 2.5,
                epsilon: 0.05,
                scale: 250.0,
                rollout_rounds: 0,
                progress: 0.3,
                halving: true,
                opponent_exploration: Some(0.7),
                ..Config::DEFAULT
            }
        );
        let budget = Budget {
            iterations: 60_000,
            deadline_ms: 9.0,
        };
        assert_eq!(o.budget(budget).iterations, 15_000);
        assert_eq!(o.budget(budget).deadline_ms, 9.0);
        assert_eq!(o.level(Level::get(6)), Level::get(6));
        assert_eq!(parsed(&[("noise", "0")]).level(Level::get(6)).noise, 0);
        assert_eq!(
            Overrides::default().config(Config::DEFAULT),
            Config::DEFAULT
        );
    }

    #[test]
    fn bad_values_are_named() {
        let mut o = Overrides::default();
        for (k, v) in [
            ("it", "0"),
            ("it", "x"),
            ("trees", "17"),
            ("c", "0.333"),
            ("c", "-1"),
            ("implicit", "1.5"),
            ("ow", "abc"),
            ("noise", "-3"),
            ("pw", "11"),
            ("eps", "0.005"),
            ("scale", "0"),
            ("rounds", "21"),
            ("progress", "2"),
            ("sh", "2"),
            ("oc", "3"),
        ] {
            let e = o.set(k, v).expect_err(v);
            assert!(e.starts_with(&format!("{k}={v}:")), "{e}");
        }
        assert_eq!(o, Overrides::default(), "nothing set by a bad value");
        assert_eq!(o.set("depth", "3"), Ok(false));
    }

    #[test]
    fn every_listed_key_is_known() {
        let mut o = Overrides::default();
        for key in Overrides::KEYS {
            assert_eq!(o.set(key, "1"), Ok(true), "{key}");
        }
    }
}
