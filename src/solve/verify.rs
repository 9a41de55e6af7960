//! Checking a level against its children: every entry must equal the best, over its moves, of
//! `gain - V(child)` (the child in a lower level when stones went to a kazan, in the same
//! level otherwise), and a finished board must hold minus its stones (rule 3b).
//!
//! This is the fixed-point (Bellman) condition. It is necessary, not sufficient: inside a cycle
//! of quiet moves a wrong assignment can satisfy it (two boards that each "win" through the
//! other). The retrograde construction rules that out (docs/solve.md), and the tests compare
//! the small levels with plain solvers that follow the rules with an explicit history.

use rayon::prelude::*;

use super::family::{BoardFamily, Ranking, stored, terminal_value};

/// Boards per parallel work item.
const CHUNK: usize = 1 << 14;

/// One entry that disagrees with its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The level.
    pub stones: u32,
    /// The rank of the board.
    pub rank: u64,
    /// What the table holds.
    pub stored: i32,
    /// The best over the children.
    pub expected: i32,
}

/// What a level's check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verification {
    /// Entries checked.
    pub checked: u64,
    /// Entries that disagree.
    pub mismatches: u64,
    /// The first few of them (lowest ranks first).
    pub examples: Vec<Mismatch>,
}

impl Verification {
    /// The build error this check amounts to: none, or the mismatch count with the first.
    pub(crate) fn failure(&self) -> Option<super::TableError> {
        let first = *self.examples.first()?;
        (self.mismatches > 0).then_some(super::TableError::Mismatch {
            count: self.mismatches,
            first,
        })
    }
}

/// The value of `board` recomputed from its children in `levels` (its own level included).
pub fn best_over_children<F: BoardFamily>(
    family: F,
    board: &F::Board,
    levels: &[Vec<u8>],
    indexes: &[F::Level],
) -> i32 {
    if family.mover_row_empty(board) {
        return terminal_value::<F>(board);
    }
    let stones = F::stones(board);
    (0..family.row())
        .filter(|&hole| F::stones_in(board, hole) > 0)
        .map(|hole| {
            let played = family.sow(board, hole);
            played.gain - stored::<F>(levels, indexes, &played.child, stones - played.removed)
        })
        .max()
        .unwrap_or(i32::MIN)
}

/// Checks every entry of level `k` against `levels` (which must hold every level up to `k`).
pub fn verify_level<F: BoardFamily>(
    family: F,
    k: u32,
    levels: &[Vec<u8>],
    indexes: &[F::Level],
) -> Verification {
    let index = &indexes[k as usize];
    assert_eq!(
        levels[k as usize].len() as u64,
        index.size(),
        "level {k} has the wrong size"
    );
    check_entries(
        k,
        &levels[k as usize],
        |start| index.cursor(start),
        |cursor| {
            index.advance(cursor);
        },
        |cursor| best_over_children(family, F::Level::board_at(cursor), levels, indexes),
    )
}

/// Compares every entry of level `k`, `stored`, with what `expected` recomputes for its
/// board, in parallel chunks. A chunk finds its first board with `first(rank)` and walks on
/// in rank order with `advance`.
fn check_entries<B>(
    k: u32,
    stored: &[u8],
    first: impl Fn(u64) -> B + Sync,
    advance: impl Fn(&mut B) + Sync,
    expected: impl Fn(&B) -> i32 + Sync,
) -> Verification {
    let size = stored.len();
    let found: Vec<(u64, Vec<Mismatch>)> = (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(size);
            let mut board = first(start as u64);
            let mut bad = 0u64;
            let mut examples = Vec::new();
            for (i, &entry) in stored.iter().enumerate().take(end).skip(start) {
                if i > start {
                    advance(&mut board);
                }
                let held = i32::from(entry as i8);
                let recomputed = expected(&board);
                if held != recomputed {
                    bad += 1;
                    if examples.len() < 8 {
                        examples.push(Mismatch {
                            stones: k,
                            rank: i as u64,
                            stored: held,
                            expected: recomputed,
                        });
                    }
                }
            }
            (bad, examples)
        })
        .collect();
    let mut report = Verification {
        checked: size as u64,
        ..Verification::default()
    };
    for (bad, mut examples) in found {
        report.mismatches += bad;
        if report.examples.len() < 8 {
            report.examples.append(&mut examples);
        }
    }
    report.examples.truncate(8);
    report
}
