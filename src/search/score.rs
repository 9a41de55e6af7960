//! Score arithmetic: the mate and table bands, terminal scores, and the conversion of mate
//! scores to and from the transposition table (a mate is stored relative to the node, not the
//! root).

use super::MAX_PLY;
use crate::position::Position;

/// The score of a win at the root itself; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are proven results.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Beyond every score: the window of a search without bounds.
pub(super) const INFINITY: i32 = 31_000;
/// The score of a table win with a final margin of 0 stones: a win with margin `m` scores
/// `TABLE_WIN + m`, a loss by `m` stones `-(TABLE_WIN + m)`. Far above any evaluation (the
/// largest variant has 162 stones, 16 200 in 1/100 stone) and below [`MATE_BOUND`], so the
/// search prefers a proven win to any heuristic score, a larger margin to a smaller, and a
/// real mate (a game over on the board) to both; the GUI sees `cp 20000 + m`.
pub const TABLE_WIN: i32 = 20_000;
/// The largest table score ([`TABLE_WIN`] plus the most stones a margin can have).
pub const TABLE_BOUND: i32 = TABLE_WIN + 200;

/// The score of a proven final margin (the side to move's view): see [`TABLE_WIN`].
pub fn table_score(final_margin: i32) -> i32 {
    match final_margin.signum() {
        1 => TABLE_WIN + final_margin,
        -1 => -TABLE_WIN + final_margin,
        _ => 0,
    }
}

/// The score of a finished position (rules 3a/3b) for the side to move, `ply` from the root.
pub(super) fn terminal_score(pos: &Position, ply: usize) -> i32 {
    let scores = pos.final_scores().unwrap_or([0, 0]);
    let us = pos.side_to_move().index();
    outcome_score(scores[us], scores[1 - us], ply)
}

pub(super) fn outcome_score(ours: u32, theirs: u32, ply: usize) -> i32 {
    match ours.cmp(&theirs) {
        std::cmp::Ordering::Greater => MATE - ply as i32,
        std::cmp::Ordering::Less => -MATE + ply as i32,
        std::cmp::Ordering::Equal => 0,
    }
}

pub(super) fn score_to_tt(score: i32, ply: usize) -> i16 {
    let adjusted = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    adjusted.clamp(-INFINITY, INFINITY) as i16
}

pub(super) fn score_from_tt(score: i16, ply: usize) -> i32 {
    let score = i32::from(score);
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A searched move's score taken into a node's fail-soft window: raises `best` and `alpha` to
/// it, and says whether it cuts the node off (`score >= beta`).
#[inline(always)]
pub(crate) fn take_score(score: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}
