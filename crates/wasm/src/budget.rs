//! The work budget of a level's tree search at a table size. Timing a search
//! that runs its whole budget (the clock frozen, so that no time cap ends it)
//! gives the iterations the browser's build completes per second, which is what
//! decides how much of the budget fits in the level's time cap
//! (`web/scripts/wasm-speed.mjs`).

use crate::js_err;
use stella_ai::{Level, Strategy};
use stella_engine::Variant;
use wasm_bindgen::prelude::*;

/// The iterations of `level`'s tree search at the variant with id `variant`
/// (level 1–8, clamped as the computer opponent clamps it). Fails for a
/// variant whose computer opponent searches by alpha-beta instead (two units).
#[wasm_bindgen(js_name = levelTreeIterations)]
pub fn level_tree_iterations(level: u8, variant: &str) -> Result<u32, JsError> {
    let v = Variant::from_id(variant).map_err(js_err)?;
    tree_iterations(level, v).map_err(|e| JsError::new(&e))
}

/// [`level_tree_iterations`] natively: the budget, or why there is none.
pub fn tree_iterations(level: u8, variant: Variant) -> Result<u32, String> {
    if Strategy::default_for(variant) != Strategy::Mcts {
        return Err(format!(
            "the computer opponent at {} searches by alpha-beta, not by a tree of iterations",
            variant.id()
        ));
    }
    let iterations = Level::get(level).tree(variant.unit_count()).iterations;
    u32::try_from(iterations).map_err(|_| format!("{iterations} iterations do not fit 32 bits"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_the_levels_at_the_tables_size() {
        let eight = Level::get(8);
        for (id, want) in [
            ("classic-3", eight.tree.iterations),
            ("classic-4", eight.tree.iterations),
            ("classic-6", eight.tree_six.iterations),
        ] {
            let v = Variant::from_id(id).unwrap();
            assert_eq!(u64::from(tree_iterations(8, v).unwrap()), want, "{id}");
        }
        let three = Variant::from_id("classic-3").unwrap();
        assert!(tree_iterations(1, three).unwrap() < tree_iterations(8, three).unwrap());
    }

    #[test]
    fn two_units_have_no_tree_budget() {
        let err = tree_iterations(8, Variant::from_id("classic-2").unwrap()).unwrap_err();
        assert!(
            err.contains("classic-2") && err.contains("alpha-beta"),
            "{err}"
        );
    }
}
