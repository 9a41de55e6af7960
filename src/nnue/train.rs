//! `tuzdik train`: fits the net to training records on the CPU.
//!
//! The float net mirrors the quantised one ([`super::Network`]): per perspective
//! `acc = b1 + sum of W1 rows of the active inputs`, `h = clamp(acc, 0, 1)`, and
//! `out = w2 . [h_us, h_them] + b2`, a logit; the evaluation is `out * EVAL_SCALE` 1/100 stone.
//! The target blends the search score through the same logistic, `sigmoid(score / EVAL_SCALE)`,
//! with the game's result (1, ½, 0): `t = lambda * score_part + (1 - lambda) * result`
//! (records without a score use the result alone); the loss is the mean of
//! `(sigmoid(out) - t)^2`. Adam, mini-batches, gradients summed over a fixed number of
//! slices of each batch (in parallel, added in slice order), so a seed gives the same net
//! whatever the thread count. Games go to training or validation by a hash of (file, game).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::data::{self, Record};
use super::{EVAL_SCALE, HIDDEN, INPUTS, Network, QA, QB, SLOTS, WEIGHT_CLIP, features};
use crate::rng::SplitMix;

/// Slices of a batch whose gradients are computed in parallel and added in order.
const SLICES: usize = 16;
/// Checkpoint file magic.
const CHECKPOINT_MAGIC: [u8; 4] = *b"TZCK";
/// Checkpoint format version.
const CHECKPOINT_VERSION: u32 = 1;

/// The options of a run.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Record files.
    pub data: Vec<PathBuf>,
    /// The quantised net written at the end.
    pub out: PathBuf,
    /// Passes over the training set (in all, counting those of a resumed checkpoint).
    pub epochs: usize,
    /// Adam's step size.
    pub lr: f32,
    /// Positions per step.
    pub batch: usize,
    /// Worker threads (0: rayon's default).
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Percent of the games kept for validation.
    pub val_percent: u32,
    /// Weight of the search score in the target (the rest is the result).
    pub lambda: f32,
    /// Continue from this checkpoint.
    pub resume: Option<PathBuf>,
}

/// One position ready for training: the active inputs of both views and its target.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Side to move's view, then the opponent's; `u16::MAX` marks an empty slot.
    pub inputs: [[u16; SLOTS]; 2],
    /// The blended target in 0..=1.
    pub target: f32,
}

impl Sample {
    /// A record's sample with score weight `lambda`.
    pub fn from_record(record: &Record, lambda: f32) -> Sample {
        let pos = &record.position;
        let us = pos.side_to_move();
        let view = |side| features(pos, side).map(|slot| slot.unwrap_or(u16::MAX));
        let result = (f32::from(record.result) + 1.0) / 2.0;
        let target = match record.score {
            Some(score) => {
                lambda * sigmoid(f32::from(score) / EVAL_SCALE as f32) + (1.0 - lambda) * result
            }
            None => result,
        };
        Sample {
            inputs: [view(us), view(us.opponent())],
            target,
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float net, laid out as one parameter vector: W1 (`INPUTS` rows of `HIDDEN`), b1, w2
/// (`2 * HIDDEN`), b2.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// All parameters.
    pub params: Vec<f32>,
}

const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + 2 * HIDDEN;
/// Parameters of the float net.
pub const PARAMS: usize = B2 + 1;

impl FloatNet {
    /// Small random weights from a seed.
    pub fn seeded(seed: u64) -> FloatNet {
        let mut rng = SplitMix::new(seed ^ 0x7a1e);
        let mut uniform =
            |size: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * size;
        let mut params = vec![0.0; PARAMS];
        for (i, p) in params.iter_mut().enumerate() {
            *p = if i < B1 {
                uniform(0.2)
            } else if i < W2 {
                uniform(0.1) + 0.2
            } else if i < B2 {
                uniform(1.0 / (2.0 * HIDDEN as f32).sqrt())
            } else {
                0.0
            };
        }
        FloatNet { params }
    }

    /// Both perspectives' accumulators (before the clip).
    fn accumulate(&self, sample: &Sample) -> [[f32; HIDDEN]; 2] {
        let mut acc = [[0.0; HIDDEN]; 2];
        for (sums, inputs) in acc.iter_mut().zip(&sample.inputs) {
            sums.copy_from_slice(&self.params[B1..W2]);
            for &input in inputs.iter().filter(|&&i| i != u16::MAX) {
                let row = &self.params[usize::from(input) * HIDDEN..][..HIDDEN];
                for (a, w) in sums.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
        acc
    }

    /// The output logit.
    pub fn forward(&self, sample: &Sample) -> f32 {
        let acc = self.accumulate(sample);
        self.output(&acc)
    }

    fn output(&self, acc: &[[f32; HIDDEN]; 2]) -> f32 {
        let w2 = &self.params[W2..B2];
        let mut out = self.params[B2];
        for (view, acc) in acc.iter().enumerate() {
            for (a, w) in acc.iter().zip(&w2[view * HIDDEN..]) {
                out += a.clamp(0.0, 1.0) * w;
            }
        }
        out
    }

    /// Adds the loss gradient of one sample to `grad`; returns the sample's loss.
    fn backward(&self, sample: &Sample, grad: &mut [f32]) -> f32 {
        let acc = self.accumulate(sample);
        let out = self.output(&acc);
        let p = sigmoid(out);
        let error = p - sample.target;
        let g = 2.0 * error * p * (1.0 - p);
        grad[B2] += g;
        for view in 0..2 {
            let mut d_acc = [0.0f32; HIDDEN];
            for i in 0..HIDDEN {
                let a = acc[view][i];
                let w = self.params[W2 + view * HIDDEN + i];
                grad[W2 + view * HIDDEN + i] += g * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    d_acc[i] = g * w;
                }
            }
            for (gb, d) in grad[B1..W2].iter_mut().zip(&d_acc) {
                *gb += d;
            }
            for &input in sample.inputs[view].iter().filter(|&&i| i != u16::MAX) {
                let row = &mut grad[usize::from(input) * HIDDEN..][..HIDDEN];
                for (gw, d) in row.iter_mut().zip(&d_acc) {
                    *gw += d;
                }
            }
        }
        error * error
    }

    /// The mean loss over samples (in parallel).
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let total: f64 = samples
            .par_chunks(4096)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|s| f64::from((sigmoid(self.forward(s)) - s.target).powi(2)))
                    .sum::<f64>()
            })
            .collect::<Vec<_>>()
            .iter()
            .sum();
        total / samples.len() as f64
    }

    /// The quantised net.
    pub fn quantise(&self) -> Network {
        let q = |value: f32, scale: i32| {
            (value * scale as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        Network {
            input_weights: self.params[..B1].iter().map(|&w| q(w, QA)).collect(),
            input_bias: self.params[B1..W2].iter().map(|&w| q(w, QA)).collect(),
            output_weights: self.params[W2..B2].iter().map(|&w| q(w, QB)).collect(),
            output_bias: (self.params[B2] * (QA * QB) as f32).round() as i32,
        }
    }
}

/// Adam's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
}

impl Adam {
    /// A fresh state.
    pub fn new() -> Adam {
        Adam {
            m: vec![0.0; PARAMS],
            v: vec![0.0; PARAMS],
            steps: 0,
        }
    }

    /// One step along `grad` (a mean gradient); weights stay inside the clip the quantised
    /// sums need.
    fn step(&mut self, net: &mut FloatNet, grad: &[f32], lr: f32) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        self.steps += 1;
        let correction1 = 1.0 - BETA1.powi(self.steps.min(i32::MAX as u64) as i32);
        let correction2 = 1.0 - BETA2.powi(self.steps.min(i32::MAX as u64) as i32);
        let m = &mut self.m;
        let v = &mut self.v;
        net.params
            .par_iter_mut()
            .zip(m.par_iter_mut())
            .zip(v.par_iter_mut())
            .zip(grad.par_iter())
            .enumerate()
            .for_each(|(i, (((p, m), v), g))| {
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                *p -= lr * (*m / correction1) / ((*v / correction2).sqrt() + 1e-8);
                if i < B2 {
                    *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
                }
            });
    }
}

impl Default for Adam {
    fn default() -> Self {
        Adam::new()
    }
}

/// Trains one epoch over `samples` in the order of `order`; returns the mean training loss.
pub fn train_epoch(
    net: &mut FloatNet,
    adam: &mut Adam,
    samples: &[Sample],
    order: &[usize],
    batch: usize,
    lr: f32,
) -> f64 {
    let mut total = 0.0f64;
    for chunk in order.chunks(batch.max(1)) {
        let slice_len = chunk.len().div_ceil(SLICES);
        let net_ref = &*net;
        let parts: Vec<(Vec<f32>, f64)> = chunk
            .par_chunks(slice_len.max(1))
            .map(|slice| {
                let mut grad = vec![0.0f32; PARAMS];
                let mut loss = 0.0f64;
                for &index in slice {
                    loss += f64::from(net_ref.backward(&samples[index], &mut grad));
                }
                (grad, loss)
            })
            .collect();
        let mut grad = vec![0.0f32; PARAMS];
        for (part, loss) in &parts {
            total += loss;
            for (g, p) in grad.iter_mut().zip(part) {
                *g += p;
            }
        }
        let scale = 1.0 / chunk.len() as f32;
        grad.iter_mut().for_each(|g| *g *= scale);
        adam.step(net, &grad, lr);
    }
    total / order.len().max(1) as f64
}

/// Whether a game goes to validation.
pub fn is_validation(file: usize, game: u32, seed: u64, percent: u32) -> bool {
    let mut rng = SplitMix::new(seed ^ ((file as u64) << 32 | u64::from(game)) ^ 0x5eed);
    (rng.next_u64() % 100) < u64::from(percent)
}

/// Writes a checkpoint: the float net, Adam's state and the epochs done.
pub fn save_checkpoint(
    path: &Path,
    net: &FloatNet,
    adam: &Adam,
    epochs_done: u32,
) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(12 * PARAMS + 32);
    bytes.extend_from_slice(&CHECKPOINT_MAGIC);
    for word in [CHECKPOINT_VERSION, PARAMS as u32, epochs_done] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(&adam.steps.to_le_bytes());
    for value in net.params.iter().chain(&adam.m).chain(&adam.v) {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    let temporary = path.with_extension("tmp");
    std::fs::File::create(&temporary)
        .and_then(|mut file| file.write_all(&bytes))
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a checkpoint written by [`save_checkpoint`].
pub fn load_checkpoint(path: &Path) -> Result<(FloatNet, Adam, u32), String> {
    let name = path.display();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut file| file.read_to_end(&mut bytes))
        .map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() < 24 || bytes[..4] != CHECKPOINT_MAGIC {
        return Err(format!("{name}: not a tuzdik training checkpoint"));
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if word(4) != CHECKPOINT_VERSION || word(8) != PARAMS as u32 {
        return Err(format!(
            "{name}: checkpoint version {} with {} parameters; this build needs version {CHECKPOINT_VERSION} with {PARAMS}",
            word(4),
            word(8)
        ));
    }
    if bytes.len() != 24 + 12 * PARAMS {
        return Err(format!(
            "{name}: {} bytes, a checkpoint has {}",
            bytes.len(),
            24 + 12 * PARAMS
        ));
    }
    let epochs_done = word(12);
    let mut steps = [0u8; 8];
    steps.copy_from_slice(&bytes[16..24]);
    let mut floats = bytes[24..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let params = floats.by_ref().take(PARAMS).collect();
    let m = floats.by_ref().take(PARAMS).collect();
    let v = floats.collect();
    Ok((
        FloatNet { params },
        Adam {
            m,
            v,
            steps: u64::from_le_bytes(steps),
        },
        epochs_done,
    ))
}

/// Reads the data, trains, writes the checkpoint after every epoch (`OUT.ckpt`) and the
/// quantised net at the end; returns the report (one line per epoch).
pub fn run(options: &TrainOptions) -> Result<String, String> {
    if options.data.is_empty() {
        return Err("no data: give --data FILE".to_string());
    }
    if options.val_percent >= 100 {
        return Err(format!(
            "--val-percent {} leaves nothing to train on (use 0..99)",
            options.val_percent
        ));
    }
    if options.batch == 0
        || options.lr.is_nan()
        || options.lr <= 0.0
        || !(0.0..=1.0).contains(&options.lambda)
    {
        return Err("--batch must be at least 1, --lr above 0 and --lambda in 0..1".to_string());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| e.to_string())?;
    pool.install(|| run_in_pool(options))
}

fn run_in_pool(options: &TrainOptions) -> Result<String, String> {
    let mut train = Vec::new();
    let mut validation = Vec::new();
    for (file, path) in options.data.iter().enumerate() {
        for record in data::read_file(path)? {
            let sample = Sample::from_record(&record, options.lambda);
            if is_validation(file, record.game, options.seed, options.val_percent) {
                validation.push(sample);
            } else {
                train.push(sample);
            }
        }
    }
    if train.is_empty() {
        return Err("no training positions in the data".to_string());
    }
    let (mut net, mut adam, mut done) = match &options.resume {
        Some(path) => load_checkpoint(path)?,
        None => (FloatNet::seeded(options.seed), Adam::new(), 0),
    };
    let mut report = format!(
        "train: {} training positions, {} validation positions, {INPUTS}x{HIDDEN} net\n",
        train.len(),
        validation.len()
    );
    eprint!("{report}");
    let checkpoint = options.out.with_extension("ckpt");
    while (done as usize) < options.epochs {
        let started = Instant::now();
        let mut order: Vec<usize> = (0..train.len()).collect();
        let mut rng =
            SplitMix::new(options.seed ^ u64::from(done).wrapping_mul(0x2545_f491_4f6c_dd1d));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let train_loss = train_epoch(
            &mut net,
            &mut adam,
            &train,
            &order,
            options.batch,
            options.lr,
        );
        let seconds = started.elapsed().as_secs_f64();
        let validation_loss = net.loss(&validation);
        done += 1;
        let line = format!(
            "epoch {done}: train loss {train_loss:.6}, validation loss {validation_loss:.6}, {:.0} positions/s\n",
            train.len() as f64 / seconds.max(1e-9)
        );
        eprint!("{line}");
        report.push_str(&line);
        save_checkpoint(&checkpoint, &net, &adam, done)?;
    }
    let quantised = net.quantise();
    quantised.save(&options.out).map_err(|e| e.to_string())?;
    report.push_str(&format!(
        "wrote {} (hash {:016x}), checkpoint {}\n",
        options.out.display(),
        quantised.hash(),
        checkpoint.display()
    ));
    Ok(report)
}
