//! `Game.search` and `tuzdik.Engine`, over the engine crate's embedding API
//! ([`tuzdik::Engine`]): every search goes through [`engine_search`].

use std::collections::BTreeMap;
use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tuzdik::Position;
use tuzdik::search::level::Level;
use tuzdik::search::{Info, Limits, Report, Score, ScoreBound, StopHandle};
use tuzdik::{Engine, Game};

use crate::game::{expect_game, move_number, value_error};
use crate::interrupt::run_interruptible;

/// What Python asked for.
struct Request {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime_ms: Option<i64>,
    multipv: usize,
    level: Option<Level>,
}

/// What came back: the best move and the last complete report of each PV.
struct Answer {
    best: Option<tuzdik::Move>,
    lines: Vec<Report>,
    nodes: u64,
}

/// Runs one search of `game`'s position on `engine`, stopped early by `stop`.
fn engine_search(engine: &mut Engine, game: &Game, request: &Request, stop: &StopHandle) -> Answer {
    let mut limits = Limits {
        depth: request.depth,
        nodes: request.nodes,
        ..Limits::default()
    };
    limits.clock.move_time = request.movetime_ms;
    engine.set_multipv(request.multipv);
    engine.set_level(request.level);
    let mut last_by_pv: BTreeMap<usize, Report> = BTreeMap::new();
    let outcome = engine.search_with(game, &limits, stop, |info| {
        if let Info::Line(report) = info
            && report.bound.is_none()
        {
            last_by_pv.insert(report.multipv, report.clone());
        }
    });
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
    /// Win/draw/loss chances of the side to move, per mille (summing to 1000).
    wdl: (u32, u32, u32),
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
    /// The first line's win/draw/loss chances of the side to move, per mille; `None` without a
    /// finished iteration.
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

/// A report as the protocol shows it: the score on the expected-final-margin scale, and the
/// win/draw/loss chances, both for the side to move in `root`.
fn line_of(report: &Report, root: &Position) -> PySearchLine {
    let (shown, [win, draw, loss]) = report.shown(root);
    let (score, cp, mate) = match shown {
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
        wdl: (win, draw, loss),
    }
}

/// An engine with a kept transposition table, for repeated searches.
///
/// `Engine(hash_mb=16, threads=1, evalfile=None)`: `evalfile` is a net file (`tuzdik train`
/// writes one) for Toguz Kumalak, `""` the hand-crafted evaluation, `None` the built-in net.
#[pyclass(name = "Engine", module = "tuzdik", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
}

impl PyEngine {
    pub(crate) fn create(hash_mb: usize, threads: usize) -> PyResult<PyEngine> {
        let mut engine = Engine::new();
        engine.set_threads(threads).map_err(value_error)?;
        engine.set_hash_mib(hash_mb).map_err(value_error)?;
        Ok(PyEngine {
            engine: Mutex::new(engine),
        })
    }

    /// The engine, even after a search thread panicked (the engine replaces lost threads).
    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
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
        level: Option<i64>,
    ) -> PyResult<PySearchResult> {
        let level = Level::from_skill_or_elo(level)
            .map_err(|e| PyValueError::new_err(format!("level={}: {e}", level.unwrap_or(0))))?;
        // A level has its own node budget; the full engine needs a limit.
        if level.is_none() && depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err(PyValueError::new_err(
                "give a limit: depth, nodes or movetime (seconds), or a level",
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
            multipv,
            level,
        };
        let stop = StopHandle::new();
        let answer = run_interruptible(
            py,
            || stop.stop(),
            || engine_search(&mut self.engine(), game, &request, &stop),
        )?;
        let root = *game.position();
        let lines: Vec<PySearchLine> = answer
            .lines
            .iter()
            .map(|report| line_of(report, &root))
            .collect();
        let first = lines.first();
        Ok(PySearchResult {
            best: answer.best.map(move_number),
            score: first.map(|line| line.score.clone()),
            cp: first.and_then(|line| line.cp),
            mate: first.and_then(|line| line.mate),
            wdl: first.map(|line| line.wdl),
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
    #[pyo3(signature = (hash_mb=16, threads=1, evalfile=None))]
    fn new(hash_mb: usize, threads: usize, evalfile: Option<std::path::PathBuf>) -> PyResult<Self> {
        let engine = PyEngine::create(hash_mb, threads)?;
        if let Some(path) = evalfile {
            let network = if path.as_os_str().is_empty() {
                None
            } else {
                let network = tuzdik::nnue::Network::load(&path)
                    .map_err(|e| PyValueError::new_err(format!("evalfile: {e}")))?;
                Some(std::sync::Arc::new(network))
            };
            engine.engine().set_network(network);
        }
        Ok(engine)
    }

    /// The hash of the net evaluating Toguz Kumalak positions (16 hex digits), or `None` for
    /// the hand-crafted evaluation.
    #[getter]
    fn net(&self) -> Option<String> {
        self.engine()
            .network()
            .map(|network| format!("{:016x}", network.hash()))
    }

    /// Searches a game's current position (the table is kept between calls). Limits: `depth`
    /// (plies), `nodes`, `movetime` (seconds); at least one, or a `level`: a skill level 0..20
    /// (20 the full engine) or an Elo 800..2700, which plays weaker as a person of that
    /// strength would (its own node budget; see docs/levels.md). Ctrl-C stops the search.
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
        level: Option<i64>,
    ) -> PyResult<PySearchResult> {
        let game = expect_game(game)?.game.clone();
        self.run(py, &game, depth, nodes, movetime, multipv, level)
    }

    /// Forgets everything the table holds (a new game).
    fn clear(&self, py: Python<'_>) {
        py.detach(|| self.engine().clear());
    }

    /// Search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.engine().threads()
    }

    /// The table's size in MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.engine().hash_mib()
    }
}
