//! The search: iterative deepening over a principal-variation alpha-beta search with
//! aspiration windows, a shared lock-free transposition table, Lazy SMP over several threads,
//! quiescence over captures, killer and history move ordering and late-move reductions.
//!
//! Scores are from the side to move's point of view in 1/100 stone. A proven result is a
//! "mate" score: `MATE - plies` for a win `plies` half-moves away, `-(MATE - plies)` for a loss,
//! `0` for a proven draw found at a terminal node. Terminal nodes follow RULES.md exactly:
//! rules 3a and 3b by the position, rule 3c (repetition) by the game's history plus the
//! search path.
//!
//! With tables loaded ([`Limits::tables`]), a node whose position a table covers and whose
//! future the history cannot touch (the first of its kazans, see [`Worker::probe_table`])
//! gets the table's exact result, in a band of its own below the mate scores:
//! [`TABLE_WIN`] plus the final margin for a win, minus for a loss, 0 for a draw.

pub mod bare;
pub mod bench;
mod busy;
pub mod engine;
pub mod eval;
pub mod ordering;
mod pages;
pub mod parameters;
mod pool;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::moves::Move;
use crate::position::{Position, Side};
use crate::solve::tables::Tables;
use busy::BusyMoves;
use ordering::{Gain, Scan, Words, with_search_rows};
use parameters::search as p;
use tt::{Bound, TranspositionTable};

pub use engine::{Engine, EngineError, Searching, StopHandle};

/// The deepest ply the search reaches (iteration depth plus quiescence).
pub const MAX_PLY: usize = 128;
/// The score of a win at the root itself; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are proven results.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INFINITY: i32 = 31_000;
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
            move_overhead: engine::DEFAULT_MOVE_OVERHEAD,
            tables: None,
        }
    }
}

impl Limits {
    /// Whether a position with one legal move is answered after one iteration: on a clock,
    /// or with no limit at all, but not when the GUI asked for a depth, a node count, a
    /// move time, a mate or an unbounded search.
    fn answers_forced_move_at_once(&self) -> bool {
        !self.infinite
            && !self.ponder
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && self.clock.move_time.is_none()
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

/// Signals between a front end and a running search (shared through a [`StopHandle`]).
#[derive(Debug, Default)]
pub(crate) struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When a ponder search turned into a normal one.
    ponderhit_at: Mutex<Option<Instant>>,
}

impl Control {
    /// A fresh control for one search.
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            ponderhit_at: Mutex::new(None),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The ponder search becomes a normal timed search from now.
    pub fn ponderhit(&self) {
        if let Ok(mut at) = self.ponderhit_at.lock() {
            *at = Some(Instant::now());
        }
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Starts a search on this control: pondering or not. A stop asked for before stays.
    fn begin(&self, pondering: bool) {
        if let Ok(mut at) = self.ponderhit_at.lock() {
            *at = None;
        }
        self.pondering.store(pondering, Ordering::Relaxed);
    }

    fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn clock_start(&self, search_start: Instant) -> Instant {
        self.ponderhit_at
            .lock()
            .ok()
            .and_then(|at| *at)
            .unwrap_or(search_start)
    }
}

/// State every thread of one search shares.
struct Shared {
    tt: Arc<TranspositionTable>,
    /// Set when this search must end (its own limits, or the main thread finishing).
    stop: AtomicBool,
    control: Arc<Control>,
    limits: Limits,
    /// Principal variations to report.
    multipv: usize,
    /// The game searched (its history decides repetitions).
    game: Game,
    budget: time::Budget,
    start: Instant,
    /// Per-thread node counts, published every few hundred nodes.
    nodes: Vec<AtomicU64>,
    /// Per-thread table hits, published with the node counts.
    tbhits: Vec<AtomicU64>,
    /// The tables, when one covers the root's variant.
    tables: Option<Arc<Tables>>,
    /// Kazan total from which a position may be in a table (its board has at most the
    /// tables' stones); `u32::MAX` without tables, so that the test never passes.
    probe_from_kazans: u32,
    /// The root's own table score, when the root is covered.
    root_table: Option<i32>,
    /// The iteration depth the main thread is searching (helpers search ahead of it).
    main_depth: AtomicU32,
    /// The deepest iteration a helper thread has completed ([`Finished::depth`]), readable
    /// without the lock.
    finished_depth: AtomicU32,
    finished: Mutex<Finished>,
    /// The moves threads are searching, when there are several threads.
    busy: Option<BusyMoves>,
}

/// A helper thread's completed iteration, for the main thread to take over.
struct Finished {
    depth: u32,
    /// The helper's root moves after it, best first.
    root_moves: Vec<RootMove>,
}

impl Shared {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.control.stopped()
    }

    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    fn total_tbhits(&self) -> u64 {
        self.tbhits.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    fn elapsed_on_clock(&self) -> Duration {
        self.control.clock_start(self.start).elapsed()
    }
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    child: Position,
    score: i32,
    pv: Vec<Move>,
    seldepth: u32,
}

/// History entries per hole with [`p::HISTORY_BY_COUNT`]: one per stone count, the last for
/// every count from there on.
const HISTORY_COUNT_BUCKETS: usize = 32;
/// History entries per hole.
const HISTORY_BUCKETS: usize = if p::HISTORY_BY_COUNT {
    HISTORY_COUNT_BUCKETS
} else {
    1
};

/// The history bucket of a move whose hole holds `stones`: by the count (below
/// [`HISTORY_COUNT_BUCKETS`]) when [`p::HISTORY_BY_COUNT`] is on, else 0.
#[inline(always)]
fn history_bucket_of(stones: u8) -> usize {
    if p::HISTORY_BY_COUNT {
        usize::from(stones).min(HISTORY_COUNT_BUCKETS - 1)
    } else {
        0
    }
}

/// Late-move reductions by depth and move number: about ln(depth) * ln(number) / divisor.
struct LmrTable([[i32; 16]; 64]);

impl LmrTable {
    fn build() -> LmrTable {
        let mut table = [[0; 16]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (number, cell) in row.iter_mut().enumerate().skip(1) {
                let value =
                    (depth as f64).ln() * (number as f64).ln() / p::LMR_DIVISOR + p::LMR_BASE;
                *cell = value.max(0.0) as i32;
            }
        }
        LmrTable(table)
    }

    #[inline(always)]
    fn get(&self, depth: i32, number: usize) -> i32 {
        self.0[(depth as usize).min(63)][number.min(15)]
    }
}

/// The board score of a node that has none (the root): never below another.
const NO_EVAL: i32 = i32::MAX;

static LMR_TABLE: std::sync::LazyLock<LmrTable> = std::sync::LazyLock::new(LmrTable::build);

/// A node's moves in search order, the highest order key first, ties in hole order.
///
/// The moves are put in order only when read: the first read selects the best move, and
/// only a read past it sorts the others. About a third of the lists end with a cutoff by
/// their first move and need no sort.
#[derive(Clone, Copy)]
struct MoveList {
    /// `key << 4 | (15 - offset)` for the move of hole `offset + 1`: these plain integers are
    /// all different, larger for a larger key, and of equal keys larger for the lower hole,
    /// so ordering them orders by key with ties in hole order, as a stable sort would.
    /// Unused entries are `i32::MIN`, below every move's; they may stand between moves until
    /// the list is ordered.
    entries: [i32; 9],
    /// The number of moves.
    len: usize,
    /// `entries[..ordered]` are the largest, in order (0, 1 or `len`).
    ordered: usize,
}

impl MoveList {
    /// Entries past the length are below every real one, so that the rank sort can compare
    /// all nine without looking at the length.
    const EMPTY: MoveList = MoveList {
        entries: [i32::MIN; 9],
        len: 0,
        ordered: 0,
    };

    /// The entry of the move of hole `offset + 1` with an order key below 2^27 in magnitude.
    #[inline(always)]
    fn entry(offset: usize, key: i32) -> i32 {
        key << 4 | (15 - offset as i32)
    }

    /// Adds the move of hole `offset + 1`, with an order key below 2^27 in magnitude.
    #[inline(always)]
    fn push(&mut self, offset: usize, key: i32) {
        self.entries[self.len] = Self::entry(offset, key);
        self.len += 1;
    }

    /// The hole offset of the `index`-th move (read in turn from the first).
    #[inline(always)]
    fn get(&mut self, index: usize) -> Option<usize> {
        if index >= self.len {
            return None;
        }
        if self.ordered <= index {
            self.order_up_to(index);
        }
        Some(15 - (self.entries[index] & 15) as usize)
    }

    /// Orders the moves up to `index`: the best to the front for the first, all for later.
    #[inline(always)]
    fn order_up_to(&mut self, index: usize) {
        if self.ordered == 0 {
            let (mut best, mut best_entry) = (0, self.entries[0]);
            for at in 1..self.entries.len() {
                let entry = self.entries[at];
                let better = entry > best_entry;
                best = if better { at } else { best };
                best_entry = if better { entry } else { best_entry };
            }
            self.entries[best] = self.entries[0];
            self.entries[0] = best_entry;
            self.ordered = 1;
        }
        if index > 0 {
            // The rest sorted by rank: each entry goes where the count of larger ones puts
            // it (moves' entries are all different; unused ones all rank `len`, past the
            // moves). Every comparison is made, none is branched on.
            // The counts are kept lane by lane (all entries' counts against one other entry
            // at a time), which the compiler turns into vector compares.
            let len = self.len;
            let mut ranks = [0u32; 9];
            for &other in &self.entries {
                for (rank, &entry) in ranks.iter_mut().zip(&self.entries) {
                    *rank += u32::from(other > entry);
                }
            }
            let mut sorted = self.entries;
            for (&rank, &entry) in ranks.iter().zip(&self.entries).skip(1) {
                sorted[rank as usize] = entry;
            }
            self.entries = sorted;
            self.ordered = len;
        }
    }
}

/// What orders a node's moves besides its scan: the mover's history and the ply's killers.
struct MoveOrder<'a> {
    history: &'a [[i32; HISTORY_BUCKETS]; 17],
    killers: [Option<Move>; 2],
}

impl MoveOrder<'_> {
    /// The moves of `mask` in a list: predicted captures by size, then the unpredicted long
    /// sowings, the killers and the history. Chosen by selects, not branches: which one
    /// applies is a coin toss.
    ///
    /// Rows of up to nine holes get one lane per hole, every lane worked out whether or not
    /// its move is in `mask` (no loop over the moves, no branch: the compiler runs the lanes
    /// side by side).
    #[inline(always)]
    fn lanes<const N: usize>(
        &self,
        pos: &Position,
        scan: &Scan,
        side: Side,
        mask: u16,
    ) -> MoveList {
        let killer_bits = |killer: Option<Move>| killer.map_or(0, |mv| 1u32 << mv.mask_bit());
        let [first_killer, second_killer] = self.killers.map(killer_bits);
        let unknown = u32::from(scan.unknown());
        let row = &pos.ring_n::<N>()[side.index() * N..][..N];
        let mut entries = [i32::MIN; 9];
        for offset in 0..N {
            let bucket = history_bucket_of(row[offset]);
            let lane = |bits: u32| (bits >> offset) & 1 != 0;
            let mut key = self.history[offset + 1][bucket];
            key = if lane(second_killer) {
                (1 << 22) - 1
            } else {
                key
            };
            key = if lane(first_killer) { 1 << 22 } else { key };
            let gain = scan.exact_gain(offset);
            key = if gain > 0 {
                (1 << 24) + gain * 1024
            } else {
                key
            };
            key = if lane(unknown) { 1 << 23 } else { key };
            entries[offset] = if lane(u32::from(mask)) {
                MoveList::entry(offset, key)
            } else {
                i32::MIN
            };
        }
        MoveList {
            entries,
            len: mask.count_ones() as usize,
            ordered: 0,
        }
    }

    /// The same list built move by move: for Mangala IV, whose pass has mask bit 15 (no
    /// lane of a row).
    #[cold]
    fn listed(&self, pos: &Position, scan: &Scan, side: Side, mut mask: u16) -> MoveList {
        let mut list = MoveList::EMPTY;
        let [first_killer, second_killer] = self.killers;
        while mask != 0 {
            let offset = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let hole = offset + 1;
            let mv = Some(Move::from_mask_bit(offset as u32));
            let mut key = self.history[hole][Worker::history_bucket(pos, side, hole)];
            if mv == second_killer {
                key = (1 << 22) - 1;
            }
            if mv == first_killer {
                key = 1 << 22;
            }
            let gain = scan.exact_gain(offset);
            if gain > 0 {
                key = (1 << 24) + gain * 1024;
            }
            if scan.unknown() & (1 << offset) != 0 {
                key = 1 << 23;
            }
            list.push(offset, key);
        }
        list
    }
}

/// One thread's search state.
struct Worker<'a> {
    id: usize,
    shared: &'a Shared,
    nodes: u64,
    /// Table probes that found the position.
    tbhits: u64,
    /// Copied from [`Shared::probe_from_kazans`]: one compare per node decides whether to
    /// probe.
    probe_from_kazans: u32,
    /// The node count at which `tick` next looks at the limits and the clock.
    next_check: u64,
    seldepth: usize,
    stopped: bool,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// The table move left out at each ply while a singular extension's verification search
    /// looks at the other moves.
    excluded: [Option<u8>; MAX_PLY + 1],
    /// The board score of each node on the path, for [`FirstTests::improving`];
    /// [`NO_EVAL`] at the root.
    board_scores: [i32; MAX_PLY + 1],
    history: [[[i32; HISTORY_BUCKETS]; 17]; 2],
    /// Hashes ([`hash_n`]) and kazan totals of the game since its last capture and of the
    /// search path; `path[base + ply]` is the node at `ply`.
    path: Vec<(u64, u32)>,
    base: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    /// The reductions, dereferenced once rather than at every move.
    lmr: &'static LmrTable,
    /// The iteration depth being searched.
    depth: u32,
    /// Set (with `stopped`) when the main thread drops its iteration because a helper has
    /// completed one at least as deep.
    superseded: bool,
}

/// A position to search with what its parent worked out for it: its legal moves, and its hash
/// when the parent needed it (see [`Worker::negamax`]).
#[derive(Clone, Copy)]
struct Node {
    pos: Position,
    /// `pos.legal_mask()`.
    moves: u16,
    /// [`hash_n`] of the position, when the parent worked it out.
    hash: Option<u64>,
}

impl Node {
    /// A node with everything worked out from scratch.
    fn new(pos: &Position) -> Node {
        Node {
            pos: *pos,
            moves: pos.legal_mask(),
            hash: Some(position_hash(pos)),
        }
    }
}

/// Makes the move of hole `offset + 1` in a position of row length `N` (of Mangala IV when
/// `MANGALA`) without its key and returns the legal moves after it, as
/// [`Position::play_unhashed_moves`] does without dispatching on the variant.
#[inline(never)]
fn make_child<const N: usize, const MANGALA: bool>(pos: &mut Position, offset: usize) -> u16 {
    if MANGALA {
        pos.play_unhashed_moves(offset as u32)
    } else {
        pos.make_unhashed_moves::<N>(pos.side_to_move().index() * N + offset)
    }
}

/// [`Scan::with_words_n`], kept out of line: inlined, it would crowd the search's registers.
#[inline(never)]
fn scan_n<const N: usize, const MANGALA: bool>(pos: &Position, moves: u16, words: &Words) -> Scan {
    Scan::with_words_n::<N, MANGALA>(pos, moves, words)
}

/// The search's hash of a position of row length `N`: its hole counts and packed kazans,
/// tuzdiks and side mixed by multiplies, a dozen instructions on words a make leaves in
/// registers (the Zobrist key takes a table load per hole). It is the position's key in the
/// table ([`TranspositionTable::probe`]) and finds repetitions. A parent works it out for
/// each child as soon as the child is made and fetches the child's bucket at once, long
/// before the child's own tests decide whether it reads it: the table is far larger than the
/// caches, and nearly every probe of a new position misses them.
#[inline(always)]
fn hash_n<const N: usize>(pos: &Position) -> u64 {
    let [low, high, rest] = ordering::ring_words_n::<N>(pos);
    let mixed = low.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ high.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(23)
        ^ (rest ^ pos.packed_state() << 16)
            .wrapping_mul(0x1656_67B1_9E37_79F9)
            .rotate_left(47);
    (mixed ^ mixed >> 29).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// [`hash_n`] for any variant.
fn position_hash(pos: &Position) -> u64 {
    with_search_rows!(pos.variant(), N, _M => hash_n::<N>(pos))
}

/// What [`Worker::negamax`]'s first tests worked out for the search of a node's moves.
#[derive(Clone, Copy)]
struct FirstTests {
    /// Whether the window (before the mate-distance narrowing) is wider than null.
    pv_node: bool,
    /// Whether reverse futility applies at this node.
    futile: bool,
    /// Whether the board score is above the one two plies before (the same side to move).
    improving: bool,
    /// The reverse futility margin.
    margin: i32,
    /// The kazan total.
    total: u32,
    /// The hole counts ([`ordering::ring_words`]).
    words: ordering::Words,
    /// The evaluation less its threat term.
    board: i32,
}

fn kazan_total(pos: &Position) -> u32 {
    pos.kazan(crate::Side::South) + pos.kazan(crate::Side::North)
}

/// The score of a finished position (rules 3a/3b) for the side to move, `ply` from the root.
fn terminal_score(pos: &Position, ply: usize) -> i32 {
    let scores = pos.final_scores().unwrap_or([0, 0]);
    let us = pos.side_to_move().index();
    outcome_score(scores[us], scores[1 - us], ply)
}

fn outcome_score(ours: u32, theirs: u32, ply: usize) -> i32 {
    match ours.cmp(&theirs) {
        std::cmp::Ordering::Greater => MATE - ply as i32,
        std::cmp::Ordering::Less => -MATE + ply as i32,
        std::cmp::Ordering::Equal => 0,
    }
}

fn score_to_tt(score: i32, ply: usize) -> i16 {
    let adjusted = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    adjusted.clamp(-INFINITY, INFINITY) as i16
}

fn score_from_tt(score: i16, ply: usize) -> i32 {
    let score = i32::from(score);
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// How often (in nodes) a thread publishes its count and looks at the stop flag and clock.
const CHECK_INTERVAL: u64 = 1024;
/// How often a thread of several adds up the node counts under a `nodes` limit.
const SHARED_NODES_INTERVAL: u64 = 64;

impl<'a> Worker<'a> {
    fn new(id: usize, shared: &'a Shared, root_moves: Vec<RootMove>) -> Self {
        // The game's positions since the last kazan change can repeat; older ones cannot.
        let game = &shared.game;
        let positions = game.positions();
        let current = kazan_total(game.position());
        let first = positions
            .iter()
            .rposition(|pos| kazan_total(pos) != current)
            .map_or(0, |i| i + 1);
        let mut path: Vec<(u64, u32)> = positions[first..]
            .iter()
            .map(|pos| (position_hash(pos), kazan_total(pos)))
            .collect();
        let base = path.len() - 1;
        path.resize(base + MAX_PLY + 2, (0, 0));
        let mut worker = Worker {
            id,
            shared,
            nodes: 0,
            // The root's own probe, when it found the root, counts once.
            tbhits: u64::from(id == 0 && shared.root_table.is_some()),
            probe_from_kazans: shared.probe_from_kazans,
            next_check: 0,
            seldepth: 0,
            stopped: false,
            killers: [[None; 2]; MAX_PLY + 1],
            excluded: [None; MAX_PLY + 1],
            board_scores: [NO_EVAL; MAX_PLY + 1],
            history: [[[0; HISTORY_BUCKETS]; 17]; 2],
            path,
            base,
            pv: vec![[Move::PASS; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves,
            lmr: &LMR_TABLE,
            depth: u32::MAX,
            superseded: false,
        };
        worker.next_check = worker.next_checkpoint();
        worker
    }

    #[inline]
    fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        self.shared.tbhits[self.id].store(self.tbhits, Ordering::Relaxed);
    }

    /// The table's score of the node at `ply` (kazan total `total`), if a table covers it
    /// and its value is exact here.
    ///
    /// A table value assumes that the game's history starts at the position. That holds
    /// when the position is the first of its kazans on the game and search path (the one
    /// before it has other kazans): every earlier position has fewer stones in the kazans
    /// and can never come back. Later positions of the same run could be repeated by the
    /// play that follows, so they are searched, not probed; the run's own moves are
    /// searched until a capture (or the end) reaches a probed position.
    #[cold]
    #[inline(never)]
    fn probe_table(&mut self, pos: &Position, ply: usize, total: u32) -> Option<i32> {
        let here = self.base + ply;
        if here > 0 && self.path[here - 1].1 == total {
            return None;
        }
        let margin = self.shared.tables.as_deref()?.final_margin(pos)?;
        self.tbhits += 1;
        Some(table_score(margin))
    }

    /// Counts a node and decides whether to stop. The limits are looked at only every so
    /// many nodes (see [`next_checkpoint`](Self::next_checkpoint)): one comparison per node.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits();
        }
        self.stopped
    }

    /// The first node count after the current one at which something must be looked at: a
    /// multiple of [`CHECK_INTERVAL`]; under a `nodes` limit the limit itself on one thread
    /// (so that it is exact) or a multiple of [`SHARED_NODES_INTERVAL`] on several.
    fn next_checkpoint(&self) -> u64 {
        let after = |interval: u64| (self.nodes / interval + 1) * interval;
        let mut next = after(CHECK_INTERVAL);
        if let Some(limit) = self.shared.limits.nodes {
            if self.shared.nodes.len() == 1 {
                if limit > self.nodes {
                    next = next.min(limit);
                }
            } else {
                next = next.min(after(SHARED_NODES_INTERVAL));
            }
        }
        next
    }

    #[cold]
    #[inline(never)]
    fn check_limits(&mut self) {
        // The limits never cut the main thread's first iteration short: it takes a few
        // hundred nodes at most, and without it there is no move, score or pv to report.
        let first_iteration = self.shared.main_depth.load(Ordering::Relaxed) <= 1;
        if let Some(limit) = self.shared.limits.nodes {
            if self.shared.nodes.len() == 1 {
                if self.nodes >= limit && !first_iteration {
                    self.stopped = true;
                    self.shared.halt();
                }
            } else if self.nodes.is_multiple_of(SHARED_NODES_INTERVAL) {
                self.publish_nodes();
                if self.shared.total_nodes() >= limit {
                    // A helper past the limit stops itself even while the main thread
                    // finishes its first iteration (which then ends the search).
                    if !first_iteration {
                        self.stopped = true;
                        self.shared.halt();
                    } else if self.id != 0 {
                        self.stopped = true;
                    }
                }
            }
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.publish_nodes();
            if self.shared.stopped() {
                self.stopped = true;
            } else if self.id == 0
                && !first_iteration
                && !self.shared.control.is_pondering()
                && let Some(hard) = self.shared.budget.hard
                && self.shared.elapsed_on_clock() >= hard
            {
                self.stopped = true;
                self.shared.halt();
            } else if self.id == 0 && !first_iteration && self.forced_move_on_clock() {
                // Pondered until `ponderhit`: the rest of the iteration decides nothing.
                self.stopped = true;
                self.shared.halt();
            } else if self.id == 0
                && self.shared.finished_depth.load(Ordering::Relaxed) >= self.depth
            {
                // A helper got there first: its result is taken over at the next iteration.
                self.stopped = true;
                self.superseded = true;
            }
        }
        self.next_check = self.next_checkpoint();
    }

    /// Whether the node at `ply`, with kazan total `total`, may repeat an earlier position:
    /// only positions with the same kazans can, and those come in an unbroken run just
    /// before it, so a kazan change two plies back rules it out without the hash.
    #[inline(always)]
    fn may_repeat(&self, ply: usize, total: u32) -> bool {
        let here = self.base + ply;
        here >= 2 && self.path[here - 2].1 == total
    }

    /// Whether the node at `ply` repeats an earlier position (rule 3c).
    fn is_repetition(&self, ply: usize, hash: u64, total: u32) -> bool {
        let mut index = self.base + ply;
        while index >= 2 {
            index -= 2;
            let (earlier, earlier_total) = self.path[index];
            if earlier_total != total {
                return false;
            }
            if earlier == hash {
                return true;
            }
        }
        false
    }

    /// The history bucket of a move: by hole, and by the stones in it when
    /// [`p::HISTORY_BY_COUNT`] is on. Mangala IV's pass (hole 16, no hole of the row) has
    /// bucket 0.
    #[inline(always)]
    fn history_bucket(pos: &Position, side: Side, hole: usize) -> usize {
        pos.row(side)
            .get(hole - 1)
            .map_or(0, |&stones| history_bucket_of(stones))
    }

    /// The moves of a node other than `skip`, best first: predicted captures by size, then
    /// killers, then history.
    #[inline]
    fn ordered_moves<const N: usize, const MANGALA: bool>(
        &self,
        pos: &Position,
        scan: &Scan,
        side: Side,
        ply: usize,
        skip: Option<u8>,
    ) -> MoveList {
        let mut mask = scan.moves();
        if let Some(hole) = skip {
            mask &= !(1 << (hole - 1));
        }
        let order = MoveOrder {
            history: &self.history[side.index()],
            killers: self.killers[ply],
        };
        if MANGALA {
            order.listed(pos, scan, side, mask)
        } else {
            order.lanes::<N>(pos, scan, side, mask)
        }
    }

    /// A quiet move caused a cutoff after the quiet moves `failed` were searched in vain.
    fn update_quiet_stats(
        &mut self,
        pos: &Position,
        mv: Move,
        failed: &[Move],
        ply: usize,
        depth: i32,
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(p::HISTORY_MAX);
        self.add_history(pos, mv, bonus);
        if p::HISTORY_MALUS {
            for &other in failed {
                self.add_history(pos, other, -bonus);
            }
        }
    }

    /// Moves a history entry towards +-HISTORY_MAX by `bonus` (gravity keeps it bounded).
    fn add_history(&mut self, pos: &Position, mv: Move, bonus: i32) {
        let side = pos.side_to_move();
        let hole = mv.mask_bit() as usize + 1;
        let bucket = Self::history_bucket(pos, side, hole);
        let slot = &mut self.history[side.index()][hole][bucket];
        *slot += bonus - *slot * bonus.abs() / p::HISTORY_MAX;
    }

    /// Captures only, below the horizon. `moves` is `pos.legal_mask()`.
    ///
    /// Most calls end at the first test, so it is inlined into its callers and the rest is
    /// a function of its own ([`quiescence_moves`](Self::quiescence_moves)).
    #[inline(always)]
    fn quiescence<const N: usize, const MANGALA: bool>(
        &mut self,
        pos: &Position,
        moves: u16,
        alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if moves == 0 {
            return terminal_score(pos, ply);
        }
        let words = ordering::ring_words_n::<N>(pos);
        let board = eval::board_score_n::<N>(pos, &words);
        // The threat term only adds: when the rest of the evaluation stands pat already, the
        // moves need no scan.
        if board >= beta {
            return board;
        }
        self.quiescence_moves::<N, MANGALA>(pos, moves, alpha, beta, ply, qdepth, &words, board)
    }

    /// The part of [`quiescence`](Self::quiescence) after the board score failed to stand
    /// pat: the scan, the threat term and the captures.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn quiescence_moves<const N: usize, const MANGALA: bool>(
        &mut self,
        pos: &Position,
        moves: u16,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
        words: &ordering::Words,
        board: i32,
    ) -> i32 {
        let scan = scan_n::<N, MANGALA>(pos, moves, words);
        let stand_pat = board + eval::threat_score(&scan);
        if stand_pat >= beta || ply >= MAX_PLY || qdepth >= p::QUIESCENCE_MAX_PLY {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        // Predicted captures by size, then the long sowings that may capture (key 1).
        let mut captures = MoveList::EMPTY;
        let mut bits = moves;
        while bits != 0 {
            let offset = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            match scan.gain(offset) {
                Gain::Exact(gain) if gain >= 2 => captures.push(offset, gain),
                Gain::Exact(_) => {}
                Gain::Unknown => captures.push(offset, 1),
            }
        }
        let side = pos.side_to_move();
        let before = pos.kazan(side);
        let mut index = 0;
        while let Some(offset) = captures.get(index) {
            index += 1;
            let mut child = *pos;
            let child_moves = make_child::<N, MANGALA>(&mut child, offset);
            if child.kazan(side) < before + 2 {
                continue;
            }
            let score = -self.quiescence::<N, MANGALA>(
                &child,
                child_moves,
                -beta,
                -alpha,
                ply + 1,
                qdepth + 1,
            );
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The score of a node that ends before its moves are looked at for a reason other than
    /// its evaluation: the end of the game, a repetition or a table hit. `None` for the
    /// others. Such nodes are rare, so [`negamax`](Self::negamax) rules them out with three
    /// comparisons and leaves the rest to this.
    #[cold]
    #[inline(never)]
    fn settled_score(&mut self, node: &Node, ply: usize, total: u32) -> Option<i32> {
        let Node {
            ref pos,
            moves,
            hash,
        } = *node;
        if moves == 0 {
            // Counted as every node is, so that a node limit stays exact.
            self.tick();
            return Some(terminal_score(pos, ply));
        }
        let repeated = self.may_repeat(ply, total) && {
            let hash = hash.unwrap_or_else(|| position_hash(pos));
            self.is_repetition(ply, hash, total)
        };
        if repeated {
            self.tick();
            let shared = pos.shared_scores();
            let us = pos.side_to_move().index();
            return Some(outcome_score(shared[us], shared[1 - us], ply));
        }
        if total >= self.probe_from_kazans
            && let Some(score) = self.probe_table(pos, ply, total)
        {
            self.tick();
            return Some(score);
        }
        None
    }

    /// The main search. The node's hash may be left out (`None`): it is worked out here when
    /// a repetition check that the kazans do not rule out or the table needs it.
    ///
    /// Most nodes end within the first few tests, on their evaluation alone: those tests are
    /// inlined into the callers, and the search of the moves is a function of its own
    /// ([`search_moves`](Self::search_moves)), so that a node that ends early costs no call.
    #[inline(always)]
    fn negamax<const N: usize, const MANGALA: bool>(
        &mut self,
        node: &Node,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let pos = &node.pos;
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        let total = kazan_total(pos);
        if (node.moves == 0 || self.may_repeat(ply, total) || total >= self.probe_from_kazans)
            && let Some(score) = self.settled_score(node, ply, total)
        {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence::<N, MANGALA>(pos, node.moves, alpha, beta, ply, 0);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // A win cannot come sooner than the next ply, nor a loss.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Reverse futility: far above beta near the horizon, a quiet position will stay there.
        // Decided before the table is read: most nodes near the horizon end here, and the
        // probe is a cache miss. The evaluation less its threat term is a lower bound of it,
        // and often enough on its own: then the moves need no scan either.
        let futile = !pv_node && depth <= p::RFP_MAX_DEPTH && beta.abs() < MATE_BOUND;
        let words = ordering::ring_words_n::<N>(pos);
        let board = eval::board_score_n::<N>(pos, &words);
        self.board_scores[ply] = board;
        let improving = ply >= 2 && board > self.board_scores[ply - 2];
        let margin = p::RFP_MARGIN * (depth - i32::from(p::IMPROVING_RFP && improving));
        if futile && board - margin >= beta {
            return board;
        }
        let first = FirstTests {
            pv_node,
            futile,
            improving,
            margin,
            total,
            words,
            board,
        };
        // Frontier nodes get a search of their own, compiled for depth 1: their children are
        // all quiescence nodes, so the horizon test a child would make (a branch the
        // predictor misses often, after the parent's own work) is decided when compiling.
        if depth == 1 {
            self.search_moves::<N, MANGALA, true>(node, 1, alpha, beta, ply, &first)
        } else {
            self.search_moves::<N, MANGALA, false>(node, depth, alpha, beta, ply, &first)
        }
    }

    /// The part of [`negamax`](Self::negamax) after the node's first tests (`first`), with
    /// `alpha` and `beta` narrowed by the mate distance. `FRONTIER` compiles it for depth 1,
    /// where `depth` must be 1.
    #[inline(never)]
    fn search_moves<const N: usize, const MANGALA: bool, const FRONTIER: bool>(
        &mut self,
        node: &Node,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        first: &FirstTests,
    ) -> i32 {
        let Node {
            ref pos,
            moves,
            hash,
        } = *node;
        let FirstTests {
            pv_node,
            futile,
            improving,
            margin,
            total,
            ref words,
            board,
        } = *first;
        debug_assert!(!FRONTIER || depth == 1);
        let depth = if FRONTIER { 1 } else { depth };
        // Frontier nodes are most of the tree and their entries save little: skipping the
        // table there saves a cache miss per node.
        let use_table = depth >= 2;
        let tt = &*self.shared.tt;
        // A hash the parent did not work out (it fetches its children's buckets only where
        // they read the table) is worked out now, and its bucket fetched during the scan.
        let hash = hash.unwrap_or_else(|| {
            let hash = hash_n::<N>(pos);
            if use_table {
                tt.prefetch(hash);
            }
            hash
        });
        // The moves are scanned only when something reads the scan: the full evaluation here
        // for a futile node, else the move order, made after the table's cutoff and its move.
        let scan_moves = || scan_n::<N, MANGALA>(pos, moves, words);
        let mut scan = None;
        if futile {
            let static_eval = board + eval::threat_score(scan.insert(scan_moves()));
            if static_eval - margin >= beta {
                return static_eval;
            }
        }
        // The path up to here, for the repetition checks of the nodes below.
        self.path[self.base + ply] = (hash, total);

        let excluded = self.excluded[ply];
        let hit = if use_table && excluded.is_none() {
            tt.probe(hash)
        } else {
            None
        };
        let tt_hole = hit
            .and_then(|h| h.mv)
            .and_then(Move::source)
            .filter(|&hole| moves & (1 << (hole - 1)) != 0);
        if let Some(hit) = hit
            && !pv_node
            && i32::from(hit.depth) >= depth
        {
            let score = score_from_tt(hit.score, ply);
            let usable = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }

        // Singular extension: a table move that beats every other move by a margin (a
        // null-window search of the others, at half depth, fails low below its score less
        // the margin) is searched one ply deeper. When the others reach even that bound
        // and it is at least beta, the node fails high at once (multi-cut); when only the
        // table's score is at least beta, the table move is searched one ply shallower (other
        // moves are likely to cut as well).
        let mut tt_extension = 0;
        if p::SINGULAR_MIN_DEPTH > 0
            && depth >= p::SINGULAR_MIN_DEPTH
            && excluded.is_none()
            && ply < 2 * self.depth as usize
            && let (Some(hit), Some(hole)) = (hit, tt_hole)
            && hit.bound != Bound::Upper
            && i32::from(hit.depth) >= depth - 3
        {
            let tt_score = score_from_tt(hit.score, ply);
            if tt_score.abs() < MATE_BOUND {
                let singular_beta = tt_score - p::SINGULAR_MARGIN * depth;
                let others = FirstTests {
                    pv_node: false,
                    futile: false,
                    ..*first
                };
                self.excluded[ply] = Some(hole);
                let score = self.search_moves::<N, MANGALA, false>(
                    node,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    &others,
                );
                self.excluded[ply] = None;
                self.pv_len[ply] = ply;
                if self.stopped {
                    return 0;
                }
                if score < singular_beta {
                    tt_extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if tt_score >= beta {
                    tt_extension = -1;
                }
            }
        }

        let depth = if p::IIR_MIN_DEPTH > 0 && depth >= p::IIR_MIN_DEPTH && tt_hole.is_none() {
            depth - 1
        } else {
            depth
        };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut index = 0;
        let mover = pos.side_to_move();
        let kazan_before = pos.kazan(mover);
        // Children that may read their entries get their buckets fetched as soon as they are
        // made. Children at depth 0 get their hashes only if their repetition check needs
        // them.
        let prefetch = depth >= 3;
        let make = |slot: &mut Node, offset: usize| {
            slot.pos = *pos;
            slot.moves = make_child::<N, MANGALA>(&mut slot.pos, offset);
            slot.hash = prefetch.then(|| hash_n::<N>(&slot.pos));
            if let Some(hash) = slot.hash {
                tt.prefetch(hash);
            }
        };
        // The child being searched, made in place: copying a position just written field by
        // field would stall on store forwarding.
        let mut child = Node {
            pos: *pos,
            moves: 0,
            hash: None,
        };
        // The moves after the table's, ordered once the table's move has been searched: a
        // cutoff saves ordering them, and its subtree changes the history.
        let mut rest = None;
        let mut next_in_rest = 0;
        let mut failed_quiets = [Move::from_mask_bit(0); 16];
        let mut failed_count = 0;
        // With several threads, moves another thread is searching when their turn comes are
        // put off to the end (see `busy.rs`).
        let busy = self
            .shared
            .busy
            .as_ref()
            .filter(|_| depth >= p::DEFER_MIN_DEPTH);
        // Each with the number it had in the order, which its reduction still follows: being
        // busy elsewhere says nothing against a move.
        let mut deferred = [(0u8, 0u8); 9];
        let (mut deferred_count, mut next_deferred) = (0, 0);
        loop {
            let mut put_off_before = false;
            let mut number = index;
            let hole = if let (0, Some(hole)) = (index, tt_hole) {
                hole
            } else {
                let list = rest.get_or_insert_with(|| {
                    let scan = scan.get_or_insert_with(scan_moves);
                    self.ordered_moves::<N, MANGALA>(pos, scan, mover, ply, tt_hole.or(excluded))
                });
                if let Some(offset) = list.get(next_in_rest) {
                    next_in_rest += 1;
                    offset as u8 + 1
                } else if next_deferred < deferred_count {
                    let (hole, put_off_number) = deferred[next_deferred];
                    number = usize::from(put_off_number);
                    next_deferred += 1;
                    put_off_before = true;
                    hole
                } else {
                    break;
                }
            };
            // Bitwise rather than short-circuit: each test alone is a coin toss to the branch
            // predictor, their conjunction seldom holds.
            let prunable = (index > 0) & !pv_node & (best > -MATE_BOUND);
            let late = prunable
                & (depth <= p::LMP_MAX_DEPTH)
                & (index >= p::LMP_BASE + (depth * depth) as usize);
            // A late move the scan predicts to be quiet is pruned before it is made.
            if late
                && scan
                    .as_ref()
                    .is_some_and(|scan| scan.predicts_quiet(usize::from(hole - 1)))
            {
                index += 1;
                continue;
            }
            make(&mut child, usize::from(hole - 1));
            let child = &child;
            let mv = Move::from_mask_bit(u32::from(hole) - 1);
            let quiet = child.pos.kazan(mover) == kazan_before;
            if prunable & quiet {
                let futile = depth <= p::FUTILITY_MAX_DEPTH && {
                    let scan = scan.get_or_insert_with(scan_moves);
                    board + eval::threat_score(scan) + p::FUTILITY_MARGIN * depth <= alpha
                };
                if late || futile {
                    index += 1;
                    continue;
                }
            }
            if let Some(busy) = busy {
                if index > 0 && !put_off_before && busy.is_busy(hash, hole) {
                    deferred[deferred_count] = (hole, index as u8);
                    deferred_count += 1;
                    continue;
                }
                busy.enter(hash, hole);
            }
            let mut score;
            if index == 0 {
                let extension = if Some(hole) == tt_hole {
                    tt_extension
                } else {
                    0
                };
                score = -self.negamax::<N, MANGALA>(
                    child,
                    depth - 1 + extension,
                    -beta,
                    -alpha,
                    ply + 1,
                );
            } else {
                let mut reduction = 0;
                if depth >= p::LMR_MIN_DEPTH && number >= p::LMR_MIN_MOVE && quiet {
                    reduction = self.lmr.get(depth, number) - i32::from(pv_node)
                        + i32::from(p::IMPROVING_LMR && !improving);
                    if self.killers[ply][0] == Some(mv) || self.killers[ply][1] == Some(mv) {
                        reduction -= 1;
                    }
                    reduction = reduction.clamp(0, depth - 2);
                }
                score = -self.negamax::<N, MANGALA>(
                    child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                );
                // A stop inside a search leaves its score meaningless: no re-search.
                if score > alpha && reduction > 0 && !self.stopped {
                    score =
                        -self.negamax::<N, MANGALA>(child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax::<N, MANGALA>(child, depth - 1, -beta, -alpha, ply + 1);
                }
            }
            if let Some(busy) = busy {
                busy.leave(hash, hole);
            }
            index += 1;
            if self.stopped {
                return 0;
            }
            // Only the history malus reads the failed quiet moves.
            if p::HISTORY_MALUS && quiet && score <= alpha && failed_count < failed_quiets.len() {
                failed_quiets[failed_count] = mv;
                failed_count += 1;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.pv[ply][ply] = mv;
                    for next in ply + 1..self.pv_len[ply + 1] {
                        self.pv[ply][next] = self.pv[ply + 1][next];
                    }
                    self.pv_len[ply] = self.pv_len[ply + 1].max(ply + 1);
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(
                                pos,
                                mv,
                                &failed_quiets[..failed_count],
                                ply,
                                depth,
                            );
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if use_table && excluded.is_none() {
            self.shared.tt.store(
                hash,
                score_to_tt(best, ply),
                board.clamp(-INFINITY, INFINITY) as i16,
                best_move,
                bound,
                depth.clamp(0, 255) as u8,
            );
        }
        best
    }

    /// [`negamax`](Self::negamax) of a root move's child, compiled for its row length: the
    /// search dispatches on the variant once here rather than in every make, scan, board
    /// score and key below.
    fn search_root_child(&mut self, child: &Node, depth: i32, alpha: i32, beta: i32) -> i32 {
        with_search_rows!(child.pos.variant(), N, M => {
            self.negamax::<N, M>(child, depth, alpha, beta, 1)
        })
    }

    /// Searches the root moves from `first` on with a window; returns the best score.
    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        first: usize,
        on_info: &mut dyn FnMut(Info),
    ) -> i32 {
        let mut best = -INFINITY;
        let report_moves = self.id == 0 && self.shared.start.elapsed() > Duration::from_secs(3);
        for index in first..self.root_moves.len() {
            let child = Node::new(&self.root_moves[index].child);
            let mv = self.root_moves[index].mv;
            if report_moves {
                on_info(Info::CurrMove {
                    depth: depth as u32,
                    mv,
                    number: index + 1,
                });
            }
            self.seldepth = 0;
            let score = if index == first {
                -self.search_root_child(&child, depth - 1, -beta, -alpha)
            } else {
                let mut score = -self.search_root_child(&child, depth - 1, -alpha - 1, -alpha);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search_root_child(&child, depth - 1, -beta, -alpha);
                }
                score
            };
            if self.stopped {
                break;
            }
            let root_move = &mut self.root_moves[index];
            root_move.seldepth = self.seldepth as u32;
            if score > alpha || index == first {
                root_move.score = score;
                root_move.pv = std::iter::once(mv)
                    .chain((1..self.pv_len[1]).map(|ply| self.pv[1][ply]))
                    .collect();
            } else {
                root_move.score = -INFINITY;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                // The new best goes to the front of the searched range at once, so that a
                // stop mid-iteration still plays it.
                let found = self.root_moves.remove(index);
                self.root_moves.insert(first, found);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}

impl Worker<'_> {
    fn report(
        &self,
        index: usize,
        depth: u32,
        bound: Option<ScoreBound>,
        root: &Position,
    ) -> Report {
        let root_move = &self.root_moves[index];
        // The PV is replayed from the root; anything illegal (a key collision) is cut off.
        let mut pv = Vec::new();
        let mut pos = *root;
        for &mv in &root_move.pv {
            if pos.try_play(mv).is_err() {
                break;
            }
            pv.push(mv);
        }
        // A covered root's moves all have its table value (the others were left out): the
        // exact result beats whatever the search could see, unless it saw a real mate.
        let (score, bound) = match self.shared.root_table {
            Some(exact) if root_move.score.abs() < MATE_BOUND => (exact, None),
            _ => (root_move.score, bound),
        };
        Report {
            depth,
            seldepth: (root_move.seldepth.max(1) + 1).max(depth),
            multipv: index + 1,
            score: Score::from_internal(score.max(-MATE)),
            bound,
            nodes: self.shared.total_nodes().max(self.nodes),
            time: self.shared.start.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self
                .shared
                .tables
                .as_ref()
                .map(|_| self.shared.total_tbhits().max(self.tbhits)),
            pv,
        }
    }

    /// Iterative deepening. Only worker 0 reports and decides when to stop.
    ///
    /// Helper threads (Lazy SMP) share the table and search ahead of the main thread: each
    /// starts its next iteration at least [`p::HELPER_LEAD`] plies deeper than the one the
    /// main thread is in, and publishes every iteration it completes. Their deeper entries
    /// make the main thread's iterations faster, and when a helper completes an iteration
    /// at least as deep as the main thread's, the main thread drops its own and takes the
    /// helper's result over (reporting it as its own), then goes on from one ply deeper.
    fn iterate(&mut self, root: &Position, on_info: &mut dyn FnMut(Info)) -> u32 {
        let limits = &self.shared.limits;
        let mut max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 8, |d| d.clamp(1, MAX_PLY as u32 - 8));
        // A forced move is answered at once (one iteration, for its report), unless the GUI
        // asked for a limit of its own or an unbounded search.
        if self.root_moves.len() == 1 && limits.answers_forced_move_at_once() {
            max_depth = 1;
        }
        let multipv = self.shared.multipv.clamp(1, self.root_moves.len());
        let mut completed = 0;
        let mut depth = 1;
        loop {
            if self.id == 0 {
                if let Some(taken) = self.take_over_helper(depth) {
                    completed = taken;
                    for index in 0..multipv {
                        on_info(Info::Line(self.report(index, taken, None, root)));
                    }
                    if taken >= max_depth || self.should_stop_after_iteration(taken) {
                        break;
                    }
                    depth = taken + 1;
                    continue;
                }
                if depth > max_depth {
                    break;
                }
                self.shared.main_depth.store(depth, Ordering::Relaxed);
            } else {
                let lead = p::HELPER_LEAD[(self.id - 1) % p::HELPER_LEAD.len()];
                depth = depth.max(self.shared.main_depth.load(Ordering::Relaxed) + lead);
                if depth > max_depth {
                    // Still of use at the last depth until it is done.
                    if completed >= max_depth {
                        break;
                    }
                    depth = max_depth;
                }
            }
            self.depth = depth;
            self.search_iteration(depth, multipv, root, on_info);
            if self.superseded {
                self.superseded = false;
                self.stopped = false;
                continue;
            }
            if self.stopped {
                break;
            }
            completed = depth;
            if self.id == 0 {
                for index in 0..multipv {
                    on_info(Info::Line(self.report(index, depth, None, root)));
                }
                if self.should_stop_after_iteration(depth) {
                    break;
                }
            } else {
                self.publish_iteration(depth);
            }
            depth += 1;
        }
        completed
    }

    /// One iteration: every principal variation, each in aspiration windows widened until
    /// the score falls inside (a helper's [`p::HELPER_ASPIRATION_FACTOR`] times wider from
    /// the start).
    fn search_iteration(
        &mut self,
        depth: u32,
        multipv: usize,
        root: &Position,
        on_info: &mut dyn FnMut(Info),
    ) {
        for pv_index in 0..multipv {
            let previous = self.root_moves[pv_index].score;
            let mut window = if self.id == 0 {
                p::ASPIRATION_WINDOW
            } else {
                p::ASPIRATION_WINDOW * p::HELPER_ASPIRATION_FACTOR
            };
            let (mut alpha, mut beta) =
                if depth as i32 >= p::ASPIRATION_MIN_DEPTH && previous.abs() < MATE_BOUND {
                    (previous - window, previous + window)
                } else {
                    (-INFINITY, INFINITY)
                };
            loop {
                let score = self.root_search(depth as i32, alpha, beta, pv_index, on_info);
                if self.stopped {
                    return;
                }
                if score <= alpha {
                    if self.id == 0 {
                        self.root_moves[pv_index].score = score;
                        on_info(Info::Line(self.report(
                            pv_index,
                            depth,
                            Some(ScoreBound::Upper),
                            root,
                        )));
                    }
                    beta = (alpha + beta) / 2;
                    alpha = (score - window).max(-INFINITY);
                } else if score >= beta {
                    if self.id == 0 {
                        on_info(Info::Line(self.report(
                            pv_index,
                            depth,
                            Some(ScoreBound::Lower),
                            root,
                        )));
                    }
                    beta = (score + window).min(INFINITY);
                } else {
                    break;
                }
                window = window.saturating_mul(2);
                if window > 2000 {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            }
            // A later line can come out better than an earlier one (the earlier saw the
            // move only through a null window that pruning let fail low): the lines found so
            // far are kept best first, so `multipv 1` and `bestmove` are the best of them. The
            // sort is stable: ties keep the order they were found in.
            self.root_moves[..=pv_index].sort_by_key(|line| std::cmp::Reverse(line.score));
        }
    }

    /// A helper's completed iteration, published for the main thread.
    fn publish_iteration(&self, depth: u32) {
        let shared = self.shared;
        if depth <= shared.finished_depth.load(Ordering::Relaxed) {
            return;
        }
        if let Ok(mut finished) = shared.finished.lock()
            && depth > finished.depth
        {
            finished.depth = depth;
            finished.root_moves.clone_from(&self.root_moves);
            shared.finished_depth.store(depth, Ordering::Relaxed);
        }
    }

    /// Takes over a helper's completed iteration if it is at least `depth` deep: its root
    /// moves (order, scores and principal variations) replace the main thread's. Returns its
    /// depth.
    fn take_over_helper(&mut self, depth: u32) -> Option<u32> {
        let shared = self.shared;
        if shared.finished_depth.load(Ordering::Relaxed) < depth {
            return None;
        }
        let finished = shared.finished.lock().ok()?;
        if finished.depth < depth {
            return None;
        }
        self.root_moves.clone_from(&finished.root_moves);
        Some(finished.depth)
    }

    /// A forced move (one root move) searched on a clock and not pondered or unbounded: a
    /// forced move after `ponderhit`, since one on a clock from the start is searched one
    /// iteration deep.
    fn forced_move_on_clock(&self) -> bool {
        let limits = &self.shared.limits;
        self.root_moves.len() == 1
            && limits.clock.time.is_some()
            && !limits.infinite
            && !self.shared.control.is_pondering()
    }

    fn should_stop_after_iteration(&self, depth: u32) -> bool {
        let shared = self.shared;
        let limits = &shared.limits;
        let best = self.root_moves[0].score;
        if let Some(mate) = limits.mate
            && best >= MATE_BOUND
            && (MATE - best) <= 2 * mate as i32
        {
            return true;
        }
        if limits.infinite || shared.control.is_pondering() {
            return false;
        }
        // A proven result deep enough that more depth cannot change it.
        if best.abs() >= MATE_BOUND && (MATE - best.abs()) < depth as i32 {
            return true;
        }
        if self.forced_move_on_clock() {
            return true;
        }
        // The node limit does not cut the first iteration short (see `check_limits`).
        if let Some(limit) = limits.nodes
            && shared.total_nodes().max(self.nodes) >= limit
        {
            return true;
        }
        // A fixed move time is used to its end (the hard limit stops the last iteration); only
        // a clock's budget is worth saving by not starting an iteration that cannot finish.
        let fixed_move_time = limits.clock.move_time.is_some() && limits.clock.time.is_none();
        if let Some(soft) = shared.budget.soft.filter(|_| !fixed_move_time) {
            let used = shared.elapsed_on_clock();
            if used.as_micros() * 100
                >= soft.as_micros() * parameters::time::NEW_ITERATION_PERCENT as u128
            {
                return true;
            }
        }
        false
    }
}

/// Runs a search of the game's current position. Blocks until it ends (by its limits or by
/// `control.stop()`); `on_info` receives the reports of the main thread, which runs on the
/// calling thread. Each of `helpers` (parked threads of the engine's pool) runs one helper
/// worker. A search that would end by itself while pondering or under `infinite` waits for
/// `stop` or `ponderhit` first, as the protocol requires.
pub(crate) fn run(
    game: &Game,
    limits: &Limits,
    options: &SearchOptions,
    tt: &Arc<TranspositionTable>,
    helpers: &[pool::Sender],
    control: &Arc<Control>,
    on_info: &mut dyn FnMut(Info),
) -> Outcome {
    let root = *game.position();
    let mut legal = game.legal_moves();
    if !limits.search_moves.is_empty() {
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| limits.search_moves.contains(mv))
            .collect();
        if !allowed.is_empty() {
            legal = allowed.into_iter().collect();
        }
    }
    // Tables covering the root's variant, and the stones they cover.
    let tables = options.tables.as_ref().and_then(|tables| {
        let stones = tables.max_stones_for(root.variant())?;
        Some((
            Arc::clone(tables),
            root.variant().total_stones().saturating_sub(stones),
        ))
    });
    // A covered root plays a move of the best table value, as tablebase root probing does:
    // the others are left out and the search chooses among the best (and finds their pv).
    let mut root_table = None;
    if let Some((tables, _)) = &tables
        && let Some(values) = tables.move_values(&root)
        && let Some(best) = values
            .iter()
            .filter(|(mv, _)| legal.contains(mv))
            .map(|&(_, v)| v)
            .max()
    {
        legal.retain(|mv| values.contains(&(*mv, best)));
        let mover = root.side_to_move();
        let lead = root.kazan(mover) as i32 - root.kazan(mover.opponent()) as i32;
        root_table = Some(table_score(lead + best));
    }
    if legal.is_empty() {
        wait_while_unbounded(limits, control);
        return Outcome {
            best: None,
            ponder: None,
            last: None,
            nodes: 0,
        };
    }
    tt.new_search();
    let threads = helpers.len() + 1;
    let shared = Arc::new(Shared {
        tt: Arc::clone(tt),
        stop: AtomicBool::new(false),
        control: Arc::clone(control),
        limits: limits.clone(),
        multipv: options.multipv,
        game: game.clone(),
        budget: time::plan(&limits.clock, options.move_overhead),
        start: Instant::now(),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        tbhits: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        probe_from_kazans: tables.as_ref().map_or(u32::MAX, |(_, from)| *from),
        tables: tables.map(|(tables, _)| tables),
        root_table,
        main_depth: AtomicU32::new(0),
        finished_depth: AtomicU32::new(0),
        finished: Mutex::new(Finished {
            depth: 0,
            root_moves: Vec::new(),
        }),
        busy: (threads > 1).then(BusyMoves::new),
    });
    let root_moves: Vec<RootMove> = legal
        .iter()
        .map(|&mv| {
            let mut child = root;
            child.play_unchecked(mv);
            RootMove {
                mv,
                child,
                score: -INFINITY,
                pv: vec![mv],
                seldepth: 0,
            }
        })
        .collect();

    let mut last_report = None;
    let (helpers_done, helper_finished) = std::sync::mpsc::channel::<()>();
    let mut helpers_running = 0;
    for (index, helper) in helpers.iter().enumerate() {
        let id = index + 1;
        let shared = Arc::clone(&shared);
        let root_moves = root_moves.clone();
        let done = helpers_done.clone();
        let sent = helper.send(Box::new(move || {
            let mut worker = Box::new(Worker::new(id, &shared, root_moves));
            worker.iterate(&root, &mut |_| {});
            worker.publish_nodes();
            drop(worker);
            let _ = done.send(());
        }));
        helpers_running += usize::from(sent.is_ok());
    }
    drop(helpers_done);
    let (best, ponder) = {
        let mut worker = Box::new(Worker::new(0, &shared, root_moves));
        let mut forward = |info: Info| {
            if let Info::Line(report) = &info
                && report.multipv == 1
                && report.bound.is_none()
            {
                last_report = Some(report.clone());
            }
            on_info(info);
        };
        let mut completed = worker.iterate(&root, &mut forward);
        worker.publish_nodes();
        wait_while_unbounded(limits, control);
        shared.halt();
        // A helper's deeper completed iteration beats what the main thread has (a stop
        // before the first iteration finished still plays the move searched first).
        let mut taken = false;
        if let Some(depth) = worker.take_over_helper(completed + 1) {
            completed = depth;
            taken = true;
        }
        let best = worker.root_moves[0].mv;
        let ponder = worker.root_moves[0].pv.get(1).copied().or_else(|| {
            let child = worker.root_moves[0].child;
            tt.probe(position_hash(&child))
                .and_then(|hit| hit.mv)
                .filter(|&mv| child.is_legal(mv))
        });
        // The last line before `bestmove` describes what is played, with the final counts.
        let completed_line = last_report
            .take()
            .filter(|line| line.pv.first() == Some(&best));
        let final_line = if taken {
            Some(worker.report(0, completed.max(1), None, &root))
        } else if let Some(mut line) = completed_line {
            // The last completed iteration's line (again, if a stop cut the next one short
            // or other lines of a MultiPV followed it).
            let again = worker.stopped || options.multipv > 1;
            line.nodes = shared.total_nodes().max(worker.nodes);
            line.time = shared.start.elapsed();
            line.hashfull = tt.hashfull();
            last_report = Some(line.clone());
            again.then_some(line)
        } else if worker.root_moves[0].score > -INFINITY {
            // A better move found by the iteration a stop cut short: the position is worth
            // at least its score (the other moves were not all searched).
            Some(worker.report(0, worker.depth, Some(ScoreBound::Lower), &root))
        } else {
            // Stopped before any move was searched: the static evaluation stands in.
            let mut line = worker.report(0, 1, None, &root);
            let child = &worker.root_moves[0].child;
            line.score = Score::from_internal(-eval::evaluate(child));
            line.pv = vec![best];
            Some(line)
        };
        if let Some(line) = final_line {
            last_report = Some(line.clone());
            on_info(Info::Line(line));
        }
        (best, ponder)
    };
    // Every helper has published its count once it is done.
    for _ in 0..helpers_running {
        if helper_finished.recv().is_err() {
            break;
        }
    }
    let nodes = shared.total_nodes();
    if let Some(report) = last_report.as_mut() {
        report.nodes = nodes;
    }
    Outcome {
        best: Some(best),
        ponder,
        last: last_report,
        nodes,
    }
}

/// Under `infinite` or while pondering, the answer waits for `stop` (or `ponderhit`).
fn wait_while_unbounded(limits: &Limits, control: &Control) {
    while !control.stopped() && (limits.infinite || control.is_pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::{HISTORY_BUCKETS, MoveList, MoveOrder, hash_n, make_child, position_hash, scan_n};
    use crate::moves::Move;
    use crate::position::Position;
    use crate::search::{eval, ordering, ordering::with_search_rows};
    use crate::variant::Variant;
    use proptest::prelude::*;

    /// Every family and switch whose make or scan takes its own path.
    const SPECS: [&str; 6] = [
        "togyz",
        "togyz sowing=skip-origin",
        "togyz capture=singleton",
        "kozdatu tuzdik=on",
        "bestemshchi",
        "mangala4",
    ];

    /// Checks the helpers the search is compiled with for row length `N` against the
    /// dispatching functions they stand for, on `pos` and every move of it.
    fn check_row_length<const N: usize, const MANGALA: bool>(
        pos: &Position,
    ) -> Result<(), TestCaseError> {
        let words = ordering::ring_words_n::<N>(pos);
        prop_assert_eq!(words, ordering::ring_words(pos));
        prop_assert_eq!(
            eval::board_score_n::<N>(pos, &words),
            eval::board_score(pos, &words)
        );
        // The search's hash is a function of the position alone: the same for the position
        // rebuilt from its string, whatever the make left outside the ring.
        let rebuilt = Position::parse_with(&pos.to_string(), pos.variant()).unwrap();
        prop_assert_eq!(hash_n::<N>(pos), position_hash(&rebuilt), "{}", pos);
        let moves = pos.legal_mask();
        let ours = scan_n::<N, MANGALA>(pos, moves, &words);
        let theirs = ordering::Scan::with_words(pos, moves, &words);
        prop_assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
        let mut bits = moves;
        while bits != 0 {
            let offset = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (mut made, mut played) = (*pos, *pos);
            let made_moves = make_child::<N, MANGALA>(&mut made, offset);
            let played_moves = played.play_unhashed_moves(offset as u32);
            prop_assert_eq!(made_moves, played_moves, "{} hole {}", pos, offset + 1);
            prop_assert_eq!(made.to_string(), played.to_string());
        }
        Ok(())
    }

    /// The search's hashes of the distinct positions of the first plies spread evenly over a
    /// table's buckets (their top bits pick the bucket) and never collide, in every family:
    /// no bucket gets three times its share.
    #[test]
    fn search_hashes_spread_over_the_buckets_without_collisions() {
        // Mangala IV's leftmost rule leaves one move a turn: its free choice spreads.
        let specs = SPECS.map(|spec| match spec {
            "mangala4" => "mangala4 mangala=free-choice",
            other => other,
        });
        for spec in specs {
            let variant: Variant = spec.parse().unwrap();
            let start = if variant.is_mangala() {
                let setup = Position::random_mangala(7).to_string();
                Position::parse_with(&setup, variant).unwrap()
            } else {
                Position::start(variant)
            };
            let mut seen = std::collections::HashSet::new();
            let mut frontier = vec![start];
            for _ in 0..5 {
                let mut next = Vec::new();
                for pos in &frontier {
                    for mv in pos.legal_moves() {
                        let child = pos.after(mv).unwrap();
                        if seen.insert(child.key()) {
                            next.push(child);
                        }
                    }
                }
                frontier = next;
            }
            let positions = frontier;
            let buckets = 64;
            let mut counts = vec![0usize; buckets];
            let mut hashes = std::collections::HashSet::new();
            for pos in &positions {
                let hash = position_hash(pos);
                assert!(hashes.insert(hash), "{spec}: {pos} collides");
                counts[(hash >> 58) as usize] += 1;
            }
            let share = positions.len() / buckets;
            assert!(share >= 20, "{spec}: only {} positions", positions.len());
            let fullest = counts.iter().max().copied().unwrap_or(0);
            assert!(
                fullest < 3 * share,
                "{spec}: {fullest} of {} in one bucket",
                positions.len()
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// A search of any position of a random game, in every family and switch (Mangala
        /// IV's passes included), plays a legal move, and its last report's pv is legal.
        #[test]
        fn searches_play_legal_moves_in_every_family(
            spec in 0..SPECS.len() + 1,
            choices in prop::collection::vec(0usize..9, 0..80),
            depth in 1u32..7,
        ) {
            let variant: Variant = match SPECS.get(spec) {
                Some(spec) => spec.parse().unwrap(),
                None => "mangala4 mangala=free-choice".parse().unwrap(),
            };
            let mut game = crate::game::Game::new(variant);
            for choice in choices {
                let legal = game.legal_moves();
                if legal.is_empty() || game.termination().is_some() {
                    break;
                }
                game.try_play(legal[choice % legal.len()]).unwrap();
            }
            let limits = super::Limits { depth: Some(depth), ..super::Limits::default() };
            let mut engine = super::Engine::new();
            engine.set_hash_mib(1).unwrap();
            let outcome = engine.search(&game, &limits, |_| {});
            let legal = game.legal_moves();
            match outcome.best {
                Some(best) => prop_assert!(legal.contains(&best), "{} plays {}", game.fen(), best),
                None => prop_assert!(legal.is_empty()),
            }
            if let Some(last) = outcome.last {
                let mut pos = *game.position();
                for mv in last.pv {
                    prop_assert!(pos.try_play(mv).is_ok(), "{}: pv move {}", game.fen(), mv);
                }
            }
        }
    }

    proptest! {
        /// The search's make, scan, key, hole words and board score for one row length are
        /// what the functions that dispatch on the variant give, in every family.
        #[test]
        fn row_length_helpers_match_the_dispatching_functions(
            spec in 0..SPECS.len(),
            choices in prop::collection::vec(0usize..9, 0..120),
        ) {
            let variant: Variant = SPECS[spec].parse().unwrap();
            let mut pos = Position::start(variant);
            for choice in choices {
                with_search_rows!(variant, N, M => check_row_length::<N, M>(&pos)?);
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.play(legal[choice % legal.len()]);
            }
        }

        /// The move order's lanes (every hole worked out, the moves picked by mask) read the
        /// moves in the order the move-by-move list does, whatever the history, killers and
        /// left-out move, in every family with rows.
        #[test]
        fn move_order_lanes_match_the_list_built_move_by_move(
            spec in 0..SPECS.len() - 1,
            choices in prop::collection::vec(0usize..9, 0..120),
            history in prop::collection::vec(-20_000i32..20_000, 17 * HISTORY_BUCKETS),
            killers in prop::array::uniform2(prop::option::of(1u8..=9)),
            skip in 0u32..10,
        ) {
            let variant: Variant = SPECS[spec].parse().unwrap();
            let mut table = [[0; HISTORY_BUCKETS]; 17];
            for (slot, &value) in table.iter_mut().flatten().zip(&history) {
                *slot = value;
            }
            let order = MoveOrder { history: &table, killers: killers.map(|k| k.map(Move::hole)) };
            let mut pos = Position::start(variant);
            for choice in choices {
                let scan = ordering::Scan::new(&pos);
                let mask = pos.legal_mask() & !(1u16 << skip);
                let side = pos.side_to_move();
                let mut listed = order.listed(&pos, &scan, side, mask);
                let mut lanes = with_search_rows!(variant, N, _M => order.lanes::<N>(&pos, &scan, side, mask));
                let read = |list: &mut MoveList| (0..10).map_while(|i| list.get(i)).collect::<Vec<_>>();
                prop_assert_eq!(read(&mut lanes), read(&mut listed), "{}", pos);
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.play(legal[choice % legal.len()]);
            }
        }

        /// The list reads the moves by key, highest first, ties in hole order (a stable
        /// sort), whether it is read to the end or only partly.
        #[test]
        fn move_list_reads_moves_in_stable_key_order(
            keys in prop::collection::vec(-40i32..40, 0..=9),
            reads in 0usize..=10,
        ) {
            let mut list = MoveList::EMPTY;
            for (offset, &key) in keys.iter().enumerate() {
                list.push(offset, key);
            }
            let mut expected: Vec<usize> = (0..keys.len()).collect();
            expected.sort_by_key(|&offset| std::cmp::Reverse(keys[offset]));
            let read: Vec<usize> = (0..reads).map_while(|index| list.get(index)).collect();
            prop_assert_eq!(&read[..], &expected[..reads.min(keys.len())]);
        }
    }
}
