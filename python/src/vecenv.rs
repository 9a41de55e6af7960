//! `tuzdik.VecEnv`: many games stepped in one call, in Rust, without the GIL.

use numpy::ndarray::{Array, IxDyn};
use numpy::{AllowTypeChange, IntoPyArray, PyArray1, PyArrayDyn, PyArrayLike1};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use tuzdik::matchrun::openings::SplitMix;
use tuzdik::{Game, Side, Status, Variant};

use crate::encode::{self, CHANNELS, Layout};
use crate::game::{PyGame, make_variant};

/// Plays `action` (checked legal by the caller) and returns the reward for the mover, whether
/// the game ended, and the legal moves after it (empty once over).
///
/// The game's history is cut at each kazan change (Toguz family only): kazans never shrink,
/// so no position before a kazan changed can come back. The repetition rule sees the same
/// positions, and each step scans a few instead of the whole game.
fn play_and_score(game: &mut Game, action: usize) -> (f32, bool, u16) {
    let pos = *game.position();
    let mover = pos.side_to_move();
    let mv = encode::action_move(&pos, action as i64).expect("actions are checked before");
    game.play_unchecked(mv);
    if game.termination().is_some() {
        let reward = match game.status() {
            Status::Won(side) if side == mover => 1.0,
            Status::Won(_) => -1.0,
            _ => 0.0,
        };
        return (reward, true, 0);
    }
    let after = *game.position();
    let kazans_changed = Side::BOTH
        .iter()
        .any(|&side| after.kazan(side) != pos.kazan(side));
    if kazans_changed && !after.variant().is_mangala() {
        game.forget_history();
    }
    (0.0, false, after.legal_mask())
}

/// One game of the batch with its legal moves (`encode::game_legal_mask`), kept with it so
/// that a step judges the end rules once.
#[derive(Clone)]
struct Slot {
    game: Game,
    legal: u16,
}

impl Slot {
    fn fresh(variant: Variant) -> Slot {
        let game = Game::new(variant);
        Slot {
            legal: encode::game_legal_mask(&game),
            game,
        }
    }

    fn encode(&self, obs: &mut [f32], mask: &mut [bool]) {
        let pos = self.game.position();
        encode::write_observation(
            pos,
            self.legal,
            pos.side_to_move(),
            Layout::ChannelsFirst,
            obs,
        );
        encode::write_mask(pos, self.legal, mask);
    }
}

/// Outputs of one step: observation planes, masks, rewards and end flags, one entry per game.
struct StepOutput {
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    dones: Vec<bool>,
}

/// One game's slot with its outputs, as a step's zipped iterators hand them over.
type SlotOutputs<'a> = (
    usize,
    (
        (((&'a mut Slot, &'a mut [f32]), &'a mut [bool]), &'a mut f32),
        &'a mut bool,
    ),
);

/// Games per task when a step is shared between threads: enough work per task to pay for it.
const GAMES_PER_TASK: usize = 64;

/// `num_envs` games of one variant, stepped together in Rust with the GIL released.
///
/// `VecEnv(num_envs, variant="togyz", seed=0, *, threads=1, tuzdik=None, sowing=None,
/// capture=None, mangala=None)`. Observations are float32 `(B, 8, 2, N)` from the view of the
/// player to move in each game (see `Game.observation`), masks bool `(B, A)`. `threads > 1`
/// shares each step between that many threads of its own.
#[pyclass(name = "VecEnv", module = "tuzdik")]
pub struct PyVecEnv {
    slots: Vec<Slot>,
    fresh: Slot,
    variant: Variant,
    rng: SplitMix,
    pool: Option<rayon::ThreadPool>,
}

impl PyVecEnv {
    fn holes(&self) -> usize {
        self.variant.holes_per_side()
    }

    fn action_count(&self) -> usize {
        encode::action_count(self.fresh.game.position())
    }

    fn outputs(&self) -> StepOutput {
        let count = self.slots.len();
        StepOutput {
            obs: vec![0.0; count * CHANNELS * 2 * self.holes()],
            mask: vec![false; count * self.action_count()],
            rewards: vec![0.0; count],
            dones: vec![false; count],
        }
    }

    /// Plays `actions` (`None`: only encodes) in every game, restarting finished ones, and
    /// encodes the results, on the pool's threads when there is one.
    fn advance(&mut self, actions: Option<&[i64]>) -> StepOutput {
        let mut out = self.outputs();
        let plane_len = CHANNELS * 2 * self.holes();
        let action_count = self.action_count();
        let fresh = &self.fresh;
        let work = |(index, ((((slot, obs), mask), reward), done)): SlotOutputs<'_>| {
            if let Some(actions) = actions {
                let (gain, over, legal) = play_and_score(&mut slot.game, actions[index] as usize);
                *reward = gain;
                *done = over;
                slot.legal = legal;
                if over {
                    slot.clone_from(fresh);
                }
            }
            slot.encode(obs, mask);
        };
        match &self.pool {
            Some(pool) => {
                use rayon::prelude::*;
                let slots = &mut self.slots;
                pool.install(|| {
                    slots
                        .par_iter_mut()
                        .zip(out.obs.par_chunks_exact_mut(plane_len))
                        .zip(out.mask.par_chunks_exact_mut(action_count))
                        .zip(out.rewards.par_iter_mut())
                        .zip(out.dones.par_iter_mut())
                        .enumerate()
                        .with_min_len(GAMES_PER_TASK)
                        .for_each(work)
                });
            }
            None => self
                .slots
                .iter_mut()
                .zip(out.obs.chunks_exact_mut(plane_len))
                .zip(out.mask.chunks_exact_mut(action_count))
                .zip(out.rewards.iter_mut())
                .zip(out.dones.iter_mut())
                .enumerate()
                .for_each(work),
        }
        out
    }

    fn arrays<'py>(
        &self,
        py: Python<'py>,
        obs: Vec<f32>,
        mask: Vec<bool>,
    ) -> (Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyArrayDyn<bool>>) {
        let count = self.slots.len();
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
    #[pyo3(signature = (num_envs, variant="togyz", seed=0, *, threads=1, tuzdik=None, sowing=None, capture=None, mangala=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        variant: &str,
        seed: u64,
        threads: usize,
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
        if threads == 0 || threads > 1024 {
            return Err(PyValueError::new_err(format!(
                "threads must be 1..1024, not {threads}"
            )));
        }
        let variant = make_variant(variant, tuzdik, sowing, capture, mangala)?;
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|error| {
                    PyValueError::new_err(format!("cannot start {threads} threads: {error}"))
                })?;
            Some(pool)
        } else {
            None
        };
        let fresh = Slot::fresh(variant);
        Ok(PyVecEnv {
            slots: vec![fresh.clone(); num_envs],
            fresh,
            variant,
            rng: SplitMix::new(seed),
            pool,
        })
    }

    /// Games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
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
            self.rng = SplitMix::new(seed);
        }
        let fresh = self.fresh.clone();
        self.slots
            .iter_mut()
            .for_each(|slot| slot.clone_from(&fresh));
        let out = py.detach(|| self.advance(None));
        self.arrays(py, out.obs, out.mask)
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
        if actions.len() != self.slots.len() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} games",
                actions.len(),
                self.slots.len()
            )));
        }
        for (index, (slot, &action)) in self.slots.iter().zip(&actions).enumerate() {
            let pos = slot.game.position();
            let playable = encode::action_move(pos, action)
                .is_some_and(|mv| slot.legal & (1 << mv.mask_bit()) != 0);
            if !playable {
                let legal_actions: Vec<usize> = slot
                    .game
                    .legal_moves()
                    .iter()
                    .map(|&mv| encode::move_action(pos, mv))
                    .collect();
                return Err(PyValueError::new_err(format!(
                    "game {index}: action {action} is not legal (legal actions: {legal_actions:?})"
                )));
            }
        }
        let out = py.detach(|| self.advance(Some(&actions)));
        let (obs, mask) = self.arrays(py, out.obs, out.mask);
        Ok((
            obs,
            out.rewards.into_pyarray(py),
            out.dones.into_pyarray(py),
            mask,
        ))
    }

    /// A uniformly random legal action for every game (int64 array).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let slots = &self.slots;
        let rng = &mut self.rng;
        let actions: Vec<i64> = py.detach(|| {
            slots
                .iter()
                .map(|slot| {
                    let mut mask = slot.legal;
                    // Drop a random number of the lowest legal moves, then take the next.
                    for _ in 0..rng.below(mask.count_ones().max(1) as usize) {
                        mask &= mask - 1;
                    }
                    let bit = mask.trailing_zeros();
                    if bit >= 16 {
                        return 0;
                    }
                    let mv = tuzdik::Move::from_mask_bit(bit);
                    encode::move_action(slot.game.position(), mv) as i64
                })
                .collect()
        });
        actions.into_pyarray(py)
    }

    /// The player to move in each game (0 South, 1 North).
    fn turns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.slots
            .iter()
            .map(|slot| slot.game.position().side_to_move() as u8)
            .collect::<Vec<u8>>()
            .into_pyarray(py)
    }

    /// A copy of game `index` (its history since the last capture: the environment keeps no
    /// more).
    fn game(&self, py: Python<'_>, index: usize) -> PyResult<PyGame> {
        let slot = self.slots.get(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "game {index} does not exist ({} games)",
                self.slots.len()
            ))
        })?;
        PyGame::wrap(py, slot.game.clone(), &[])
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "VecEnv(num_envs={}, variant={:?})",
            self.slots.len(),
            self.variant.to_string()
        )
    }
}
