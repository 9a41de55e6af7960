//! The search's public types: what limits it, what it reports, what it answers.

use std::sync::Arc;
use std::time::Duration;

use super::score::{MATE, MATE_BOUND};
use super::time;
use crate::moves::Move;
use crate::solve::tables::Tables;

/// A score as reported: an evaluation or a proven result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// 1/100 stone of expected final margin.
    Cp(i32),
    /// A proven win (positive) or loss (negative) this many plies away.
    MatePlies(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::MatePlies(MATE - value)
        } else if value <= -MATE_BOUND {
            Score::MatePlies(-(MATE + value))
        } else {
            Score::Cp(value)
        }
    }

    /// UCI's `mate` figure: moves (of the side to move), positive for a win.
    pub fn mate_moves(plies: i32) -> i32 {
        if plies > 0 {
            (plies + 1) / 2
        } else {
            plies / 2
        }
    }
}

/// Which side of the window an aspiration search failed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// What limits a search. Everything absent means "no limit of that kind".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Iteration depth.
    pub depth: Option<u32>,
    /// Nodes (all threads together).
    pub nodes: Option<u64>,
    /// Stop once a win in this many moves is proven.
    pub mate: Option<u32>,
    /// The clock of the side to move.
    pub clock: time::Clock,
    /// Search until stopped.
    pub infinite: bool,
    /// Start as a ponder search (unlimited until `ponderhit`).
    pub ponder: bool,
    /// Root moves to consider (empty: all).
    pub search_moves: Vec<Move>,
}

/// The engine's options that a search reads (set through [`Engine`]'s setters).
#[derive(Clone, Debug)]
pub(crate) struct SearchOptions {
    /// Principal variations to report (at least 1).
    pub multipv: usize,
    /// Move Overhead, ms.
    pub move_overhead: i64,
    /// Tables to probe (`None`: none loaded).
    pub tables: Option<Arc<Tables>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead: super::engine::DEFAULT_MOVE_OVERHEAD,
            tables: None,
        }
    }
}

/// A report of a finished iteration (or an aspiration fail) for one principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based PV index.
    pub multipv: usize,
    /// The score.
    pub score: Score,
    /// Set when the score is only a bound.
    pub bound: Option<ScoreBound>,
    /// Nodes so far (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the table used by this search.
    pub hashfull: u32,
    /// Table probes that found the position (all threads); `None` when no loaded table
    /// covers the variant.
    pub tbhits: Option<u64>,
    /// The principal variation, checked legal from the root.
    pub pv: Vec<Move>,
}

/// What the search tells its caller while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// A PV line.
    Line(Report),
    /// The root move being searched (long searches only).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its 1-based number in the root order.
        number: usize,
    },
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The move to play (`None` when the game is over).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The final report of the first PV.
    pub last: Option<Report>,
    /// Nodes searched.
    pub nodes: u64,
}
