//! One thread's search state and what every thread of a search shares: node counts, the stop
//! flag, the limits' checks, repetitions, killers and history.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::MAX_PLY;
use super::busy::BusyMoves;
use super::node::{kazan_total, position_hash};
use super::ordering::Scan;
use super::parameters::search as p;
use super::picker::{HISTORY_BUCKETS, MoveOrder, OrderedMoves, history_bucket};
use super::score::table_score;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::turns::Turns;
use crate::game::Game;
use crate::moves::Move;
use crate::nnue::{Accumulator, Network};
use crate::position::{Position, Side};
use crate::solve::tables::Tables;

/// State every thread of one search shares.
pub(super) struct Shared {
    pub(super) tt: Arc<TranspositionTable>,
    /// Set when this search must end (its own limits, or the main thread finishing).
    pub(super) stop: AtomicBool,
    /// The limits, the clock and the front end's signals.
    pub(super) time: TimeManager,
    /// Principal variations to report.
    pub(super) multipv: usize,
    /// The game searched (its history decides repetitions).
    pub(super) game: Game,
    /// Per-thread node counts, published every few hundred nodes.
    pub(super) nodes: Vec<AtomicU64>,
    /// Per-thread table hits, published with the node counts.
    pub(super) tbhits: Vec<AtomicU64>,
    /// The tables, when one covers the root's variant.
    pub(super) tables: Option<Arc<Tables>>,
    /// Kazan total from which a position may be in a table (its board has at most the
    /// tables' stones); `u32::MAX` without tables, so that the test never passes.
    pub(super) probe_from_kazans: u32,
    /// The root's own table score, when the root is covered.
    pub(super) root_table: Option<i32>,
    /// The iteration depth the main thread is searching (helpers search ahead of it).
    pub(super) main_depth: AtomicU32,
    /// The deepest iteration a helper thread has completed ([`Finished::depth`]), readable
    /// without the lock.
    pub(super) finished_depth: AtomicU32,
    pub(super) finished: Mutex<Finished>,
    /// The moves threads are searching, when there are several threads.
    pub(super) busy: Option<BusyMoves>,
    /// Under a `nodes` limit on several threads, the nodes not yet reserved by a thread: a
    /// thread searches only nodes it has reserved, so that all together stop at the limit.
    pub(super) unreserved_nodes: AtomicU64,
    /// Turns on the processor for the helpers, when there are more threads than cores.
    pub(super) turns: Option<Turns>,
    /// The net that evaluates the positions, when one is set and covers the root's variant.
    pub(super) network: Option<Arc<Network>>,
}

/// A helper thread's completed iteration, for the main thread to take over.
pub(super) struct Finished {
    pub(super) depth: u32,
    /// The helper's root moves after it, best first.
    pub(super) root_moves: Vec<RootMove>,
}

impl Shared {
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.time.stop_requested()
    }

    pub(super) fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(turns) = &self.turns {
            turns.close();
        }
    }

    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Reserves nodes to search under a `nodes` limit on several threads: a share of those
    /// left (an eighth of each thread's share, at most [`MAX_NODE_RESERVATION`]), so that the
    /// reservations shrink as the limit nears and the threads end close together. 0 when
    /// none are left.
    pub(super) fn reserve_nodes(&self) -> u64 {
        let threads = self.nodes.len() as u64;
        let share = |left: u64| {
            (left / (8 * threads))
                .clamp(1, MAX_NODE_RESERVATION)
                .min(left)
        };
        self.unreserved_nodes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                (left > 0).then(|| left - share(left))
            })
            .map_or(0, share)
    }

    /// The clock's watch on a thread of its own, for searches on several threads: it ends
    /// the search at the hard time limit (or a forced move's `ponderhit`) whether or not the
    /// main thread gets the processor to look (more threads than cores leave every thread
    /// a time slice now and then), until the search ends otherwise. A sleeping thread that
    /// wakes is scheduled at once, ahead of the busy ones.
    pub(super) fn watch_clock(&self) {
        while !self.stopped() {
            // As the main thread's own check: never in its first iteration.
            if self.main_depth.load(Ordering::Relaxed) > 1
                && (self.time.out_of_time() || self.time.forced_move_on_clock())
            {
                self.halt();
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    pub(super) fn total_tbhits(&self) -> u64 {
        self.tbhits.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) child: Position,
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
    pub(super) seldepth: u32,
}

/// Late-move reductions by depth and move number: about ln(depth) * ln(number) / divisor.
pub(super) struct LmrTable([[i32; 16]; 64]);

impl LmrTable {
    pub(super) fn build() -> LmrTable {
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
    pub(super) fn get(&self, depth: i32, number: usize) -> i32 {
        self.0[(depth as usize).min(63)][number.min(15)]
    }
}

/// The board score of a node that has none (the root): never below another.
pub(super) const NO_EVAL: i32 = i32::MAX;

pub(super) static LMR_TABLE: std::sync::LazyLock<LmrTable> =
    std::sync::LazyLock::new(LmrTable::build);

/// What a thread does besides searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// Reports, watches the clock and decides when the search ends.
    Main,
    /// Searches ahead of the main thread (Lazy SMP): each iteration starts at least `lead`
    /// plies deeper than the one the main thread is in.
    Helper {
        /// See [`p::HELPER_LEAD`].
        lead: u32,
    },
}

impl Role {
    /// The role of thread `id` (0 is the main thread).
    fn of(id: usize) -> Role {
        match id {
            0 => Role::Main,
            _ => Role::Helper {
                lead: p::HELPER_LEAD[(id - 1) % p::HELPER_LEAD.len()],
            },
        }
    }
}

/// One thread's search state.
pub(super) struct Worker<'a> {
    /// Its slot in the shared node counts.
    pub(super) id: usize,
    pub(super) role: Role,
    pub(super) shared: &'a Shared,
    pub(super) nodes: u64,
    /// Table probes that found the position.
    pub(super) tbhits: u64,
    /// Copied from [`Shared::probe_from_kazans`]: one compare per node decides whether to
    /// probe.
    pub(super) probe_from_kazans: u32,
    /// The node count at which `tick` next looks at the limits and the clock.
    pub(super) next_check: u64,
    /// Under a `nodes` limit on several threads, the node count up to which this thread has
    /// reserved nodes ([`Shared::reserve_nodes`]).
    pub(super) reserved_up_to: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    pub(super) killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// The table move left out at each ply while a singular extension's verification search
    /// looks at the other moves.
    pub(super) excluded: [Option<u8>; MAX_PLY + 1],
    /// The board score of each node on the path, for [`FirstTests::improving`];
    /// [`NO_EVAL`] at the root.
    pub(super) board_scores: [i32; MAX_PLY + 1],
    pub(super) history: [[[i32; HISTORY_BUCKETS]; 17]; 2],
    /// Hashes ([`hash_n`]) and kazan totals of the game since its last capture and of the
    /// search path; `path[base + ply]` is the node at `ply`.
    pub(super) path: Vec<(u64, u32)>,
    pub(super) base: usize,
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) root_moves: Vec<RootMove>,
    /// The reductions, dereferenced once rather than at every move.
    pub(super) lmr: &'static LmrTable,
    /// The iteration depth being searched.
    pub(super) depth: u32,
    /// Set (with `stopped`) when the main thread drops its iteration because a helper has
    /// completed one at least as deep.
    pub(super) superseded: bool,
    /// [`Shared::network`], one load away.
    pub(super) network: Option<&'a Network>,
    /// With a net, the accumulator of the node evaluated last at each ply: a node's is its
    /// parent's brought up to date by the holes the move changed (empty without a net).
    pub(super) accumulators: Vec<Accumulator>,
}

/// How often (in nodes) a thread publishes its count and looks at the stop flag and clock.
pub(super) const CHECK_INTERVAL: u64 = 1024;

/// How many nodes a helper searches in one turn when helpers take turns ([`Turns`]): about a
/// millisecond, long enough that handing turns on costs little, short enough that every helper
/// moves on.
const TURN_NODES: u64 = 8 * CHECK_INTERVAL;
/// The most nodes a thread of several reserves at once under a `nodes` limit.
pub(super) const MAX_NODE_RESERVATION: u64 = 64;

impl<'a> Worker<'a> {
    pub(super) fn new(id: usize, shared: &'a Shared, root_moves: Vec<RootMove>) -> Self {
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
            role: Role::of(id),
            shared,
            nodes: 0,
            // The root's own probe, when it found the root, counts once.
            tbhits: u64::from(Role::of(id) == Role::Main && shared.root_table.is_some()),
            probe_from_kazans: shared.probe_from_kazans,
            next_check: 0,
            reserved_up_to: 0,
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
            network: shared.network.as_deref(),
            accumulators: shared.network.as_deref().map_or_else(Vec::new, |network| {
                let mut stack = Vec::with_capacity(MAX_PLY + 1);
                stack.push(Accumulator::refresh(network, game.position()));
                stack
            }),
        };
        worker.next_check = worker.next_checkpoint();
        worker
    }

    #[inline]
    pub(super) fn publish_nodes(&self) {
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
    pub(super) fn probe_table(&mut self, pos: &Position, ply: usize, total: u32) -> Option<i32> {
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
    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits();
        }
        self.stopped
    }

    /// The first node count after the current one at which something must be looked at: a
    /// multiple of [`CHECK_INTERVAL`]; under a `nodes` limit the limit itself on one thread
    /// (so that it is exact) or the end of its reservation on several.
    pub(super) fn next_checkpoint(&self) -> u64 {
        let after = |interval: u64| (self.nodes / interval + 1) * interval;
        let mut next = after(CHECK_INTERVAL);
        if let Some(limit) = self.shared.time.limits().nodes {
            if self.shared.nodes.len() == 1 {
                if limit > self.nodes {
                    next = next.min(limit);
                }
            } else {
                next = next.min(self.reserved_up_to.max(self.nodes + 1));
            }
        }
        next
    }

    #[cold]
    #[inline(never)]
    pub(super) fn check_limits(&mut self) {
        // The limits never cut the main thread's first iteration short: it takes a few
        // hundred nodes at most, and without it there is no move, score or pv to report.
        let first_iteration = self.shared.main_depth.load(Ordering::Relaxed) <= 1;
        if let Some(limit) = self.shared.time.limits().nodes {
            if self.shared.nodes.len() == 1 {
                if self.nodes >= limit && !first_iteration {
                    self.stopped = true;
                    self.shared.halt();
                }
            } else if self.nodes >= self.reserved_up_to {
                self.publish_nodes();
                let reserved = self.shared.reserve_nodes();
                if reserved > 0 {
                    self.reserved_up_to = self.nodes + reserved;
                } else if !first_iteration {
                    self.stopped = true;
                    self.shared.halt();
                } else if let Role::Helper { .. } = self.role {
                    // A helper past the limit stops itself even while the main thread
                    // finishes its first iteration (which then ends the search).
                    self.stopped = true;
                } else {
                    // The main thread's first iteration goes on past the limit.
                    self.reserved_up_to = self.nodes + MAX_NODE_RESERVATION;
                }
            }
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.publish_nodes();
            if self.shared.stopped() {
                self.stopped = true;
            } else if self.role == Role::Main {
                self.check_main_limits(first_iteration);
            } else if let Some(turns) = &self.shared.turns
                && self.nodes.is_multiple_of(TURN_NODES)
            {
                // Nodes reserved under a `nodes` limit go back while this thread waits, so
                // that the threads running can search them.
                if self.reserved_up_to > self.nodes {
                    let unspent = self.reserved_up_to - self.nodes;
                    self.shared
                        .unreserved_nodes
                        .fetch_add(unspent, Ordering::Relaxed);
                    self.reserved_up_to = self.nodes;
                }
                if !turns.pass() {
                    self.stopped = true;
                }
            }
        }
        self.next_check = self.next_checkpoint();
    }

    /// The main thread's own checks: the clock, a forced move after `ponderhit`, and a
    /// helper that completed the iteration first.
    fn check_main_limits(&mut self, first_iteration: bool) {
        let time = &self.shared.time;
        if !first_iteration && (time.out_of_time() || time.forced_move_on_clock()) {
            // Out of time, or pondered until `ponderhit` on a forced move: the rest of the
            // iteration decides nothing.
            self.stopped = true;
            self.shared.halt();
        } else if self.shared.finished_depth.load(Ordering::Relaxed) >= self.depth {
            // A helper got there first: its result is taken over at the next iteration.
            self.stopped = true;
            self.superseded = true;
        }
    }

    /// Whether the node at `ply`, with kazan total `total`, may repeat an earlier position:
    /// only positions with the same kazans can, and those come in an unbroken run just
    /// before it, so a kazan change two plies back rules it out without the hash.
    #[inline(always)]
    pub(super) fn may_repeat(&self, ply: usize, total: u32) -> bool {
        let here = self.base + ply;
        here >= 2 && self.path[here - 2].1 == total
    }

    /// Whether the node at `ply` repeats an earlier position (rule 3c).
    pub(super) fn is_repetition(&self, ply: usize, hash: u64, total: u32) -> bool {
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

    /// The moves of a node other than `skip`, best first: predicted captures by size, then
    /// killers, then history.
    #[inline]
    pub(super) fn ordered_moves<const N: usize, const MANGALA: bool>(
        &self,
        pos: &Position,
        scan: &Scan,
        side: Side,
        ply: usize,
        skip: Option<u8>,
    ) -> OrderedMoves {
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

    /// A quiet move caused a cutoff: it becomes the ply's first killer, and its history
    /// rises.
    pub(super) fn update_quiet_stats(&mut self, pos: &Position, mv: Move, ply: usize, depth: i32) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(p::HISTORY_MAX);
        self.add_history(pos, mv, bonus);
    }

    /// Moves a history entry towards +-HISTORY_MAX by `bonus` (gravity keeps it bounded).
    pub(super) fn add_history(&mut self, pos: &Position, mv: Move, bonus: i32) {
        let side = pos.side_to_move();
        let hole = mv.mask_bit() as usize + 1;
        let bucket = history_bucket(pos, side, hole);
        let slot = &mut self.history[side.index()][hole][bucket];
        *slot += bonus - *slot * bonus.abs() / p::HISTORY_MAX;
    }
}
