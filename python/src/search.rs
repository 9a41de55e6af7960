//! `Game.search` and `tuzdik.Engine`. Every call into the engine's search goes through
//! [`engine_search`], the one place to change when the embedding API lands.

use std::collections::BTreeMap;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tuzdik::Game;
use tuzdik::search::tt::TranspositionTable;
use tuzdik::search::{Control, Info, Limits, Report, Score, ScoreBound, search};

use crate::game::{expect_game, move_number};
use crate::interrupt::run_interruptible;

/// What Python asked for.
struct Request {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime_ms: Option<i64>,
    threads: usize,
    multipv: usize,
}

/// What came back: the best move, its reply and the last report of each PV.
struct Answer {
    best: Option<tuzdik::Move>,
    lines: Vec<Report>,
    nodes: u64,
}

/// Runs one search of `game`'s position through the engine's search API.
fn engine_search(
    game: &Game,
    request: &Request,
    table: &TranspositionTable,
    control: &Control,
) -> Answer {
    let mut limits = Limits {
        depth: request.depth,
        nodes: request.nodes,
        multipv: request.multipv,
        ..Limits::default()
    };
    limits.clock.move_time = request.movetime_ms;
    let mut last_by_pv: BTreeMap<usize, Report> = BTreeMap::new();
    let outcome = search(
        game,
        &limits,
        table,
        request.threads,
        control,
        &mut |info| {
            if let Info::Line(report) = info
                && report.bound.is_none()
            {
                last_by_pv.insert(report.multipv, report);
            }
        },
    );
    let mut lines: Vec<Report> = last_by_pv.into_values().collect();
    if lines.is_empty()
        && let Some(last) = outcome.last
    {
        lines.push(last);
    }
    Answer {
        best: outcome.best,
        lines,
        nodes: outcome.nodes,
    }
}

/// One principal variation of a search.
#[pyclass(name = "SearchLine", module = "tuzdik", frozen, get_all)]
#[derive(Clone)]
pub struct PySearchLine {
    /// 1-based PV index.
    multipv: usize,
    /// The score as the protocol writes it: `"cp 35"` (1/100 stone of expected final margin,
    /// the side to move's view) or `"mate 3"` (a proven result, in moves; negative: lost).
    score: String,
    /// The centi-stone score, or `None` for a proven result.
    cp: Option<i32>,
    /// Moves to a proven win (negative: a loss), or `None`.
    mate: Option<i32>,
    /// The principal variation as hole numbers.
    pv: Vec<u32>,
    /// Iteration depth.
    depth: u32,
    /// Deepest ply reached.
    seldepth: u32,
}

/// What `search` found.
#[pyclass(name = "SearchResult", module = "tuzdik", frozen, get_all)]
pub struct PySearchResult {
    /// The move to play (a hole number, 0 for a pass), `None` when the game is over.
    best: Option<u32>,
    /// The first line's score (`"cp 35"` or `"mate 3"`); `None` without a finished iteration.
    score: Option<String>,
    /// The first line's centi-stone score.
    cp: Option<i32>,
    /// The first line's mate distance in moves.
    mate: Option<i32>,
    /// Win/draw/loss permille for the side to move; `None`: this engine build reports none.
    wdl: Option<(u32, u32, u32)>,
    /// The first line's principal variation.
    pv: Vec<u32>,
    /// Iteration depth reached.
    depth: u32,
    /// Nodes searched (all threads).
    nodes: u64,
    /// Every PV, best first (`multipv` of them when there are enough moves).
    lines: Vec<PySearchLine>,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best={}, score={}, depth={}, nodes={}, pv={:?})",
            self.best.map_or("None".to_string(), |mv| mv.to_string()),
            self.score
                .as_ref()
                .map_or("None".to_string(), |score| format!("'{score}'")),
            self.depth,
            self.nodes,
            self.pv
        )
    }
}

#[pymethods]
impl PySearchLine {
    fn __repr__(&self) -> String {
        format!(
            "SearchLine(multipv={}, score='{}', depth={}, pv={:?})",
            self.multipv, self.score, self.depth, self.pv
        )
    }
}

fn line_of(report: &Report) -> PySearchLine {
    let (score, cp, mate) = match report.score {
        Score::Cp(cp) => (format!("cp {cp}"), Some(cp), None),
        Score::MatePlies(plies) => {
            let moves = Score::mate_moves(plies);
            (format!("mate {moves}"), None, Some(moves))
        }
    };
    let bound = match report.bound {
        Some(ScoreBound::Lower) => " lowerbound",
        Some(ScoreBound::Upper) => " upperbound",
        None => "",
    };
    PySearchLine {
        multipv: report.multipv,
        score: format!("{score}{bound}"),
        cp,
        mate,
        pv: report.pv.iter().map(|&mv| move_number(mv)).collect(),
        depth: report.depth,
        seldepth: report.seldepth,
    }
}

/// An engine with a kept transposition table, for repeated searches.
///
/// `Engine(hash_mb=16, threads=1)`
#[pyclass(name = "Engine", module = "tuzdik", frozen)]
pub struct PyEngine {
    table: Arc<TranspositionTable>,
    threads: usize,
}

impl PyEngine {
    pub(crate) fn create(hash_mb: usize, threads: usize) -> PyResult<PyEngine> {
        if threads == 0 || threads > 256 {
            return Err(PyValueError::new_err(format!(
                "threads must be 1..256, not {threads}"
            )));
        }
        if hash_mb == 0 || hash_mb > 1 << 20 {
            return Err(PyValueError::new_err(format!(
                "hash_mb must be 1..1048576, not {hash_mb}"
            )));
        }
        let table = TranspositionTable::try_new(hash_mb).map_err(|error| {
            PyValueError::new_err(format!("cannot allocate {hash_mb} MiB: {error}"))
        })?;
        Ok(PyEngine {
            table: Arc::new(table),
            threads,
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        &self,
        py: Python<'_>,
        game: &Game,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        multipv: usize,
        level: Option<u32>,
    ) -> PyResult<PySearchResult> {
        if let Some(level) = level {
            return Err(PyValueError::new_err(format!(
                "level={level}: this engine build has no strength levels yet; limit the \
                 search by depth, nodes or movetime"
            )));
        }
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err(PyValueError::new_err(
                "give a limit: depth, nodes or movetime (seconds)",
            ));
        }
        if depth == Some(0) || depth.is_some_and(|d| d > tuzdik::search::MAX_PLY as u32) {
            return Err(PyValueError::new_err(format!(
                "depth must be 1..{}",
                tuzdik::search::MAX_PLY
            )));
        }
        if nodes == Some(0) {
            return Err(PyValueError::new_err("nodes must be at least 1"));
        }
        let movetime_ms = match movetime {
            None => None,
            Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
                Some((seconds * 1000.0).ceil() as i64)
            }
            Some(seconds) => {
                return Err(PyValueError::new_err(format!(
                    "movetime must be a positive number of seconds, not {seconds}"
                )));
            }
        };
        if multipv == 0 {
            return Err(PyValueError::new_err("multipv must be at least 1"));
        }
        let request = Request {
            depth,
            nodes,
            movetime_ms,
            threads: self.threads,
            multipv,
        };
        let control = Control::new(false);
        let table = Arc::clone(&self.table);
        let answer = run_interruptible(
            py,
            || control.stop(),
            || engine_search(game, &request, &table, &control),
        )?;
        let lines: Vec<PySearchLine> = answer.lines.iter().map(line_of).collect();
        let first = lines.first();
        Ok(PySearchResult {
            best: answer.best.map(move_number),
            score: first.map(|line| line.score.clone()),
            cp: first.and_then(|line| line.cp),
            mate: first.and_then(|line| line.mate),
            wdl: None,
            pv: first.map(|line| line.pv.clone()).unwrap_or_default(),
            depth: first.map_or(0, |line| line.depth),
            nodes: answer.nodes,
            lines,
        })
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (hash_mb=16, threads=1))]
    fn new(hash_mb: usize, threads: usize) -> PyResult<Self> {
        PyEngine::create(hash_mb, threads)
    }

    /// Searches a game's current position (the table is kept between calls). Limits: `depth`
    /// (plies), `nodes`, `movetime` (seconds); at least one. `level` is refused until the
    /// engine has strength levels. Ctrl-C stops the search.
    #[pyo3(signature = (game, depth=None, nodes=None, movetime=None, multipv=1, level=None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        multipv: usize,
        level: Option<u32>,
    ) -> PyResult<PySearchResult> {
        let game = expect_game(game)?.game.clone();
        self.run(py, &game, depth, nodes, movetime, multipv, level)
    }

    /// Forgets everything the table holds (a new game).
    fn clear(&self, py: Python<'_>) {
        let table = Arc::clone(&self.table);
        py.detach(move || table.clear());
    }

    /// Search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// The table's size in MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.table.bytes() >> 20
    }
}
