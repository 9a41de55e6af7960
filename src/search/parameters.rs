//! Every tunable number of the search and the evaluation, in one place.

/// Centipawn-like units per stone: scores are 100 per stone of expected final margin.
pub const STONE: i32 = 100;

/// Evaluation weights (side to move minus opponent), fitted by `tuzdik tune` (docs/tune.md)
/// on the PlayOK games and 10,000 self-play games (5,000 distinct): `tuzdik tune
/// playok-2025.pgn selfplay-25000.pgn selfplay-40000.pgn selfplay2-25000.pgn
/// selfplay3-25000.pgn selfplay4-25000.pgn --seed 1 --positions-per-game 20 --epochs 8`
/// (110,546 training and 27,052 validation positions; validation cross-entropy 0.4933 →
/// 0.4822 with the hole table).
/// The scale is fixed by the kazan: 100 per stone.
pub mod eval {
    /// Per stone in the kazan (the unit; the tuner normalises to it).
    pub const KAZAN: i32 = 100;
    /// For owning a tuzdik: its expected future income on top of the 3 stones already counted.
    pub const TUZDIK: i32 = 2968;
    /// Per stone resting on the owner's row. They count for the owner at an empty-row ending
    /// and are material to sow with; how much depends on where they stand, which the hole
    /// table says, so little is left for this.
    pub const ROW_STONE: i32 = 5;
    /// Per non-empty hole (legal move), at the start of the game: `MOBILITY_PHASE` adds to it
    /// as stones are captured, so that it changes sign once about a seventh of them are in
    /// the kazans (a row running dry ends the game late, but early an empty hole is just a
    /// hole that has been played).
    pub const MOBILITY: i32 = -430;
    /// Per stone of the best capture the side to move can make now. Must not be negative:
    /// the search takes the rest as a lower bound. The fit wants it below 0, so the tuner
    /// holds it at 0; the move scan still orders the moves.
    pub const THREAT_TO_MOVE_PERCENT: i32 = 0;
    /// For having the move. Negative as fitted: at the sampled quiet leaves what having the
    /// move is worth shows in the other terms, and what is left favours the side that just
    /// moved.
    pub const TEMPO: i32 = -322;
    /// Per unit of the kazan phase: 16 × the kazan margin × the share of all stones already
    /// captured (see `eval::Feature::KazanPhase`).
    pub const KAZAN_PHASE: i32 = 11;
    /// Per hole number of the tuzdik (1..N on the opponent's row, 0 without one).
    pub const TUZDIK_HOLE: i32 = 120;
    /// Per own hole holding an odd number of stones (one stone from the opponent makes it
    /// even, and captured).
    pub const ODD_HOLES: i32 = -4;
    /// Per own hole holding exactly one stone (on top of its odd-hole weight): the
    /// opponent's next stone there makes two, a capture, and its own move gains nothing.
    pub const SINGLETONS: i32 = -731;
    /// Per stone in the fullest own hole: a hoard laps the ring and can end where it
    /// captures, and the opponent can rarely take it.
    pub const LARGEST_HOLE: i32 = 90;
    /// Per stone the own holes would sow past the end of the own row (at most a row per
    /// hole): stones handed to the opponent's row.
    pub const STONES_ACROSS: i32 = -84;
    /// Per non-empty own hole more than the opponent's, times 16 times the share of all
    /// stones captured (see `Feature::MobilityPhase`): it turns the mobility weight from
    /// negative at the start to strongly positive as the stones run out.
    pub const MOBILITY_PHASE: i32 = 192;
    /// The hole table (Toguz Kumalak's rows of 9 only): `HOLE_TABLE[h][c]` for an own hole
    /// numbered `h + 1` holding `c` stones (15 standing for 15 or more), minus the same for
    /// the opponent's holes. What a count is worth depends on where it stands: whether its
    /// sowing ends on the own row or the opponent's, and where the opponent's sowings end.
    #[rustfmt::skip]
    pub const HOLE_TABLE: [[i32; 16]; 9] = [
        [442, 154, -420, -296, -97, 207, 16, -49, -14, -245, -220, -105, -1, 291, 67, 271],
        [-442, -298, -466, -372, 145, -178, 272, 71, 621, 141, 4, 331, 368, 319, -118, -396],
        [-495, -289, -414, -347, 132, -49, 183, 363, 190, 73, -15, 270, 647, 275, -71, -453],
        [-172, -101, -150, -1, 154, 145, 431, 212, 257, -314, -62, -268, 293, -163, -354, 92],
        [-311, -51, -123, -86, 95, 61, 374, 218, 290, -130, 212, 41, -4, -320, -188, -78],
        [-369, 143, -30, 27, 198, 186, 109, -39, -2, -16, -224, 174, 32, -85, -121, 17],
        [67, 233, 0, 77, 212, -33, 276, -85, -109, -164, -143, -202, -259, 8, -158, 279],
        [1117, 292, 21, -16, -22, -18, -44, -421, -308, -216, -190, -189, -141, -28, -307, 470],
        [-13, -280, -552, -525, -444, -241, -282, -150, -16, -58, 124, 437, 126, 412, 543, 919],
    ];
}

/// Search parameters.
pub mod search {
    /// Half-width of the first aspiration window, in score units.
    pub const ASPIRATION_WINDOW: i32 = 30;
    /// Depth from which aspiration windows are used.
    pub const ASPIRATION_MIN_DEPTH: i32 = 5;
    /// Late-move reductions start at this depth...
    pub const LMR_MIN_DEPTH: i32 = 3;
    /// ...for moves searched after this many.
    pub const LMR_MIN_MOVE: usize = 2;
    /// Reduction = ln(depth) * ln(move number) / LMR_DIVISOR + LMR_BASE.
    pub const LMR_DIVISOR: f64 = 2.0;
    /// See LMR_DIVISOR.
    pub const LMR_BASE: f64 = 0.5;
    /// Reverse futility pruning works up to this depth...
    pub const RFP_MAX_DEPTH: i32 = 4;
    /// ...when the static evaluation beats beta by this much per ply of depth.
    pub const RFP_MARGIN: i32 = 160;
    /// Late-move pruning: in non-PV nodes up to this depth, quiet moves after the first
    /// `LMP_BASE + depth * depth` are not searched (0 turns it off). With at most 9 moves a
    /// node, depth 3 and beyond would never prune at `LMP_BASE` 3.
    pub const LMP_MAX_DEPTH: i32 = 2;
    /// See LMP_MAX_DEPTH.
    pub const LMP_BASE: usize = 2;
    /// History is kept per hole and per number of stones in it (below 32), not per hole only:
    /// the count decides where the sowing lands.
    pub const HISTORY_BY_COUNT: bool = true;
    /// Reverse futility's margin counts one ply less at a node whose board score is above
    /// the one two plies before.
    pub const IMPROVING_RFP: bool = true;
    /// Late moves are reduced one ply more at a node whose board score is not improving.
    pub const IMPROVING_LMR: bool = true;
    /// Nodes at least this deep with no table move are searched one ply shallower (internal
    /// iterative reduction; 0 turns it off).
    pub const IIR_MIN_DEPTH: i32 = 4;
    /// Singular extensions from this depth (0 turns them off).
    pub const SINGULAR_MIN_DEPTH: i32 = 8;
    /// A table move is singular when the other moves stay this much per ply below its score.
    pub const SINGULAR_MARGIN: i32 = 20;
    /// Quiescence search stops following captures this many plies below the horizon.
    pub const QUIESCENCE_MAX_PLY: i32 = 12;
    /// How many plies deeper than the main thread's iteration helper thread `i` (from 1)
    /// starts its next one: `HELPER_LEAD[(i - 1) % len]`. A helper ahead fills the table with
    /// the entries the main thread's next iterations need, and completes iterations the main
    /// thread then takes over.
    pub const HELPER_LEAD: [u32; 2] = [2, 0];
    /// Helper threads open their aspiration windows this many times wider than the main
    /// thread. Root scores here swing by a few stones from one iteration to the next, so the
    /// main thread's narrow window fails several times an iteration; a helper that rarely
    /// re-searches completes its iterations sooner, for the main thread to take over, and
    /// searches a tree of its own rather than a copy of the main thread's.
    pub const HELPER_ASPIRATION_FACTOR: i32 = 8;
    /// With several threads, nodes at least this deep search a move another thread is
    /// searching only after their other moves (ABDADA-style deferral; see `search/busy.rs`).
    /// With helpers that open wide windows and run ahead, a put-off move is worth waiting for
    /// only in large subtrees.
    pub const DEFER_MIN_DEPTH: i32 = 10;
    /// Per-ply history bonus is depth squared, capped here.
    pub const HISTORY_MAX: i32 = 1 << 14;
}

/// Time management.
pub mod time {
    /// Moves to the time control assumed when the GUI gives none.
    pub const DEFAULT_MOVES_TO_GO: i64 = 28;
    /// Of the time left, at most this share (percent) goes into one move.
    pub const MAX_SHARE_PERCENT: i64 = 40;
    /// A new iteration starts only while less than this share (percent) of the soft budget is
    /// used (the next iteration takes a few times longer than the last).
    pub const NEW_ITERATION_PERCENT: i64 = 55;
    /// The hard limit is this many times the soft budget.
    pub const HARD_FACTOR: i64 = 3;
    /// Milliseconds always kept back on the clock beyond Move Overhead.
    pub const SAFETY_MS: i64 = 5;
    /// Milliseconds a fixed move time (`go movetime`) leaves for stopping and answering:
    /// Move Overhead is not taken off it.
    pub const MOVE_TIME_MARGIN_MS: i64 = 5;
}
