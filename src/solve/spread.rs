//! Ranking the ways to spread `k` stones over `f` holes ("stars and bars"), the part of a
//! level's index every board family shares.
//!
//! A spread `b[0..f]` of `k` stones is the set of `f - 1` bar positions
//! `p_j = b[0] + .. + b[j] + j` (`j = 0..f-1`), a subset of `0..k+f-1`; its rank is the colex
//! rank of that set, `sum_j C(p_j, j + 1)`. The ranks of the spreads of `k` stones are exactly
//! `0..C(k + f - 1, f - 1)`, the formula does not depend on `k`, and the order is the one
//! [`next_spread`] walks: rank 0 has every stone in the last hole, the last rank every stone
//! in the first.
//!
//! ```
//! use tuzdik::solve::spread::{colex_rank, next_spread, spread_count, unrank_spread};
//! let mut holes = [0u8; 3];
//! unrank_spread(0, 2, &mut holes);
//! assert_eq!(holes, [0, 0, 2]);
//! assert!(next_spread(&mut holes));
//! assert_eq!(colex_rank(holes[..2].iter().copied()), 1);
//! assert_eq!(spread_count(2, 3), 6);
//! ```

/// The most holes a spread has (Toguz Kumalak's ring of 18).
pub const MOST_HOLES: usize = 18;

/// Rows of the binomial table: `n < 64`, enough for `k + f` up to 63 (Bestemshchi's 50 stones
/// over 10 holes, and the Toguz levels over up to 18 free holes).
const ROWS: usize = 64;
/// Columns: `r <= 18`, the widest spread.
const COLUMNS: usize = MOST_HOLES + 1;

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

/// `C(n, r)` for the small arguments the indexes use (`n < 64`, `r <= 18`).
#[inline(always)]
pub fn binomial(n: usize, r: usize) -> u64 {
    BINOM[n][r]
}

/// Ways to put `k` stones into `f` holes (`f >= 1`): `C(k + f - 1, f - 1)`.
#[inline]
pub fn spread_count(k: u32, f: usize) -> u64 {
    binomial(k as usize + f - 1, f - 1)
}

/// The rank of a spread given the counts of its first `f - 1` holes (the last hole's count
/// follows from `k`).
#[inline(always)]
pub fn colex_rank(counts: impl Iterator<Item = u8>) -> u64 {
    let mut sum = 0usize;
    let mut rank = 0u64;
    for (j, count) in counts.enumerate() {
        sum += count as usize;
        rank += BINOM[sum + j][j + 1];
    }
    rank
}

/// Writes into `holes` (its length is `f`, at least 2) the spread of `k` stones of rank
/// `rank`, which must be below [`spread_count`]`(k, f)`.
#[inline]
pub fn unrank_spread(mut rank: u64, k: u32, holes: &mut [u8]) {
    let f = holes.len();
    debug_assert!((2..=MOST_HOLES).contains(&f) && rank < spread_count(k, f));
    let mut bars = [0usize; MOST_HOLES];
    // The top bar is below k + f - 1; each lower bar is below the one above it.
    let mut limit = k as usize + f - 1;
    for j in (0..f - 1).rev() {
        let mut p = limit - 1;
        while BINOM[p][j + 1] > rank {
            p -= 1;
        }
        rank -= BINOM[p][j + 1];
        bars[j] = p;
        limit = p;
    }
    let mut previous = 0usize;
    for j in 0..f - 1 {
        let sum = bars[j] - j;
        holes[j] = (sum - previous) as u8;
        previous = sum;
    }
    holes[f - 1] = (k as usize - previous) as u8;
}

/// Steps `holes` to the spread of the next rank; `false` (unchanged) at the last one.
///
/// In bar terms the colex successor raises the lowest bar that can move and drops every bar
/// below it to its lowest place: with `m` the first hole after hole 0 holding stones, hole
/// 0's stones plus one from hole `m` all go to hole `m - 1` (holes `1..m` are empty).
#[inline(always)]
pub fn next_spread(holes: &mut [u8]) -> bool {
    let mut m = 1;
    while m < holes.len() && holes[m] == 0 {
        m += 1;
    }
    if m >= holes.len() {
        return false;
    }
    let low = holes[0];
    holes[0] = 0;
    holes[m - 1] = low + 1;
    holes[m] -= 1;
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
        assert_eq!(spread_count(0, 10), 1);
        assert_eq!(spread_count(2, 10), 55);
    }

    #[test]
    fn rank_and_unrank_are_a_bijection_walked_by_next() {
        for f in [2usize, 3, 7, 10] {
            for k in 0..=6 {
                let mut holes = vec![0u8; f];
                unrank_spread(0, k, &mut holes);
                assert_eq!(u32::from(holes[f - 1]), k, "rank 0: every stone last");
                for r in 0..spread_count(k, f) {
                    assert_eq!(holes.iter().map(|&c| u32::from(c)).sum::<u32>(), k);
                    assert_eq!(colex_rank(holes[..f - 1].iter().copied()), r);
                    let mut again = vec![0u8; f];
                    unrank_spread(r, k, &mut again);
                    assert_eq!(again, holes);
                    assert_eq!(next_spread(&mut holes), r + 1 < spread_count(k, f));
                }
                assert_eq!(u32::from(holes[0]), k, "last rank: every stone first");
            }
        }
    }
}
