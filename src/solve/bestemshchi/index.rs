//! The index of a level: every distribution of `k` stones over the ten holes, ranked by the
//! combinatorial number system ("stars and bars").
//!
//! A board `b[0..10]` with `k` stones is the set of nine bar positions
//! `p_j = b[0] + .. + b[j] + j` (`j = 0..9`), a 9-subset of `0..k+9`; its rank is the colex rank
//! of that set, `sum_j C(p_j, j + 1)`. The ranks of one level are exactly `0..C(k + 9, 9)`, the
//! rank does not depend on `k` (the same formula serves every level), and the order is
//! the one [`next`] walks: rank 0 has every stone in hole 10, the last rank every stone in
//! hole 1.

use super::board::{Board, HOLES};
use crate::solve::family::Ranking;
use crate::solve::spread::{colex_rank, next_spread, spread_count, unrank_spread};

/// The most stones a board can hold (Bestemshchi has 50).
pub const MAX_STONES: u32 = 50;

/// Boards with `k` stones: `C(k + 9, 9)`.
pub fn level_size(k: u32) -> u64 {
    spread_count(k, HOLES)
}

/// The rank of a board within its level (`0..level_size(stones)`).
#[inline(always)]
pub fn rank(board: &Board) -> u64 {
    colex_rank(board[..HOLES - 1].iter().copied())
}

/// The board of rank `rank` with `k` stones. `rank` must be below `level_size(k)`.
pub fn unrank(rank: u64, k: u32) -> Board {
    let mut board = [0u8; HOLES];
    unrank_spread(rank, k, &mut board);
    board
}

/// Steps to the board of the next rank in the same level; `false` (board unchanged) at the
/// last one.
#[inline(always)]
pub fn next(board: &mut Board) -> bool {
    next_spread(board)
}

/// The numbering of level `k`: the rank, the same formula for every level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelRanking {
    k: u32,
    size: u64,
}

impl LevelRanking {
    /// The numbering of level `k`.
    pub fn new(k: u32) -> LevelRanking {
        LevelRanking {
            k,
            size: level_size(k),
        }
    }
}

impl Ranking for LevelRanking {
    type Board = Board;
    type Cursor = Board;

    #[inline(always)]
    fn size(&self) -> u64 {
        self.size
    }

    #[inline(always)]
    fn index(&self, board: &Board) -> Option<u64> {
        Some(rank(board))
    }

    #[inline(always)]
    fn cursor(&self, index: u64) -> Board {
        unrank(index, self.k)
    }

    #[inline(always)]
    fn advance(&self, cursor: &mut Board) -> bool {
        next(cursor)
    }

    #[inline(always)]
    fn board_at(cursor: &Board) -> &Board {
        cursor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_sizes() {
        assert_eq!(level_size(36), 886_163_135);
        assert_eq!(level_size(50), 12_565_671_261);
        assert_eq!(level_size(0), 1);
        assert_eq!(level_size(2), 55);
    }

    #[test]
    fn rank_and_unrank_are_a_bijection_walked_by_next() {
        for k in 0..=8 {
            let size = level_size(k);
            let mut board = unrank(0, k);
            assert_eq!(
                board[HOLES - 1] as u32,
                k,
                "rank 0 has every stone in hole 10"
            );
            for r in 0..size {
                assert_eq!(board.iter().map(|&c| u32::from(c)).sum::<u32>(), k);
                assert_eq!(rank(&board), r, "k {k}: {board:?}");
                assert_eq!(unrank(r, k), board, "k {k} rank {r}");
                let more = next(&mut board);
                assert_eq!(more, r + 1 < size, "k {k} rank {r}");
            }
            assert_eq!(
                board[0] as u32, k,
                "the last rank has every stone in hole 1"
            );
        }
    }

    #[test]
    fn large_levels_round_trip() {
        for k in [36u32, 50] {
            let size = level_size(k);
            for r in [0, 1, 2, size / 3, size / 2, size - 2, size - 1] {
                let board = unrank(r, k);
                assert_eq!(rank(&board), r);
                let mut after = board;
                if next(&mut after) {
                    assert_eq!(rank(&after), r + 1);
                }
            }
            let start = [5u8; HOLES];
            assert!(rank(&start) < level_size(50));
        }
    }
}
