//! Solving one level (all boards with the same number of stones) exactly, given the lower
//! levels, for any [`BoardFamily`]. See docs/solve.md and docs/solve-toguz.md for the
//! algorithm and its proof; in short:
//!
//! 1. A forward pass finds for every board its best *exit*: a move that puts stones into a
//!    kazan (a capture, a tuzdik's income, a new tuzdik), worth `gain - V(child)` with the
//!    child in a lower level, or a quiet move to a finished board, worth `k`. It counts the
//!    quiet moves to unfinished boards of the level (the *graph moves*).
//! 2. For each threshold `t = k, k - s, .., s` (`s` the family's [`BoardFamily::STEP`]: 2 when
//!    every margin is even) a retrograde attractor adds the boards whose mover can force at
//!    least `t` (value `t`) and those whose opponent can (value `-t`): a board is won at `t`
//!    when an exit is worth `t` or a graph move leads to a board lost at `t`; it is lost at
//!    `t` when every graph move leads to a board won at `t` and no exit is worth more than
//!    `-t`. The counters of refuted moves carry over from one threshold to the next, so each
//!    board is expanded (its parents generated) at most once.
//! 3. Boards never reached are worth 0: their mover can keep the game inside the level away
//!    from every loss and the opponent likewise, so play ends by repetition (rule 3c) or by an
//!    exit worth 0.
//!
//! Each board has one 16-bit cell while the level is solved: the low byte holds the counter
//! of graph moves not yet refuted and two flags, the high byte the best exit while the board
//! is undecided and its value once it is decided. One atomic operation on one cell decides or
//! counts off a board, so the parallel workers need no locks.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::family::{BoardFamily, Ranking, stored};

/// Counter of graph moves not yet refuted (at most 9, Toguz Kumalak's row).
const COUNT_MASK: u16 = 0b1111;
/// The board's value is known (and in the high byte).
const DECIDED: u16 = 1 << 4;
/// Decided but its parents are not yet updated (a worker's stack was full).
const PENDING: u16 = 1 << 5;
/// The low byte.
const LOW: u16 = 0xff;
/// "No exit": below every threshold.
const NO_EXIT: i8 = i8::MIN;
/// Boards per parallel work item.
const CHUNK: usize = 1 << 14;
/// Decided boards a worker keeps on its stack before it marks them pending instead.
const STACK_LIMIT: usize = 1 << 20;
/// A stack this long gives half of itself to another worker (work stealing keeps both cores
/// busy when one seed's attractor is large)...
const SPLIT: usize = 1 << 12;
/// ...while fewer than this many handed-off stacks are waiting (bounding their memory).
const MAX_TASKS: usize = 1 << 12;

/// How long the parts of a level's solve took.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveTimes {
    /// The forward pass (moves, exits, counters).
    pub forward: Duration,
    /// The thresholds' scans and retrograde propagation.
    pub retrograde: Duration,
    /// Boards expanded by the retrograde part (decided boards inside the graph).
    pub expanded: u64,
}

#[inline(always)]
fn high(cell: u16) -> i32 {
    i32::from((cell >> 8) as u8 as i8)
}

#[inline(always)]
fn with_high(low: u16, value: i32) -> u16 {
    (u16::from(value as i8 as u8) << 8) | (low & LOW)
}

/// Parents gathered before their cells are loaded: a batch of boards' parents.
const PARENT_BUFFER: usize = 400;
/// Boards whose parents are gathered together at most.
const BATCH: usize = 8;

/// A worker's scratch space for one batch of parents: made once per work item, not per
/// drained seed (most seeds decide few boards, and clearing 7 KB each time would cost more
/// than their work).
struct Batch {
    /// Each parent's index and whether its child was won.
    parents: [(usize, bool); PARENT_BUFFER],
    /// The parents' cells as loaded.
    seen: [u16; PARENT_BUFFER],
}

impl Batch {
    fn new() -> Batch {
        Batch {
            parents: [(0, false); PARENT_BUFFER],
            seen: [0; PARENT_BUFFER],
        }
    }
}

/// Solves level `k` of `family` (`lower[j]` holding level `j` for every level `j < k`,
/// `indexes[j]` the numbering of level `j` for every `j <= k`). Returns one `i8` (as its
/// byte) per index.
pub fn solve_level<F: BoardFamily>(
    family: F,
    k: u32,
    lower: &[Vec<u8>],
    indexes: &[F::Level],
) -> (Vec<u8>, SolveTimes) {
    let index = &indexes[k as usize];
    let size = index.size() as usize;
    for j in (k % F::STEP..k).step_by(F::STEP as usize) {
        assert_eq!(
            lower[j as usize].len() as u64,
            indexes[j as usize].size(),
            "level {j} is missing"
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
                *cell.get_mut() = forward(family, F::Level::board_at(&cursor), k, lower, indexes);
            }
        });
    times.forward = started.elapsed();

    let started = Instant::now();
    let solver = Retrograde {
        family,
        index,
        cells: &cells,
        expanded: AtomicU64::new(0),
        tasks: AtomicUsize::new(0),
    };
    let chunks = size.div_ceil(CHUNK);
    let step = F::STEP as i32;
    for t in (step..=k as i32).rev().step_by(step as usize) {
        rayon::scope(|scope| {
            (0..chunks).into_par_iter().for_each(|chunk| {
                let mut stack = Vec::new();
                let mut batch = Batch::new();
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
                        stack.push(i);
                        solver.drain(&mut stack, t, scope, &mut batch);
                    }
                }
            });
        });
        // Boards left pending by a full stack, until none is left.
        loop {
            let any = AtomicBool::new(false);
            rayon::scope(|scope| {
                (0..chunks).into_par_iter().for_each(|chunk| {
                    let mut stack = Vec::new();
                    let mut batch = Batch::new();
                    for i in chunk * CHUNK..(chunk * CHUNK + CHUNK).min(size) {
                        if solver.cells[i].load(Ordering::Relaxed) & PENDING != 0 {
                            solver.cells[i].fetch_and(!PENDING, Ordering::Relaxed);
                            any.store(true, Ordering::Relaxed);
                            stack.push(i);
                            solver.drain(&mut stack, t, scope, &mut batch);
                        }
                    }
                });
            });
            if !any.load(Ordering::Relaxed) {
                break;
            }
        }
    }
    times.retrograde = started.elapsed();
    times.expanded = solver.expanded.into_inner();
    // Undecided boards are worth 0.
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
fn forward<F: BoardFamily>(
    family: F,
    board: &F::Board,
    k: u32,
    lower: &[Vec<u8>],
    indexes: &[F::Level],
) -> u16 {
    if family.mover_row_empty(board) {
        return with_high(DECIDED, -(k as i32));
    }
    let mut best = i32::from(NO_EXIT);
    let mut count = 0u16;
    for hole in 0..family.row() {
        if F::stones_in(board, hole) == 0 {
            continue;
        }
        let played = family.sow(board, hole);
        if played.removed > 0 {
            let child = stored::<F>(lower, indexes, &played.child, k - played.removed);
            best = best.max(played.gain - child);
        } else if family.mover_row_empty(&played.child) {
            best = best.max(k as i32);
        } else {
            count += 1;
        }
    }
    with_high(count, best)
}

/// The shared state of the retrograde part.
struct Retrograde<'a, F: BoardFamily> {
    family: F,
    index: &'a F::Level,
    cells: &'a [AtomicU16],
    /// Boards expanded so far.
    expanded: AtomicU64,
    /// Stacks handed to other workers and not yet finished.
    tasks: AtomicUsize,
}

impl<F: BoardFamily> Retrograde<'_, F> {
    /// Replaces cell `i`, unless its board is decided already, by what `change` makes of it:
    /// the new cell and whether that decides the board. One compare-and-swap loop, so no other
    /// worker's change is lost; `true` if this call decided the board. `now` is a recent load
    /// of the cell.
    #[inline(always)]
    fn update(&self, i: usize, mut now: u16, change: impl Fn(u16) -> (u16, bool)) -> bool {
        let cell = &self.cells[i];
        loop {
            if now & DECIDED != 0 {
                return false;
            }
            let (new, decided) = change(now);
            match cell.compare_exchange_weak(now, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return decided,
                Err(seen) => now = seen,
            }
        }
    }

    /// Decides board `i` at `value` unless it is decided already; `true` if this call did it.
    #[inline(always)]
    fn decide(&self, i: usize, value: i32, now: u16) -> bool {
        self.update(i, now, |now| (with_high(now | DECIDED, value), true))
    }

    /// One graph move of board `i` leads to a board won at `t` (or more): counts it off, and
    /// decides `i` lost at `t` when no graph move is left and no exit is worth more than
    /// `-t`. `true` if this call decided it.
    #[inline(always)]
    fn refute(&self, i: usize, t: i32, now: u16) -> bool {
        self.update(i, now, |now| {
            let left = (now & COUNT_MASK).wrapping_sub(1);
            debug_assert!(left < COUNT_MASK, "more refutations than graph moves");
            if left == 0 && high(now) <= -t {
                (with_high((now & !COUNT_MASK) | DECIDED, -t), true)
            } else {
                ((now & !COUNT_MASK) | (left & COUNT_MASK), false)
            }
        })
    }

    /// Expands the decided boards on `stack` (and those they decide) at threshold `t`,
    /// handing half of a long stack to another worker of `scope`.
    ///
    /// Boards are taken a few at a time and all their parents' cells are loaded before any is
    /// updated: the loads are independent, so their cache misses overlap.
    fn drain<'s>(
        &'s self,
        stack: &mut Vec<usize>,
        t: i32,
        scope: &rayon::Scope<'s>,
        batch: &mut Batch,
    ) {
        const { assert!(F::MOST_PARENTS <= PARENT_BUFFER) };
        let Batch { parents, seen } = batch;
        let mut expanded = 0;
        while !stack.is_empty() {
            if stack.len() >= SPLIT && self.tasks.load(Ordering::Relaxed) < MAX_TASKS {
                let mut half = stack.split_off(stack.len() / 2);
                self.tasks.fetch_add(1, Ordering::Relaxed);
                scope.spawn(move |scope| {
                    self.drain(&mut half, t, scope, &mut Batch::new());
                    self.tasks.fetch_sub(1, Ordering::Relaxed);
                });
            }
            let mut found = 0;
            for _ in 0..BATCH {
                if found + F::MOST_PARENTS > PARENT_BUFFER {
                    break;
                }
                let Some(i) = stack.pop() else { break };
                expanded += 1;
                let won = high(self.cells[i].load(Ordering::Relaxed)) > 0;
                let board = self.index.board(i as u64);
                self.family.for_each_parent(&board, |parent| {
                    if let Some(p) = self.index.index(parent) {
                        parents[found] = (p as usize, won);
                        found += 1;
                    }
                });
            }
            for (slot, &(p, _)) in seen.iter_mut().zip(&parents[..found]) {
                *slot = self.cells[p].load(Ordering::Relaxed);
            }
            for (&(p, won), &now) in parents[..found].iter().zip(seen.iter()) {
                // A parent of a lost board wins at t; a parent of a won board loses a move.
                let decided = if won {
                    self.refute(p, t, now)
                } else {
                    self.decide(p, t, now)
                };
                if decided {
                    if stack.len() < STACK_LIMIT {
                        stack.push(p);
                    } else {
                        self.cells[p].fetch_or(PENDING, Ordering::Relaxed);
                    }
                }
            }
        }
        self.expanded.fetch_add(expanded, Ordering::Relaxed);
    }
}
