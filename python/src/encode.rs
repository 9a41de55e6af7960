//! Observation planes and action indices for learning code.
//!
//! An observation is `CHANNELS` planes of shape `(2, N)` seen from one player (the observer):
//! row 0 is the observer's row, row 1 the opponent's, each in its owner's numbering (hole 1
//! first), so the same network weights serve both players. The planes, in order:
//!
//! | channel | meaning |
//! |---|---|
//! | 0 | stones in the hole / stones a hole starts with |
//! | 1 | 1 where the hole is a tuzdik (owned by the other row's player) |
//! | 2 | 1 where the side to move may play (on the mover's row) |
//! | 3 | observer's kazan / all stones, on every cell |
//! | 4 | opponent's kazan / all stones, on every cell |
//! | 5 | 1 on every cell when the observer has made a tuzdik |
//! | 6 | 1 on every cell when the opponent has made a tuzdik |
//! | 7 | 1 on every cell when the observer is to move |

use tuzdik::position::PASS_BIT;
use tuzdik::{Game, Move, Position, Side};

/// Planes per observation.
pub const CHANNELS: usize = 8;

/// Where the channel axis goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `(C, 2, N)`, as PyTorch's convolutions take it.
    ChannelsFirst,
    /// `(2, N, C)`, as TensorFlow's take it.
    ChannelsLast,
}

/// The legal moves of a game as a [`Position::legal_mask`], empty once the game is over by
/// any rule (including repetition, which the bare position cannot see).
pub fn game_legal_mask(game: &Game) -> u16 {
    if game.termination().is_some() {
        0
    } else {
        game.position().legal_mask()
    }
}

/// Actions per game: one per hole, plus Mangala IV's pass as the last action.
pub fn action_count(pos: &Position) -> usize {
    pos.variant().holes_per_side() + usize::from(pos.variant().is_mangala())
}

/// The move an action index stands for (`None` outside `0..action_count`).
pub fn action_move(pos: &Position, action: i64) -> Option<Move> {
    let holes = pos.variant().holes_per_side() as i64;
    match action {
        a if (0..holes).contains(&a) => Some(Move::hole(a as u8 + 1)),
        a if a == holes && pos.variant().is_mangala() => Some(Move::PASS),
        _ => None,
    }
}

/// The action index of a move.
pub fn move_action(pos: &Position, mv: Move) -> usize {
    match mv.source() {
        Some(hole) => usize::from(hole) - 1,
        None => pos.variant().holes_per_side(),
    }
}

/// Writes the action mask of a legal-move mask into `out` (`action_count` entries).
pub fn write_mask(pos: &Position, legal: u16, out: &mut [bool]) {
    let holes = pos.variant().holes_per_side();
    for (hole, slot) in out.iter_mut().take(holes).enumerate() {
        *slot = legal & (1 << hole) != 0;
    }
    if pos.variant().is_mangala() {
        out[holes] = legal & PASS_BIT != 0;
    }
}

/// Writes the observation of `pos` for `observer` into `out` (`CHANNELS * 2 * N` floats).
pub fn write_observation(
    pos: &Position,
    legal: u16,
    observer: Side,
    layout: Layout,
    out: &mut [f32],
) {
    let holes = pos.variant().holes_per_side();
    let cells = 2 * holes;
    match layout {
        Layout::ChannelsFirst => write_planes(pos, legal, observer, &mut out[..CHANNELS * cells]),
        Layout::ChannelsLast => {
            let mut planes = [0.0f32; CHANNELS * 2 * 9];
            write_planes(pos, legal, observer, &mut planes[..CHANNELS * cells]);
            for cell in 0..cells {
                for channel in 0..CHANNELS {
                    out[cell * CHANNELS + channel] = planes[channel * cells + cell];
                }
            }
        }
    }
}

/// The channels-first layout: one plane after another, the constant planes filled whole.
fn write_planes(pos: &Position, legal: u16, observer: Side, out: &mut [f32]) {
    let variant = pos.variant();
    let holes = variant.holes_per_side();
    let cells = 2 * holes;
    let per_hole = variant.stones_per_hole() as f32;
    let total = variant.total_stones() as f32;
    let mover = pos.side_to_move();
    let opponent = observer.opponent();
    let flag = |on: bool| if on { 1.0 } else { 0.0 };
    let (planes, constant) = out.split_at_mut(3 * cells);
    let (stones, rest) = planes.split_at_mut(cells);
    let (tuzdiks, moves) = rest.split_at_mut(cells);
    for (row, side) in [observer, opponent].into_iter().enumerate() {
        let cells = row * holes..(row + 1) * holes;
        for (slot, &count) in stones[cells.clone()].iter_mut().zip(pos.row(side)) {
            *slot = f32::from(count) / per_hole;
        }
        let tuzdik_row = &mut tuzdiks[cells.clone()];
        tuzdik_row.fill(0.0);
        if let Some(hole) = pos.tuzdik(side.opponent()) {
            tuzdik_row[usize::from(hole) - 1] = 1.0;
        }
        let move_row = &mut moves[cells];
        for (hole, slot) in move_row.iter_mut().enumerate() {
            *slot = flag(side == mover && legal & (1 << hole) != 0);
        }
    }
    let values = [
        pos.kazan(observer) as f32 / total,
        pos.kazan(opponent) as f32 / total,
        flag(pos.tuzdik(observer).is_some()),
        flag(pos.tuzdik(opponent).is_some()),
        flag(mover == observer),
    ];
    for (plane, value) in constant.chunks_exact_mut(cells).zip(values) {
        plane.fill(value);
    }
}
