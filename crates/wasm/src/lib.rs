//! wasm-bindgen facade over the Stella engine and computer opponent, for the browser
//! client (`web/`). Every function speaks JSON-friendly strings: views are JSON
//! documents described in [`view`], moves are paths such as `m1-m3-k5`.

pub mod computer;
pub mod view;

use stella_engine::{Game, MovePath, Position, Variant};
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
            return Err(JsError::new(&format!("position is of {}, not {variant}", pos.variant().id())));
        }
        Ok(WasmGame { game: Game::from_position(pos) })
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

    /// The computer's move for the seat to move, as a canonical path.
    #[wasm_bindgen(js_name = bestMove)]
    pub fn best_move(&self, level: u8, seed: u64) -> Result<String, JsError> {
        best_move_in(self.game.position(), level, seed)
    }
}

fn best_move_in(pos: &Position, _level: u8, seed: u64) -> Result<String, JsError> {
    let mv = computer::greedy_fallback(pos, seed).ok_or_else(|| JsError::new("no legal move"))?;
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
    Variant::ALL.iter().map(|v| v.id()).collect::<Vec<_>>().join(",")
}
