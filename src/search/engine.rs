//! [`Engine`]: the one door into the search for every front end (the protocol, `play`,
//! `analyse`, `tune`, `bench`, a binding or a GUI server). It owns the transposition table,
//! the search threads (parked between searches), the options and the stop control.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use super::level::{self, Level};
use super::pool::{self, Pool};
use super::tt::TranspositionTable;
use super::{Control, Info, Limits, SearchOptions, SearchResult};
use crate::game::Game;
use crate::nnue::Network;
use crate::solve::tables::Tables;

/// The table size a new engine has, in MiB (the protocol's `Hash` default).
pub const DEFAULT_HASH_MIB: usize = 16;
/// The most threads an engine runs (the protocol's `Threads` maximum).
pub const MAX_THREADS: usize = 256;
/// The largest table in MiB (the machine's memory is the real limit: a failed allocation is
/// an error, not an abort).
pub const MAX_HASH_MIB: usize = 65_536;
/// The time kept in hand on a clock for GUI and transport latency, in ms (the protocol's
/// `Move Overhead` default).
pub const DEFAULT_MOVE_OVERHEAD: i64 = 30;

/// The stack of the thread that runs a started search's main worker.
const MAIN_STACK: usize = 16 << 20;
/// The stack of a helper thread.
const HELPER_STACK: usize = 8 << 20;

/// Why an option was refused; the engine keeps its previous setting.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A thread count outside `1..=MAX_THREADS`.
    #[error("{0} threads is outside 1..{MAX_THREADS}")]
    ThreadsOutOfRange(usize),
    /// A table size outside `1..=MAX_HASH_MIB`.
    #[error("a {0} MiB hash table is outside 1..{MAX_HASH_MIB}")]
    HashOutOfRange(usize),
    /// The system would not give the table's memory.
    #[error("could not allocate a {asked} MiB hash table; keeping {kept} MiB")]
    Allocation {
        /// The size asked for.
        asked: usize,
        /// The size kept.
        kept: usize,
    },
    /// The system would not start a thread.
    #[error("could not start a search thread: {0}")]
    Spawn(#[from] std::io::Error),
}

/// Stops a search, or turns a ponder search into a timed one, from any thread. Cheap to clone;
/// every clone controls the same search.
///
/// ```
/// use tuzdik::search::StopHandle;
/// let stop = StopHandle::new();
/// let from_elsewhere = stop.clone();
/// std::thread::spawn(move || from_elsewhere.stop()).join().unwrap();
/// assert!(stop.stopped());
/// ```
#[derive(Clone, Debug, Default)]
pub struct StopHandle(Arc<Control>);

impl StopHandle {
    /// A handle not yet stopped.
    pub fn new() -> StopHandle {
        StopHandle(Arc::new(Control::new(false)))
    }

    /// Asks the search to end as soon as it can: it answers with the best move found so far.
    /// It stays stopped: a search started with a stopped handle ends at once.
    pub fn stop(&self) {
        self.0.stop();
    }

    /// Whether [`stop`](Self::stop) was called.
    pub fn stopped(&self) -> bool {
        self.0.stopped()
    }

    /// The opponent played the move pondered on: the ponder search becomes a normal one, its
    /// clock counted from now.
    pub fn ponderhit(&self) {
        self.0.ponderhit();
    }

    pub(crate) fn control(&self) -> &Arc<Control> {
        &self.0
    }
}

/// A search [`Engine::start`]ed on a thread of the engine: stop it, or wait for its outcome.
///
/// ```
/// use tuzdik::{Engine, Game, Variant};
/// use tuzdik::search::Limits;
/// let mut engine = Engine::new();
/// let game = Game::new(Variant::TOGYZ);
/// let limits = Limits { infinite: true, ..Limits::default() };
/// let search = engine.start(&game, &limits, |_| {}, |_| {}).unwrap();
/// let stop = search.stop_handle();
/// std::thread::spawn(move || {
///     std::thread::sleep(std::time::Duration::from_millis(20));
///     stop.stop();
/// });
/// let outcome = search.wait();
/// assert!(game.legal_moves().contains(&outcome.best.unwrap()));
/// ```
#[derive(Debug)]
pub struct Searching {
    stop: StopHandle,
    outcome: mpsc::Receiver<SearchResult>,
    finished: Arc<AtomicBool>,
}

impl Searching {
    /// A handle that stops this search (or sends it `ponderhit`) from any thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Asks the search to end as soon as it can.
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// Whether the search has ended and its `on_done` has returned.
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    /// Waits for the search to end by itself (its limits) or by a stop, and returns what it
    /// found. A search whose callbacks panicked returns an empty outcome.
    pub fn wait(self) -> SearchResult {
        self.outcome.recv().unwrap_or(SearchResult {
            best: None,
            ponder: None,
            last: None,
            nodes: 0,
        })
    }
}

/// A started search the engine must end before it changes its table or threads.
struct Running {
    stop: StopHandle,
    ended: mpsc::Receiver<()>,
}

/// A search engine: the transposition table, the search threads (kept parked between
/// searches), the options and the stop control, behind a small API.
///
/// A search is blocking ([`search`](Self::search)) or started on a thread of the engine
/// ([`start`](Self::start)) and stopped from any thread. Changing an option, clearing the
/// table or starting another search ends a started search first (it answers, as after a
/// stop).
///
/// ```
/// use tuzdik::{Engine, Game, Variant};
/// use tuzdik::search::{Info, Limits, Score};
/// let mut engine = Engine::new();
/// engine.set_threads(2).unwrap();
/// engine.set_hash_mib(32).unwrap();
/// let game = Game::new(Variant::TOGYZ);
/// let limits = Limits { depth: Some(6), ..Limits::default() };
/// let mut depths = Vec::new();
/// let outcome = engine.search(&game, &limits, |info| {
///     if let Info::Line(report) = info {
///         depths.push(report.depth);
///     }
/// });
/// assert_eq!(depths.last(), Some(&6));
/// assert!(game.legal_moves().contains(&outcome.best.unwrap()));
/// assert!(matches!(outcome.last.unwrap().score, Score::Cp(_)));
/// // A new game: the table forgets what it saw.
/// engine.clear();
/// ```
pub struct Engine {
    tt: Arc<TranspositionTable>,
    hash_mib: usize,
    options: SearchOptions,
    /// The threads that search beside the main worker (`Threads` - 1).
    helpers: Pool,
    /// The thread that runs a started search's main worker.
    runner: Pool,
    running: Option<Running>,
    /// The strength level (`None`: the full engine).
    level: Option<Level>,
}

/// A hash table being allocated on a thread of its own ([`Engine::start_hash_resize`]).
#[derive(Debug)]
pub struct PendingTable {
    thread: std::thread::JoinHandle<(TranspositionTable, usize, Result<(), EngineError>)>,
    asked: usize,
}

impl PendingTable {
    /// Whether the table is made (then [`Engine::finish_hash_resize`] does not wait).
    pub fn is_made(&self) -> bool {
        self.thread.is_finished()
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("threads", &self.threads())
            .field("hash_mib", &self.hash_mib)
            .field("options", &self.options)
            .field("level", &self.level)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine with the protocol's defaults: one thread, a [`DEFAULT_HASH_MIB`] table, one
    /// principal variation, [`DEFAULT_MOVE_OVERHEAD`], no tables, the embedded net.
    pub fn new() -> Engine {
        Engine {
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MIB)),
            hash_mib: DEFAULT_HASH_MIB,
            options: SearchOptions::default(),
            helpers: Pool::new("search", 1, HELPER_STACK),
            runner: Pool::new("search", 0, MAIN_STACK),
            running: None,
            level: None,
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Searches on `threads` threads (Lazy SMP; 1 to [`MAX_THREADS`]). The helper threads are
    /// started here and parked between searches.
    ///
    /// ```
    /// let mut engine = tuzdik::Engine::new();
    /// assert!(engine.set_threads(0).is_err());
    /// engine.set_threads(3).unwrap();
    /// assert_eq!(engine.threads(), 3);
    /// ```
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(EngineError::ThreadsOutOfRange(threads));
        }
        self.end_running();
        let before = self.helpers.len();
        if let Err(error) = self.helpers.resize(threads - 1) {
            let _ = self.helpers.resize(before);
            return Err(error.into());
        }
        Ok(())
    }

    /// The table size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// Replaces the table with an empty one of `mib` MiB (1 to [`MAX_HASH_MIB`]). When the
    /// memory is not there, the engine keeps a table of the old size (emptied) and says so.
    ///
    /// ```
    /// let mut engine = tuzdik::Engine::new();
    /// engine.set_hash_mib(64).unwrap();
    /// assert_eq!(engine.hash_mib(), 64);
    /// assert!(engine.set_hash_mib(0).is_err());
    /// assert_eq!(engine.hash_mib(), 64);
    /// ```
    pub fn set_hash_mib(&mut self, mib: usize) -> Result<(), EngineError> {
        if mib == self.hash_mib {
            // The same size: emptying the table is all there is to do.
            self.clear();
            return Ok(());
        }
        let pending = self.start_hash_resize(mib, |_| {})?;
        self.finish_hash_resize(pending)
    }

    /// [`set_hash_mib`](Self::set_hash_mib) on a thread of its own, for front ends that must
    /// go on answering while gigabytes are zeroed (a protocol session's `quit`). The old
    /// table is freed at once, so that both never need to fit; until
    /// [`finish_hash_resize`](Self::finish_hash_resize) installs the new one, searches use a
    /// table of 1 MiB. `on_done` is called on the allocating thread with the outcome as soon
    /// as it is known.
    ///
    /// ```
    /// let mut engine = tuzdik::Engine::new();
    /// let (done, outcome) = std::sync::mpsc::channel();
    /// let pending = engine
    ///     .start_hash_resize(32, move |result| done.send(result.is_ok()).unwrap())
    ///     .unwrap();
    /// assert!(outcome.recv().unwrap());
    /// engine.finish_hash_resize(pending).unwrap();
    /// assert_eq!(engine.hash_mib(), 32);
    /// ```
    pub fn start_hash_resize(
        &mut self,
        mib: usize,
        on_done: impl FnOnce(&Result<(), EngineError>) + Send + 'static,
    ) -> Result<PendingTable, EngineError> {
        if !(1..=MAX_HASH_MIB).contains(&mib) {
            return Err(EngineError::HashOutOfRange(mib));
        }
        self.end_running();
        let kept = self.hash_mib;
        self.tt = Arc::new(TranspositionTable::new(1));
        self.hash_mib = 1;
        let allocate = move || {
            let made = match TranspositionTable::try_new(mib) {
                Ok(table) => (table, mib, Ok(())),
                Err(_) => {
                    let error = Err(EngineError::Allocation { asked: mib, kept });
                    match TranspositionTable::try_new(kept) {
                        Ok(table) => (table, kept, error),
                        Err(_) => (TranspositionTable::new(1), 1, error),
                    }
                }
            };
            on_done(&made.2);
            made
        };
        match std::thread::Builder::new()
            .name("hash".into())
            .spawn(allocate)
        {
            Ok(thread) => Ok(PendingTable { thread, asked: mib }),
            Err(error) => {
                // No thread for the work: the old size comes back at once, as on a failure.
                if let Ok(table) = TranspositionTable::try_new(kept) {
                    self.tt = Arc::new(table);
                    self.hash_mib = kept;
                }
                Err(EngineError::Spawn(error))
            }
        }
    }

    /// Waits for a table started by [`start_hash_resize`](Self::start_hash_resize) and
    /// installs it: the one asked for, or when its memory was not there, an empty one of the
    /// old size (and the error says so).
    pub fn finish_hash_resize(&mut self, pending: PendingTable) -> Result<(), EngineError> {
        self.end_running();
        let (table, mib, outcome) = match pending.thread.join() {
            Ok(made) => made,
            Err(_) => (
                TranspositionTable::new(1),
                1,
                Err(EngineError::Allocation {
                    asked: pending.asked,
                    kept: 1,
                }),
            ),
        };
        self.tt = Arc::new(table);
        self.hash_mib = mib;
        outcome
    }

    /// Reports this many principal variations (at least 1; MultiPV).
    pub fn set_multipv(&mut self, lines: usize) {
        self.end_running();
        self.options.multipv = lines.max(1);
    }

    /// Keeps `ms` in hand on a clock for GUI and transport latency (Move Overhead).
    pub fn set_move_overhead(&mut self, ms: i64) {
        self.end_running();
        self.options.move_overhead = ms.max(0);
    }

    /// Probes these endgame tables (`None`: none).
    pub fn set_tables(&mut self, tables: Option<Arc<Tables>>) {
        self.end_running();
        self.options.tables = tables;
    }

    /// Plays at a strength level (`None`: the full engine, exactly as without levels). See
    /// [`Level`] for what a level does.
    ///
    /// ```
    /// use tuzdik::{Engine, Game, Variant};
    /// use tuzdik::search::Limits;
    /// use tuzdik::search::level::Level;
    /// let mut engine = Engine::new();
    /// engine.set_level(Level::from_skill(3).unwrap());
    /// assert_eq!(engine.level().unwrap().elo(), 1100);
    /// let game = Game::new(Variant::TOGYZ);
    /// let outcome = engine.search(&game, &Limits::default(), |_| {});
    /// assert!(game.legal_moves().contains(&outcome.best.unwrap()));
    /// engine.set_level(None);
    /// ```
    pub fn set_level(&mut self, level: Option<Level>) {
        self.end_running();
        self.level = level;
    }

    /// The strength level (`None`: the full engine).
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// Evaluates Toguz Kumalak positions with this net (`None`: with the hand-crafted
    /// evaluation; a new engine has [`crate::nnue::embedded`]). Other variants, and every
    /// search at a [level](Self::set_level), keep the hand-crafted evaluation either way.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tuzdik::nnue::Network;
    /// let mut engine = tuzdik::Engine::new();
    /// assert_eq!(engine.network(), Some(&tuzdik::nnue::embedded()));
    /// engine.set_network(Some(Arc::new(Network::seeded(7))));
    /// assert_eq!(engine.network().unwrap().hash(), Network::seeded(7).hash());
    /// engine.set_network(None);
    /// assert!(engine.network().is_none());
    /// ```
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.end_running();
        self.options.network = network;
    }

    /// The net evaluating Toguz Kumalak positions, if one is set.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.options.network.as_ref()
    }

    /// A new game: empties the table.
    pub fn clear(&mut self) {
        self.end_running();
        self.tt.clear();
    }

    /// Searches the game's current position on the calling thread (and the helper threads)
    /// until its limits or the end of the game say stop; `on_info` gets every report of the
    /// main thread. Under [`Limits::infinite`] or [`Limits::ponder`] it never returns by
    /// itself: use [`start`](Self::start) or [`search_with`](Self::search_with) and a
    /// [`StopHandle`].
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.search_with(game, limits, &StopHandle::new(), on_info)
    }

    /// [`search`](Self::search), stopped by `stop` (from another thread, or before the
    /// search starts: a stopped handle makes it answer at once).
    pub fn search_with(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &StopHandle,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.end_running();
        // Helper threads lost to a panic are replaced; if that fails, fewer search.
        let _ = self.helpers.resize(self.helpers.len());
        stop.control().begin(limits.ponder);
        run(
            game,
            limits,
            &self.options,
            self.level.as_ref(),
            &self.tt,
            &self.helpers.senders(),
            stop.control(),
            &mut |info| on_info(&info),
        )
    }

    /// Starts a search of the game's current position on a thread of the engine and returns
    /// at once. `on_info` gets every report, `on_done` the outcome (on the search's thread,
    /// before [`Searching::wait`] returns it). A search started earlier is ended first.
    pub fn start(
        &mut self,
        game: &Game,
        limits: &Limits,
        mut on_info: impl FnMut(&Info) + Send + 'static,
        on_done: impl FnOnce(&SearchResult) + Send + 'static,
    ) -> Result<Searching, EngineError> {
        self.end_running();
        let _ = self.helpers.resize(self.helpers.len());
        self.runner.resize(1)?;
        let stop = StopHandle(Arc::new(Control::new(limits.ponder)));
        let (outcome_sender, outcome) = mpsc::channel();
        let (ended_sender, ended) = mpsc::channel();
        let finished = Arc::new(AtomicBool::new(false));
        let task = {
            let (game, limits, options) = (game.clone(), limits.clone(), self.options.clone());
            let (tt, helpers, level) = (Arc::clone(&self.tt), self.helpers.senders(), self.level);
            let (control, finished) = (Arc::clone(stop.control()), Arc::clone(&finished));
            move || {
                let result = run(
                    &game,
                    &limits,
                    &options,
                    level.as_ref(),
                    &tt,
                    &helpers,
                    &control,
                    &mut |info| on_info(&info),
                );
                on_done(&result);
                finished.store(true, Ordering::Release);
                let _ = outcome_sender.send(result);
                let _ = ended_sender.send(());
            }
        };
        let senders = self.runner.senders();
        let sender: &pool::Sender = senders
            .first()
            .ok_or_else(|| EngineError::Spawn(std::io::Error::other("no thread for the search")))?;
        sender.send(Box::new(task)).map_err(|_| {
            EngineError::Spawn(std::io::Error::other("the search thread has ended"))
        })?;
        self.running = Some(Running {
            stop: stop.clone(),
            ended,
        });
        Ok(Searching {
            stop,
            outcome,
            finished,
        })
    }

    /// Stops a started search, if one runs, and waits until it has answered.
    pub fn stop(&mut self) {
        self.end_running();
    }

    fn end_running(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.stop();
            let _ = running.ended.recv();
        }
    }
}

/// The search, at a level when one is set.
#[allow(clippy::too_many_arguments)]
fn run(
    game: &Game,
    limits: &Limits,
    options: &SearchOptions,
    level: Option<&Level>,
    tt: &Arc<TranspositionTable>,
    helpers: &[pool::Sender],
    control: &Arc<Control>,
    on_info: &mut dyn FnMut(Info),
) -> SearchResult {
    let Some(level) = level else {
        return super::run(game, limits, options, tt, helpers, control, on_info);
    };
    level::search_at(
        level,
        game,
        limits,
        options.multipv,
        |limits, lines, on_info| {
            // A level's ladder was measured with the hand-crafted evaluation (docs/levels.md);
            // at the same node budget the net plays far stronger, so a level keeps it.
            let options = SearchOptions {
                multipv: lines,
                network: None,
                ..options.clone()
            };
            super::run(game, limits, &options, tt, helpers, control, on_info)
        },
        on_info,
    )
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.end_running();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn a_started_search_answers_once_and_a_new_one_ends_it_first() {
        let mut engine = Engine::new();
        engine.set_threads(2).unwrap();
        let game = Game::new(Variant::TOGYZ);
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let (done, answers) = mpsc::channel();
        let first_done = done.clone();
        let first = engine
            .start(
                &game,
                &infinite,
                |_| {},
                move |outcome| {
                    first_done.send(outcome.best).unwrap();
                },
            )
            .unwrap();
        assert!(!first.is_finished());
        // A blocking search ends the started one first: it has answered by then.
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let outcome = engine.search(&game, &depth, |_| {});
        assert!(first.is_finished());
        assert!(answers.try_recv().unwrap().is_some());
        assert!(outcome.best.is_some());
        let second = engine
            .start(
                &game,
                &depth,
                |_| {},
                move |outcome| {
                    done.send(outcome.best).unwrap();
                },
            )
            .unwrap();
        let best = second.wait().best;
        assert_eq!(answers.recv().unwrap(), best);
        assert!(answers.try_recv().is_err());
    }

    #[test]
    fn a_stopped_handle_answers_at_once_with_a_legal_move() {
        let mut engine = Engine::new();
        let game = Game::new(Variant::TOGYZ);
        let stop = StopHandle::new();
        stop.stop();
        let outcome = engine.search_with(&game, &Limits::default(), &stop, |_| {});
        assert!(game.legal_moves().contains(&outcome.best.unwrap()));
    }

    #[test]
    fn refused_options_keep_the_previous_ones() {
        let mut engine = Engine::new();
        engine.set_threads(2).unwrap();
        assert!(matches!(
            engine.set_threads(MAX_THREADS + 1),
            Err(EngineError::ThreadsOutOfRange(_))
        ));
        assert_eq!(engine.threads(), 2);
        assert!(matches!(
            engine.set_hash_mib(MAX_HASH_MIB + 1),
            Err(EngineError::HashOutOfRange(_))
        ));
        assert_eq!(engine.hash_mib(), DEFAULT_HASH_MIB);
    }

    /// A level's ladder was measured with the hand-crafted evaluation: whatever net is set, a
    /// search at a level is the hand-crafted one, while the full engine uses the net.
    #[test]
    fn a_level_searches_with_the_hand_crafted_evaluation_whatever_the_net() {
        let mut game = Game::new(Variant::TOGYZ);
        for mv in ["7", "5", "1"] {
            game.try_play(mv.parse().unwrap()).unwrap();
        }
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let run = |network: Option<Arc<crate::nnue::Network>>, level: Option<Level>| {
            let mut engine = Engine::new();
            engine.set_network(network);
            engine.set_level(level);
            let result = engine.search(&game, &limits, |_| {});
            (
                result.best,
                result.nodes,
                result.last.map(|r| (r.score, r.pv)),
            )
        };
        let level = Some(Level::from_elo(1900).unwrap());
        let hand = run(None, level);
        assert_eq!(run(Some(crate::nnue::embedded()), level), hand);
        assert_eq!(
            run(Some(Arc::new(crate::nnue::Network::seeded(3))), level),
            hand
        );
        assert_ne!(
            run(Some(crate::nnue::embedded()), None),
            run(None, None),
            "the full engine uses the net"
        );
    }
}
