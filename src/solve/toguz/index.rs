//! The index of a level (every board with `k` stones): the tuzdik state, then the
//! combinatorial rank of the stones over the holes that are not tuzdiks.
//!
//! **Tuzdik states**, seen from the mover (`N` holes a row, `m` the mover's tuzdik on the
//! opponent's row, `o` the opponent's on the mover's row, both 0-based and never the last
//! hole `N - 1` by rule 2b):
//!
//! | states            | which                                     | free holes `f` |
//! |-------------------|-------------------------------------------|----------------|
//! | `0`               | no tuzdik                                 | `2N`           |
//! | `1 + m`           | the mover's only (`m < N - 1`)            | `2N - 1`       |
//! | `N + o`           | the opponent's only (`o < N - 1`)         | `2N - 1`       |
//! | `2N - 1 + p(m,o)` | both, `m != o` (rule 2c)                  | `2N - 2`       |
//!
//! with `p(m, o) = m (N - 2) + (o if o < m else o - 1)`: `1 + 2(N-1) + (N-1)(N-2)` states, 73
//! for Toguz Kumalak, 1 without tuzdiks.
//!
//! **Stones**: the free holes in ring order `b[0..f]` holding `k` stones are the `f - 1` bar
//! positions `p_j = b[0] + .. + b[j] + j`, a subset of `0..k+f-1`, ranked colex:
//! `sum_j C(p_j, j + 1)`, `0..C(k + f - 1, f - 1)`. Rank 0 has every stone in the last free
//! hole. The index of a board is the offset of its state (the sizes of the states before it)
//! plus that rank, so a level has `sum_s C(k + f_s - 1, f_s - 1)` entries.

use super::board::{Board, Geometry, MAX_RING, NONE};
use crate::solve::family::Ranking;
use crate::solve::spread::{binomial, next_spread, spread_count, unrank_spread};

/// How many tuzdik states the rules have.
#[inline(always)]
pub fn states(g: Geometry) -> usize {
    if g.tuzdik {
        1 + 2 * (g.n - 1) + (g.n - 1) * (g.n - 2)
    } else {
        1
    }
}

/// The state of a board's tuzdiks, or `None` for a combination the rules cannot reach.
#[inline(always)]
pub fn state_of(g: Geometry, mine: u8, theirs: u8) -> Option<usize> {
    let n = g.n;
    let last = (n - 1) as u8;
    match (mine, theirs) {
        (NONE, NONE) => Some(0),
        _ if !g.tuzdik => None,
        (m, NONE) if m < last => Some(1 + m as usize),
        (NONE, o) if o < last => Some(n + o as usize),
        (m, o) if m < last && o < last && m != o => {
            let (m, o) = (m as usize, o as usize);
            Some(2 * n - 1 + m * (n - 2) + if o < m { o } else { o - 1 })
        }
        _ => None,
    }
}

/// The tuzdiks `(mine, theirs)` of state `s`.
#[inline(always)]
pub fn tuzdiks_of(g: Geometry, s: usize) -> (u8, u8) {
    let n = g.n;
    if s == 0 {
        (NONE, NONE)
    } else if s < n {
        ((s - 1) as u8, NONE)
    } else if s < 2 * n - 1 {
        (NONE, (s - n) as u8)
    } else {
        let p = s - (2 * n - 1);
        let m = p / (n - 2);
        let q = p % (n - 2);
        let o = if q < m { q } else { q + 1 };
        (m as u8, o as u8)
    }
}

/// Holes that are not tuzdiks in state `s`.
#[inline(always)]
pub fn free_holes(g: Geometry, s: usize) -> usize {
    let (mine, theirs) = tuzdiks_of(g, s);
    g.ring() - usize::from(mine != NONE) - usize::from(theirs != NONE)
}

/// Boards with `k` stones under rules `g`.
pub fn level_size(g: Geometry, k: u32) -> u64 {
    (0..states(g))
        .map(|s| spread_count(k, free_holes(g, s)))
        .sum()
}

/// The index of one level: where each tuzdik state's boards start.
#[derive(Clone, Debug)]
pub struct LevelIndex {
    g: Geometry,
    k: u32,
    /// `offsets[s]`: the first index of state `s`; the last entry is the level's size.
    offsets: Vec<u64>,
}

/// A walk through a level in index order (see [`LevelIndex::cursor`]).
#[derive(Clone, Debug)]
pub struct Cursor {
    state: usize,
    /// Free holes in this state (kept: finding them from the state takes a division).
    free_count: usize,
    free: [u8; MAX_RING],
    board: Board,
}

impl Cursor {
    /// The board the cursor is on.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }
}

impl LevelIndex {
    /// The index of level `k` (`k + 2N` must stay below 64).
    pub fn new(g: Geometry, k: u32) -> LevelIndex {
        let mut offsets = Vec::with_capacity(states(g) + 1);
        let mut at = 0;
        for s in 0..states(g) {
            offsets.push(at);
            at += spread_count(k, free_holes(g, s));
        }
        offsets.push(at);
        LevelIndex { g, k, offsets }
    }

    /// Stones on the boards of this level.
    pub fn stones(&self) -> u32 {
        self.k
    }

    /// Entries in the level.
    #[inline(always)]
    pub fn size(&self) -> u64 {
        self.offsets[self.offsets.len() - 1]
    }

    /// The index of a board of this level, or `None` for an unreachable tuzdik state.
    #[inline(always)]
    pub fn index(&self, board: &Board) -> Option<u64> {
        let g = self.g;
        let s = state_of(g, board.mine, board.theirs)?;
        let f = g.ring() - usize::from(board.mine != NONE) - usize::from(board.theirs != NONE);
        let (mine, theirs) = (board.mine_index(g), board.theirs_index());
        // The colex rank of the free holes (see `spread`), skipping the tuzdiks as it goes.
        let mut j = 0;
        let mut sum = 0usize;
        let mut rank = self.offsets[s];
        for (i, &count) in board.holes[..g.ring()].iter().enumerate() {
            if j == f - 1 {
                break;
            }
            if i == mine || i == theirs {
                continue;
            }
            sum += count as usize;
            rank += binomial(sum + j, j + 1);
            j += 1;
        }
        Some(rank)
    }

    /// The board of index `index` (below [`size`](Self::size)).
    pub fn board(&self, index: u64) -> Board {
        self.cursor(index).board
    }

    /// A cursor on the board of index `index` (below [`size`](Self::size)).
    pub fn cursor(&self, index: u64) -> Cursor {
        debug_assert!(index < self.size());
        let s = self.offsets.partition_point(|&o| o <= index) - 1;
        let free_count = free_holes(self.g, s);
        let free = unrank_free(index - self.offsets[s], self.k, free_count);
        let (mine, theirs) = tuzdiks_of(self.g, s);
        let mut board = Board {
            holes: [0; MAX_RING],
            mine,
            theirs,
        };
        fill(self.g, &mut board, &free);
        Cursor {
            state: s,
            free_count,
            free,
            board,
        }
    }

    /// Moves the cursor to the next index; `false` (cursor unchanged) at the last one.
    #[inline(always)]
    pub fn advance(&self, cursor: &mut Cursor) -> bool {
        if !next_spread(&mut cursor.free[..cursor.free_count]) {
            if cursor.state + 1 == states(self.g) {
                return false;
            }
            cursor.state += 1;
            cursor.free_count = free_holes(self.g, cursor.state);
            cursor.free = unrank_free(0, self.k, cursor.free_count);
            (cursor.board.mine, cursor.board.theirs) = tuzdiks_of(self.g, cursor.state);
        }
        fill(self.g, &mut cursor.board, &cursor.free);
        true
    }
}

/// Puts the stones of `free` into the holes of `board` that are not tuzdiks, in ring order.
#[inline(always)]
fn fill(g: Geometry, board: &mut Board, free: &[u8; MAX_RING]) {
    let (mi, ti) = (board.mine_index(g), board.theirs_index());
    let mut j = 0;
    for i in 0..g.ring() {
        if i == mi || i == ti {
            board.holes[i] = 0;
            continue;
        }
        board.holes[i] = free[j];
        j += 1;
    }
}

/// The spread of `k` stones over `f` holes with rank `rank`.
#[inline]
fn unrank_free(rank: u64, k: u32, f: usize) -> [u8; MAX_RING] {
    let mut free = [0u8; MAX_RING];
    unrank_spread(rank, k, &mut free[..f]);
    free
}

impl Ranking for LevelIndex {
    type Board = Board;
    type Cursor = Cursor;

    #[inline(always)]
    fn size(&self) -> u64 {
        LevelIndex::size(self)
    }

    #[inline(always)]
    fn index(&self, board: &Board) -> Option<u64> {
        LevelIndex::index(self, board)
    }

    #[inline(always)]
    fn cursor(&self, index: u64) -> Cursor {
        LevelIndex::cursor(self, index)
    }

    #[inline(always)]
    fn advance(&self, cursor: &mut Cursor) -> bool {
        LevelIndex::advance(self, cursor)
    }

    #[inline(always)]
    fn board_at(cursor: &Cursor) -> &Board {
        cursor.board()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Family, Variant};

    fn togyz() -> Geometry {
        Geometry::of(Variant::TOGYZ).unwrap()
    }

    #[test]
    fn states_are_a_bijection() {
        for g in [
            togyz(),
            Geometry::of(Variant::new(Family::Kozdatu).with_tuzdik(true)).unwrap(),
            Geometry::of(Variant::new(Family::Kozdatu)).unwrap(),
        ] {
            let mut seen = 0;
            for mine in (0..g.n as u8).chain([NONE]) {
                for theirs in (0..g.n as u8).chain([NONE]) {
                    if let Some(s) = state_of(g, mine, theirs) {
                        assert_eq!(tuzdiks_of(g, s), (mine, theirs));
                        seen += 1;
                    }
                }
            }
            assert_eq!(seen, states(g));
        }
        assert_eq!(states(togyz()), 73);
        assert_eq!(state_of(togyz(), 8, NONE), None, "rule 2b");
        assert_eq!(state_of(togyz(), 3, 3), None, "rule 2c");
    }

    #[test]
    fn level_sizes() {
        let g = togyz();
        assert_eq!(level_size(g, 0), 73);
        // 18 + 16 * 17 + 56 * 16 boards with one stone.
        assert_eq!(level_size(g, 1), 18 + 16 * 17 + 56 * 16);
        assert_eq!(level_size(g, 9), 109_032_374);
        assert_eq!(LevelIndex::new(g, 9).size(), 109_032_374);
    }

    #[test]
    fn index_board_and_cursor_agree() {
        let g = togyz();
        for k in 0..=3 {
            let index = LevelIndex::new(g, k);
            let mut cursor = index.cursor(0);
            for i in 0..index.size() {
                let board = *cursor.board();
                assert_eq!(board.stones(), k);
                assert!((0..g.ring()).all(|h| !board.is_tuzdik(g, h) || board.holes[h] == 0));
                assert_eq!(index.index(&board), Some(i), "{board:?}");
                assert_eq!(index.board(i), board);
                assert_eq!(index.advance(&mut cursor), i + 1 < index.size());
            }
        }
        let index = LevelIndex::new(g, 9);
        let size = index.size();
        for i in [0, 1, size / 7, size / 2, size - 2, size - 1] {
            assert_eq!(index.index(&index.board(i)), Some(i));
        }
    }
}
