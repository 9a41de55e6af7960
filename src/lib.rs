//! Tuzdik: a game engine for Toguz Kumalak and its family (Kozdatu, Bestemshchi and the
//! historical rule switches), following the project's RULES.md to the letter.
//!
//! ```
//! use tuzdik::{Game, Position, Variant, perft::perft};
//! let start = Position::start(Variant::TOGYZ);
//! assert_eq!(perft(&start, 2), 73);
//! let mut game = Game::new(Variant::TOGYZ);
//! game.play_text("76").unwrap();
//! assert_eq!(game.position().to_string(), "9,9,9,9,9,9,1,10,10/10,10,10,10,10,0,9,9,9 10 0 b");
//! ```
#![warn(missing_docs)]

pub mod analyse;
pub mod calibrate;
pub mod diagram;
pub mod game;
pub mod interactive;
pub mod levels;
pub mod matchrun;
pub mod moves;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod record;
pub mod rng;
pub mod variant;

pub use game::{Game, GameError, Termination};
pub use moves::{Move, MoveSyntaxError};
pub use position::{Effect, MoveError, MoveList, PlayError, Position, PositionError, Side, Status};
pub use search::Engine;
pub use variant::{Capture, Family, MangalaMove, Sowing, Variant, VariantError};
pub mod nnue;
pub mod search;
pub mod solve;
pub mod tune;
