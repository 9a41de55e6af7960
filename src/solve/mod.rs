//! Bestemshchi solved by retrograde analysis: for every board with up to `N` stones, the best
//! future margin the side to move can force. See docs/solve.md for the definitions, the
//! algorithm and its proof, the file format and the figures.
//!
//! The future of a Bestemshchi position depends only on the board and the side to move (the
//! kazans only add up; rule 3a never changes the winner, see the docs), every capture takes an
//! even number of stones, and turning the board by five holes swaps the sides. So a table is
//! a list of levels, one per even stone count `k`, each an `i8` per board ranked by
//! [`index::rank`], mover's row first.
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

pub mod board;
pub mod file;
pub mod index;
pub mod level;
pub mod tables;
pub mod toguz;
pub mod verify;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use thiserror::Error;

use crate::moves::Move;
use crate::position::Position;
use board::{Board, ROW, play};
use index::{MAX_STONES, level_size, rank};
use level::{SolveTimes, solve_level};
use verify::{Mismatch, Verification, verify_level};

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

/// Checks a stone limit: even and at most 50.
pub fn check_limit(max_stones: u32) -> Result<(), TableError> {
    if max_stones % 2 == 1 || max_stones > MAX_STONES {
        return Err(TableError::BadLimit(max_stones));
    }
    Ok(())
}

/// The values of every board with up to [`max_stones`](Self::max_stones) stones.
#[derive(Clone, Debug, Default)]
pub struct Tablebase {
    /// `levels[k]`: level `k` (empty for odd `k`).
    levels: Vec<Vec<u8>>,
}

impl Tablebase {
    /// A table made of the given levels (`levels[k]` for every `k` up to the limit, odd ones
    /// empty). Panics if a level has the wrong size.
    pub fn from_levels(levels: Vec<Vec<u8>>) -> Tablebase {
        for (k, level) in levels.iter().enumerate() {
            let want = if k % 2 == 0 { level_size(k as u32) } else { 0 };
            assert_eq!(level.len() as u64, want, "level {k} has the wrong size");
        }
        Tablebase { levels }
    }

    /// Builds the levels up to `max_stones` in memory (no files, no checks): for tests and
    /// small tables.
    pub fn build_in_memory(max_stones: u32) -> Tablebase {
        let mut levels: Vec<Vec<u8>> = Vec::new();
        for k in 0..=max_stones {
            if k % 2 == 1 {
                levels.push(Vec::new());
            } else {
                let (values, _) = solve_level(k, &levels);
                levels.push(values);
            }
        }
        Tablebase { levels }
    }

    /// Loads the levels `0, 2, ..` from `dir`: up to `max_stones` (every one must be there),
    /// or while files are found when `max_stones` is `None`.
    pub fn load(dir: &Path, max_stones: Option<u32>) -> Result<Tablebase, TableError> {
        if let Some(max) = max_stones {
            check_limit(max)?;
        }
        let mut levels = Vec::new();
        for k in 0..=max_stones.unwrap_or(MAX_STONES) {
            if k % 2 == 1 {
                levels.push(Vec::new());
                continue;
            }
            if max_stones.is_none() && !file::level_path(dir, k).exists() {
                break;
            }
            levels.push(file::load_level(dir, k)?);
        }
        while levels.last().is_some_and(|level| level.is_empty()) && levels.len() > 1 {
            levels.pop();
        }
        if levels.is_empty() {
            return Err(TableError::Io {
                path: file::level_path(dir, 0),
                message: "no table files found".to_string(),
            });
        }
        Ok(Tablebase { levels })
    }

    /// The largest stone count covered.
    pub fn max_stones(&self) -> u32 {
        self.levels.len().saturating_sub(1) as u32
    }

    /// The raw levels (`levels()[k]` is level `k`, one `i8` byte per rank).
    pub fn levels(&self) -> &[Vec<u8>] {
        &self.levels
    }

    /// The value of a board (mover's row first), if its level is in the table.
    #[inline]
    pub fn value(&self, board: &Board) -> Option<i32> {
        let k = board::stones(board) as usize;
        let level = self.levels.get(k)?;
        let value = *level.get(rank(board) as usize)?;
        Some(i32::from(value as i8))
    }

    /// The future margin the side to move can force: the stones it will still add to its
    /// kazan minus those the opponent will, with best play by both, rule 3b and rule 3c (a
    /// repetition shares the board, margin 0), and the game's history starting here. `None`
    /// outside plain Bestemshchi (no tuzdik, standard switches) or beyond the table's stones.
    ///
    /// Rule 3a is not applied: the winner is `sign(own kazan - other kazan + value)` whatever
    /// the kazans are.
    pub fn probe(&self, pos: &Position) -> Option<i32> {
        self.value(&board::from_position(pos)?)
    }

    /// The table's value of every legal move of `pos` for its mover (`captured - V(child)`),
    /// lowest hole first; `None` when [`probe`](Self::probe) would be `None`.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        let board = board::from_position(pos)?;
        self.value(&board)?;
        let mut moves = Vec::new();
        for hole in 0..ROW {
            if board[hole] == 0 {
                continue;
            }
            let played = play(&board, hole);
            let child = self.value(&played.child)?;
            moves.push((
                Move::hole(hole as u8 + 1),
                i32::from(played.captured) - child,
            ));
        }
        Some(moves)
    }
}

/// How many entries of each value a level has: `bins[v + 50]` for value `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// Counts by value + 50.
    pub bins: Vec<u64>,
}

impl Histogram {
    /// Counts the values of a level.
    pub fn of(values: &[u8]) -> Histogram {
        let bins = values
            .par_chunks(1 << 16)
            .map(|chunk| {
                let mut bins = vec![0u64; 101];
                for &v in chunk {
                    bins[(i32::from(v as i8) + 50) as usize] += 1;
                }
                bins
            })
            .reduce(
                || vec![0u64; 101],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                    a
                },
            );
        Histogram { bins }
    }

    /// One line: the shares of negative, zero and positive values, the mean and the range.
    pub fn summary(&self) -> String {
        let total: u64 = self.bins.iter().sum();
        if total == 0 {
            return "empty".to_string();
        }
        let share = |range: std::ops::Range<usize>| -> f64 {
            self.bins[range].iter().sum::<u64>() as f64 * 100.0 / total as f64
        };
        let sum: i128 = self
            .bins
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as i128 - 50) * i128::from(n))
            .sum();
        let low = self.bins.iter().position(|&n| n > 0).unwrap_or(50) as i32 - 50;
        let high = self.bins.iter().rposition(|&n| n > 0).unwrap_or(50) as i32 - 50;
        format!(
            "values <0 {:.2}%, =0 {:.2}%, >0 {:.2}%, mean {:+.3}, range {low}..{high}",
            share(0..50),
            share(50..51),
            share(51..101),
            sum as f64 / total as f64
        )
    }
}

/// The process's resident memory and its peak, in bytes (Linux; `None` elsewhere).
pub fn memory_usage() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|line| line.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// The memory the method needs to build up to `max_stones`: every level's entries stay in
/// memory (captures reach any lower level), and the level being solved needs two more bytes
/// per entry (best exit and move counter).
pub fn memory_needed(max_stones: u32) -> u64 {
    let tables: u64 = (0..=max_stones).step_by(2).map(level_size).sum();
    tables + 2 * level_size(max_stones)
}

/// What happened to one level.
#[derive(Clone, Debug)]
pub struct LevelReport {
    /// Stones on the board.
    pub stones: u32,
    /// Boards in the level.
    pub entries: u64,
    /// Solve times (`None` when the level was loaded from its file).
    pub solved: Option<SolveTimes>,
    /// Time to read or to write the file.
    pub file_time: Duration,
    /// The check against the children, when asked for.
    pub verification: Option<Verification>,
    /// Time of that check.
    pub verify_time: Duration,
    /// The values.
    pub histogram: Histogram,
    /// Resident memory and peak after the level.
    pub memory: Option<(u64, u64)>,
}

/// What [`build`] does.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The largest stone count (even, at most 50).
    pub max_stones: u32,
    /// Where the level files go (`None`: memory only).
    pub out: Option<PathBuf>,
    /// Check every entry against its children.
    pub verify: bool,
    /// With `verify`, levels below this stone count are not checked (they were when they
    /// were built): a resumed build then checks only what it adds.
    pub verify_from: u32,
    /// Solve levels again even when their file exists (otherwise they are loaded: a stopped
    /// build resumes where it was).
    pub rebuild: bool,
}

/// Builds (or loads, or resumes) the table level by level, reporting each level.
pub fn build(
    options: &BuildOptions,
    mut on_level: impl FnMut(&LevelReport),
) -> Result<Tablebase, TableError> {
    check_limit(options.max_stones)?;
    let mut levels: Vec<Vec<u8>> = Vec::new();
    for k in 0..=options.max_stones {
        if k % 2 == 1 {
            levels.push(Vec::new());
            continue;
        }
        let started = Instant::now();
        let existing = options
            .out
            .as_deref()
            .filter(|dir| !options.rebuild && file::level_path(dir, k).exists());
        let (values, solved) = match existing {
            Some(dir) => (file::load_level(dir, k)?, None),
            None => {
                let (values, times) = solve_level(k, &levels);
                (values, Some(times))
            }
        };
        let file_started = Instant::now();
        if solved.is_some()
            && let Some(dir) = &options.out
        {
            file::save_level(dir, k, &values)?;
        }
        let file_time = if solved.is_some() {
            file_started.elapsed()
        } else {
            started.elapsed()
        };
        let histogram = Histogram::of(&values);
        levels.push(values);
        let verify_started = Instant::now();
        let verification =
            (options.verify && k >= options.verify_from).then(|| verify_level(k, &levels));
        let verify_time = verify_started.elapsed();
        let report = LevelReport {
            stones: k,
            entries: level_size(k),
            solved,
            file_time,
            verification: verification.clone(),
            verify_time,
            histogram,
            memory: memory_usage(),
        };
        on_level(&report);
        if let Some(error) = verification.as_ref().and_then(Verification::failure) {
            return Err(error);
        }
    }
    Ok(Tablebase { levels })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Family, Variant};

    #[test]
    fn limits_are_checked() {
        assert!(check_limit(0).is_ok());
        assert!(check_limit(50).is_ok());
        assert_eq!(check_limit(7), Err(TableError::BadLimit(7)));
        assert_eq!(check_limit(52), Err(TableError::BadLimit(52)));
        assert!(TableError::BadLimit(7).to_string().contains("even"));
    }

    #[test]
    fn small_levels_agree_with_their_children() {
        let table = Tablebase::build_in_memory(12);
        for k in (0..=12).step_by(2) {
            let check = verify_level(k, table.levels());
            assert_eq!(check.mismatches, 0, "level {k}: {:?}", check.examples);
            assert_eq!(check.checked, level_size(k));
        }
        assert_eq!(table.max_stones(), 12);
    }

    #[test]
    fn a_wrong_entry_is_found() {
        let table = Tablebase::build_in_memory(6);
        let mut levels = table.levels().to_vec();
        levels[6][1234] = (levels[6][1234] as i8 + 2) as u8;
        let check = verify_level(6, &levels);
        assert!(check.mismatches >= 1);
        assert_eq!(check.examples[0].rank, 1234);
    }

    #[test]
    fn verify_from_checks_only_the_levels_from_it() {
        let options = BuildOptions {
            max_stones: 8,
            out: None,
            verify: true,
            verify_from: 6,
            rebuild: true,
        };
        let mut checked = Vec::new();
        build(&options, |report| {
            if let Some(check) = &report.verification {
                assert_eq!(check.mismatches, 0);
                checked.push(report.stones);
            }
        })
        .unwrap();
        assert_eq!(checked, vec![6, 8]);
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let dir = std::env::temp_dir().join(format!("tuzdik-solve-{}", std::process::id()));
        let options = BuildOptions {
            max_stones: 8,
            out: Some(dir.clone()),
            verify: true,
            verify_from: 0,
            rebuild: true,
        };
        let mut solved = 0;
        let built = build(&options, |report| {
            assert!(report.solved.is_some());
            assert_eq!(report.verification.as_ref().unwrap().mismatches, 0);
            solved += 1;
        })
        .unwrap();
        assert_eq!(solved, 5);
        let loaded = Tablebase::load(&dir, None).unwrap();
        assert_eq!(loaded.levels(), built.levels());
        assert_eq!(Tablebase::load(&dir, Some(8)).unwrap().max_stones(), 8);
        assert!(Tablebase::load(&dir, Some(10)).is_err());
        // A resumed build loads what is there.
        let resumed = build(
            &BuildOptions {
                rebuild: false,
                ..options.clone()
            },
            |report| assert!(report.solved.is_none()),
        )
        .unwrap();
        assert_eq!(resumed.levels(), built.levels());
        // One flipped byte and the checksum refuses the file.
        let path = file::level_path(&dir, 8);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[file::HEADER_LEN + 100] ^= 2;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            file::load_level(&dir, 8),
            Err(TableError::BadFile { .. })
        ));
        bytes.truncate(file::HEADER_LEN + 10);
        std::fs::write(&path, &bytes).unwrap();
        assert!(file::load_level(&dir, 8).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn probes_and_move_values() {
        let table = Tablebase::build_in_memory(10);
        let variant = Variant::new(Family::Bestemshchi);
        let pos = Position::parse_with("0,0,0,0,1/1,0,0,0,0 24 24 b", variant).unwrap();
        // North to move: its hole 1 stone goes to its hole 2, then South takes nothing... the
        // table knows; what matters here is that probe and move values agree.
        let value = table.probe(&pos).unwrap();
        let moves = table.move_values(&pos).unwrap();
        assert_eq!(moves.iter().map(|&(_, v)| v).max(), Some(value));
        // Other variants and odd or too many stones: no answer.
        let togyz = Position::start(Variant::TOGYZ);
        assert_eq!(table.probe(&togyz), None);
        let start = Position::start(variant);
        assert_eq!(table.probe(&start), None);
        let tuzdik =
            Position::parse_with("0,0,0,0,1/1,0,0,0,0 24 24 b", variant.with_tuzdik(true)).unwrap();
        assert_eq!(table.probe(&tuzdik), None);
        let odd = Position::parse_with("0,0,0,0,1/0,0,0,0,0 25 24 w", variant).unwrap();
        assert_eq!(table.probe(&odd), None);
    }

    #[test]
    fn histogram_summary() {
        let values = [0u8, 2, (-2i8) as u8, 4];
        let histogram = Histogram::of(&values);
        assert_eq!(histogram.bins[50], 1);
        assert_eq!(histogram.bins[54], 1);
        let line = histogram.summary();
        assert!(line.contains("=0 25.00%"), "{line}");
        assert!(line.contains("range -2..4"), "{line}");
        assert!(memory_needed(36) > 2_000_000_000);
    }
}
