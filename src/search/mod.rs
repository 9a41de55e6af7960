//! The search: iterative deepening over a principal-variation alpha-beta search with
//! aspiration windows, a shared lock-free transposition table, Lazy SMP over several threads,
//! quiescence over captures, killer and history move ordering and late-move reductions.
//!
//! [`Engine`] is the door: it owns the table, the threads and the options, and runs searches
//! (blocking, or started and stopped from another thread). The rest, by concern:
//!
//! | file | what |
//! |---|---|
//! | `engine.rs`, `pool.rs` | [`Engine`], [`StopHandle`], the parked search threads |
//! | `level.rs` | strength levels ([`level::Level`]): node budget, hasty moves, noise on the choice |
//! | `types.rs` | [`Limits`], [`Score`], [`Report`], [`Info`], [`SearchResult`] |
//! | `score.rs` | mate and table bands, terminal scores, table conversion |
//! | `time.rs` | the clock's plan and every decision to stop (`TimeManager`) |
//! | `deepening.rs` | iterative deepening, the main and helper threads' roles, the root |
//! | `alphabeta.rs` | `negamax`, `search_moves`, quiescence, singular extension |
//! | `picker.rs` | move ordering and the staged move picker |
//! | `worker.rs` | one thread's state, what the threads share, the limits' checks |
//! | `node.rs` | a node as passed down; make, scan and hash compiled per row length |
//!
//! Scores are from the side to move's point of view in 1/100 stone. A proven result is a
//! "mate" score: `MATE - plies` for a win `plies` half-moves away, `-(MATE - plies)` for a loss,
//! `0` for a proven draw found at a terminal node. Terminal nodes follow RULES.md exactly:
//! rules 3a and 3b by the position, rule 3c (repetition) by the game's history plus the
//! search path.
//!
//! With tables loaded ([`Engine::set_tables`]), a node whose position a table covers and whose
//! future the history cannot touch (the first of its kazans, see `Worker::probe_table`) gets
//! the table's exact result, in a band of its own below the mate scores: [`TABLE_WIN`] plus
//! the final margin for a win, minus for a loss, 0 for a draw.

mod alphabeta;
pub mod bare;
pub mod bench;
mod busy;
pub mod calibration;
mod deepening;
pub mod engine;
pub mod eval;
pub mod level;
mod node;
/// The move scan and the row-length dispatch by the names the search's files use: they live
/// in the position layer ([`crate::position::gains`], [`crate::position::with_row_len`]).
pub(crate) mod ordering {
    pub(crate) use crate::position::gains::*;
    pub(crate) use crate::position::with_row_len as with_search_rows;
    pub(crate) use crate::position::{ONES, zero_bytes};
}
mod pages;
pub mod parameters;
mod picker;
mod pool;
mod score;
pub mod time;
pub mod tt;
mod turns;
mod types;
mod worker;

pub use engine::{Engine, EngineError, PendingTable, Searching, StopHandle};
pub use score::{MATE, MATE_BOUND, TABLE_BOUND, TABLE_WIN, table_score};
pub use types::{Info, Limits, Report, Score, ScoreBound, SearchResult};

pub(crate) use deepening::run;
pub(crate) use time::Control;
pub(crate) use types::SearchOptions;

/// The deepest ply the search reaches (iteration depth plus quiescence).
pub const MAX_PLY: usize = 128;

/// Every family and switch whose make or scan takes its own path.
#[cfg(test)]
const TEST_SPECS: [&str; 6] = [
    "togyz",
    "togyz sowing=skip-origin",
    "togyz capture=singleton",
    "kozdatu tuzdik=on",
    "bestemshchi",
    "mangala4",
];
