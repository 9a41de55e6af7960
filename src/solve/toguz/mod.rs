//! Toguz Kumalak (and Kozdatu, and Bestemshchi with the tuzdik) solved by the retrograde solver
//! of [`crate::solve`]:
//! for every board with up to `N` stones, any tuzdiks and either side to move, the best future
//! margin the side to move can force. See docs/solve-toguz.md for the definitions, the index,
//! the algorithm and its proof, the file format and the measured figures.
//!
//! The future of a position depends only on the board, the two tuzdiks and the side to move
//! (the kazans only grow, so rule 3a never changes the winner of the margin game, and after
//! anything reaches a kazan no earlier position can recur). Turning the board so the mover is
//! South swaps the tuzdik roles. Levels go by stones on the board; every count occurs, since a
//! tuzdik takes single stones.
//!
//! ```
//! use tuzdik::solve::toguz::{MarginTable, ToguzTable};
//! use tuzdik::{Position, Variant};
//! let table = ToguzTable::build_in_memory(Variant::TOGYZ, 3).unwrap();
//! // South to move with one stone on hole 9 and one on North's hole 1: the stone makes 2
//! // there and South takes both.
//! let pos: Position = "0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0 80 80 w".parse().unwrap();
//! assert_eq!(table.probe(&pos), Some(2));
//! ```

pub mod board;
pub mod file;
pub mod index;

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::position::Position;
use crate::solve::TableError;
use crate::solve::family::{BoardFamily, Sown};
use crate::solve::table::{BuildPlan, Table};
use crate::solve::verify::Verification;
use crate::variant::{Family, Variant};
use board::{Board, Geometry, MAX_RING, from_position, play};
use index::{LevelIndex, level_size};

pub use super::tables::MarginTable;

/// The rule sets whose tables `TablePath` looks for: every Toguz-family game with the standard
/// switches that the plain Bestemshchi table does not already cover.
pub const TABLE_VARIANTS: [Variant; 4] = [
    Variant::TOGYZ,
    Variant::new(Family::Kozdatu),
    Variant::new(Family::Kozdatu).with_tuzdik(true),
    Variant::new(Family::Bestemshchi).with_tuzdik(true),
];

/// Why a table cannot be built with the rules and limit asked for.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LimitError {
    /// Not a Toguz-family variant with the standard sowing and capture.
    #[error(
        "{0} has no Toguz table: only togyz, kozdatu and bestemshchi with the standard sowing \
         and capture can be solved"
    )]
    Variant(String),
    /// So many stones that a sowing could lap the ring (the un-moves assume it never does).
    #[error(
        "--max-stones {max} is too many for {variant}: the table needs fewer stones than the \
         ring's {ring} holes (no sowing may lap the ring)"
    )]
    Laps {
        /// The limit asked for.
        max: u32,
        /// The variant.
        variant: String,
        /// Holes in its ring.
        ring: usize,
    },
    /// A level with more entries than a 32-bit index reaches.
    #[error(
        "--max-stones {max} is too many for {variant}: level {max} alone has {entries} entries \
         (at most 4294967295)"
    )]
    TooLarge {
        /// The limit asked for.
        max: u32,
        /// The variant.
        variant: String,
        /// Entries of the largest level.
        entries: u64,
    },
}

/// Checks that rules and a stone limit can be tabled, and returns the rules.
pub fn check_limit(variant: Variant, max_stones: u32) -> Result<Geometry, LimitError> {
    let g = Geometry::of(variant).ok_or_else(|| LimitError::Variant(variant.to_string()))?;
    if max_stones as usize >= g.ring() {
        return Err(LimitError::Laps {
            max: max_stones,
            variant: g.name(),
            ring: g.ring(),
        });
    }
    let entries = level_size(g, max_stones);
    if entries > u64::from(u32::MAX) {
        return Err(LimitError::TooLarge {
            max: max_stones,
            variant: g.name(),
            entries,
        });
    }
    Ok(g)
}

/// Why a build stopped.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BuildError {
    /// The rules or the limit cannot be tabled.
    #[error(transparent)]
    Limit(#[from] LimitError),
    /// A file could not be read or written, or the verification failed.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// The values of every board of one variant with up to [`max_stones`](Table::max_stones)
/// stones.
pub type ToguzTable = Table<Geometry>;

impl BoardFamily for Geometry {
    type Board = Board;
    type Level = LevelIndex;

    const STEP: u32 = 1;
    // At most one parent per origin and sowing length.
    const MOST_PARENTS: usize = MAX_RING / 2 * MAX_RING;
    const HEADER_LEN: usize = file::HEADER_LEN;

    #[inline(always)]
    fn level(self, k: u32) -> LevelIndex {
        LevelIndex::new(self, k)
    }

    #[inline(always)]
    fn row(self) -> usize {
        self.n
    }

    #[inline(always)]
    fn stones_in(board: &Board, hole: usize) -> u8 {
        board.holes[hole]
    }

    #[inline(always)]
    fn stones(board: &Board) -> u32 {
        board.stones()
    }

    #[inline(always)]
    fn mover_row_empty(self, board: &Board) -> bool {
        board.mover_row_empty(self)
    }

    #[inline(always)]
    fn sow(self, board: &Board, hole: usize) -> Sown<Board> {
        let played = play(self, board, hole);
        Sown {
            child: played.child,
            gain: played.gain(),
            removed: played.removed(),
        }
    }

    #[inline(always)]
    fn for_each_parent(self, board: &Board, found: impl FnMut(&Board)) {
        board::for_each_parent(self, board, found);
    }

    fn board_of(self, pos: &Position) -> Option<Board> {
        from_position(self, pos)
    }

    fn level_path(self, dir: &Path, k: u32) -> PathBuf {
        file::level_path(dir, self, k)
    }

    fn header(self, k: u32, values: &[u8]) -> Vec<u8> {
        file::header(self, k, values)
    }

    fn check_header(self, header: &[u8], k: u32) -> Result<u64, String> {
        file::check_header(self, header, k)
    }

    fn checksum_matches(self, header: &[u8], values: &[u8]) -> bool {
        file::checksum_matches(header, values)
    }
}

/// Entries of every level up to `max_stones` together.
pub fn total_entries(g: Geometry, max_stones: u32) -> u64 {
    (0..=max_stones).map(|k| level_size(g, k)).sum()
}

/// The memory a build up to `max_stones` needs: every level stays in memory (captures reach
/// any lower level), and the level being solved needs two more bytes per entry (its cells).
pub fn memory_needed(g: Geometry, max_stones: u32) -> u64 {
    total_entries(g, max_stones) + 2 * level_size(g, max_stones)
}

/// What happened to one level of a build (the same report as the Bestemshchi table's).
pub use crate::solve::LevelReport;
/// How long the parts of a level's solve took.
pub use crate::solve::level::SolveTimes;

/// What [`ToguzTable::build`] does.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The rules.
    pub variant: Variant,
    /// The largest stone count.
    pub max_stones: u32,
    /// Worker threads (0: every core).
    pub threads: usize,
    /// Where the level files go (`None`: memory only).
    pub out: Option<PathBuf>,
    /// Check every entry against its children.
    pub verify: bool,
    /// Solve levels again even when their file exists (otherwise they are loaded, so a
    /// stopped build resumes where it was).
    pub rebuild: bool,
}

impl Table<Geometry> {
    /// Builds (or loads, or resumes) the table level by level in a pool of `options.threads`
    /// rayon workers, reporting each level to `on_level`.
    pub fn build(
        options: &BuildOptions,
        on_level: impl FnMut(&LevelReport) + Send,
    ) -> Result<ToguzTable, BuildError> {
        let g = check_limit(options.variant, options.max_stones)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .build()
            .map_err(|e| TableError::Io {
                path: PathBuf::new(),
                message: format!("could not start the worker threads: {e}"),
            })?;
        let plan = BuildPlan {
            max_stones: options.max_stones,
            out: options.out.clone(),
            verify: options.verify,
            verify_from: 0,
            rebuild: options.rebuild,
        };
        Ok(pool.install(|| Table::build_levels(g, &plan, on_level))?)
    }

    /// Builds the levels up to `max_stones` in memory with the current rayon pool (no files,
    /// no checks): for tests and small tables.
    pub fn build_in_memory(variant: Variant, max_stones: u32) -> Result<ToguzTable, LimitError> {
        let g = check_limit(variant, max_stones)?;
        Ok(Table::solve_in_memory(g, max_stones))
    }

    /// Loads the Toguz Kumalak table (standard rules) from `dir`: `Ok(None)` when `dir` has
    /// no Toguz Kumalak files, an error when a level is missing below the highest one or a
    /// file is damaged or of another kind.
    pub fn load(dir: &Path) -> Result<Option<ToguzTable>, TableError> {
        ToguzTable::load_variant(dir, Variant::TOGYZ)
    }

    /// Loads the table of `variant` from `dir` (see [`load`](Self::load)); `Ok(None)` also
    /// for a variant that has no table.
    pub fn load_variant(dir: &Path, variant: Variant) -> Result<Option<ToguzTable>, TableError> {
        let Some(g) = Geometry::of(variant) else {
            return Ok(None);
        };
        let present = file::levels_present(dir, g)?;
        let Some(&max) = present.last() else {
            return Ok(None);
        };
        if let Some(missing) = (0..=max).find(|k| present.binary_search(k).is_err()) {
            return Err(TableError::Io {
                path: file::level_path(dir, g, missing),
                message: format!(
                    "level {missing} is missing (the directory has levels up to {max})"
                ),
            });
        }
        if let Err(e) = check_limit(variant, max) {
            return Err(TableError::BadFile {
                path: file::level_path(dir, g, max),
                why: e.to_string(),
            });
        }
        let levels = (0..=max)
            .map(|k| file::load_level(dir, g, k))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(Table::from_parts(g, levels)))
    }

    /// Checks every entry of every level against its children.
    pub fn verify(&self) -> Vec<Verification> {
        (0..=self.max_stones())
            .map(|k| self.verify_level(k))
            .collect()
    }

    /// The rules of the table.
    pub fn variant(&self) -> Variant {
        self.family().variant()
    }

    /// The rules of the table as the board code sees them.
    pub fn geometry(&self) -> Geometry {
        self.family()
    }
}

impl MarginTable for ToguzTable {
    fn probe(&self, pos: &Position) -> Option<i32> {
        ToguzTable::probe(self, pos)
    }

    fn max_stones(&self) -> u32 {
        ToguzTable::max_stones(self)
    }

    fn covers(&self, variant: Variant) -> bool {
        variant == self.variant()
    }

    fn name(&self) -> String {
        format!(
            "{} table, up to {} stones ({} entries)",
            self.geometry().name(),
            self.max_stones(),
            self.levels().iter().map(|l| l.len() as u64).sum::<u64>()
        )
    }
}
