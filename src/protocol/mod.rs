//! The UCI/UGI front end: a reader that never blocks on work, a session that owns the game and
//! the options, and jobs (perft now, searches later) that run on their own threads and can be
//! stopped. See `protocol.md` for every command and output.

pub mod command;
mod format;
pub mod options;
mod output;
mod side;
mod tables;

use format::Style;
pub use format::board_drawing;
pub use output::{Output, shorten_quoted};
pub use side::SIDE_ADVICE_MS;
use tables::PendingLoads;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::game::Game;
use crate::moves::Move;
use crate::nnue::Network;
use crate::perft::{MAX_DEPTH, PerftOptions, divide};
use crate::position::{Position, Side, Status, text};
use crate::search::{
    self, Engine, Info, Limits, PendingTable, Report, Score, ScoreBound, SearchResult, Searching,
    StopHandle,
};
use crate::solve::tables::Tables;
use command::{Command, GoParams, Query, StartSpec};
use options::{Changed, Options};

/// Input lines longer than this are refused whole (a `position` of a 1000-ply game is a few
/// kilobytes).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("Tuzdik ", env!("CARGO_PKG_VERSION"));
/// The engine's author in `id author`.
pub const ENGINE_AUTHOR: &str = "the Tuzdik developers";

/// The one line printed when standard input is a terminal (never to a GUI).
pub const BANNER: &str = concat!(
    "Tuzdik ",
    env!("CARGO_PKG_VERSION"),
    ", a Toguz Kumalak engine: type `uci` or `help`"
);

/// The answer to `help`.
pub const HELP: &[&str] = &[
    "Commands (see protocol.md for the details):",
    "  uci | ugi                      handshake: engine name, options, uciok/ugiok",
    "  isready                        answers readyok",
    "  setoption name <N> [value <V>] sets an option (the list comes with uci)",
    "  ucinewgame                     forgets the hash table",
    "  position startpos|fen <F> [moves <m> ...]   sets the game",
    "  go [depth <n>|movetime <ms>|nodes <n>|wtime <ms> btime <ms>|infinite ...]",
    "  stop | ponderhit               ends a search / turns a ponder search into a real one",
    "  d | eval | query <q>           board, static evaluation, gameover|p1turn|result|side",
    "  perft <depth> | bench [depth]  move-generator count / fixed benchmark",
    "  quit                           exits",
];

/// The dialect the GUI chose with `uci` or `ugi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI (the default).
    Uci,
    /// UGI, as cutegames speaks it.
    Ugi,
}

/// What a job runs on: a thread of its own (perft, bench), or the engine's search thread.
enum Work {
    Thread(JoinHandle<()>),
    Search(Searching),
}

impl Work {
    fn is_finished(&self) -> bool {
        match self {
            Work::Thread(handle) => handle.is_finished(),
            Work::Search(search) => search.is_finished(),
        }
    }

    /// Waits until the job has written its last line.
    fn wait(self) {
        match self {
            Work::Thread(handle) => {
                let _ = handle.join();
            }
            Work::Search(search) => {
                search.wait();
            }
        }
    }
}

struct Job {
    stop: Arc<AtomicBool>,
    /// The search's controls (absent for perft).
    control: Option<StopHandle>,
    work: Work,
    /// Whether the job ends by itself (a finite perft or search), so that end of input may
    /// wait for it.
    finite: bool,
    /// Whether it ends by itself after `ponderhit` (a ponder search with a clock or a move
    /// time, a depth or a node limit).
    finite_after_ponderhit: bool,
}

/// The tables `TablePath` loaded, and the request that loaded them.
#[derive(Debug, Default)]
struct LoadedTables {
    /// The `TablePath` value they came from.
    path: String,
    /// `None` when none are loaded.
    tables: Option<Arc<Tables>>,
}

/// A state-changing command, checked and worked out ([`Session::prepare`]) but not yet
/// carried out.
enum Action {
    /// The options after a `setoption`, and what it changed.
    Options(Options, Changed),
    /// `EvalFile`: the net read (`None`: the hand-crafted evaluation) and its path.
    Network(Option<Arc<Network>>, String),
    NewGame,
    Position(Game),
    Perft(u32),
    Go(GoParams),
    Bench(u32),
    /// A command the input loop handles itself (never reaches here).
    Ignore,
}

/// One engine session: options, the game, and at most one running job.
pub struct Session {
    out: Output,
    options: Options,
    game: Game,
    dialect: Dialect,
    job: Option<Job>,
    /// The search: its table, threads and options.
    engine: Engine,
    /// Written by the loader threads, read when a search starts.
    tables: Arc<Mutex<LoadedTables>>,
    /// `TablePath` requests so far: a load installs its tables only if no later request
    /// came while it read.
    table_requests: Arc<AtomicU64>,
    /// Table loaders' threads, joined before exit so that their reports come out.
    table_loaders: Vec<JoinHandle<()>>,
    /// How many table loads are running; `isready` answers when none is.
    pending_loads: Arc<PendingLoads>,
    /// `isready` answers waiting for a load: every later command but `stop` and `ponderhit`
    /// waits for them, so that no answer overtakes a `readyok`.
    ready_waiters: Vec<JoinHandle<()>>,
    /// A `Hash` table being allocated on a thread of its own (gigabytes take seconds to
    /// zero): installed before the next search; `isready` waits for it, `quit` does not.
    pending_hash: Option<PendingTable>,
}

impl Session {
    /// A session writing to `out`, at the Toguz Kumalak start position.
    pub fn new(out: Output) -> Session {
        let options = Options::default();
        Session {
            out,
            game: Game::new(options.variant),
            engine: Engine::new(),
            options,
            dialect: Dialect::Uci,
            job: None,
            tables: Arc::default(),
            table_requests: Arc::default(),
            table_loaders: Vec::new(),
            pending_loads: Arc::default(),
            ready_waiters: Vec::new(),
            pending_hash: None,
        }
    }

    /// The `TablePath` of the tables in use and what they hold (one line per table).
    pub fn tables_in_use(&self) -> (String, Vec<String>) {
        let loaded = lock(&self.tables);
        let described = loaded
            .tables
            .as_ref()
            .map_or_else(Vec::new, |t| t.describe());
        (loaded.path.clone(), described)
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one input line; returns `false` on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.reap_finished_job();
        let command = match command::parse(line) {
            Ok(command) => command,
            Err(error) => {
                self.out.error(&error.to_string());
                return true;
            }
        };
        if !matches!(
            command,
            Command::Empty | Command::Stop | Command::PonderHit | Command::Quit
        ) {
            // No answer may come before the `readyok` of an earlier `isready`.
            self.answer_ready_waiters();
        }
        match command {
            Command::Empty => {}
            Command::Quit => {
                self.stop_job();
                // A table still being zeroed is abandoned: `quit` does not wait seconds for
                // memory nobody will use (an `isready` waiting for it gets no answer).
                if self.pending_hash.is_none() {
                    self.answer_ready_waiters();
                }
                return false;
            }
            Command::IsReady => self.is_ready(),
            Command::Stop => self.stop_job(),
            Command::PonderHit => {
                if let Some(job) = self.job.as_mut()
                    && let Some(control) = &job.control
                {
                    control.ponderhit();
                    job.finite |= job.finite_after_ponderhit;
                }
            }
            Command::Eval => self.eval(),
            Command::Help => {
                for line in HELP {
                    self.out.line(line);
                }
            }
            Command::Uci => self.handshake(Dialect::Uci),
            Command::Ugi => self.handshake(Dialect::Ugi),
            Command::Display => self.display(),
            Command::Query(query) => self.query(query),
            // Tables load on a thread of their own and searches started before keep the
            // previous ones: nothing needs to stop (and a refused path stops nothing).
            Command::SetOption { name, value } if name.eq_ignore_ascii_case("tablepath") => {
                self.set_table_path(value.as_deref().unwrap_or(""));
            }
            other => match self.prepare(other) {
                // A command that is refused is refused before anything stops: a running
                // job goes on as if the line had not come.
                Err(message) => self.out.error(&message),
                // Everything else changes state or starts work: a running job ends first.
                Ok(action) => {
                    self.stop_job();
                    self.apply(action);
                }
            },
        }
        true
    }

    /// Checks a state-changing command and works out what it does, without doing it.
    fn prepare(&self, command: Command) -> Result<Action, String> {
        Ok(match command {
            Command::SetOption { name, value } if name.eq_ignore_ascii_case("evalfile") => {
                let path = value.as_deref().unwrap_or("").trim();
                if path.is_empty() || path.eq_ignore_ascii_case("<empty>") {
                    Action::Network(None, String::new())
                } else if path.eq_ignore_ascii_case(options::EMBEDDED_NET) {
                    Action::Network(Some(crate::nnue::embedded()), path.to_string())
                } else {
                    let network = Network::load(std::path::Path::new(path)).map_err(|error| {
                        format!("EvalFile: {error}; keeping the evaluation in use")
                    })?;
                    Action::Network(Some(Arc::new(network)), path.to_string())
                }
            }
            Command::SetOption { name, value } => {
                let mut options = self.options.clone();
                let changed = options.set(&name, value.as_deref())?;
                Action::Options(options, changed)
            }
            Command::NewGame => Action::NewGame,
            Command::Position { start, moves } => {
                Action::Position(self.build_game(&start, &moves)?)
            }
            Command::Perft(depth) if depth > u64::from(MAX_DEPTH) => {
                return Err(format!(
                    "perft depth {depth} is beyond the limit of {MAX_DEPTH}"
                ));
            }
            Command::Perft(depth) => Action::Perft(depth as u32),
            Command::Go(params) => Action::Go(params),
            Command::Bench(None) => Action::Bench(search::bench::DEFAULT_DEPTH),
            Command::Bench(Some(depth)) if (1..=64).contains(&depth) => Action::Bench(depth as u32),
            Command::Bench(Some(depth)) => {
                return Err(format!("bench depth {depth} is outside 1..64"));
            }
            _ => Action::Ignore,
        })
    }

    /// Carries out a prepared command (any running job has ended).
    fn apply(&mut self, action: Action) {
        match action {
            Action::Options(options, changed) => {
                let before = std::mem::replace(&mut self.options, options);
                match changed {
                    Changed::Rules => self.game = Game::new(self.options.variant),
                    Changed::Hash => self.resize_hash(before.hash_mib),
                    Changed::ClearHash => self.engine.clear(),
                    Changed::Other => {}
                }
                if self.options.threads != self.engine.threads()
                    && let Err(error) = self.engine.set_threads(self.options.threads)
                {
                    self.options.threads = before.threads;
                    self.out
                        .error(&format!("Threads: {error}; keeping {}", before.threads));
                }
            }
            Action::Network(network, path) => {
                self.out.line(&match &network {
                    Some(network) => format!(
                        "info string EvalFile: net {:016x} from {path} (Toguz Kumalak)",
                        network.hash()
                    ),
                    None => "info string EvalFile: the hand-crafted evaluation".to_string(),
                });
                self.engine.set_network(network);
            }
            Action::NewGame => self.engine.clear(),
            Action::Position(game) => self.game = game,
            Action::Perft(depth) => self.start_perft(depth),
            Action::Go(params) => {
                self.install_hash();
                self.start_search(&params);
            }
            Action::Bench(depth) => {
                self.install_hash();
                self.start_bench(depth);
            }
            Action::Ignore => {}
        }
    }

    /// End of input: a job with an explicit bound (perft, bench, a search with a depth, node,
    /// time or clock limit) is allowed to finish; an unbounded one is stopped and answers.
    pub fn finish(&mut self) {
        if self.job.as_ref().is_some_and(|job| !job.finite) {
            self.stop_job();
        }
        if let Some(job) = self.job.take() {
            job.work.wait();
        }
        self.install_hash();
        // Every reply comes out before exit: table reports and `readyok`s too.
        for loader in self.table_loaders.drain(..) {
            let _ = loader.join();
        }
        self.answer_ready_waiters();
    }

    /// Keeps a job whose thread was spawned; reports one that could not start. Returns
    /// whether the job runs.
    fn adopt(
        &mut self,
        spawned: std::io::Result<JoinHandle<()>>,
        stop: Arc<AtomicBool>,
        control: Option<StopHandle>,
        finite: bool,
        what: &str,
    ) -> bool {
        match spawned {
            Ok(handle) => {
                self.job = Some(Job {
                    stop,
                    control,
                    work: Work::Thread(handle),
                    finite,
                    finite_after_ponderhit: finite,
                });
                true
            }
            Err(error) => {
                self.out.error(&format!("could not start {what}: {error}"));
                false
            }
        }
    }

    fn reap_finished_job(&mut self) {
        if self.job.as_ref().is_some_and(|job| job.work.is_finished())
            && let Some(job) = self.job.take()
        {
            job.work.wait();
        }
    }

    fn stop_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
            if let Some(control) = &job.control {
                control.stop();
            }
            job.work.wait();
        }
    }

    fn eval(&self) {
        let pos = self.game.position();
        let (terms, total) = search::eval::terms(pos);
        self.out
            .line("      term       South   North   score (South's view)");
        for term in &terms {
            self.out.line(&format!(
                "{:>16} {:>7} {:>7} {:>7}",
                term.name, term.south, term.north, term.score
            ));
        }
        let mover = pos.side_to_move();
        self.out.line(&format!(
            "Total: {total} for {mover} to move ({:+.2} stones)",
            f64::from(total) / 100.0
        ));
        if let Some(network) = self.engine.network()
            && crate::nnue::supports(pos.variant())
        {
            let score = network.evaluate_position(pos);
            self.out.line(&format!(
                "Net {:016x}: {score} for {mover} to move ({:+.2} stones); the search uses it \
                 in place of every term but the capture threat",
                network.hash(),
                f64::from(score) / 100.0
            ));
        }
    }

    fn limits(&self, params: &GoParams) -> Limits {
        let pos = self.game.position();
        let (mut time, increment) = match pos.side_to_move() {
            Side::South => (params.south_time, params.south_inc),
            Side::North => (params.north_time, params.north_inc),
        };
        // A clock without the mover's own time would leave the search without an end: it
        // is taken as an empty clock (the increment still counts), and said.
        let clock_given = params.south_time.is_some()
            || params.north_time.is_some()
            || params.south_inc.is_some()
            || params.north_inc.is_some()
            || params.moves_to_go.is_some();
        // What `go` does not take as written, said in one error line for the whole command.
        let mut notes = Vec::new();
        if time.is_none() && clock_given {
            let (uci, ugi) = match pos.side_to_move() {
                Side::South => ("wtime", "p1time"),
                Side::North => ("btime", "p2time"),
            };
            notes.push(format!(
                "go: a clock without {uci}/{ugi} for {} to move; searching as with 0 ms left",
                pos.side_to_move()
            ));
            time = Some(0);
        }
        let mut search_moves = Vec::new();
        // One error line for the whole list, however many moves it refuses.
        let mut refused = 0usize;
        let mut first_refusal = None;
        for text in &params.search_moves {
            match pos.parse_move(text) {
                Ok(mv) => search_moves.push(mv),
                Err(error) => {
                    refused += 1;
                    first_refusal.get_or_insert(error);
                }
            }
        }
        if let Some(error) = first_refusal {
            let left = if search_moves.is_empty() {
                "none is left: searching all moves"
            } else {
                "ignored"
            };
            let more = match refused {
                1 => String::new(),
                n => format!(" (and {} more refused)", n - 1),
            };
            notes.push(format!("searchmoves: {error}{more}; {left}"));
        } else if params.search_moves_empty {
            notes.push("go: searchmoves lists no move; searching all moves".to_string());
        }
        if !notes.is_empty() {
            self.out.error(&notes.join("; "));
        }
        Limits {
            depth: params.depth.map(|d| d.min(u64::from(u32::MAX)) as u32),
            nodes: params.nodes,
            mate: params.mate.map(|m| m.min(1000) as u32),
            clock: search::time::Clock {
                time,
                increment,
                moves_to_go: params.moves_to_go,
                move_time: params.move_time,
            },
            infinite: params.infinite,
            ponder: params.ponder,
            search_moves,
        }
    }

    /// Gives the engine the options a search reads (the tables as loaded by now).
    fn configure_engine(&mut self) {
        self.engine.set_multipv(self.options.multipv);
        self.engine.set_move_overhead(self.options.move_overhead);
        self.engine.set_level(self.options.level());
        self.engine.set_tables(lock(&self.tables).tables.clone());
    }

    fn start_search(&mut self, params: &GoParams) {
        let limits = self.limits(params);
        self.configure_engine();
        let out = self.out.clone();
        let root = *self.game.position();
        let style = Style {
            dialect: self.dialect,
            long_moves: self.options.long_moves,
            show_wdl: self.options.show_wdl,
        };
        let bounded = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.clock.move_time.is_some()
            || limits.clock.time.is_some();
        let finite = bounded && !(limits.infinite || limits.ponder);
        let finite_after_ponderhit = bounded && !limits.infinite;
        let info_out = out.clone();
        let started = self.engine.start(
            &self.game,
            &limits,
            move |info| info_out.line(&style.info(&root, info)),
            move |outcome: &SearchResult| {
                out.line(&style.bestmove(&root, outcome.best, outcome.ponder));
            },
        );
        self.adopt_search(
            started,
            [finite, finite_after_ponderhit],
            "the search",
            "bestmove 0000",
        );
    }

    /// Keeps a search the engine started; reports one that could not start, with
    /// `instead` as its answer.
    fn adopt_search(
        &mut self,
        started: Result<Searching, search::EngineError>,
        [finite, finite_after_ponderhit]: [bool; 2],
        what: &str,
        instead: &str,
    ) {
        match started {
            Ok(searching) => {
                self.job = Some(Job {
                    stop: Arc::new(AtomicBool::new(false)),
                    control: Some(searching.stop_handle()),
                    work: Work::Search(searching),
                    finite,
                    finite_after_ponderhit,
                });
            }
            Err(error) => {
                self.out.error(&format!("could not start {what}: {error}"));
                self.out.line(instead);
            }
        }
    }

    fn start_bench(&mut self, depth: u32) {
        let network = self.engine.network().cloned();
        let control = StopHandle::new();
        let job_control = control.clone();
        let out = self.out.clone();
        let spawned = std::thread::Builder::new()
            .name("bench".into())
            .stack_size(16 << 20)
            .spawn(move || {
                if let Some(network) = &network {
                    out.line(&format!("info string bench net {:016x}", network.hash()));
                }
                let result = search::bench::run(depth, network, &job_control, |index, nodes| {
                    out.line(&format!(
                        "info string bench position {} nodes {nodes}",
                        index + 1
                    ));
                });
                match result {
                    Ok(result) if job_control.stopped() => out.line(&format!(
                        "info string bench stopped after {} positions",
                        result.positions
                    )),
                    Ok(result) => out.line(&format!("{} nodes {} nps", result.nodes, result.nps())),
                    Err(error) => out.error(&error),
                }
            });
        self.adopt(
            spawned,
            Arc::new(AtomicBool::new(false)),
            Some(control),
            true,
            "bench",
        );
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        // The built-in net names the build, as a version does (not the `EvalFile` in use).
        self.out.line(&format!(
            "id name {ENGINE_NAME} (net {:08x})",
            crate::nnue::embedded().hash() >> 32
        ));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for line in self.options.advertise() {
            self.out.line(&line);
        }
        self.out.line(match dialect {
            Dialect::Uci => "uciok",
            Dialect::Ugi => "ugiok",
        });
    }

    /// The game a `position` command sets up, or why it cannot.
    fn build_game(&self, start: &StartSpec, moves: &[String]) -> Result<Game, String> {
        let variant = self.options.variant;
        let mut game = match start {
            StartSpec::Startpos => Game::new(variant),
            StartSpec::Random(seed) if variant.is_mangala() => {
                let random = Position::random_mangala(*seed);
                let pos = Position::parse_with(&random.to_string(), variant)
                    .map_err(|error| format!("random set-up: {error}; position unchanged"))?;
                Game::from_position(pos, 1)
            }
            StartSpec::Random(_) => {
                return Err(format!(
                    "position random: random set-ups are for mangala4, not {variant}; position unchanged"
                ));
            }
            StartSpec::Fen(fen) => {
                let (pos, fullmove) = text::parse(fen, variant).map_err(|error| {
                    format!("bad position '{fen}': {error}; position unchanged")
                })?;
                Game::from_position(pos, fullmove)
            }
        };
        for (index, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|error| {
                format!("move {} '{text}': {error}; position unchanged", index + 1)
            })?;
        }
        Ok(game)
    }

    fn format_move(&self, pos: &Position, mv: Move) -> String {
        if self.options.long_moves {
            pos.long_notation(mv, false)
        } else {
            mv.to_string()
        }
    }

    fn display(&self) {
        for line in board_drawing(&self.game) {
            self.out.line(&line);
        }
        let pos = self.game.position();
        self.out.line(&format!("Fen: {}", self.game.fen()));
        self.out.line(&format!("Key: {:016X}", pos.key()));
        let legal: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(|&mv| self.format_move(pos, mv))
            .collect();
        self.out.line(&format!("Legal: {}", legal.join(" ")));
    }

    fn query(&mut self, query: Query) {
        let answer = match query {
            Query::Side => {
                self.start_side_advice();
                return;
            }
            Query::GameOver => self.game.status().is_over().to_string(),
            Query::P1Turn => (self.game.position().side_to_move() == Side::South).to_string(),
            Query::Result => match self.game.status() {
                Status::Ongoing => "none".to_string(),
                Status::Won(Side::South) => "p1win".to_string(),
                Status::Won(Side::North) => "p2win".to_string(),
                Status::Drawn => "draw".to_string(),
            },
        };
        self.out.line(&format!("response {answer}"));
    }

    fn start_perft(&mut self, depth: u32) {
        let stop = Arc::new(AtomicBool::new(false));
        let job_stop = Arc::clone(&stop);
        let out = self.out.clone();
        let pos = *self.game.position();
        let long_moves = self.options.long_moves;
        let options = PerftOptions {
            threads: self.options.threads,
            cache_entries: 0,
        };
        let spawned = std::thread::Builder::new()
            .name("perft".into())
            .spawn(move || match divide(&pos, depth, &options, &job_stop) {
                Ok(split) => {
                    for (mv, count) in &split {
                        let shown = if long_moves {
                            pos.long_notation(*mv, false)
                        } else {
                            mv.to_string()
                        };
                        out.line(&format!("{shown}: {count}"));
                    }
                    let total: u64 = if depth == 0 {
                        1
                    } else {
                        split.iter().map(|(_, n)| n).sum()
                    };
                    out.line("");
                    out.line(&format!("Nodes searched: {total}"));
                }
                Err(error) => out.line(&format!("info string {error}")),
            });
        self.adopt(spawned, stop, None, true, "perft");
    }
}

/// A lock that a panicked holder did not spoil: the data is still consistent (every writer
/// replaces whole fields).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// Reads a line of at most [`MAX_LINE_BYTES`]; `Ok(None)` at end of input, `Err(len)` for a
/// line that was too long (it is consumed whole).
pub(crate) fn read_bounded_line(
    reader: &mut (impl BufRead + ?Sized),
) -> std::io::Result<Option<Result<String, usize>>> {
    let mut line = Vec::new();
    let mut total = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if chunk.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        let (piece, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..at], Some(at + 1)),
            None => (chunk, None),
        };
        total += piece.len();
        if total <= MAX_LINE_BYTES {
            line.extend_from_slice(piece);
        }
        let consumed = done.unwrap_or(chunk.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if total > MAX_LINE_BYTES {
        return Ok(Some(Err(total)));
    }
    let text = String::from_utf8_lossy(&line);
    Ok(Some(Ok(text.trim_end_matches('\r').to_string())))
}

/// Runs the protocol until `quit` or end of input. Input is read on its own thread so that
/// `isready` and `stop` are answered while a job runs.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let out = Output::new(output);
    let (sender, receiver) = mpsc::channel::<Result<String, usize>>();
    let mut input = input;
    let reader = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            while let Ok(Some(line)) = read_bounded_line(&mut input) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
    if reader.is_err() {
        out.error("could not start the input thread");
        return;
    }
    let mut session = Session::new(out.clone());
    for line in receiver {
        match line {
            Ok(line) => {
                if !session.handle_line(&line) {
                    return;
                }
            }
            Err(length) => out.error(&format!(
                "input line of {length} bytes ignored (the limit is {MAX_LINE_BYTES})"
            )),
        }
    }
    session.finish();
}

#[cfg(test)]
mod tests;
