//! Perft: counting move sequences of a given length from a bare position (RULES.md: rules 3a
//! and 3b end a line, repetition is ignored). Leaves are bulk-counted: at depth 1 the answer is
//! the number of legal moves, so the last ply is never played.

use std::sync::atomic::{AtomicBool, Ordering};

use dashmap::DashMap;
use rayon::prelude::*;
use thiserror::Error;

use crate::moves::Move;
use crate::position::{
    Position, READ_SWITCHES, STANDARD_SWITCHES, has_standard_switches, with_row_len,
};

/// The deepest perft the tools accept (counts beyond this would not fit a `u64` for long, and
/// no machine finishes them).
pub const MAX_DEPTH: u32 = 30;

/// Why a perft did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PerftError {
    /// Stopped from outside before it finished.
    #[error("perft stopped before it finished")]
    Stopped,
    /// A thread pool could not be built.
    #[error("could not start {0} perft threads")]
    Threads(usize),
}

/// Perft on one thread with bulk counting.
///
/// ```
/// use tuzdik::{Position, Variant, perft::perft};
/// let start = Position::start(Variant::TOGYZ);
/// assert_eq!(perft(&start, 3), 613);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        _ if pos.variant().is_mangala() => count_any(pos, depth),
        _ => {
            if has_standard_switches(pos.variant()) {
                with_row_len!(pos.variant(), N => count::<N, STANDARD_SWITCHES>(pos, depth))
            } else {
                with_row_len!(pos.variant(), N => count::<N, READ_SWITCHES>(pos, depth))
            }
        }
    }
}

/// Perft through the public move interface, for variants without a specialised counter
/// (Mangala IV, whose relay sowing has no register path).
fn count_any(pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return u64::from(pos.legal_count());
    }
    let mut mask = pos.legal_mask();
    let mut total = 0;
    while mask != 0 {
        let bit = mask.trailing_zeros();
        mask &= mask - 1;
        let mut child = *pos;
        child.play_unhashed(bit);
        total += count_any(&child, depth - 1);
    }
    total
}

/// Perft for row length `N` and switch mode `S` (monomorphised: the ring arithmetic uses
/// constants, and with standard switches no switch is tested at all).
fn count<const N: usize, const STANDARD: bool>(pos: &Position, depth: u32) -> u64 {
    match depth {
        1 => u64::from(pos.legal_count_n::<N>()),
        2 => count_two::<N, STANDARD>(pos),
        _ => {
            let mut mask = pos.legal_mask_n::<N>();
            let base = pos.side_to_move().index() * N;
            let mut total = 0;
            while mask != 0 {
                let bit = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let mut child = *pos;
                child.make::<N, STANDARD, false>(base + bit);
                total += if depth == 3 {
                    count_two::<N, STANDARD>(&child)
                } else {
                    count::<N, STANDARD>(&child, depth - 1)
                };
            }
            total
        }
    }
}

/// Perft 2: the legal-move counts of the children, each worked out from bit sets of holes
/// without making the move.
#[inline(always)]
fn count_two<const N: usize, const STANDARD: bool>(pos: &Position) -> u64 {
    let leaves = pos.leaves::<N>();
    let mut mask = leaves.moves;
    let base = pos.side_to_move().index() * N;
    let mut total = 0;
    while mask != 0 {
        let bit = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        total += pos.count_after::<N, STANDARD>(&leaves, base + bit);
    }
    u64::from(total)
}

/// Options for the parallel and cached perft.
#[derive(Clone, Debug)]
pub struct PerftOptions {
    /// Worker threads (1 runs on the calling thread).
    pub threads: usize,
    /// Entries of the shared transposition cache, 0 for none. Subtrees of depth 3 and more are
    /// cached, keyed by the exact position and depth.
    pub cache_entries: usize,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions {
            threads: 1,
            cache_entries: 0,
        }
    }
}

struct Shared<'a> {
    cache: Option<DashMap<(Position, u32), u64>>,
    cache_limit: usize,
    stop: &'a AtomicBool,
}

impl Shared<'_> {
    fn count(&self, pos: &Position, depth: u32) -> Result<u64, PerftError> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(PerftError::Stopped);
        }
        match &self.cache {
            None if depth <= UNCHECKED_DEPTH => return Ok(perft(pos, depth)),
            Some(_) if depth < 3 => return Ok(perft(pos, depth)),
            _ => {}
        }
        if let Some(cache) = &self.cache
            && let Some(hit) = cache.get(&(*pos, depth))
        {
            return Ok(*hit);
        }
        let mut total = 0;
        for mv in pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(mv);
            total += self.count(&child, depth - 1)?;
        }
        if let Some(cache) = &self.cache
            && cache.len() < self.cache_limit
        {
            cache.insert((*pos, depth), total);
        }
        Ok(total)
    }
}

/// Subtrees at most this deep are counted without looking at the stop flag: a few
/// milliseconds each, so that `stop` ends a perft of any depth at once.
const UNCHECKED_DEPTH: u32 = 7;

/// Split the tree until there are this many work items...
const SPLIT_ITEMS: usize = 400;
/// ...or the items are this shallow (smaller subtrees are not worth a task each).
const SPLIT_MIN_DEPTH: u32 = 5;

/// The remaining depth of the work items (all the same), 0 for none.
fn depth_of(items: &[(usize, Position, u32)]) -> u32 {
    items.first().map_or(0, |item| item.2)
}

/// Divide: the count under each legal move, in move order. Runs on `options.threads` threads
/// (rayon), splitting the tree a few plies down (until there are a few hundred subtrees, or
/// they are only 5 plies deep) so that the work spreads evenly. Checks `stop` between
/// subtrees of at most 7 plies, so that a stop takes effect within milliseconds.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tuzdik::{Position, Variant, perft::{PerftOptions, divide}};
/// let start = Position::start(Variant::TOGYZ);
/// let options = PerftOptions { threads: 2, cache_entries: 0 };
/// let split = divide(&start, 4, &options, &AtomicBool::new(false)).unwrap();
/// assert_eq!(split.len(), 9);
/// assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 5199);
/// ```
pub fn divide(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: &AtomicBool,
) -> Result<Vec<(Move, u64)>, PerftError> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let shared = Shared {
        cache: (options.cache_entries > 0).then(DashMap::new),
        cache_limit: options.cache_entries,
        stop,
    };
    // Work items: (root move index, position, remaining depth), all at the same ply.
    let roots = pos.legal_moves();
    let mut items: Vec<(usize, Position, u32)> = roots
        .iter()
        .enumerate()
        .map(|(index, &mv)| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (index, child, depth - 1)
        })
        .collect();
    // Split further down while the items are few and big: subtrees differ a lot in size, and
    // with a few hundred of them work stealing keeps every thread busy to the end (with only
    // the 73 items two plies down, perft 9 on 2 threads took about a tenth longer).
    while items.len() < SPLIT_ITEMS && depth_of(&items) > SPLIT_MIN_DEPTH {
        let mut deeper = Vec::with_capacity(items.len() * 9);
        for (index, node, remaining) in items {
            for reply in node.legal_moves() {
                let mut child = node;
                child.play_unchecked(reply);
                deeper.push((index, child, remaining - 1));
            }
        }
        items = deeper;
    }
    let run = || -> Result<Vec<u64>, PerftError> {
        items
            .par_iter()
            .map(|(_, node, remaining)| shared.count(node, *remaining))
            .collect()
    };
    let counts = if options.threads <= 1 {
        items
            .iter()
            .map(|(_, node, remaining)| shared.count(node, *remaining))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .build()
            .map_err(|_| PerftError::Threads(options.threads))?;
        pool.install(run)?
    };
    let mut totals: Vec<(Move, u64)> = roots.iter().map(|&mv| (mv, 0)).collect();
    for ((index, _, _), n) in items.iter().zip(counts) {
        totals[*index].1 += n;
    }
    Ok(totals)
}

/// The total of [`divide`].
pub fn perft_with(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: &AtomicBool,
) -> Result<u64, PerftError> {
    if depth == 0 {
        return Ok(1);
    }
    Ok(divide(pos, depth, options, stop)?
        .iter()
        .map(|(_, n)| n)
        .sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Family, Variant};

    #[test]
    fn reference_table() {
        let table: [(Family, [u64; 6]); 3] = [
            (Family::Togyz, [9, 73, 613, 5199, 43184, 360035]),
            (Family::Kozdatu, [7, 43, 274, 1775, 11262, 72125]),
            (Family::Bestemshchi, [5, 21, 91, 407, 1761, 7782]),
        ];
        for (family, counts) in table {
            let start = Position::start(Variant::new(family));
            for (depth, &expected) in counts.iter().enumerate() {
                assert_eq!(
                    perft(&start, depth as u32 + 1),
                    expected,
                    "{family} depth {}",
                    depth + 1
                );
            }
        }
    }

    #[test]
    fn parallel_and_cached_agree_with_plain() {
        let start = Position::start(Variant::TOGYZ);
        let stop = AtomicBool::new(false);
        for options in [
            PerftOptions {
                threads: 1,
                cache_entries: 0,
            },
            PerftOptions {
                threads: 2,
                cache_entries: 0,
            },
            PerftOptions {
                threads: 2,
                cache_entries: 1 << 16,
            },
        ] {
            assert_eq!(perft_with(&start, 5, &options, &stop), Ok(43184));
        }
    }

    #[test]
    fn finished_positions_count_zero() {
        let over: Position = "0,0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0 82 78 w"
            .parse()
            .unwrap();
        assert_eq!(perft(&over, 0), 1);
        for depth in 1..5 {
            assert_eq!(perft(&over, depth), 0);
        }
    }

    #[test]
    fn a_raised_stop_flag_stops() {
        let start = Position::start(Variant::TOGYZ);
        let stop = AtomicBool::new(true);
        assert_eq!(
            perft_with(&start, 6, &PerftOptions::default(), &stop),
            Err(PerftError::Stopped)
        );
    }
}
