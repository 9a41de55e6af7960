//! What the one retrograde solver needs to know about a kind of board: how a board is played
//! and un-played, how the boards of one level are numbered, and how its files look. Bestemshchi
//! without tuzdik ([`crate::solve::bestemshchi`]) and the Toguz family with tuzdiks
//! ([`crate::solve::toguz`]) are the two implementations; everything else (solving a level,
//! checking it, building, loading and probing a table) is written once over these traits.

use std::path::{Path, PathBuf};

use crate::position::Position;

/// A move of the table's board: where it leads and what it put into the kazans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown<B> {
    /// The board after the move, turned so that the new mover's row is first.
    pub child: B,
    /// The mover's kazan growth minus the opponent's.
    pub gain: i32,
    /// Stones that left the board (0 for a quiet move, which stays in its level).
    pub removed: u32,
}

/// How the boards of one level (every board with the same number of stones) are numbered:
/// an entry per index `0..size`, and a cursor that walks them in index order.
pub trait Ranking: Send + Sync {
    /// The boards numbered.
    type Board: Copy;
    /// A walk through the level (see [`cursor`](Self::cursor)).
    type Cursor;

    /// Entries in the level.
    fn size(&self) -> u64;
    /// The index of a board of this level, or `None` for a board the rules cannot reach.
    fn index(&self, board: &Self::Board) -> Option<u64>;
    /// A cursor on the board of index `index` (below [`size`](Self::size)).
    fn cursor(&self, index: u64) -> Self::Cursor;
    /// Moves the cursor to the next index; `false` (cursor unchanged) at the last one.
    fn advance(&self, cursor: &mut Self::Cursor) -> bool;
    /// The board a cursor is on.
    fn board_at(cursor: &Self::Cursor) -> &Self::Board;

    /// The board of index `index` (below [`size`](Self::size)).
    #[inline]
    fn board(&self, index: u64) -> Self::Board {
        *Self::board_at(&self.cursor(index))
    }
}

/// A kind of board the retrograde solver can solve: the board, the moves both ways, the
/// numbering of each level and the level files.
///
/// A board is always seen from the side to move (its row first), so one entry serves both
/// sides. The solver relies on: every move either stays in its level and puts nothing into
/// a kazan (a *quiet* move, which [`for_each_parent`](Self::for_each_parent) undoes) or
/// removes stones; and a finished board (the mover's row empty) is worth minus its stones.
pub trait BoardFamily: Copy + Send + Sync + std::fmt::Debug {
    /// A board, the mover's row first.
    type Board: Copy + PartialEq + std::fmt::Debug + Send + Sync;
    /// The numbering of one level.
    type Level: Ranking<Board = Self::Board>;

    /// The step between the stone counts that occur, and so between the levels and between
    /// the thresholds of a level's solve (2 when every capture takes an even count).
    const STEP: u32;
    /// The most quiet moves that can lead to one board (bounds a batch of parents).
    const MOST_PARENTS: usize;

    /// The numbering of level `k`.
    fn level(self, k: u32) -> Self::Level;
    /// Holes in the mover's row (its moves are holes `0..row`).
    fn row(self) -> usize;
    /// Stones in hole `hole` (0-based, mover's row first).
    fn stones_in(board: &Self::Board, hole: usize) -> u8;
    /// Stones on the board.
    fn stones(board: &Self::Board) -> u32;
    /// Whether the mover's row is empty: the game is over by rule 3b.
    fn mover_row_empty(self, board: &Self::Board) -> bool;
    /// Plays the mover's hole `hole` (not empty).
    fn sow(self, board: &Self::Board, hole: usize) -> Sown<Self::Board>;
    /// Calls `found` with every board from which one quiet move leads to `board`, once per
    /// such move.
    fn for_each_parent(self, board: &Self::Board, found: impl FnMut(&Self::Board));
    /// The board of a position, or `None` when the position is not of these rules.
    fn board_of(self, pos: &Position) -> Option<Self::Board>;

    /// Header bytes of a level file, before the entries.
    const HEADER_LEN: usize;
    /// The file of level `k` in `dir`.
    fn level_path(self, dir: &Path, k: u32) -> PathBuf;
    /// The header of level `k`'s file holding `values`.
    fn header(self, k: u32, values: &[u8]) -> Vec<u8>;
    /// Checks the header of a file read as level `k`: the number of entries that follow, or
    /// what is wrong.
    fn check_header(self, header: &[u8], k: u32) -> Result<u64, String>;
    /// Whether the checksum in `header` matches the entries.
    fn checksum_matches(self, header: &[u8], values: &[u8]) -> bool;
}

/// The value of a finished board (the mover has no stone): every stone goes to its row's
/// owner, so the mover's future margin is minus all the stones.
#[inline(always)]
pub fn terminal_value<F: BoardFamily>(board: &F::Board) -> i32 {
    -(F::stones(board) as i32)
}

/// The stored value of `board`, which has `stones` stones, from `levels` (`levels[stones]`
/// must be complete). A board the numbering cannot reach reads entry 0: boards made by the
/// rules always can be reached.
#[inline(always)]
pub fn stored<F: BoardFamily>(
    levels: &[Vec<u8>],
    indexes: &[F::Level],
    board: &F::Board,
    stones: u32,
) -> i32 {
    let k = stones as usize;
    let i = indexes[k].index(board).unwrap_or(0) as usize;
    i32::from(levels[k][i] as i8)
}
