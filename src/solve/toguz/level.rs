//! Solving one level (every board with `k` stones and any tuzdiks) exactly, given the lower
//! levels. The method and its proof are in docs/solve-toguz.md; in short:
//!
//! 1. A forward pass finds for every board its best *exit*: a move that puts stones into a
//!    kazan (a capture, a tuzdik's income on either side, a new tuzdik), worth
//!    `own - opp - V(child)` with the child in a lower level, or a quiet move to a finished
//!    board, worth `k`. It counts the other moves, the quiet ones to unfinished boards of the
//!    level (the *graph moves*).
//! 2. For each threshold `t = k, k - 1, .., 1` (margins of every parity occur: a tuzdik takes
//!    single stones and a new one 3) a retrograde attractor adds the boards whose mover can
//!    force at least `t` (value `t`) and those whose opponent can (value `-t`). A board is won
//!    at `t` when an exit is worth `t` or a graph move leads to a board lost at `t`; it is lost
//!    at `t` when every graph move leads to a board won at `t` and no exit is worth more than
//!    `-t`. Refuted graph moves stay refuted at lower thresholds, so the counters carry over
//!    and each board is expanded (its parents generated) at most once.
//! 3. Boards never decided are worth 0: both sides can keep play inside the level away from
//!    any loss, so it ends by a repetition (rule 3c: the board is shared, margin 0) or by an
//!    exit worth 0.
//!
//! One 16-bit cell per board while the level is solved: the low byte holds the count of
//! graph moves not yet refuted and a flag, the high byte the best exit while the board is
//! undecided and its value once decided. One compare-and-swap on one cell decides or counts
//! off a board, so the rayon workers need no locks.

pub use crate::solve::level::SolveTimes;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::board::{Board, Geometry, for_each_parent, play};
use super::index::LevelIndex;

/// Graph moves not yet refuted (at most 9).
const COUNT_MASK: u16 = 0b1111;
/// The board's value is known (and in the high byte).
const DECIDED: u16 = 1 << 4;
/// The low byte.
const LOW: u16 = 0xff;
/// "No exit": below every threshold.
const NO_EXIT: i8 = i8::MIN;
/// Boards per parallel work item.
const CHUNK: usize = 1 << 14;
/// A stack this long gives half of itself to another worker (so both cores stay busy when one
/// seed's attractor is large)...
const SPLIT: usize = 1 << 12;
/// ...while fewer than this many handed-off stacks are waiting.
const MAX_TASKS: usize = 1 << 10;

#[inline(always)]
fn high(cell: u16) -> i32 {
    i32::from((cell >> 8) as u8 as i8)
}

#[inline(always)]
fn with_high(low: u16, value: i32) -> u16 {
    (u16::from(value as i8 as u8) << 8) | (low & LOW)
}

/// The value of `board` (with `stones` stones) in the levels below, or in `levels[stones]`.
#[inline(always)]
pub(super) fn stored(levels: &[Vec<u8>], indexes: &[LevelIndex], board: &Board) -> i32 {
    let k = board.stones() as usize;
    // Boards made by the rules always have a reachable tuzdik state.
    let i = indexes[k].index(board).unwrap_or(0) as usize;
    i32::from(levels[k][i] as i8)
}

/// Solves level `k` of rules `g` (`lower[j]` holding level `j` for every `j < k`, `indexes[j]`
/// the index of level `j` for every `j <= k`). Returns one `i8` (as its byte) per index.
pub fn solve_level(
    g: Geometry,
    k: u32,
    lower: &[Vec<u8>],
    indexes: &[LevelIndex],
) -> (Vec<u8>, SolveTimes) {
    let index = &indexes[k as usize];
    let size = index.size() as usize;
    for j in 0..k as usize {
        assert_eq!(
            lower[j].len() as u64,
            indexes[j].size(),
            "level {j} missing"
        );
    }
    let mut times = SolveTimes::default();
    let started = Instant::now();
    let mut cells: Vec<AtomicU16> = Vec::new();
    cells.par_extend((0..size).into_par_iter().map(|_| AtomicU16::new(0)));
    cells
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, cells)| {
            let mut cursor = index.cursor((chunk * CHUNK) as u64);
            for (i, cell) in cells.iter_mut().enumerate() {
                if i > 0 {
                    index.advance(&mut cursor);
                }
                *cell.get_mut() = forward(g, cursor.board(), k, lower, indexes);
            }
        });
    times.forward = started.elapsed();

    let started = Instant::now();
    let solver = Retrograde {
        g,
        index,
        cells: &cells,
        expanded: AtomicU64::new(0),
        tasks: AtomicUsize::new(0),
    };
    let chunks = size.div_ceil(CHUNK);
    for t in (1..=k as i32).rev() {
        rayon::scope(|scope| {
            (0..chunks).into_par_iter().for_each(|chunk| {
                let mut stack = Vec::new();
                for i in chunk * CHUNK..(chunk * CHUNK + CHUNK).min(size) {
                    let cell = solver.cells[i].load(Ordering::Relaxed);
                    if cell & DECIDED != 0 {
                        continue;
                    }
                    let exit = high(cell);
                    let value = if exit == t {
                        t
                    } else if exit <= -t && cell & COUNT_MASK == 0 {
                        -t
                    } else {
                        continue;
                    };
                    if solver.decide(i, value, cell) {
                        stack.push(i as u32);
                        solver.drain(&mut stack, t, scope);
                    }
                }
            });
        });
    }
    times.retrograde = started.elapsed();
    times.expanded = solver.expanded.into_inner();
    let mut values = Vec::new();
    values.par_extend(cells.par_iter().map(|cell| {
        let cell = cell.load(Ordering::Relaxed);
        if cell & DECIDED != 0 {
            (cell >> 8) as u8
        } else {
            0
        }
    }));
    (values, times)
}

/// The first cell of a board: decided at `-k` when the mover has no stone (rule 3b),
/// otherwise its best exit and its number of graph moves.
#[inline(always)]
fn forward(g: Geometry, board: &Board, k: u32, lower: &[Vec<u8>], indexes: &[LevelIndex]) -> u16 {
    if board.mover_row_empty(g) {
        return with_high(DECIDED, -(k as i32));
    }
    let mut best = i32::from(NO_EXIT);
    let mut count = 0u16;
    for hole in 0..g.n {
        if board.holes[hole] == 0 {
            continue;
        }
        let played = play(g, board, hole);
        if !played.quiet() {
            best = best.max(played.gain() - stored(lower, indexes, &played.child));
        } else if played.child.mover_row_empty(g) {
            best = best.max(k as i32);
        } else {
            count += 1;
        }
    }
    with_high(count, best)
}

/// The shared state of the retrograde part.
struct Retrograde<'a> {
    g: Geometry,
    index: &'a LevelIndex,
    cells: &'a [AtomicU16],
    /// Boards expanded so far.
    expanded: AtomicU64,
    /// Stacks handed to other workers and not yet finished.
    tasks: AtomicUsize,
}

impl Retrograde<'_> {
    /// Decides board `i` at `value` unless it is decided already; `true` if this call did it.
    /// `now` is a recent load of the cell.
    #[inline(always)]
    fn decide(&self, i: usize, value: i32, mut now: u16) -> bool {
        let cell = &self.cells[i];
        loop {
            if now & DECIDED != 0 {
                return false;
            }
            let new = with_high(now | DECIDED, value);
            match cell.compare_exchange_weak(now, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return true,
                Err(seen) => now = seen,
            }
        }
    }

    /// One graph move of board `i` leads to a board won at `t` or more: counts it off, and
    /// decides `i` lost at `t` when no graph move is left and no exit is worth more than
    /// `-t`. `true` if this call decided it.
    #[inline(always)]
    fn refute(&self, i: usize, t: i32) -> bool {
        let cell = &self.cells[i];
        let mut now = cell.load(Ordering::Relaxed);
        loop {
            if now & DECIDED != 0 {
                return false;
            }
            let left = (now & COUNT_MASK).wrapping_sub(1);
            debug_assert!(left < 9, "more refutations than graph moves");
            let lost = left == 0 && high(now) <= -t;
            let new = if lost {
                with_high((now & !COUNT_MASK) | DECIDED, -t)
            } else {
                (now & !COUNT_MASK) | (left & COUNT_MASK)
            };
            match cell.compare_exchange_weak(now, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return lost,
                Err(seen) => now = seen,
            }
        }
    }

    /// Expands the decided boards on `stack` (and those they decide) at threshold `t`,
    /// handing half of a long stack to another worker of `scope`.
    fn drain<'s>(&'s self, stack: &mut Vec<u32>, t: i32, scope: &rayon::Scope<'s>) {
        let mut expanded = 0;
        while let Some(i) = stack.pop() {
            if stack.len() >= SPLIT && self.tasks.load(Ordering::Relaxed) < MAX_TASKS {
                let mut half = stack.split_off(stack.len() / 2);
                self.tasks.fetch_add(1, Ordering::Relaxed);
                scope.spawn(move |scope| {
                    self.drain(&mut half, t, scope);
                    self.tasks.fetch_sub(1, Ordering::Relaxed);
                });
            }
            expanded += 1;
            let i = i as usize;
            let won = high(self.cells[i].load(Ordering::Relaxed)) > 0;
            let board = self.index.board(i as u64);
            for_each_parent(self.g, &board, |parent| {
                let Some(p) = self.index.index(parent) else {
                    return;
                };
                let p = p as usize;
                // A parent of a lost board wins at t; a parent of a won board loses a move.
                let decided = if won {
                    self.refute(p, t)
                } else {
                    self.decide(p, t, self.cells[p].load(Ordering::Relaxed))
                };
                if decided {
                    stack.push(p as u32);
                }
            });
        }
        self.expanded.fetch_add(expanded, Ordering::Relaxed);
    }
}
