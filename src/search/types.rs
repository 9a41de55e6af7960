//! The search's public types: what limits it, what it reports, what it answers.

use std::sync::Arc;
use std::time::Duration;

use super::score::{MATE, MATE_BOUND};
use super::time;
use crate::moves::Move;
use crate::nnue::Network;
use crate::solve::tables::Tables;

/// A score as reported: an evaluation or a proven result.
///
/// ```
/// use tuzdik::search::{MATE, Score};
/// assert_eq!(Score::from_internal(250), Score::Cp(250));
/// // A win 3 plies away is a win in 2 of the mover's moves.
/// assert_eq!(Score::from_internal(MATE - 3), Score::MatePlies(3));
/// assert_eq!(Score::mate_moves(3), 2);
/// assert_eq!(Score::from_internal(-(MATE - 4)), Score::MatePlies(-4));
/// ```
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
///
/// ```
/// use tuzdik::search::{Limits, time::Clock};
/// // 2 s left on the mover's clock, 100 ms a move, and at most 10 plies.
/// let limits = Limits {
///     depth: Some(10),
///     clock: Clock { time: Some(2_000), increment: Some(100), ..Clock::default() },
///     ..Limits::default()
/// };
/// assert!(!limits.infinite);
/// ```
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
    /// The neural evaluation for Toguz Kumalak positions (`None`: the hand-crafted one; by
    /// default the embedded net).
    pub network: Option<Arc<Network>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead: super::engine::DEFAULT_MOVE_OVERHEAD,
            tables: None,
            network: Some(crate::nnue::embedded()),
        }
    }
}

/// A report of a finished iteration (or an aspiration fail) for one principal variation.
///
/// ```
/// use tuzdik::{Engine, Game, Variant};
/// use tuzdik::search::{Info, Limits};
/// let game = Game::new(Variant::TOGYZ);
/// let mut reports = Vec::new();
/// Engine::new().search(&game, &Limits { depth: Some(4), ..Limits::default() }, |info| {
///     if let Info::Line(report) = info {
///         reports.push(report.clone());
///     }
/// });
/// let last = reports.last().unwrap();
/// assert_eq!((last.depth, last.multipv, last.bound), (4, 1, None));
/// assert!(game.legal_moves().contains(&last.pv[0]));
/// ```
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
    /// Whether a net evaluated the search (then its scores are shown through
    /// [`calibration::Model::NET`](super::calibration::Model::NET)).
    pub net: bool,
}

impl Report {
    /// The score as a person or a GUI sees it, with the win/draw/loss chances of the side to
    /// move in `root` (the search's root), through the calibration of the evaluation that
    /// made it.
    pub fn shown(&self, root: &crate::Position) -> (Score, [u32; 3]) {
        super::calibration::Model::of_search(self.net).shown(self.score, root)
    }
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
///
/// ```
/// use tuzdik::{Engine, Game, Variant};
/// use tuzdik::search::Limits;
/// let game = Game::new(Variant::TOGYZ);
/// let outcome = Engine::new().search(&game, &Limits { nodes: Some(5_000), ..Limits::default() }, |_| {});
/// assert!(game.legal_moves().contains(&outcome.best.unwrap()));
/// assert_eq!(outcome.last.unwrap().nodes, outcome.nodes);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None` when the game is over).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The final report of the first PV.
    pub last: Option<Report>,
    /// Nodes searched.
    pub nodes: u64,
}
