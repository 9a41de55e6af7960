//! `tuzdik.VecEnv`: many games stepped in one call, in Rust, without the GIL.

use numpy::ndarray::{Array, IxDyn};
use numpy::{AllowTypeChange, IntoPyArray, PyArray1, PyArrayDyn, PyArrayLike1};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use tuzdik::{Game, Side, Status, Variant};

use crate::encode::{self, CHANNELS, Layout};
use crate::game::{PyGame, make_variant};

/// SplitMix64: a small, fast, well-mixed generator for the random baseline (no dependency for
/// one line of arithmetic).
#[derive(Clone, Copy, Debug)]
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `bound` (Lemire's multiply-shift; the bias is below 2^-50 for
    /// the bounds used here, at most 10).
    fn below(&mut self, bound: u32) -> u32 {
        ((u128::from(self.next()) * u128::from(bound)) >> 64) as u32
    }
}

/// One environment: a game whose history is cut at each kazan change (Toguz family only).
/// Kazans never shrink, so no position before a kazan changed can come back: the repetition
/// rule sees the same positions, and each step scans a few instead of the whole game.
fn play_and_score(game: &mut Game, action: usize) -> (f32, bool) {
    let pos = *game.position();
    let mover = pos.side_to_move();
    let mv = encode::action_move(&pos, action as i64).expect("actions are checked before");
    game.try_play(mv).expect("actions are checked before");
    if game.termination().is_some() {
        let reward = match game.status() {
            Status::Won(side) if side == mover => 1.0,
            Status::Won(_) => -1.0,
            _ => 0.0,
        };
        return (reward, true);
    }
    let after = game.position();
    let kazans_changed = Side::BOTH
        .iter()
        .any(|&side| after.kazan(side) != pos.kazan(side));
    if kazans_changed && !after.variant().is_mangala() {
        *game = Game::from_position(*after, game.fullmove());
    }
    (0.0, false)
}

/// `num_envs` games of one variant, stepped together in Rust with the GIL released.
///
/// `VecEnv(num_envs, variant="togyz", seed=0, *, tuzdik=None, sowing=None, capture=None,
/// mangala=None)`. Observations are float32 `(B, 8, 2, N)` from the view of the player to
/// move in each game (see `Game.observation`), masks bool `(B, A)`.
#[pyclass(name = "VecEnv", module = "tuzdik")]
pub struct PyVecEnv {
    games: Vec<Game>,
    variant: Variant,
    rng: SplitMix,
}

impl PyVecEnv {
    fn holes(&self) -> usize {
        self.variant.holes_per_side()
    }

    fn action_count(&self) -> usize {
        encode::action_count(&tuzdik::Position::start(self.variant))
    }

    /// Observations and masks of every game, from the view of the player to move.
    fn encode_all(&self) -> (Vec<f32>, Vec<bool>) {
        let plane_len = CHANNELS * 2 * self.holes();
        let actions = self.action_count();
        let mut obs = vec![0.0f32; self.games.len() * plane_len];
        let mut mask = vec![false; self.games.len() * actions];
        for ((game, obs), mask) in self
            .games
            .iter()
            .zip(obs.chunks_exact_mut(plane_len))
            .zip(mask.chunks_exact_mut(actions))
        {
            let pos = game.position();
            let legal = encode::game_legal_mask(game);
            encode::write_observation(pos, legal, pos.side_to_move(), Layout::ChannelsFirst, obs);
            encode::write_mask(pos, legal, mask);
        }
        (obs, mask)
    }

    fn arrays<'py>(
        &self,
        py: Python<'py>,
        obs: Vec<f32>,
        mask: Vec<bool>,
    ) -> (Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyArrayDyn<bool>>) {
        let count = self.games.len();
        let obs = Array::from_shape_vec(IxDyn(&[count, CHANNELS, 2, self.holes()]), obs)
            .expect("one observation per game");
        let mask = Array::from_shape_vec(IxDyn(&[count, self.action_count()]), mask)
            .expect("one mask per game");
        (obs.into_pyarray(py), mask.into_pyarray(py))
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (num_envs, variant="togyz", seed=0, *, tuzdik=None, sowing=None, capture=None, mangala=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        variant: &str,
        seed: u64,
        tuzdik: Option<bool>,
        sowing: Option<&str>,
        capture: Option<&str>,
        mangala: Option<&str>,
    ) -> PyResult<Self> {
        if num_envs == 0 || num_envs > 1 << 24 {
            return Err(PyValueError::new_err(format!(
                "num_envs must be 1..16777216, not {num_envs}"
            )));
        }
        let variant = make_variant(variant, tuzdik, sowing, capture, mangala)?;
        Ok(PyVecEnv {
            games: vec![Game::new(variant); num_envs],
            variant,
            rng: SplitMix(seed),
        })
    }

    /// Games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// Actions per game (holes, plus the pass in Mangala IV).
    #[getter]
    fn num_actions(&self) -> usize {
        self.action_count()
    }

    /// The shape of one game's observation, `(8, 2, N)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        (CHANNELS, 2, self.holes())
    }

    /// The rules as a variant spec.
    #[getter]
    fn variant(&self) -> String {
        self.variant.to_string()
    }

    /// Starts every game afresh (and reseeds the random actions when `seed` is given).
    /// Returns `(obs, mask)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> (Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyArrayDyn<bool>>) {
        if let Some(seed) = seed {
            self.rng = SplitMix(seed);
        }
        let fresh = Game::new(self.variant);
        self.games.iter_mut().for_each(|game| *game = fresh.clone());
        let (obs, mask) = self.encode_all();
        self.arrays(py, obs, mask)
    }

    /// Plays one action (a 0-based index: hole `a + 1`; Mangala IV's pass is the last) in
    /// every game. Returns `(obs, reward, done, mask)`: `reward` is +1/-1/0 for the player
    /// who just moved when its move ended the game, 0 otherwise; finished games start again
    /// at once, so `obs` and `mask` then show the new game. An illegal action raises
    /// `ValueError` naming the game, and no game moves.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyArrayLike1<'py, i64, AllowTypeChange>,
    ) -> PyResult<(
        Bound<'py, PyArrayDyn<f32>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArrayDyn<bool>>,
    )> {
        let actions = actions.as_slice()?.to_vec();
        if actions.len() != self.games.len() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} games",
                actions.len(),
                self.games.len()
            )));
        }
        for (index, (game, &action)) in self.games.iter().zip(&actions).enumerate() {
            let pos = game.position();
            let legal = encode::game_legal_mask(game);
            let playable = encode::action_move(pos, action)
                .is_some_and(|mv| legal & (1 << mv.mask_bit()) != 0);
            if !playable {
                let legal_actions: Vec<usize> = game
                    .legal_moves()
                    .iter()
                    .map(|&mv| encode::move_action(pos, mv))
                    .collect();
                return Err(PyValueError::new_err(format!(
                    "game {index}: action {action} is not legal (legal actions: {legal_actions:?})"
                )));
            }
        }
        let variant = self.variant;
        let games = &mut self.games;
        let (rewards, dones) = py.detach(|| {
            let mut rewards = vec![0.0f32; games.len()];
            let mut dones = vec![false; games.len()];
            for (index, (game, &action)) in games.iter_mut().zip(&actions).enumerate() {
                let (reward, done) = play_and_score(game, action as usize);
                rewards[index] = reward;
                dones[index] = done;
                if done {
                    *game = Game::new(variant);
                }
            }
            (rewards, dones)
        });
        let (obs, mask) = py.detach(|| self.encode_all());
        let (obs, mask) = self.arrays(py, obs, mask);
        Ok((obs, rewards.into_pyarray(py), dones.into_pyarray(py), mask))
    }

    /// A uniformly random legal action for every game (int64 array).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let games = &self.games;
        let rng = &mut self.rng;
        let actions: Vec<i64> = py.detach(|| {
            games
                .iter()
                .map(|game| {
                    let moves = game.legal_moves();
                    match moves.len() {
                        0 => 0,
                        len => {
                            let mv = moves[rng.below(len as u32) as usize];
                            encode::move_action(game.position(), mv) as i64
                        }
                    }
                })
                .collect()
        });
        actions.into_pyarray(py)
    }

    /// The player to move in each game (0 South, 1 North).
    fn turns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.games
            .iter()
            .map(|game| game.position().side_to_move() as u8)
            .collect::<Vec<u8>>()
            .into_pyarray(py)
    }

    /// A copy of game `index` (its history since the last capture: the environment keeps no
    /// more).
    fn game(&self, py: Python<'_>, index: usize) -> PyResult<PyGame> {
        let game = self.games.get(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "game {index} does not exist ({} games)",
                self.games.len()
            ))
        })?;
        PyGame::wrap(py, game.clone(), &[])
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "VecEnv(num_envs={}, variant={:?})",
            self.games.len(),
            self.variant.to_string()
        )
    }
}
