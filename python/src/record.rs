//! PGN records: `tuzdik.read_pgn` splits a file here, the moves are left as written so that
//! callers can replay and check them move by move.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use tuzdik::record::Record;

use crate::game::{PyGame, value_error};

/// One game of a PGN file as written: tags, moves (text), comments and the result token.
#[pyclass(name = "Record", module = "tuzdik", frozen)]
pub struct PyRecord {
    record: Record,
}

#[pymethods]
impl PyRecord {
    /// The tags, in file order.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in &self.record.tags {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The moves exactly as written (`"87(10)"`, `"68X"`, ...).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.record.moves.iter().map(|mv| mv.text.clone()).collect()
    }

    /// The comment after each move (`None` where there is none).
    #[getter]
    fn comments(&self) -> Vec<Option<String>> {
        self.record
            .moves
            .iter()
            .map(|mv| mv.comment.clone())
            .collect()
    }

    /// The result token ending the moves (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`), or the
    /// Result tag's when the moves have none.
    #[getter]
    fn result(&self) -> Option<String> {
        self.record
            .result
            .map(|outcome| outcome.token().to_string())
            .or_else(|| self.record.tag("Result").map(str::to_string))
    }

    /// The line of the file the game starts on.
    #[getter]
    fn line(&self) -> usize {
        self.record.line
    }

    /// The game at its start (the Variant and FEN tags applied), with the record's tags:
    /// play the moves yourself.
    fn start(&self, py: Python<'_>) -> PyResult<PyGame> {
        let game = self.record.start().map_err(value_error)?;
        PyGame::wrap(py, game, &self.record.tags)
    }

    /// The game with every move played and checked (landing holes, tuzdik marks, kazans in
    /// `(k)`, and the recorded result of a finished game). `ValueError` names the first
    /// disagreement.
    fn game(&self, py: Python<'_>) -> PyResult<PyGame> {
        let game = self.record.replay().map_err(value_error)?;
        PyGame::wrap(py, game, &self.record.tags)
    }

    fn __len__(&self) -> usize {
        self.record.moves.len()
    }

    /// The record as PGN text.
    fn __str__(&self) -> String {
        self.record.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Record(line={}, moves={}, result={})",
            self.record.line,
            self.record.moves.len(),
            self.result()
                .map_or("None".to_string(), |token| format!("'{token}'"))
        )
    }
}

/// Splits PGN text into records (the Python `read_pgn` reads the file and calls this).
#[pyfunction]
pub fn parse_pgn(py: Python<'_>, text: &str) -> PyResult<Vec<PyRecord>> {
    let records = py.detach(|| Record::parse_all(text)).map_err(value_error)?;
    Ok(records
        .into_iter()
        .map(|record| PyRecord { record })
        .collect())
}
