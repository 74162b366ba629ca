//! wasm-bindgen facade over the Stella engine and computer opponent, for the browser
//! client (`web/`). Every function speaks JSON-friendly strings: views are JSON
//! documents described in [`view`], moves are paths such as `m1-m3-k5`.

pub mod analysis;
pub mod budget;
pub mod clock;
pub mod puzzle;
pub mod view;

use clock::BrowserClock;
use stella_engine::{Game, Move, MovePath, Position, Variant};
use wasm_bindgen::prelude::*;

fn js_err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A game held in the browser (offline play, lessons, replays).
#[wasm_bindgen]
pub struct WasmGame {
    game: Game,
}

#[wasm_bindgen]
impl WasmGame {
    /// A new game of the variant with this id (e.g. `classic-2`).
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str) -> Result<WasmGame, JsError> {
        let v = Variant::from_id(variant).map_err(js_err)?;
        Ok(WasmGame { game: Game::new(v) })
    }

    /// A game starting from a position string; its variant must be `variant`.
    #[wasm_bindgen(js_name = fromPosition)]
    pub fn from_position(variant: &str, position: &str) -> Result<WasmGame, JsError> {
        let pos: Position = position.parse().map_err(js_err)?;
        if pos.variant().id() != variant {
            return Err(JsError::new(&format!(
                "position is of {}, not {variant}",
                pos.variant().id()
            )));
        }
        Ok(WasmGame {
            game: Game::from_position(pos),
        })
    }

    /// Plays a move given by any valid path; fails with the engine's reason.
    pub fn play(&mut self, path: &str) -> Result<(), JsError> {
        let p: MovePath = path.parse().map_err(js_err)?;
        self.game.play_path(&p).map_err(js_err)?;
        Ok(())
    }

    /// The current view as JSON (see `web/src/engine/protocol.ts`).
    pub fn view(&self) -> String {
        serde_json::to_string(&view::game_view(&self.game)).expect("view serialises")
    }

    /// The position string.
    pub fn position(&self) -> String {
        self.game.position().to_string()
    }

    /// The computer's move (`stella_ai`, level 1–8) for the seat to move, as a
    /// canonical path; the game's history counts for repetition. The level's
    /// time cap in the browser bounds the thinking (one second at level 8).
    #[wasm_bindgen(js_name = bestMove)]
    pub fn best_move(&self, level: u8, seed: u64) -> Result<String, JsError> {
        let pos = self.game.position();
        let mv = best_move_in_game(&self.game, level, seed)
            .ok_or_else(|| JsError::new("no legal move"))?;
        Ok(pos.path_of(&mv).to_string())
    }

    /// The computer's tree search at `level` alone (the race solver
    /// skipped), as JSON `{"path", "iterations"}`: the move and the
    /// iterations run before the budget, the time cap or a decided choice
    /// stopped it (what the search-speed benchmark divides by its time).
    #[wasm_bindgen(js_name = treeSearch)]
    pub fn tree_search(&self, level: u8, seed: u64) -> Result<String, JsError> {
        let report = stella_ai::tree_report_in_game(
            &self.game,
            level,
            seed,
            &BrowserClock::new(),
            Some(browser_cap_ms(level)),
        )
        .ok_or_else(|| JsError::new("no legal move"))?;
        let view = TreeSearchView {
            path: self.game.position().path_of(&report.best).to_string(),
            iterations: report.iterations,
        };
        Ok(serde_json::to_string(&view).expect("a report serialises"))
    }
}

/// What one tree search of the computer found and cost, for benchmarks.
#[derive(serde::Serialize)]
struct TreeSearchView {
    /// The move chosen, as a canonical path.
    path: String,
    /// The iterations run.
    iterations: u64,
}

/// The computer's move in a game as a canonical path, `None` without a legal move.
pub fn best_path_in_game(game: &Game, level: u8, seed: u64) -> Option<String> {
    let mv = best_move_in_game(game, level, seed)?;
    Some(game.position().path_of(&mv).to_string())
}

/// The most time `level` may think in the browser, in milliseconds.
fn browser_cap_ms(level: u8) -> u64 {
    stella_ai::Level::get(level).browser_cap_ms
}

/// The computer's move in a game within the level's time cap in the browser.
fn best_move_in_game(game: &Game, level: u8, seed: u64) -> Option<Move> {
    let cap = Some(browser_cap_ms(level));
    stella_ai::best_move_in_game(game, level, seed, &BrowserClock::new(), cap)
}

fn best_move_in(pos: &Position, level: u8, seed: u64) -> Result<String, JsError> {
    let mv = stella_ai::Request::new(pos, level, seed)
        .max_ms(Some(browser_cap_ms(level)))
        .choose(&BrowserClock::new())
        .ok_or_else(|| JsError::new("no legal move"))?;
    Ok(pos.path_of(&mv).to_string())
}

/// The view of a position string alone (online tables draw what the server sends).
#[wasm_bindgen(js_name = positionView)]
pub fn position_view(position: &str) -> Result<String, JsError> {
    let pos: Position = position.parse().map_err(js_err)?;
    Ok(serde_json::to_string(&view::position_view(&pos)).expect("view serialises"))
}

/// The computer's move in a position string, as a canonical path.
#[wasm_bindgen(js_name = bestMoveIn)]
pub fn best_move_in_position(position: &str, level: u8, seed: u64) -> Result<String, JsError> {
    let pos: Position = position.parse().map_err(js_err)?;
    best_move_in(&pos, level, seed)
}

/// The variant ids, comma-separated, in the engine's order.
pub fn variants() -> String {
    Variant::ALL
        .iter()
        .map(|v| v.id())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_computer_answers_with_a_playable_path() {
        let mut game = Game::new(Variant::from_id("classic-3").unwrap());
        for seed in 0..6 {
            let path = best_path_in_game(&game, 1, seed).expect("a move");
            game.play_path(&path.parse().unwrap()).unwrap();
        }
        assert_eq!(game.moves().len(), 6);
    }
}
