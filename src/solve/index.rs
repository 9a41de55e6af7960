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

/// The most stones a board can hold (Bestemshchi has 50).
pub const MAX_STONES: u32 = 50;

/// Rows of the binomial table: `n < 64`, enough for `k + f` up to 63 (Bestemshchi's 50 stones
/// over 10 holes, and the Toguz solver's levels over up to 18 free holes).
const ROWS: usize = 64;
/// Columns: `r <= 18`, the Toguz ring's holes (the solvers' widest).
const COLUMNS: usize = 19;

/// `BINOM[n][r] = C(n, r)`.
static BINOM: [[u64; COLUMNS]; ROWS] = binomials();

const fn binomials() -> [[u64; COLUMNS]; ROWS] {
    let mut table = [[0u64; COLUMNS]; ROWS];
    let mut n = 0;
    while n < ROWS {
        table[n][0] = 1;
        let mut r = 1;
        while r < COLUMNS {
            table[n][r] = if n == 0 {
                0
            } else {
                table[n - 1][r - 1] + table[n - 1][r]
            };
            r += 1;
        }
        n += 1;
    }
    table
}

/// `C(n, r)` for the small arguments the solvers' indexes use (`n < 64`, `r <= 18`).
#[inline(always)]
pub fn binomial(n: usize, r: usize) -> u64 {
    BINOM[n][r]
}

/// Boards with `k` stones: `C(k + 9, 9)`.
pub fn level_size(k: u32) -> u64 {
    binomial(k as usize + HOLES - 1, HOLES - 1)
}

/// The rank of a board within its level (`0..level_size(stones)`).
#[inline(always)]
pub fn rank(board: &Board) -> u64 {
    let mut sum = 0usize;
    let mut rank = 0u64;
    for j in 0..HOLES - 1 {
        sum += board[j] as usize;
        rank += BINOM[sum + j][j + 1];
    }
    rank
}

/// The board of rank `rank` with `k` stones. `rank` must be below `level_size(k)`.
pub fn unrank(mut rank: u64, k: u32) -> Board {
    debug_assert!(rank < level_size(k));
    let mut bars = [0usize; HOLES - 1];
    // The top bar is below k + 9; each lower bar is below the one above it.
    let mut limit = k as usize + HOLES - 1;
    for j in (0..HOLES - 1).rev() {
        let mut p = limit - 1;
        while BINOM[p][j + 1] > rank {
            p -= 1;
        }
        rank -= BINOM[p][j + 1];
        bars[j] = p;
        limit = p;
    }
    let mut board = [0u8; HOLES];
    let mut previous = 0usize;
    for j in 0..HOLES - 1 {
        let sum = bars[j] - j;
        board[j] = (sum - previous) as u8;
        previous = sum;
    }
    board[HOLES - 1] = (k as usize - previous) as u8;
    board
}

/// Steps to the board of the next rank in the same level; `false` (board unchanged) at the
/// last one.
///
/// In bar terms the colex successor raises the lowest bar that can move and drops every bar
/// below it to its lowest place: with `m` the first hole after hole 0 holding stones, the
/// stones of holes `0..m` plus one from hole `m` all go to hole `m - 1`.
#[inline(always)]
pub fn next(board: &mut Board) -> bool {
    let mut m = 1;
    while m < HOLES && board[m] == 0 {
        m += 1;
    }
    if m == HOLES {
        return false;
    }
    // Holes 1..m are empty, so "holes 0..m" is hole 0 alone.
    let low = board[0];
    board[0] = 0;
    board[m - 1] = low + 1;
    board[m] -= 1;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_pascal() {
        assert_eq!(binomial(0, 0), 1);
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(45, 9), 886_163_135);
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
