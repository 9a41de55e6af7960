//! Checking a level against its children: every entry must equal the best, over its moves, of
//! `own - opp - V(child)` (the child in a lower level when stones went to a kazan, in the
//! same level otherwise), and a finished board must hold minus its stones (rule 3b).
//!
//! This is the fixed-point (Bellman) condition. It is necessary, not sufficient: inside a
//! cycle of quiet moves a wrong assignment can satisfy it (two boards that each "win" through
//! the other). The retrograde construction rules that out (docs/solve-toguz.md), and the tests
//! compare small levels with plain solvers that follow the rules with an explicit history.

use super::board::{Board, Geometry, play, terminal_value};
use super::index::LevelIndex;
use super::level::stored;
use crate::solve::verify::{Verification, check_entries};

/// The value of `board` recomputed from its children in `levels` (its own level included).
pub fn best_over_children(
    g: Geometry,
    board: &Board,
    levels: &[Vec<u8>],
    indexes: &[LevelIndex],
) -> i32 {
    if board.mover_row_empty(g) {
        return terminal_value(board);
    }
    (0..g.n)
        .filter(|&hole| board.holes[hole] > 0)
        .map(|hole| {
            let played = play(g, board, hole);
            played.gain() - stored(levels, indexes, &played.child)
        })
        .max()
        .unwrap_or(i32::MIN)
}

/// Checks every entry of level `k` against `levels` (which must hold every level up to `k`).
pub fn verify_level(
    g: Geometry,
    k: u32,
    levels: &[Vec<u8>],
    indexes: &[LevelIndex],
) -> Verification {
    let index = &indexes[k as usize];
    let size = index.size() as usize;
    assert_eq!(
        levels[k as usize].len(),
        size,
        "level {k} has the wrong size"
    );
    check_entries(
        k,
        &levels[k as usize],
        |start| index.cursor(start),
        |cursor| {
            index.advance(cursor);
        },
        |cursor| best_over_children(g, cursor.board(), levels, indexes),
    )
}
