//! # stella-engine
//!
//! The rules of Stern-Halma (Chinese checkers) as played by Stella: the star
//! of 121 holes, notation, the 16 table variants plus the solitaire, move
//! generation, the complete game state with every end rule, position strings,
//! game records and perft. No I/O, no clock, no threads: it builds for
//! `wasm32-unknown-unknown`.
//!
//! ```
//! use stella_engine::{Game, Variant};
//! let mut game = Game::new("classic-2".parse::<Variant>().unwrap());
//! let moves = game.legal_moves();
//! let path = game.position().path_of(&moves[0]);
//! game.play_path(&path).unwrap();
//! ```

#![forbid(unsafe_code)]

pub mod bitboard;
pub mod colour;
pub mod error;
pub mod game;
pub mod geometry;
pub mod hole;
pub mod move_cache;
pub mod movegen;
pub mod moves;
pub mod outcome;
mod path_check;
pub mod perft;
pub mod position;
mod position_string;
pub mod record;
pub mod setup;
pub mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use colour::Colour;
pub use error::{IllegalMove, ParseError, SetupError};
pub use game::Game;
pub use hole::Hole;
pub use moves::{Move, MovePath};
pub use outcome::{EndReason, Outcome};
pub use perft::{divide, perft, perft_plain};
pub use position::{Position, ROUND_LIMIT};
pub use record::{Record, RecordError};
pub use setup::Setup;
pub use variant::{JumpRule, Variant};
