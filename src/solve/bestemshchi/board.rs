//! Bestemshchi boards as the table sees them: ten holes, the side to move's row first.
//!
//! `board[0..5]` is the mover's row (holes 1..5), `board[5..10]` the opponent's. After a move
//! the board is turned by five holes so that the new mover is first again: no side bit is
//! needed. Sowing and capture follow RULES.md with the standard switches and no tuzdik.

use crate::position::{Position, Side};
use crate::variant::{Capture, Family, Sowing, Variant};

/// Holes on the board (two rows of five).
pub const HOLES: usize = 10;
/// Holes in a row.
pub const ROW: usize = 5;

/// A board, mover's row first.
pub type Board = [u8; HOLES];

/// The same board seen from the other side (turned by five holes).
#[inline(always)]
pub fn turn(board: &Board) -> Board {
    let mut turned = [0u8; HOLES];
    turned[..ROW].copy_from_slice(&board[ROW..]);
    turned[ROW..].copy_from_slice(&board[..ROW]);
    turned
}

/// Stones on the board.
#[inline(always)]
pub fn stones(board: &Board) -> u32 {
    board.iter().map(|&c| u32::from(c)).sum()
}

/// Whether the mover's row is empty: the game is over by rule 3b.
#[inline(always)]
pub fn mover_row_empty(board: &Board) -> bool {
    board[..ROW].iter().all(|&c| c == 0)
}

/// The value of a finished board (the mover has no stones): every stone goes to its row's
/// owner, so the mover's future margin is minus the opponent's stones.
#[inline(always)]
pub fn terminal_value(board: &Board) -> i32 {
    -(stones(board) as i32)
}

/// The result of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The board after the move, turned so that the new mover's row is first.
    pub child: Board,
    /// Stones captured by the move (0 or an even number).
    pub captured: u8,
}

/// Sows the mover's hole `hole` (0..5, not empty) and makes the capture, if any.
#[inline(always)]
pub fn play(board: &Board, hole: usize) -> Played {
    debug_assert!(hole < ROW && board[hole] > 0);
    let mut after = *board;
    let n = board[hole] as usize;
    after[hole] = 0;
    let last = if n == 1 {
        after[hole + 1] += 1;
        hole + 1
    } else {
        // The first stone goes back into the hole: every hole gets n / 10 stones, and the
        // n % 10 holes from the origin on one more.
        let laps = (n / 10) as u8;
        if laps > 0 {
            for count in after.iter_mut() {
                *count += laps;
            }
        }
        for j in 0..n % 10 {
            after[(hole + j) % HOLES] += 1;
        }
        (hole + n - 1) % HOLES
    };
    let mut captured = 0;
    if last >= ROW && after[last].is_multiple_of(2) {
        captured = after[last];
        after[last] = 0;
    }
    Played {
        child: turn(&after),
        captured,
    }
}

/// Calls `found` with every board from which one non-capturing move leads to `board` (given,
/// like every board, from its own mover's side), once per such move: a parent with two moves
/// to `board` is reported twice. Parents always have a stone on their mover's row.
///
/// Un-sowing: in the parent's frame the board after the move is `after = turn(board)`. A move
/// from hole `o` with `n` stones left `after[o]` stones in `o` (the first stone and one per
/// lap): `n = 1` leaves none, `n >= 2` leaves `ceil(n / 10)`. So `after[o] = c` allows
/// `n = 1` when `c = 0`, and `n` in `10(c - 1) + 1 ..= 10c` (`n >= 2`) otherwise. Each candidate
/// is checked (every other hole must hold the stones the sowing put there, and the last stone
/// must not have captured).
pub fn for_each_parent(board: &Board, mut found: impl FnMut(&Board)) {
    let after = turn(board);
    let total = stones(&after) as usize;
    for origin in 0..ROW {
        let c = after[origin] as usize;
        if c == 0 {
            let last = origin + 1;
            if after[last] == 0 || !quiet_landing(&after, last) {
                continue;
            }
            let mut parent = after;
            parent[last] -= 1;
            parent[origin] = 1;
            found(&parent);
            continue;
        }
        // n = 10 * laps + extra stones: each of the other nine holes got `laps`, the first
        // `extra - 1` of them one more. With `c` stones in the origin, `laps = c - 1` and
        // `extra` in 1..=9, or `laps = c` and `extra = 0`.
        let laps = c - 1;
        let mut least = usize::MAX;
        let mut run = 0;
        let mut in_run = true;
        for j in 1..HOLES {
            let count = after[(origin + j) % HOLES] as usize;
            least = least.min(count);
            if in_run && count > laps {
                run += 1;
            } else {
                in_run = false;
            }
        }
        if least < laps {
            continue;
        }
        // extra - 1 holes after the origin need laps + 1: extra <= run + 1.
        let partial = (1..=(run + 1).min(9)).map(|extra| (laps, extra));
        let full = (run == HOLES - 1).then_some((c, 0));
        for (laps, extra) in partial.chain(full) {
            let n = 10 * laps + extra;
            if n < 2 || n > total {
                continue;
            }
            let last = (origin + n - 1) % HOLES;
            if !quiet_landing(&after, last) {
                continue;
            }
            let mut parent = after;
            for j in 1..HOLES {
                let put = laps + usize::from(j < extra);
                parent[(origin + j) % HOLES] -= put as u8;
            }
            parent[origin] = n as u8;
            found(&parent);
        }
    }
}

/// Whether a last stone in `last` (of the board after the move, mover's frame) captured
/// nothing: it is on the mover's own row, or the hole now holds an odd count.
#[inline(always)]
fn quiet_landing(after: &Board, last: usize) -> bool {
    last < ROW || after[last] % 2 == 1
}

/// Whether a variant is the one the table is for: Bestemshchi with no tuzdik and the
/// standard sowing and capture switches.
pub fn is_table_variant(variant: Variant) -> bool {
    variant.family() == Family::Bestemshchi
        && !variant.tuzdik()
        && variant.sowing() == Sowing::Standard
        && variant.capture() == Capture::Standard
}

/// The board of a position, the side to move's row first. `None` for other variants.
pub fn from_position(pos: &Position) -> Option<Board> {
    if !is_table_variant(pos.variant()) {
        return None;
    }
    let mover = pos.side_to_move();
    let mut board = [0u8; HOLES];
    board[..ROW].copy_from_slice(pos.row(mover));
    board[ROW..].copy_from_slice(pos.row(mover.opponent()));
    Some(board)
}

/// A position with this board, `side` to move and the kazans `kazans` (`[South, North]`):
/// for tests and tools. The stones must add up to 50.
pub fn to_position(board: &Board, side: Side, kazans: [u32; 2]) -> Option<Position> {
    let mover = board[..ROW].to_vec();
    let other = board[ROW..].to_vec();
    let rows = match side {
        Side::South => [mover, other],
        Side::North => [other, mover],
    };
    Position::from_parts(
        Variant::new(Family::Bestemshchi),
        &rows,
        kazans,
        [None, None],
        side,
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::solve::bestemshchi::index::{level_size, rank, unrank};

    /// Kazans that add up to 50 with a board of `k` stones and stay below the win line.
    fn kazans(k: u32) -> [u32; 2] {
        let rest = 50 - k;
        [rest / 2, rest - rest / 2]
    }

    #[test]
    fn sowing_matches_the_engine() {
        // Every board of the small levels, and a spread of boards of the large ones, from
        // both sides.
        let mut boards = Vec::new();
        for k in 0..=6 {
            boards.extend((0..level_size(k)).map(|r| unrank(r, k)));
        }
        for k in [13u32, 24, 36, 50] {
            let size = level_size(k);
            let step = size / 1500 + 1;
            boards.extend((0..size).step_by(step as usize).map(|r| unrank(r, k)));
        }
        boards.push([5; HOLES]);
        boards.push([0, 0, 0, 0, 25, 0, 0, 25, 0, 0]);
        let mut moves = 0;
        for board in boards {
            let k = stones(&board);
            for side in Side::BOTH {
                let pos = to_position(&board, side, kazans(k)).unwrap();
                assert_eq!(from_position(&pos), Some(board));
                assert_eq!(mover_row_empty(&board), pos.legal_mask() == 0);
                for hole in 0..ROW {
                    if board[hole] == 0 {
                        continue;
                    }
                    let played = play(&board, hole);
                    let mut next = pos;
                    next.play_unchecked(Move::hole(hole as u8 + 1));
                    let gained = next.kazan(side) - pos.kazan(side);
                    assert_eq!(
                        u32::from(played.captured),
                        gained,
                        "{pos} hole {}",
                        hole + 1
                    );
                    assert_eq!(
                        Some(played.child),
                        from_position(&next),
                        "{pos} hole {}",
                        hole + 1
                    );
                    moves += 1;
                }
            }
        }
        assert!(moves > 10_000);
    }

    #[test]
    fn parents_are_exactly_the_quiet_moves_backwards() {
        // For each level, the moves found backwards are the quiet moves found forwards, with
        // their multiplicity.
        for k in 0..=8 {
            let size = level_size(k) as usize;
            let mut forward = vec![0u32; size];
            let mut backward = vec![0u32; size];
            for (r, quiet) in forward.iter_mut().enumerate() {
                let board = unrank(r as u64, k);
                for hole in 0..ROW {
                    if board[hole] > 0 && play(&board, hole).captured == 0 {
                        *quiet += 1;
                    }
                }
                for_each_parent(&board, |parent| {
                    assert_eq!(stones(parent), k);
                    let quiet_to_board = (0..ROW).filter(|&h| {
                        parent[h] > 0
                            && play(parent, h)
                                == Played {
                                    child: board,
                                    captured: 0,
                                }
                    });
                    assert!(quiet_to_board.count() >= 1, "{parent:?} -> {board:?}");
                    backward[rank(parent) as usize] += 1;
                });
            }
            assert_eq!(forward, backward, "level {k}");
        }
    }

    #[test]
    fn long_sowings_lap_without_skipping_the_origin() {
        let mut board = [0u8; HOLES];
        board[2] = 23;
        let played = play(&board, 2);
        // 23 stones from hole 3: two laps (20) plus holes 3, 4, 5; the last lands on the
        // mover's hole 5, so nothing is captured.
        assert_eq!(played.captured, 0);
        assert_eq!(turn(&played.child), [2, 2, 3, 3, 3, 2, 2, 2, 2, 2]);
    }
}
