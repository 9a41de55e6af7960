//! Endgame tables by retrograde analysis: for every board with up to `N` stones, the best
//! future margin the side to move can force (the stones it will still add to its kazan minus
//! those the opponent will, with best play and the game's history starting there).
//!
//! One solver, written over [`family::BoardFamily`] (the board, its moves both ways, the
//! numbering of a level and the level files), has two instances:
//!
//! - [`bestemshchi`]: Bestemshchi without tuzdik, up to all 50 stones; only even stone counts
//!   occur (docs/solve.md);
//! - [`toguz`]: Toguz Kumalak, Kozdatu and Bestemshchi with tuzdiks, for boards with fewer
//!   stones than the ring has holes (docs/solve-toguz.md).
//!
//! The shared core: [`level`] solves one level, [`verify`] checks one, [`file`](mod@file)
//! reads and writes level files, [`table`] builds and probes a whole table, [`spread`] numbers
//! the ways to spread stones over holes, and [`tables`] holds what `TablePath` loads.
//!
//! ```
//! use tuzdik::solve::Tablebase;
//! use tuzdik::{Family, Position, Variant};
//! let table = Tablebase::build_in_memory(4);
//! // South to move, one stone each on South's hole 5 and North's hole 1: South sows into
//! // North's hole 1, makes 2 and takes them.
//! let pos = Position::parse_with("0,0,0,0,1/1,0,0,0,0 24 24 w", Variant::new(Family::Bestemshchi))
//!     .unwrap();
//! assert_eq!(table.probe(&pos), Some(2));
//! ```

pub mod bestemshchi;
pub mod family;
pub mod file;
pub mod level;
pub mod report;
pub mod spread;
pub mod table;
pub mod tables;
pub mod toguz;
pub mod verify;

use std::path::PathBuf;

use thiserror::Error;

pub use bestemshchi::Tablebase;
/// The Bestemshchi board at its path from before the solvers were one (`solve::board`, which
/// `matchrun` uses); new code names it [`bestemshchi::board`].
pub use bestemshchi::board;
pub use report::{Histogram, LevelReport, memory_usage};
use verify::Mismatch;

/// Why a table could not be built, loaded or trusted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    /// The stone limit is odd or beyond 50.
    #[error(
        "--max-stones {0} is not possible: the limit must be even (every capture takes an even \
         number of stones, so only even counts occur) and at most 50 (all of Bestemshchi's stones)"
    )]
    BadLimit(u32),
    /// Reading or writing a file failed.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A table file is damaged or of another kind.
    #[error("{}: {why}", path.display())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Entries disagree with their children.
    #[error(
        "level {}: {count} entries disagree with their children (first: rank {} holds {}, \
         the children give {})",
        first.stones, first.rank, first.stored, first.expected
    )]
    Mismatch {
        /// How many.
        count: u64,
        /// The first one.
        first: Mismatch,
    },
}
