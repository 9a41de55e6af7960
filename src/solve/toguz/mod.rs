//! Toguz Kumalak (and Kozdatu, and Bestemshchi with the tuzdik) solved by retrograde analysis:
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
pub mod level;
pub mod verify;

use std::path::{Path, PathBuf};
use std::time::Instant;

use thiserror::Error;

use crate::moves::Move;
use crate::position::Position;
use crate::solve::verify::Verification;
use crate::solve::{Histogram, TableError, memory_usage};
use crate::variant::{Family, Variant};
use board::{Board, Geometry, from_position, play};
use index::{LevelIndex, level_size};
use level::solve_level;
use verify::verify_level;

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

/// The values of every board of one variant with up to [`max_stones`](Self::max_stones)
/// stones.
#[derive(Clone, Debug)]
pub struct ToguzTable {
    g: Geometry,
    /// `levels[k]`: one `i8` (as its byte) per index of level `k`.
    levels: Vec<Vec<u8>>,
    indexes: Vec<LevelIndex>,
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

impl ToguzTable {
    /// Builds (or loads, or resumes) the table level by level in a pool of `options.threads`
    /// rayon workers, reporting each level to `on_level`.
    pub fn build(
        options: &BuildOptions,
        mut on_level: impl FnMut(&LevelReport) + Send,
    ) -> Result<ToguzTable, BuildError> {
        let g = check_limit(options.variant, options.max_stones)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .build()
            .map_err(|e| TableError::Io {
                path: PathBuf::new(),
                message: format!("could not start the worker threads: {e}"),
            })?;
        pool.install(|| {
            let indexes: Vec<LevelIndex> = (0..=options.max_stones)
                .map(|k| LevelIndex::new(g, k))
                .collect();
            let mut levels: Vec<Vec<u8>> = Vec::new();
            for k in 0..=options.max_stones {
                let started = Instant::now();
                let existing = options
                    .out
                    .as_deref()
                    .filter(|dir| !options.rebuild && file::level_path(dir, g, k).exists());
                let (values, solved) = match existing {
                    Some(dir) => (file::load_level(dir, g, k)?, None),
                    None => {
                        let (values, times) = solve_level(g, k, &levels, &indexes);
                        (values, Some(times))
                    }
                };
                let file_started = Instant::now();
                if solved.is_some()
                    && let Some(dir) = &options.out
                {
                    file::save_level(dir, g, k, &values)?;
                }
                let file_time = if solved.is_some() {
                    file_started.elapsed()
                } else {
                    started.elapsed()
                };
                let histogram = Histogram::of(&values);
                levels.push(values);
                let verify_started = Instant::now();
                let verification = options
                    .verify
                    .then(|| verify_level(g, k, &levels, &indexes));
                let report = LevelReport {
                    stones: k,
                    entries: indexes[k as usize].size(),
                    solved,
                    file_time,
                    verification: verification.clone(),
                    verify_time: verify_started.elapsed(),
                    histogram,
                    memory: memory_usage(),
                };
                on_level(&report);
                if let Some(error) = verification.as_ref().and_then(Verification::failure) {
                    return Err(error.into());
                }
            }
            Ok(ToguzTable { g, levels, indexes })
        })
    }

    /// Builds the levels up to `max_stones` in memory with the current rayon pool (no files,
    /// no checks): for tests and small tables.
    pub fn build_in_memory(variant: Variant, max_stones: u32) -> Result<ToguzTable, LimitError> {
        let g = check_limit(variant, max_stones)?;
        let indexes: Vec<LevelIndex> = (0..=max_stones).map(|k| LevelIndex::new(g, k)).collect();
        let mut levels = Vec::new();
        for k in 0..=max_stones {
            let (values, _) = solve_level(g, k, &levels, &indexes);
            levels.push(values);
        }
        Ok(ToguzTable { g, levels, indexes })
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
        let indexes: Vec<LevelIndex> = (0..=max).map(|k| LevelIndex::new(g, k)).collect();
        let levels = (0..=max)
            .map(|k| file::load_level(dir, g, k))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(ToguzTable { g, levels, indexes }))
    }

    /// Writes every level to `dir` (`<variant>-<kk>.tzt`).
    pub fn save(&self, dir: &Path) -> Result<(), TableError> {
        for (k, values) in self.levels.iter().enumerate() {
            file::save_level(dir, self.g, k as u32, values)?;
        }
        Ok(())
    }

    /// Checks every entry of every level against its children.
    pub fn verify(&self) -> Vec<Verification> {
        (0..self.levels.len() as u32)
            .map(|k| verify_level(self.g, k, &self.levels, &self.indexes))
            .collect()
    }

    /// The rules of the table.
    pub fn variant(&self) -> Variant {
        self.g.variant()
    }

    /// The rules of the table as the board code sees them.
    pub fn geometry(&self) -> Geometry {
        self.g
    }

    /// The most stones on the board the table covers.
    pub fn max_stones(&self) -> u32 {
        self.levels.len().saturating_sub(1) as u32
    }

    /// The raw levels (`levels()[k]` is level `k`, one `i8` byte per index).
    pub fn levels(&self) -> &[Vec<u8>] {
        &self.levels
    }

    /// The raw levels, for tests that damage an entry on purpose.
    #[doc(hidden)]
    pub fn levels_mut(&mut self) -> &mut [Vec<u8>] {
        &mut self.levels
    }

    /// The value of a board, if its level is in the table.
    #[inline]
    pub fn value(&self, board: &Board) -> Option<i32> {
        let k = board.stones() as usize;
        let i = self.indexes.get(k)?.index(board)?;
        let value = *self.levels.get(k)?.get(i as usize)?;
        Some(i32::from(value as i8))
    }

    /// The future margin the side to move can force: the stones it will still add to its
    /// kazan minus those the opponent will, with best play by both, rule 3b and rule 3c (a
    /// repetition shares the board, margin 0), the game's history starting here. `None` for
    /// other rules or beyond the table's stones.
    ///
    /// Rule 3a is not applied: the winner is `sign(own kazan - other kazan + value)` whatever
    /// the kazans are.
    pub fn probe(&self, pos: &Position) -> Option<i32> {
        self.value(&from_position(self.g, pos)?)
    }

    /// The table's value of every legal move of `pos` for its mover, lowest hole first: the
    /// stones the move puts into the mover's kazan (its own tuzdik's income, a capture, a new
    /// tuzdik's 3) minus those it puts into the opponent's (sown into the opponent's tuzdik),
    /// minus the child's value. `None` when [`probe`](Self::probe) would be `None`.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        let board = from_position(self.g, pos)?;
        self.value(&board)?;
        let mut moves = Vec::new();
        for hole in 0..self.g.n {
            if board.holes[hole] == 0 {
                continue;
            }
            let played = play(self.g, &board, hole);
            let child = self.value(&played.child)?;
            moves.push((Move::hole(hole as u8 + 1), played.gain() - child));
        }
        Some(moves)
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
            self.g.name(),
            self.max_stones(),
            self.levels.iter().map(|l| l.len() as u64).sum::<u64>()
        )
    }
}
