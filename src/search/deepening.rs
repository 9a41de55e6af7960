//! Iterative deepening and the threads' roles: the main thread reports and decides when to
//! stop, helper threads (Lazy SMP) search ahead of it and hand their completed iterations
//! over; and [`run`], which sets a search up and answers.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::busy::BusyMoves;
use super::eval;
use super::node::{Node, position_hash};
use super::ordering::with_search_rows;
use super::parameters::search as p;
use super::pool;
use super::score::{INFINITY, MATE, MATE_BOUND, table_score};
use super::time::{Control, TimeManager};
use super::tt::TranspositionTable;
use super::turns::Turns;
use super::worker::{Finished, Role, RootMove, Shared, Worker};
use super::{Info, Limits, Report, Score, ScoreBound, SearchOptions, SearchResult};
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;

/// The report callback of a main thread, borrowed again for a call (`None` for a helper).
fn reborrow<'a>(on_info: &'a mut Option<&mut dyn FnMut(Info)>) -> Option<&'a mut dyn FnMut(Info)> {
    match on_info {
        Some(on_info) => Some(&mut **on_info),
        None => None,
    }
}

impl Worker<'_> {
    /// [`negamax`](Self::negamax) of a root move's child, compiled for its row length: the
    /// search dispatches on the variant once here rather than in every make, scan, board
    /// score and key below.
    pub(super) fn search_root_child(
        &mut self,
        child: &Node,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        with_search_rows!(child.pos.variant(), N, M => {
            self.negamax::<N, M>(child, depth, alpha, beta, 1)
        })
    }

    /// Searches the root moves from `first` on with a window; returns the best score.
    pub(super) fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        first: usize,
        on_info: Option<&mut dyn FnMut(Info)>,
    ) -> i32 {
        let mut best = -INFINITY;
        // The root moves are reported in long searches only.
        let mut report_moves =
            on_info.filter(|_| self.shared.time.elapsed() > Duration::from_secs(3));
        for index in first..self.root_moves.len() {
            let child = Node::new(&self.root_moves[index].child);
            let mv = self.root_moves[index].mv;
            if let Some(on_info) = report_moves.as_mut() {
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

    pub(super) fn report(
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
            time: self.shared.time.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self
                .shared
                .tables
                .as_ref()
                .map(|_| self.shared.total_tbhits().max(self.tbhits)),
            pv,
            net: self.shared.network.is_some(),
        }
    }

    /// Iterative deepening by the thread's [`Role`]; returns the depth completed.
    ///
    /// Helper threads (Lazy SMP) share the table and search ahead of the main thread: each
    /// starts its next iteration at least [`p::HELPER_LEAD`] plies deeper than the one the
    /// main thread is in, and publishes every iteration it completes. Their deeper entries
    /// make the main thread's iterations faster, and when a helper completes an iteration
    /// at least as deep as the main thread's, the main thread drops its own and takes the
    /// helper's result over (reporting it as its own), then goes on from one ply deeper.
    pub(super) fn iterate(&mut self, root: &Position, on_info: &mut dyn FnMut(Info)) -> u32 {
        match self.role {
            Role::Main => self.iterate_as_main(root, on_info),
            Role::Helper { lead } => self.iterate_as_helper(root, lead),
        }
    }

    /// The main thread's iterations: it reports each and decides when to stop.
    fn iterate_as_main(&mut self, root: &Position, on_info: &mut dyn FnMut(Info)) -> u32 {
        let max_depth = self.shared.time.max_depth();
        let multipv = self.shared.multipv.clamp(1, self.root_moves.len());
        let mut completed = 0;
        let mut depth = 1;
        loop {
            if let Some(taken) = self.take_over_helper(depth) {
                completed = taken;
                for index in 0..multipv {
                    on_info(Info::Line(self.report(index, taken, None, root)));
                }
                if taken >= max_depth || self.stop_after_iteration(taken) {
                    break;
                }
                depth = taken + 1;
                continue;
            }
            if depth > max_depth {
                break;
            }
            self.shared.main_depth.store(depth, Ordering::Relaxed);
            self.depth = depth;
            self.search_iteration(depth, multipv, root, Some(&mut *on_info));
            if self.superseded {
                self.superseded = false;
                self.stopped = false;
                continue;
            }
            if self.stopped {
                break;
            }
            completed = depth;
            for index in 0..multipv {
                on_info(Info::Line(self.report(index, depth, None, root)));
            }
            if self.stop_after_iteration(depth) {
                break;
            }
            depth += 1;
        }
        completed
    }

    /// A helper's iterations, `lead` plies ahead of the main thread's, each published.
    fn iterate_as_helper(&mut self, root: &Position, lead: u32) -> u32 {
        let max_depth = self.shared.time.max_depth();
        let multipv = self.shared.multipv.clamp(1, self.root_moves.len());
        let mut completed = 0;
        let mut depth = 1;
        loop {
            depth = depth.max(self.shared.main_depth.load(Ordering::Relaxed) + lead);
            if depth > max_depth {
                // Still of use at the last depth until it is done.
                if completed >= max_depth {
                    break;
                }
                depth = max_depth;
            }
            self.depth = depth;
            self.search_iteration(depth, multipv, root, None);
            if self.stopped {
                break;
            }
            completed = depth;
            self.publish_iteration(depth);
            depth += 1;
        }
        completed
    }

    /// Whether the main thread ends the search after completing `depth`.
    fn stop_after_iteration(&self, depth: u32) -> bool {
        let best = self.root_moves[0].score;
        self.shared
            .time
            .stop_after_iteration(depth, best, || self.shared.total_nodes().max(self.nodes))
    }

    /// One iteration: every principal variation, each in aspiration windows widened until
    /// the score falls inside (a helper's [`p::HELPER_ASPIRATION_FACTOR`] times wider from
    /// the start).
    pub(super) fn search_iteration(
        &mut self,
        depth: u32,
        multipv: usize,
        root: &Position,
        mut on_info: Option<&mut dyn FnMut(Info)>,
    ) {
        for pv_index in 0..multipv {
            let previous = self.root_moves[pv_index].score;
            let mut window = match self.role {
                Role::Main => p::ASPIRATION_WINDOW,
                Role::Helper { .. } => p::ASPIRATION_WINDOW * p::HELPER_ASPIRATION_FACTOR,
            };
            let (mut alpha, mut beta) =
                if depth as i32 >= p::ASPIRATION_MIN_DEPTH && previous.abs() < MATE_BOUND {
                    (previous - window, previous + window)
                } else {
                    (-INFINITY, INFINITY)
                };
            loop {
                let score =
                    self.root_search(depth as i32, alpha, beta, pv_index, reborrow(&mut on_info));
                if self.stopped {
                    return;
                }
                if score <= alpha {
                    if let Some(on_info) = reborrow(&mut on_info) {
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
                    if let Some(on_info) = reborrow(&mut on_info) {
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
    pub(super) fn publish_iteration(&self, depth: u32) {
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
    pub(super) fn take_over_helper(&mut self, depth: u32) -> Option<u32> {
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
}

/// The cores this process may run on (asked once: it reads the system's settings).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
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
) -> SearchResult {
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
    let time = TimeManager::new(limits, control, options.move_overhead, legal.len());
    if legal.is_empty() {
        time.wait_while_unbounded();
        return SearchResult {
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
        time,
        multipv: options.multipv,
        game: game.clone(),
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
        unreserved_nodes: AtomicU64::new(limits.nodes.unwrap_or(0)),
        turns: Turns::for_helpers(helpers.len(), cores()),
        network: options
            .network
            .clone()
            .filter(|_| crate::nnue::supports(root.variant())),
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
            if shared.turns.as_ref().is_none_or(Turns::take) {
                let mut worker = Box::new(Worker::new(id, &shared, root_moves));
                worker.iterate(&root, &mut |_| {});
                worker.publish_nodes();
                drop(worker);
                if let Some(turns) = &shared.turns {
                    turns.give_back();
                }
            }
            let _ = done.send(());
        }));
        helpers_running += usize::from(sent.is_ok());
    }
    drop(helpers_done);
    let clock_watch = (helpers_running > 0 && shared.time.has_deadline())
        .then(|| {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("search-clock".into())
                .spawn(move || shared.watch_clock())
                .ok()
        })
        .flatten();
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
        shared.time.wait_while_unbounded();
        shared.halt();
        if let Some(watch) = clock_watch {
            let _ = watch.join();
        }
        // Every helper has published its count once it is done: the last line counts them.
        for _ in 0..helpers_running {
            if helper_finished.recv().is_err() {
                break;
            }
        }
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
            line.time = shared.time.elapsed();
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
    let nodes = shared.total_nodes();
    if let Some(report) = last_report.as_mut() {
        report.nodes = nodes;
    }
    SearchResult {
        best: Some(best),
        ponder,
        last: last_report,
        nodes,
    }
}

#[cfg(test)]
mod tests {
    use crate::search::TEST_SPECS as SPECS;
    use crate::search::{Engine, Limits};
    use crate::variant::Variant;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// With a net, a search of any position of a random Toguz Kumalak game evaluates
        /// every node by the accumulator its parent's brought up to date, and that equals a
        /// refresh of the position (checked at every node in test builds), on 1 and 2
        /// threads.
        #[test]
        fn searches_with_a_net_keep_every_accumulator_equal_to_a_refresh(
            choices in prop::collection::vec(0usize..9, 0..120),
            depth in 1u32..7,
            threads in 1usize..3,
            seed in 0u64..4,
        ) {
            let mut game = crate::game::Game::new(Variant::TOGYZ);
            for choice in choices {
                let legal = game.legal_moves();
                if legal.is_empty() || game.termination().is_some() {
                    break;
                }
                game.try_play(legal[choice % legal.len()]).unwrap();
            }
            let network = std::sync::Arc::new(crate::nnue::Network::seeded(seed));
            let mut engine = Engine::new();
            engine.set_hash_mib(1).unwrap();
            engine.set_threads(threads).unwrap();
            engine.set_network(Some(network.clone()));
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            use std::sync::atomic::Ordering::Relaxed;
            let verifying = &crate::search::alphabeta::VERIFYING_ACCUMULATORS;
            verifying.fetch_add(1, Relaxed);
            let outcome = engine.search(&game, &limits, |_| {});
            verifying.fetch_sub(1, Relaxed);
            let legal = game.legal_moves();
            match outcome.best {
                Some(best) => prop_assert!(legal.contains(&best)),
                None => prop_assert!(legal.is_empty()),
            }
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
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let mut engine = Engine::new();
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
}
