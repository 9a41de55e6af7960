//! A solved table of any [`BoardFamily`]: its levels, how they are built (solved or loaded,
//! level by level, checked and written), and how a position is looked up.

use std::path::PathBuf;
use std::time::Instant;

use super::family::{BoardFamily, Ranking};
use super::level::solve_level;
use super::report::{Histogram, LevelReport, memory_usage};
use super::verify::{Verification, verify_level};
use super::{TableError, file};
use crate::moves::Move;
use crate::position::Position;

/// The values of every board of one family with up to [`max_stones`](Self::max_stones)
/// stones: level `k` holds one `i8` (as its byte) per index of its numbering. Levels whose
/// stone count cannot occur (odd ones for Bestemshchi) are empty.
#[derive(Clone, Debug)]
pub struct Table<F: BoardFamily> {
    family: F,
    levels: Vec<Vec<u8>>,
    indexes: Vec<F::Level>,
}

/// What a build does: the Bestemshchi [`build`](crate::solve::bestemshchi::build) takes it as
/// it is, the Toguz build makes it from its options.
#[derive(Clone, Debug)]
pub struct BuildPlan {
    /// The largest stone count.
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

impl<F: BoardFamily> Table<F> {
    /// Whether level `k` occurs (its stone count is a multiple of the family's step).
    fn occurs(k: u32) -> bool {
        k.is_multiple_of(F::STEP)
    }

    /// A table made of the given levels (`levels[k]` for every `k` up to the limit, those
    /// that cannot occur empty). Panics if a level has the wrong size.
    pub(crate) fn from_parts(family: F, levels: Vec<Vec<u8>>) -> Table<F> {
        let indexes: Vec<F::Level> = (0..levels.len() as u32).map(|k| family.level(k)).collect();
        for (k, (level, index)) in levels.iter().zip(&indexes).enumerate() {
            let want = if Self::occurs(k as u32) {
                index.size()
            } else {
                0
            };
            assert_eq!(level.len() as u64, want, "level {k} has the wrong size");
        }
        Table {
            family,
            levels,
            indexes,
        }
    }

    /// Solves the levels up to `max_stones` in memory with the current rayon pool (no
    /// files, no checks).
    pub(crate) fn solve_in_memory(family: F, max_stones: u32) -> Table<F> {
        let indexes: Vec<F::Level> = (0..=max_stones).map(|k| family.level(k)).collect();
        let mut levels = Vec::new();
        for k in 0..=max_stones {
            let values = if Self::occurs(k) {
                solve_level(family, k, &levels, &indexes).0
            } else {
                Vec::new()
            };
            levels.push(values);
        }
        Table {
            family,
            levels,
            indexes,
        }
    }

    /// Builds (or loads, or resumes) the levels up to `plan.max_stones` with the current
    /// rayon pool, reporting each level to `on_level`. The limit must have been checked.
    pub(crate) fn build_levels(
        family: F,
        plan: &BuildPlan,
        mut on_level: impl FnMut(&LevelReport),
    ) -> Result<Table<F>, TableError> {
        let indexes: Vec<F::Level> = (0..=plan.max_stones).map(|k| family.level(k)).collect();
        let mut levels: Vec<Vec<u8>> = Vec::new();
        for k in 0..=plan.max_stones {
            if !Self::occurs(k) {
                levels.push(Vec::new());
                continue;
            }
            let started = Instant::now();
            let existing = plan
                .out
                .as_deref()
                .filter(|dir| !plan.rebuild && family.level_path(dir, k).exists());
            let (values, solved) = match existing {
                Some(dir) => (file::load_level(family, dir, k)?, None),
                None => {
                    let (values, times) = solve_level(family, k, &levels, &indexes);
                    (values, Some(times))
                }
            };
            let file_started = Instant::now();
            if solved.is_some()
                && let Some(dir) = &plan.out
            {
                file::save_level(family, dir, k, &values)?;
            }
            let file_time = if solved.is_some() {
                file_started.elapsed()
            } else {
                started.elapsed()
            };
            let histogram = Histogram::of(&values);
            levels.push(values);
            let verify_started = Instant::now();
            let verification = (plan.verify && k >= plan.verify_from)
                .then(|| verify_level(family, k, &levels, &indexes));
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
                return Err(error);
            }
        }
        Ok(Table {
            family,
            levels,
            indexes,
        })
    }

    /// The board family the table is for.
    pub fn family(&self) -> F {
        self.family
    }

    /// The largest stone count covered.
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

    /// The numbering of level `k`, if the table reaches it.
    pub fn level_index(&self, k: u32) -> Option<&F::Level> {
        self.indexes.get(k as usize)
    }

    /// Writes every level that occurs to `dir`.
    pub fn save(&self, dir: &std::path::Path) -> Result<(), TableError> {
        for (k, values) in self.levels.iter().enumerate() {
            if Self::occurs(k as u32) {
                file::save_level(self.family, dir, k as u32, values)?;
            }
        }
        Ok(())
    }

    /// Checks every entry of level `k` (it must be in the table) against its children.
    pub fn verify_level(&self, k: u32) -> Verification {
        verify_level(self.family, k, &self.levels, &self.indexes)
    }

    /// The value of a board (mover's row first), if its level is in the table.
    #[inline]
    pub fn value(&self, board: &F::Board) -> Option<i32> {
        let k = F::stones(board) as usize;
        let i = self.indexes.get(k)?.index(board)?;
        let value = *self.levels.get(k)?.get(i as usize)?;
        Some(i32::from(value as i8))
    }

    /// The future margin the side to move can force: the stones it will still add to its
    /// kazan minus those the opponent will, with best play by both, rule 3b and rule 3c (a
    /// repetition shares the board, margin 0), and the game's history starting here. `None`
    /// for other rules or beyond the table's stones.
    ///
    /// Rule 3a is not applied: the winner is `sign(own kazan - other kazan + value)` whatever
    /// the kazans are.
    pub fn probe(&self, pos: &Position) -> Option<i32> {
        self.value(&self.family.board_of(pos)?)
    }

    /// The table's value of every legal move of `pos` for its mover, lowest hole first: the
    /// stones the move puts into the mover's kazan (a capture, its own tuzdik's income, a new
    /// tuzdik's 3) minus those it puts into the opponent's (sown into the opponent's tuzdik),
    /// minus the child's value. `None` when [`probe`](Self::probe) would be `None`.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        let board = self.family.board_of(pos)?;
        self.value(&board)?;
        let mut moves = Vec::new();
        for hole in 0..self.family.row() {
            if F::stones_in(&board, hole) == 0 {
                continue;
            }
            let played = self.family.sow(&board, hole);
            let child = self.value(&played.child)?;
            moves.push((Move::hole(hole as u8 + 1), played.gain - child));
        }
        Some(moves)
    }
}
