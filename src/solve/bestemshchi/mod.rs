//! Bestemshchi without tuzdik, solved by the retrograde solver of [`crate::solve`]: for every
//! board with up to `N` stones, the best future margin the side to move can force. See
//! docs/solve.md for the definitions, the algorithm and its proof, the file format and the
//! figures.
//!
//! The future of a Bestemshchi position depends only on the board and the side to move (the
//! kazans only add up; rule 3a never changes the winner, see the docs), every capture takes an
//! even number of stones, and turning the board by five holes swaps the sides. So a table is
//! a list of levels, one per even stone count `k`, each an `i8` per board ranked by
//! [`index::rank`], mover's row first.
//!
//! ```
//! use tuzdik::solve::bestemshchi::Tablebase;
//! use tuzdik::{Family, Position, Variant};
//! let table = Tablebase::build_in_memory(6);
//! let pos = Position::parse_with("0,0,0,0,1/1,0,0,0,0 24 24 w", Variant::new(Family::Bestemshchi))
//!     .unwrap();
//! assert_eq!(table.probe(&pos), Some(2));
//! assert_eq!(table.max_stones(), 6);
//! ```

pub mod board;
pub mod file;
pub mod index;

use std::path::{Path, PathBuf};

use super::family::{BoardFamily, Sown};
use super::report::LevelReport;
use super::table::{BuildPlan, Table};
use super::{TableError, file as level_file};
use crate::position::Position;
use board::{Board, ROW};
use index::{LevelRanking, MAX_STONES, level_size};

/// The Bestemshchi board family (no tuzdik, standard switches): ten holes, every capture
/// even.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bestemshchi;

/// The Bestemshchi table: the values of every board with up to
/// [`max_stones`](Table::max_stones) stones (odd levels empty).
pub type Tablebase = Table<Bestemshchi>;

/// What [`build`] does.
pub type BuildOptions = BuildPlan;

impl BoardFamily for Bestemshchi {
    type Board = Board;
    type Level = LevelRanking;

    const STEP: u32 = 2;
    // At most 5 origins times 10 sowing lengths.
    const MOST_PARENTS: usize = 50;
    const HEADER_LEN: usize = file::HEADER_LEN;

    #[inline(always)]
    fn level(self, k: u32) -> LevelRanking {
        LevelRanking::new(k)
    }

    #[inline(always)]
    fn row(self) -> usize {
        ROW
    }

    #[inline(always)]
    fn stones_in(board: &Board, hole: usize) -> u8 {
        board[hole]
    }

    #[inline(always)]
    fn stones(board: &Board) -> u32 {
        board::stones(board)
    }

    #[inline(always)]
    fn mover_row_empty(self, board: &Board) -> bool {
        board::mover_row_empty(board)
    }

    #[inline(always)]
    fn sow(self, board: &Board, hole: usize) -> Sown<Board> {
        let played = board::play(board, hole);
        Sown {
            child: played.child,
            gain: i32::from(played.captured),
            removed: u32::from(played.captured),
        }
    }

    #[inline(always)]
    fn for_each_parent(self, board: &Board, found: impl FnMut(&Board)) {
        board::for_each_parent(board, found);
    }

    fn board_of(self, pos: &Position) -> Option<Board> {
        board::from_position(pos)
    }

    fn level_path(self, dir: &Path, k: u32) -> PathBuf {
        file::level_path(dir, k)
    }

    fn header(self, k: u32, values: &[u8]) -> Vec<u8> {
        file::header(k, values)
    }

    fn check_header(self, header: &[u8], k: u32) -> Result<u64, String> {
        file::check_header(header, k)
    }

    fn checksum_matches(self, header: &[u8], values: &[u8]) -> bool {
        file::checksum_matches(header, values)
    }
}

/// Checks a stone limit: even and at most 50.
pub fn check_limit(max_stones: u32) -> Result<(), TableError> {
    if max_stones % 2 == 1 || max_stones > MAX_STONES {
        return Err(TableError::BadLimit(max_stones));
    }
    Ok(())
}

/// Entries of the levels up to `max_stones` together.
pub fn total_entries(max_stones: u32) -> u64 {
    (0..=max_stones).step_by(2).map(level_size).sum()
}

/// The memory the method needs to build up to `max_stones`: every level's entries stay in
/// memory (captures reach any lower level), and the level being solved needs two more bytes
/// per entry (best exit and move counter).
pub fn memory_needed(max_stones: u32) -> u64 {
    total_entries(max_stones) + 2 * level_size(max_stones)
}

/// Builds (or loads, or resumes) the table level by level with the current rayon pool,
/// reporting each level.
pub fn build(
    options: &BuildOptions,
    on_level: impl FnMut(&LevelReport),
) -> Result<Tablebase, TableError> {
    check_limit(options.max_stones)?;
    Table::build_levels(Bestemshchi, options, on_level)
}

impl Table<Bestemshchi> {
    /// A table made of the given levels (`levels[k]` for every `k` up to the limit, odd ones
    /// empty). Panics if a level has the wrong size.
    pub fn from_levels(levels: Vec<Vec<u8>>) -> Tablebase {
        Table::from_parts(Bestemshchi, levels)
    }

    /// Builds the levels up to `max_stones` (even, at most 50) in memory with the current
    /// rayon pool (no files, no checks): for tests and small tables.
    pub fn build_in_memory(max_stones: u32) -> Tablebase {
        Table::solve_in_memory(Bestemshchi, max_stones)
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
            levels.push(level_file::load_level(Bestemshchi, dir, k)?);
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
        Ok(Table::from_levels(levels))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Histogram;
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
            let check = table.verify_level(k);
            assert_eq!(check.mismatches, 0, "level {k}: {:?}", check.examples);
            assert_eq!(check.checked, level_size(k));
        }
        assert_eq!(table.max_stones(), 12);
    }

    #[test]
    fn a_wrong_entry_is_found() {
        let mut table = Tablebase::build_in_memory(6);
        let levels = table.levels_mut();
        levels[6][1234] = (levels[6][1234] as i8 + 2) as u8;
        let check = table.verify_level(6);
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
