//! The UCI/UGI front end: a reader that never blocks on work, a session that owns the game and
//! the options, and jobs (perft now, searches later) that run on their own threads and can be
//! stopped. See `protocol.md` for every command and output.

pub mod command;
pub mod options;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::game::Game;
use crate::moves::Move;
use crate::perft::{MAX_DEPTH, PerftOptions, divide};
use crate::position::{Position, Side, Status, text};
use crate::search::{
    self, Engine, Info, Limits, Outcome, Report, Score, ScoreBound, Searching, StopHandle,
    calibration,
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

/// A line-oriented, flushed, shareable output.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer.
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// Writes one line and flushes it. A closed output is ignored (the GUI went away).
    pub fn line(&self, text: &str) {
        let mut writer = match self.0.lock() {
            Ok(writer) => writer,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(writer, "{text}");
        let _ = writer.flush();
    }

    /// Writes `info string error: <message>`, with long quoted input shortened (see
    /// [`shorten_quoted`]).
    pub fn error(&self, message: &str) {
        let mut message = shorten_quoted(message);
        // Input repeated without quotes (a path in a file error) is cut as a whole.
        if message.len() > ERROR_MAX {
            message = cut_to(&message, ERROR_MAX);
        }
        self.line(&format!("info string error: {message}"));
    }
}

/// `text`'s first `keep` bytes (fewer, to end on a character), `...` and its length.
fn cut_to(text: &str, keep: usize) -> String {
    let end = (0..=keep.min(text.len()))
        .rev()
        .find(|&at| text.is_char_boundary(at))
        .unwrap_or(0);
    format!("{}... ({} bytes)", &text[..end], text.len())
}

/// The longest error message written whole (after [`shorten_quoted`]).
const ERROR_MAX: usize = 400;

/// The longest quoted input an error line repeats whole.
const QUOTED_MAX: usize = 80;

/// `message` with every `'...'` quotation longer than [`QUOTED_MAX`] bytes cut to its start,
/// `...` and its length, so that a megabyte of garbage comes back as a line a GUI can show,
/// and the reason after the quotation is kept.
///
/// ```
/// use tuzdik::protocol::shorten_quoted;
/// let long = format!("bad position '{}': no '/'", "9,".repeat(1000));
/// let short = shorten_quoted(&long);
/// assert!(short.len() < 120, "{short}");
/// assert!(short.ends_with("(2000 bytes)': no '/'"), "{short}");
/// assert_eq!(shorten_quoted("unknown command 'jump'"), "unknown command 'jump'");
/// ```
pub fn shorten_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * QUOTED_MAX));
    let mut rest = message;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let Some(close) = rest.find('\'') else {
            break;
        };
        let quoted = &rest[..close];
        if quoted.len() > QUOTED_MAX {
            out.push_str(&cut_to(quoted, QUOTED_MAX / 2));
        } else {
            out.push_str(quoted);
        }
        out.push('\'');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

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
}

/// The count of running table loads, with a condition to wait for none.
#[derive(Default)]
struct PendingLoads {
    count: Mutex<usize>,
    none: std::sync::Condvar,
}

impl PendingLoads {
    fn wait_for_none(&self) {
        let mut count = lock(&self.count);
        while *count > 0 {
            count = match self.none.wait(count) {
                Ok(count) => count,
                Err(poisoned) => poisoned.into_inner(),
            };
        }
    }
}

/// Counts a load as running while it lives (a panicking loader still ends its load).
struct LoadRunning(Arc<PendingLoads>);

impl LoadRunning {
    fn new(pending: &Arc<PendingLoads>) -> LoadRunning {
        *lock(&pending.count) += 1;
        LoadRunning(Arc::clone(pending))
    }
}

impl Drop for LoadRunning {
    fn drop(&mut self) {
        let mut count = lock(&self.0.count);
        *count = count.saturating_sub(1);
        self.0.none.notify_all();
    }
}

/// A table file name in one of `paths`' directories that is not a regular file (a FIFO would
/// block the loader for ever; a device could be read without end).
fn special_table_file(paths: &str) -> Option<std::path::PathBuf> {
    for dir in paths
        .split(';')
        .map(str::trim)
        .filter(|dir| !dir.is_empty())
    {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_table = path
                .extension()
                .is_some_and(|ext| ext == "bin" || ext == "tzt");
            if is_table && std::fs::metadata(&path).is_ok_and(|meta| !meta.is_file()) {
                return Some(path);
            }
        }
    }
    None
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

    /// `setoption name TablePath value <dirs>`: loads the tables on a thread of its own, so
    /// that the input loop goes on (a 36-stone Bestemshchi table is 2.1 GB to read and
    /// check). When it is done, one `info string` line says what was loaded, or an
    /// `info string error: ...` line why nothing was (the previous tables stay). Searches
    /// started before that use the previous tables. An empty value (or `<empty>`) unloads.
    fn set_table_path(&mut self, value: &str) {
        let value = value.trim();
        let path = if value.eq_ignore_ascii_case("<empty>") {
            String::new()
        } else {
            value.to_string()
        };
        let request = self.table_requests.fetch_add(1, Ordering::SeqCst) + 1;
        let requests = Arc::clone(&self.table_requests);
        let loaded = Arc::clone(&self.tables);
        let out = self.out.clone();
        let running = LoadRunning::new(&self.pending_loads);
        let spawned = std::thread::Builder::new()
            .name("tables".into())
            .spawn(move || {
                let _running = running;
                let result = match special_table_file(&path) {
                    Some(special) => Err(format!("{} is not a regular file", special.display())),
                    None => Tables::load(&path).map_err(|error| error.to_string()),
                };
                let mut loaded = lock(&loaded);
                if requests.load(Ordering::SeqCst) != request {
                    out.line(&format!(
                        "info string TablePath '{path}' superseded by a later TablePath; not used"
                    ));
                    return;
                }
                match result {
                    Ok(tables) => {
                        let described = tables.describe();
                        loaded.path = path.clone();
                        loaded.tables = (!tables.is_empty()).then(|| Arc::new(tables));
                        if described.is_empty() {
                            out.line(&format!("info string TablePath '{path}': no tables"));
                        }
                        for line in described {
                            out.line(&format!("info string TablePath '{path}': {line}"));
                        }
                    }
                    Err(error) => out.error(&format!(
                        "TablePath '{path}': {error}; keeping the previous tables ('{}')",
                        loaded.path
                    )),
                }
            });
        match spawned {
            Ok(handle) => {
                // An earlier loader still running finishes on its own (its result is
                // superseded); `isready` waits for every one.
                self.table_loaders.retain(|loader| !loader.is_finished());
                self.table_loaders.push(handle);
            }
            Err(error) => self.out.error(&format!(
                "could not start the table loader: {error}; keeping the previous tables"
            )),
        }
    }

    /// `isready`: `readyok` at once, unless tables are still loading; then once no load runs
    /// (from a thread of its own, so that `stop` and a running search carry on), since a GUI
    /// sends `isready` after `setoption` precisely to know the option took effect.
    fn is_ready(&mut self) {
        if *lock(&self.pending_loads.count) == 0 {
            self.out.line("readyok");
            return;
        }
        let out = self.out.clone();
        let pending = Arc::clone(&self.pending_loads);
        let waiter = std::thread::Builder::new()
            .name("isready".into())
            .spawn(move || {
                pending.wait_for_none();
                out.line("readyok");
            });
        match waiter {
            Ok(waiter) => self.ready_waiters.push(waiter),
            Err(_) => {
                self.pending_loads.wait_for_none();
                self.out.line("readyok");
            }
        }
    }

    /// Waits until every `isready` waiting for a table load is answered.
    fn answer_ready_waiters(&mut self) {
        for waiter in self.ready_waiters.drain(..) {
            let _ = waiter.join();
        }
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
        if !matches!(command, Command::Empty | Command::Stop | Command::PonderHit) {
            // No answer may come before the `readyok` of an earlier `isready`.
            self.answer_ready_waiters();
        }
        match command {
            Command::Empty => {}
            Command::Quit => {
                self.stop_job();
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
            Action::NewGame => self.engine.clear(),
            Action::Position(game) => self.game = game,
            Action::Perft(depth) => self.start_perft(depth),
            Action::Go(params) => self.start_search(&params),
            Action::Bench(depth) => self.start_bench(depth),
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

    fn resize_hash(&mut self, old_mib: usize) {
        // Allocation failure must not abort the engine: the engine keeps the old size.
        if let Err(error) = self.engine.set_hash_mib(self.options.hash_mib) {
            self.options.hash_mib = old_mib;
            self.out.error(&error.to_string());
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
            move |outcome: &Outcome| {
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
        let control = StopHandle::new();
        let job_control = control.clone();
        let out = self.out.clone();
        let spawned = std::thread::Builder::new()
            .name("bench".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let result = search::bench::run(depth, &job_control, |index, nodes| {
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
        self.out.line(&format!("id name {ENGINE_NAME}"));
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

    /// `query side`: before the first move, which player the winner of the odd/even guess
    /// should choose to be. A forced game (Mangala IV, leftmost) is played out, so the answer
    /// is exact; anything else is judged by a search of [`SIDE_ADVICE_MS`].
    fn start_side_advice(&mut self) {
        if !self.game.moves().is_empty() {
            self.out
                .error("query side: only before the first move (send a position without moves)");
            return;
        }
        // It is a search of its own: asked during other work it would have to end that, and
        // `query` leaves running work alone.
        if self.job.is_some() {
            self.out
                .error("query side: a search, perft or bench is running; send stop first");
            return;
        }
        if let Some(answer) = settled_side(&self.game) {
            self.out.line(&format!("response {answer}"));
            return;
        }
        let limits = Limits {
            clock: search::time::Clock {
                move_time: Some(SIDE_ADVICE_MS),
                ..search::time::Clock::default()
            },
            ..Limits::default()
        };
        self.configure_engine();
        self.engine.set_multipv(1);
        let out = self.out.clone();
        let mover = self.game.position().side_to_move();
        let started = self.engine.start(
            &self.game,
            &limits,
            |_| {},
            move |outcome: &Outcome| {
                out.line(&format!("response {}", side_of(outcome, mover)));
            },
        );
        self.adopt_search(started, [true, true], "the side search", "response either");
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

/// How long `query side` searches when the game is not forced.
pub const SIDE_ADVICE_MS: i64 = 500;

/// `p1`, `p2` or `either` for a game whose result needs no search: a forced game played out,
/// or a game already over. `None` for the others.
fn settled_side(game: &Game) -> Option<&'static str> {
    let answer_for = |status: Status| match status {
        Status::Won(Side::South) => "p1",
        Status::Won(Side::North) => "p2",
        _ => "either",
    };
    let forced = game.variant().is_mangala()
        && game.variant().mangala_move() == crate::MangalaMove::Leftmost;
    if forced {
        let mut line = game.clone();
        while line.termination().is_none() {
            let Some(&mv) = line.legal_moves().first() else {
                break;
            };
            if line.try_play(mv).is_err() {
                break;
            }
        }
        return Some(answer_for(line.status()));
    }
    game.termination()
        .is_some()
        .then(|| answer_for(game.status()))
}

/// `p1`, `p2` or `either` by the score of a search with `mover` to move.
fn side_of(outcome: &Outcome, mover: Side) -> &'static str {
    let score = match outcome.last.as_ref().map(|report| report.score) {
        Some(Score::MatePlies(plies)) => plies.signum(),
        Some(Score::Cp(cp)) => cp.signum(),
        None => 0,
    };
    if score == 0 {
        "either"
    } else if (score > 0) == (mover == Side::South) {
        "p1"
    } else {
        "p2"
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

/// How moves and scores are written for the GUI.
#[derive(Clone, Copy, Debug)]
struct Style {
    dialect: Dialect,
    long_moves: bool,
    show_wdl: bool,
}

impl Style {
    fn moves_from(&self, root: &Position, moves: &[Move]) -> Vec<String> {
        let mut pos = *root;
        let mut written = Vec::with_capacity(moves.len());
        for &mv in moves {
            written.push(if self.long_moves {
                pos.long_notation(mv, false)
            } else {
                mv.to_string()
            });
            if pos.try_play(mv).is_err() {
                break;
            }
        }
        written
    }

    fn score(&self, score: Score) -> String {
        match score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::MatePlies(plies) => match self.dialect {
                Dialect::Uci => format!("mate {}", Score::mate_moves(plies)),
                Dialect::Ugi => format!("mate {plies}"),
            },
        }
    }

    fn report(&self, root: &Position, report: &Report) -> String {
        let millis = report.time.as_millis() as u64;
        let nps = report.nodes.saturating_mul(1000) / millis.max(1);
        let bound = match report.bound {
            Some(ScoreBound::Lower) => " lowerbound",
            Some(ScoreBound::Upper) => " upperbound",
            None => "",
        };
        let (score, [win, draw, loss]) = calibration::shown(report.score, root);
        let wdl = if self.show_wdl {
            format!(" wdl {win} {draw} {loss}")
        } else {
            String::new()
        };
        let mut line = format!(
            "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {nps} hashfull {} time {millis}",
            report.depth,
            report.seldepth,
            report.multipv,
            self.score(score),
            report.nodes,
            report.hashfull,
        );
        if let Some(hits) = report.tbhits {
            let at = line.find(" time ").unwrap_or(line.len());
            line.insert_str(at, &format!(" tbhits {hits}"));
        }
        if !report.pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&self.moves_from(root, &report.pv).join(" "));
        }
        line
    }

    fn info(&self, root: &Position, info: &Info) -> String {
        match info {
            Info::Line(report) => self.report(root, report),
            Info::CurrMove { depth, mv, number } => format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                self.moves_from(root, &[*mv]).join("")
            ),
        }
    }

    fn bestmove(&self, root: &Position, best: Option<Move>, ponder: Option<Move>) -> String {
        let Some(best) = best else {
            return "bestmove 0000".to_string();
        };
        let moves = self.moves_from(root, &[best]);
        match (self.dialect, ponder) {
            (Dialect::Uci, Some(reply)) => {
                let both = self.moves_from(root, &[best, reply]);
                format!(
                    "bestmove {} ponder {}",
                    both[0],
                    both.get(1).map_or("", String::as_str)
                )
            }
            _ => format!("bestmove {}", moves[0]),
        }
    }
}

/// The board as `d` draws it: North's row on top, read right to left (its hole 1 faces South's
/// hole N), so the sowing ring runs counter-clockwise on the screen.
pub fn board_drawing(game: &Game) -> Vec<String> {
    let pos = game.position();
    let n = pos.variant().holes_per_side();
    let cell = |side: Side, hole: usize| {
        if pos.is_tuzdik(side, hole) {
            "  X ".to_string()
        } else {
            format!("{:>3} ", pos.stones(side, hole))
        }
    };
    let border = format!("  +{}", "----+".repeat(n));
    let north_numbers: String = (1..=n).rev().map(|h| format!("  {h}  ")).collect();
    let south_numbers: String = (1..=n).map(|h| format!("  {h}  ")).collect();
    let north_row: String = (1..=n).rev().map(|h| cell(Side::North, h) + "|").collect();
    let south_row: String = (1..=n).map(|h| cell(Side::South, h) + "|").collect();
    let mover = pos.side_to_move();
    // Mangala IV has no kazans: the fields hold what each player has captured.
    let store = if pos.variant().is_mangala() {
        "captured"
    } else {
        "kazan"
    };
    let mut lines = vec![
        format!("  {north_numbers}").trim_end().to_string(),
        border.clone(),
        format!("N |{north_row}  {store} {:>3}", pos.kazan(Side::North)),
        border.clone(),
        format!("S |{south_row}  {store} {:>3}", pos.kazan(Side::South)),
        border,
        format!("  {south_numbers}").trim_end().to_string(),
    ];
    let state = match game.termination() {
        Some(end) => format!(
            "game over: {} ({})",
            match game.status() {
                Status::Won(side) => format!("{side} wins"),
                _ => "draw".to_string(),
            },
            end.describe()
        ),
        None => format!("{mover} to move"),
    };
    lines.push(format!(
        "{}, {state}, fullmove {}",
        pos.variant(),
        game.fullmove()
    ));
    lines
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
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(data);
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session() -> (Session, Buffer) {
        let buffer = Buffer::default();
        (Session::new(Output::new(buffer.clone())), buffer)
    }

    fn take(buffer: &Buffer) -> Vec<String> {
        let mut bytes = buffer.0.lock().unwrap();
        let text = String::from_utf8(std::mem::take(&mut *bytes)).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_bad_position_keeps_the_old_one() {
        let (mut s, out) = session();
        s.handle_line("position startpos moves 7");
        let before = s.game().clone();
        s.handle_line("position startpos moves 7 86");
        s.handle_line("position fen 9,9/9 0 0 w");
        s.handle_line(
            "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w moves 1 1 1 1 1 1 1 1 12",
        );
        let lines = take(&out);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines.iter().all(|l| l.starts_with("info string error: ")));
        assert_eq!(s.game(), &before);
    }

    #[test]
    fn queries_answer() {
        let (mut s, out) = session();
        s.handle_line("query p1turn");
        s.handle_line("query gameover");
        s.handle_line("query result");
        s.handle_line("position fen 0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 80 81 w");
        s.handle_line("query gameover");
        s.handle_line("query result");
        assert_eq!(
            take(&out),
            [
                "response true",
                "response false",
                "response none",
                "response true",
                "response p2win"
            ]
        );
    }

    #[test]
    fn rule_options_reset_the_position() {
        let (mut s, out) = session();
        s.handle_line("position startpos moves 1");
        s.handle_line("setoption name UCI_Variant value bestemshchi");
        s.handle_line("d");
        let lines = take(&out);
        assert!(
            lines
                .iter()
                .any(|l| l == "Fen: 5,5,5,5,5/5,5,5,5,5 0 0 w 1"),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l == "Legal: 1 2 3 4 5"));
    }

    #[test]
    fn perft_runs_and_reports() {
        let (mut s, out) = session();
        s.handle_line("perft 3");
        s.finish();
        let lines = take(&out);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("Nodes searched: 613")
        );
        assert_eq!(lines.len(), 11);
    }

    #[test]
    fn long_lines_are_refused_whole() {
        let mut input =
            std::io::Cursor::new(format!("{}\nisready\n", "x".repeat(MAX_LINE_BYTES + 5)));
        assert_eq!(
            read_bounded_line(&mut input).unwrap(),
            Some(Err(MAX_LINE_BYTES + 5))
        );
        assert_eq!(
            read_bounded_line(&mut input).unwrap(),
            Some(Ok("isready".to_string()))
        );
        assert_eq!(read_bounded_line(&mut input).unwrap(), None);
    }
}
