//! Python bindings for Tuzdik: games with exact rules, positions, PGN records, observation
//! encoders, a batched environment stepped in Rust and the search.
//!
//! Everything here is a thin layer over the engine crate's public API (`tuzdik::...`); the
//! rules live there and only there.

mod encode;
mod game;
mod interrupt;
mod record;
mod search;
mod vecenv;

use pyo3::prelude::*;

/// The native module, re-exported by the `tuzdik` Python package.
#[pymodule]
fn _tuzdik(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<game::PyGame>()?;
    module.add_class::<game::PyPosition>()?;
    module.add_class::<record::PyRecord>()?;
    module.add_class::<search::PySearchResult>()?;
    module.add_class::<search::PySearchLine>()?;
    module.add_class::<search::PyEngine>()?;
    module.add_class::<vecenv::PyVecEnv>()?;
    module.add_function(wrap_pyfunction!(record::parse_pgn, module)?)?;
    module.add_function(wrap_pyfunction!(game::variants, module)?)?;
    module.add("OBSERVATION_CHANNELS", encode::CHANNELS)?;
    module.add("SOUTH", 0)?;
    module.add("NORTH", 1)?;
    Ok(())
}
