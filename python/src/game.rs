//! `tuzdik.Game` (a game with its history) and `tuzdik.Position` (a value type).

use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};

use numpy::ndarray::Array;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayDyn};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use tuzdik::perft::{MAX_DEPTH, PerftOptions, perft_with};
use tuzdik::protocol::board_drawing;
use tuzdik::record::{Outcome, Record};
use tuzdik::{Family, Game, Move, Position, Side, Status, Termination, Variant};

use crate::encode::{self, CHANNELS, Layout};
use crate::interrupt::run_interruptible;

/// A Python `ValueError` carrying an engine error's message.
pub(crate) fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The rules named by a variant spec (`"togyz"`, `"kozdatu tuzdik=on"`, ...) with the keyword
/// switches applied on top; a switch the family does not have is refused, not ignored.
pub(crate) fn make_variant(
    spec: &str,
    tuzdik: Option<bool>,
    sowing: Option<&str>,
    capture: Option<&str>,
    mangala: Option<&str>,
) -> PyResult<Variant> {
    let mut variant: Variant = spec.parse().map_err(value_error)?;
    if let Some(on) = tuzdik {
        variant.check_switch("Tuzdik").map_err(value_error)?;
        variant = variant.with_tuzdik(on);
    }
    if let Some(value) = sowing {
        variant.check_switch("Sowing").map_err(value_error)?;
        variant = variant.with_sowing(value.parse().map_err(value_error)?);
    }
    if let Some(value) = capture {
        variant.check_switch("Capture").map_err(value_error)?;
        variant = variant.with_capture(value.parse().map_err(value_error)?);
    }
    if let Some(value) = mangala {
        variant.check_switch("Mangala").map_err(value_error)?;
        variant = variant.with_mangala_move(value.parse().map_err(value_error)?);
    }
    Ok(variant)
}

/// A game from a position string (`None` or `"startpos"`: the variant's start).
fn game_from(variant: Variant, fen: Option<&str>) -> PyResult<Game> {
    match fen {
        None | Some("startpos") => Ok(Game::new(variant)),
        Some(fen) => Game::from_fen(fen, variant).map_err(value_error),
    }
}

/// A move as Python gives it: a hole number (0 for Mangala IV's pass) or text in either
/// notation.
#[derive(FromPyObject)]
pub(crate) enum MoveArg {
    Number(i64),
    Text(String),
}

/// The move of a hole number, refusing numbers that name no hole of the variant.
fn numbered_move(number: i64, variant: Variant) -> PyResult<Move> {
    let holes = variant.holes_per_side() as i64;
    match number {
        0 => Ok(Move::PASS),
        n if (1..=holes).contains(&n) => Ok(Move::hole(n as u8)),
        n => Err(PyValueError::new_err(format!(
            "illegal move {n}: there is no hole {n} (holes are 1..{holes}, 0 is the pass)"
        ))),
    }
}

/// A move's hole number as Python sees it (0 for the pass).
pub(crate) fn move_number(mv: Move) -> u32 {
    mv.source().map_or(0, u32::from)
}

/// The protocol's result word of a finished game.
fn result_word(status: Status) -> Option<&'static str> {
    match status {
        Status::Ongoing => None,
        Status::Won(Side::South) => Some("p1win"),
        Status::Won(Side::North) => Some("p2win"),
        Status::Drawn => Some("draw"),
    }
}

fn termination_word(end: Termination) -> &'static str {
    match end {
        Termination::KazanMajority => "kazan-majority",
        Termination::NoStones => "no-stones",
        Termination::Repetition => "repetition",
        Termination::BoardEmpty => "board-empty",
        Termination::PlyLimit => "ply-limit",
    }
}

fn side_of(player: Option<u8>, default: Side) -> PyResult<Side> {
    match player {
        None => Ok(default),
        Some(0) => Ok(Side::South),
        Some(1) => Ok(Side::North),
        Some(other) => Err(PyValueError::new_err(format!(
            "player {other} does not exist (0 is South, who moves first; 1 is North)"
        ))),
    }
}

fn observation_array<'py>(
    py: Python<'py>,
    pos: &Position,
    legal: u16,
    observer: Side,
    channels_last: bool,
) -> Bound<'py, PyArrayDyn<f32>> {
    let holes = pos.variant().holes_per_side();
    let mut planes = vec![0.0f32; CHANNELS * 2 * holes];
    let (layout, shape) = if channels_last {
        (Layout::ChannelsLast, vec![2, holes, CHANNELS])
    } else {
        (Layout::ChannelsFirst, vec![CHANNELS, 2, holes])
    };
    encode::write_observation(pos, legal, observer, layout, &mut planes);
    Array::from_shape_vec(shape, planes)
        .expect("the plane count matches the shape")
        .into_pyarray(py)
}

fn mask_array<'py>(py: Python<'py>, pos: &Position, legal: u16) -> Bound<'py, PyArray1<bool>> {
    let mut mask = vec![false; encode::action_count(pos)];
    encode::write_mask(pos, legal, &mut mask);
    mask.into_pyarray(py)
}

/// A game of Toguz Kumalak (or a relative) with its history: the repetition rule, undo,
/// records and both move notations.
///
/// `Game(variant="togyz", fen=None, *, tuzdik=None, sowing=None, capture=None, mangala=None)`
#[pyclass(name = "Game", module = "tuzdik")]
pub struct PyGame {
    pub(crate) game: Game,
    /// PGN tags, written by `pgn()`; a plain dict the caller may edit.
    #[pyo3(get)]
    pub(crate) tags: Py<PyDict>,
}

impl PyGame {
    pub(crate) fn wrap(py: Python<'_>, game: Game, tags: &[(String, String)]) -> PyResult<Self> {
        let dict = PyDict::new(py);
        for (name, value) in tags {
            dict.set_item(name, value)?;
        }
        Ok(PyGame {
            game,
            tags: dict.unbind(),
        })
    }

    fn to_move(&self, mv: &MoveArg) -> PyResult<Move> {
        match mv {
            MoveArg::Number(number) => numbered_move(*number, self.game.variant()),
            MoveArg::Text(text) => self.game.position().parse_move(text).map_err(value_error),
        }
    }

    fn tag_pairs(&self, py: Python<'_>) -> PyResult<Vec<(String, String)>> {
        let mut pairs = Vec::new();
        for (name, value) in self.tags.bind(py).iter() {
            pairs.push((name.str()?.to_string(), value.str()?.to_string()));
        }
        Ok(pairs)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (variant="togyz", fen=None, *, tuzdik=None, sowing=None, capture=None, mangala=None))]
    fn new(
        py: Python<'_>,
        variant: &str,
        fen: Option<&str>,
        tuzdik: Option<bool>,
        sowing: Option<&str>,
        capture: Option<&str>,
        mangala: Option<&str>,
    ) -> PyResult<Self> {
        let variant = make_variant(variant, tuzdik, sowing, capture, mangala)?;
        PyGame::wrap(py, game_from(variant, fen)?, &[])
    }

    /// The rules as a variant spec (`"togyz"`, `"kozdatu tuzdik=on"`, ...).
    #[getter]
    fn variant(&self) -> String {
        self.game.variant().to_string()
    }

    /// Holes in each row (N).
    #[getter]
    fn holes(&self) -> usize {
        self.game.variant().holes_per_side()
    }

    /// Actions of the learning interfaces: one per hole, plus the pass in Mangala IV.
    #[getter]
    fn num_actions(&self) -> usize {
        encode::action_count(self.game.position())
    }

    /// The player to move: 0 for South (p1, moves first), 1 for North (p2).
    #[getter]
    fn turn(&self) -> u8 {
        self.game.position().side_to_move() as u8
    }

    /// The moves played so far, as hole numbers (0 for a pass).
    #[getter]
    fn moves(&self) -> Vec<u32> {
        self.game
            .moves()
            .iter()
            .map(|&mv| move_number(mv))
            .collect()
    }

    /// Plies played.
    #[getter]
    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// The fullmove number (it goes up after each North move).
    #[getter]
    fn fullmove(&self) -> u32 {
        self.game.fullmove()
    }

    /// The current position (a value: later moves do not change it).
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition {
            pos: *self.game.position(),
            fullmove: self.game.fullmove(),
        }
    }

    /// The position the game started from.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition {
            pos: *self.game.start(),
            fullmove: self.game.start_fullmove(),
        }
    }

    /// Legal moves as hole numbers, lowest first (0 is Mangala IV's pass); empty once the
    /// game is over by any rule.
    fn legal_moves(&self) -> Vec<u32> {
        self.game
            .legal_moves()
            .iter()
            .map(|&mv| move_number(mv))
            .collect()
    }

    /// Whether a move (a hole number or text in either notation) may be played now.
    fn is_legal(&self, mv: MoveArg) -> bool {
        match self.to_move(&mv) {
            Ok(mv) => self.game.termination().is_none() && self.game.position().is_legal(mv),
            Err(_) => false,
        }
    }

    /// Plays a move: a hole number (0 for the pass), or text in the short (`"7"`) or PlayOK
    /// long notation (`"76"`, `"68X"`, `"87(10)"`, whose landing hole, tuzdik mark and kazan
    /// are checked). Raises `ValueError` naming the reason; the game is then unchanged.
    fn play(&mut self, mv: MoveArg) -> PyResult<()> {
        let result = match &mv {
            MoveArg::Text(text) => self.game.play_text(text),
            MoveArg::Number(_) => {
                let parsed = self.to_move(&mv)?;
                self.game.try_play(parsed)
            }
        };
        result.map(|_| ()).map_err(|error| match mv {
            MoveArg::Number(number) => {
                PyValueError::new_err(format!("illegal move {number}: {error}"))
            }
            MoveArg::Text(_) => value_error(error),
        })
    }

    /// Takes back the last move and returns it; `IndexError` when no move was played.
    fn undo(&mut self) -> PyResult<u32> {
        self.game
            .undo()
            .map(move_number)
            .ok_or_else(|| PyIndexError::new_err("no move to undo"))
    }

    /// The current position string, with the fullmove number.
    fn fen(&self) -> String {
        self.game.fen()
    }

    /// Whether the game is over (by a kazan majority, an empty row, repetition, or Mangala
    /// IV's own ends).
    fn is_over(&self) -> bool {
        self.game.termination().is_some()
    }

    /// How the game ended: `"kazan-majority"`, `"no-stones"`, `"repetition"`,
    /// `"board-empty"`, `"ply-limit"`, or `None` while it goes on.
    fn termination(&self) -> Option<&'static str> {
        self.game.termination().map(termination_word)
    }

    /// `"p1win"`, `"p2win"`, `"draw"`, or `None` while the game goes on.
    fn result(&self) -> Option<&'static str> {
        result_word(self.game.status())
    }

    /// `(South, North)`: the final scores once the game is over, the kazans before.
    fn scores(&self) -> (u32, u32) {
        let pos = self.game.position();
        let scores = self
            .game
            .final_scores()
            .unwrap_or([pos.kazan(Side::South), pos.kazan(Side::North)]);
        (scores[0], scores[1])
    }

    /// A move in PlayOK's long notation (`"76"`, `"68X"`, with `with_kazan` `"87(10)"`).
    #[pyo3(signature = (mv, with_kazan=false))]
    fn long_notation(&self, mv: MoveArg, with_kazan: bool) -> PyResult<String> {
        let parsed = self.to_move(&mv)?;
        self.game.position().check_move(parsed).map_err(|error| {
            value_error(format!("illegal move {}: {error}", move_number(parsed)))
        })?;
        Ok(self.game.position().long_notation(parsed, with_kazan))
    }

    /// The game as a PGN record in PlayOK's long notation, with `tags` (a dict; the game's
    /// own `tags` when omitted). `result` (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`) overrides
    /// the result the rules give.
    #[pyo3(signature = (tags=None, result=None))]
    fn pgn(
        &self,
        py: Python<'_>,
        tags: Option<Bound<'_, PyDict>>,
        result: Option<&str>,
    ) -> PyResult<String> {
        let pairs = match tags {
            Some(dict) => {
                let mut pairs = Vec::new();
                for (name, value) in dict.iter() {
                    pairs.push((name.str()?.to_string(), value.str()?.to_string()));
                }
                pairs
            }
            None => self.tag_pairs(py)?,
        };
        let outcome = match result {
            None => None,
            Some(token) => Some(Outcome::from_token(token).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "result '{token}' is not a PGN result (1-0, 0-1, 1/2-1/2 or *)"
                ))
            })?),
        };
        let borrowed: Vec<(&str, String)> = pairs
            .iter()
            .map(|(name, value)| (name.as_str(), value.clone()))
            .collect();
        Ok(Record::from_game(&self.game, &borrowed, outcome).to_string())
    }

    /// Float32 planes of the current position from `player`'s view (the side to move when
    /// omitted): shape `(8, 2, N)`, or `(2, N, 8)` with `channels_last`. See the README for
    /// the layout.
    #[pyo3(signature = (player=None, channels_last=false))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<u8>,
        channels_last: bool,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let pos = self.game.position();
        let observer = side_of(player, pos.side_to_move())?;
        let legal = encode::game_legal_mask(&self.game);
        Ok(observation_array(py, pos, legal, observer, channels_last))
    }

    /// A bool array over the actions (`num_actions`): action `a` is hole `a + 1`, and in
    /// Mangala IV the last action is the pass.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(
            py,
            self.game.position(),
            encode::game_legal_mask(&self.game),
        )
    }

    /// The legal actions as 0-based indices (see `action_mask`).
    fn legal_actions(&self) -> Vec<usize> {
        let pos = self.game.position();
        self.game
            .legal_moves()
            .iter()
            .map(|&mv| encode::move_action(pos, mv))
            .collect()
    }

    /// The hole number (0 for the pass) of an action index.
    fn action_to_move(&self, action: i64) -> PyResult<u32> {
        encode::action_move(self.game.position(), action)
            .map(move_number)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "action {action} does not exist (actions are 0..{})",
                    self.num_actions()
                ))
            })
    }

    /// A copy with its own history and tags.
    fn copy(&self, py: Python<'_>) -> PyResult<Self> {
        Ok(PyGame {
            game: self.game.clone(),
            tags: self.tags.bind(py).copy()?.unbind(),
        })
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Self> {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.copy(py)
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let start = self.game.start().to_fen(self.game.start_fullmove());
        let args = PyTuple::new(py, [self.variant(), start])?;
        Ok((args, PyDict::new(py)))
    }

    fn __getstate__<'py>(&self, py: Python<'py>) -> PyResult<(Vec<u32>, Bound<'py, PyDict>)> {
        Ok((self.moves(), self.tags.bind(py).copy()?))
    }

    fn __setstate__(&mut self, state: (Vec<u32>, Bound<'_, PyDict>)) -> PyResult<()> {
        let (moves, tags) = state;
        let mut game = Game::from_position(*self.game.start(), self.game.start_fullmove());
        for number in moves {
            let mv = numbered_move(i64::from(number), game.variant())?;
            game.try_play(mv).map_err(value_error)?;
        }
        self.game = game;
        self.tags = tags.unbind();
        Ok(())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|other| other.borrow().game == self.game)
    }

    fn __len__(&self) -> usize {
        self.game.moves().len()
    }

    /// The board as the protocol's `d` command draws it.
    fn __str__(&self) -> String {
        board_drawing(&self.game).join("\n")
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(variant={:?}, fen={:?}) with {} moves",
            self.variant(),
            self.game.fen(),
            self.game.moves().len()
        )
    }

    /// Searches the current position; see `Engine.search`. A fresh 16 MiB table each call:
    /// keep an `Engine` for repeated searches.
    #[pyo3(signature = (depth=None, nodes=None, movetime=None, threads=1, multipv=1, level=None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        threads: usize,
        multipv: usize,
        level: Option<i64>,
    ) -> PyResult<crate::search::PySearchResult> {
        let engine = crate::search::PyEngine::create(16, threads)?;
        engine.run(py, &self.game, depth, nodes, movetime, multipv, level)
    }
}

/// A position: the holes, kazans, tuzdiks, the side to move and the rules. An immutable value
/// (`play` returns a new one), hashable by its Zobrist key.
///
/// `Position(fen=None, variant="togyz", *, tuzdik=None, sowing=None, capture=None, mangala=None)`
#[pyclass(name = "Position", module = "tuzdik", frozen)]
#[derive(Clone, Copy)]
pub struct PyPosition {
    pub(crate) pos: Position,
    pub(crate) fullmove: u32,
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (fen=None, variant="togyz", *, tuzdik=None, sowing=None, capture=None, mangala=None))]
    fn new(
        fen: Option<&str>,
        variant: &str,
        tuzdik: Option<bool>,
        sowing: Option<&str>,
        capture: Option<&str>,
        mangala: Option<&str>,
    ) -> PyResult<Self> {
        let variant = make_variant(variant, tuzdik, sowing, capture, mangala)?;
        let game = game_from(variant, fen)?;
        Ok(PyPosition {
            pos: *game.start(),
            fullmove: game.start_fullmove(),
        })
    }

    /// The rules as a variant spec.
    #[getter]
    fn variant(&self) -> String {
        self.pos.variant().to_string()
    }

    /// Holes in each row (N).
    #[getter]
    fn holes(&self) -> usize {
        self.pos.variant().holes_per_side()
    }

    /// The player to move: 0 for South, 1 for North.
    #[getter]
    fn turn(&self) -> u8 {
        self.pos.side_to_move() as u8
    }

    /// The fullmove number this position was reached at.
    #[getter]
    fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// `(South, North)` kazans (Mangala IV: what each player has captured).
    #[getter]
    fn kazans(&self) -> (u32, u32) {
        (self.pos.kazan(Side::South), self.pos.kazan(Side::North))
    }

    /// `(South's, North's)` tuzdik: the hole number on the opponent's row, or `None`.
    #[getter]
    fn tuzdiks(&self) -> (Option<u8>, Option<u8>) {
        (self.pos.tuzdik(Side::South), self.pos.tuzdik(Side::North))
    }

    /// The Zobrist key (64 bits), equal for equal positions.
    #[getter]
    fn key(&self) -> u64 {
        self.pos.key()
    }

    /// The holes as a `uint8` array of shape `(2, N)`: row 0 South's, row 1 North's, each in
    /// its owner's numbering (hole 1 first). Tuzdiks hold 0.
    fn board<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        let holes = self.pos.variant().holes_per_side();
        Array::from_shape_vec((2, holes), self.pos.ring().to_vec())
            .expect("the ring has two rows")
            .into_pyarray(py)
    }

    /// The position string with the fullmove number.
    fn fen(&self) -> String {
        self.pos.to_fen(self.fullmove)
    }

    /// Legal moves as hole numbers (0 is Mangala IV's pass). A bare position knows nothing of
    /// repetition: ask a `Game` for that.
    fn legal_moves(&self) -> Vec<u32> {
        self.pos
            .legal_moves()
            .iter()
            .map(|&mv| move_number(mv))
            .collect()
    }

    /// Whether the game is over here by the position alone (a kazan majority, an empty row;
    /// Mangala IV: an empty board).
    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    /// The position after a move (a hole number or text in either notation).
    fn play(&self, mv: MoveArg) -> PyResult<PyPosition> {
        let parsed = match &mv {
            MoveArg::Number(number) => numbered_move(*number, self.pos.variant())?,
            MoveArg::Text(text) => self.pos.parse_move(text).map_err(value_error)?,
        };
        let next = self.pos.after(parsed).map_err(|error| {
            value_error(format!("illegal move {}: {error}", move_number(parsed)))
        })?;
        let fullmove = self.fullmove + u32::from(self.pos.side_to_move() == Side::North);
        Ok(PyPosition {
            pos: next,
            fullmove,
        })
    }

    /// Leaf nodes of the move tree `depth` plies deep (finished positions are leaves and are
    /// not expanded; repetition is not applied). Ctrl-C stops it.
    #[pyo3(signature = (depth, threads=1))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: usize) -> PyResult<u64> {
        if depth > MAX_DEPTH {
            return Err(PyValueError::new_err(format!(
                "perft depth {depth} is beyond the limit of {MAX_DEPTH}"
            )));
        }
        if threads == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let stop = AtomicBool::new(false);
        let options = PerftOptions {
            threads,
            cache_entries: 0,
        };
        let pos = self.pos;
        let counted = run_interruptible(
            py,
            || stop.store(true, Ordering::Relaxed),
            || perft_with(&pos, depth, &options, &stop),
        )?;
        counted.map_err(value_error)
    }

    /// Float32 planes from `player`'s view (the side to move when omitted); see
    /// `Game.observation`.
    #[pyo3(signature = (player=None, channels_last=false))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<u8>,
        channels_last: bool,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let observer = side_of(player, self.pos.side_to_move())?;
        Ok(observation_array(
            py,
            &self.pos,
            self.pos.legal_mask(),
            observer,
            channels_last,
        ))
    }

    /// A bool array over the actions; see `Game.action_mask`.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(py, &self.pos, self.pos.legal_mask())
    }

    /// A move in PlayOK's long notation.
    #[pyo3(signature = (mv, with_kazan=false))]
    fn long_notation(&self, mv: MoveArg, with_kazan: bool) -> PyResult<String> {
        let parsed = match &mv {
            MoveArg::Number(number) => numbered_move(*number, self.pos.variant())?,
            MoveArg::Text(text) => self.pos.parse_move(text).map_err(value_error)?,
        };
        self.pos.check_move(parsed).map_err(|error| {
            value_error(format!("illegal move {}: {error}", move_number(parsed)))
        })?;
        Ok(self.pos.long_notation(parsed, with_kazan))
    }

    fn __hash__(&self) -> u64 {
        self.pos.key()
    }

    /// Equal when the boards, kazans, tuzdiks, side to move and rules are (not the fullmove
    /// number, which the key does not see either).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPosition>()
            .is_ok_and(|other| other.get().pos == self.pos)
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let args = PyTuple::new(py, [self.fen()])?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("variant", self.variant())?;
        Ok((args, kwargs))
    }

    fn __copy__(&self) -> Self {
        *self
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        *self
    }

    /// The position string, without the fullmove number.
    fn __str__(&self) -> String {
        self.pos.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position({:?}, variant={:?})", self.fen(), self.variant())
    }
}

/// The variant families by name, with their holes per row.
#[pyfunction]
pub fn variants() -> Vec<(&'static str, usize)> {
    Family::ALL
        .iter()
        .map(|family| (family.name(), family.holes_per_side()))
        .collect()
}

/// Refuses anything but a `Game`, naming what came instead.
pub(crate) fn expect_game<'py>(object: &Bound<'py, PyAny>) -> PyResult<PyRef<'py, PyGame>> {
    object
        .cast::<PyGame>()
        .map(|game| game.borrow())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a tuzdik.Game, got {}",
                object
                    .get_type()
                    .name()
                    .map_or("?".into(), |n| n.to_string())
            ))
        })
}
