//! `tuzdik tune`: fits the evaluation weights to game results (Texel's method).
//!
//! Positions are sampled from finished games (PlayOK records, `tuzdik match` PGNs and
//! self-play games made here), each resolved to a quiet leaf by a short capture search and
//! labelled with the game's result for the leaf's side to move (1, ½ or 0). The model is
//! `P(win) = sigmoid(K * eval / 100)` with `eval` the weighted sum of the features of
//! [`crate::search::eval`]: first `K` is fitted to the current weights, then the weights by
//! logistic regression (Newton's method on the mean cross-entropy, which is convex in the
//! weights), and finally everything is rescaled so that a kazan stone is worth 100 again
//! (the search's unit). Games go to the training or the validation set by the seed; given the
//! same inputs and seed every figure and weight is the same. See `docs/tune.md`.

// The fit is small dense linear algebra, clearest with indices.
#![allow(clippy::needless_range_loop)]

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::game::Game;
use crate::matchrun::openings;
use crate::moves::Move;
use crate::position::{Position, Side};
use crate::record::{Outcome, Record};
use crate::rng::SplitMix;
use crate::search::eval::{
    self, FEATURES, Feature, TABLE_COUNTS, TABLE_HOLES, Weights, table_feature,
};
use crate::search::{self, Engine, Limits};
use crate::variant::Variant;

/// The options of a run.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// PGN files to read.
    pub files: Vec<PathBuf>,
    /// The seed of the sampling, the split and the self-play openings.
    pub seed: u64,
    /// Positions sampled from each game (at most).
    pub positions_per_game: usize,
    /// Plies at the start of each game never sampled (book moves).
    pub skip_plies: usize,
    /// Self-play games to generate first (0: none).
    pub selfplay: usize,
    /// Nodes per move of the self-play searches.
    pub selfplay_nodes: u64,
    /// Where the self-play games are written (PGN), when there are any.
    pub selfplay_out: Option<PathBuf>,
    /// Newton iterations of the weight fit.
    pub epochs: usize,
    /// Percent of the games kept for validation.
    pub validation_percent: u32,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            files: Vec::new(),
            seed: 1,
            positions_per_game: 10,
            skip_plies: 8,
            selfplay: 0,
            selfplay_nodes: 20_000,
            selfplay_out: None,
            epochs: 20,
            validation_percent: 20,
        }
    }
}

/// One labelled position: its feature differences and the result for its side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Side-to-move-minus-opponent feature values.
    pub x: [f64; FEATURES],
    /// 1 for a win of the side to move, 0.5 for a draw, 0 for a loss.
    pub y: f64,
    /// The indices of the features that are not 0, `present[..present_len]`, in order: the
    /// hole table's features are mostly 0, and the fit's sums skip them.
    present: [u8; FEATURES],
    present_len: u8,
}

const _: () = assert!(FEATURES <= 256);

impl Sample {
    /// A sample of features `x` and label `y`.
    pub fn new(x: [f64; FEATURES], y: f64) -> Sample {
        let mut present = [0; FEATURES];
        let mut present_len = 0;
        for (i, &value) in x.iter().enumerate() {
            if value != 0.0 {
                present[present_len] = i as u8;
                present_len += 1;
            }
        }
        Sample {
            x,
            y,
            present,
            present_len: present_len as u8,
        }
    }

    /// The indices of its features that are not 0, in order.
    fn present(&self) -> &[u8] {
        &self.present[..usize::from(self.present_len)]
    }

    /// Its evaluation under `weights`.
    fn score(&self, weights: &[f64; FEATURES]) -> f64 {
        (self.present().iter())
            .map(|&i| weights[usize::from(i)] * self.x[usize::from(i)])
            .sum()
    }
}

/// The samples of a run, split.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    /// Training samples.
    pub train: Vec<Sample>,
    /// Validation samples.
    pub validation: Vec<Sample>,
    /// Games read.
    pub games: usize,
    /// Games left out: no result, or another variant.
    pub skipped: usize,
    /// Games left out because an earlier one had the same start and moves. A match of an
    /// engine against itself plays each opening twice with the colours swapped, and a
    /// deterministic engine plays the same game both times: kept, the copy would count
    /// twice and could sit in training and validation at once.
    pub duplicates: usize,
    /// The start position and moves of every game taken.
    seen: HashSet<(Position, Vec<Move>)>,
}

/// The result of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The scaling constant fitted to the old weights.
    pub k_before: f64,
    /// The scaling constant with the new weights (kazan normalised to 100).
    pub k_after: f64,
    /// Mean cross-entropy, `[train, validation]`, with the old weights and `k_before`.
    pub before: [f64; 2],
    /// The same with the new weights (unrounded) and `k_after`.
    pub after: [f64; 2],
    /// The same with the new weights rounded to integers.
    pub rounded: [f64; 2],
    /// The new weights, kazan = 100.
    pub weights: [f64; FEATURES],
    /// The training loss after each Newton iteration.
    pub history: Vec<f64>,
    /// Whether the threat weight came out negative and was held at 0 for a second fit of the
    /// others (the search needs it non-negative: see [`eval::THREAT_LIMIT`]).
    pub threat_held: bool,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean cross-entropy of `samples` under `weights` (score units) and `k` (per stone).
pub fn loss(samples: &[Sample], weights: &[f64; FEATURES], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let z = k * s.score(weights) / 100.0;
            // ln(1 + e^z) computed without overflow, then the cross-entropy in logit form.
            let softplus = if z > 0.0 {
                z + (-z).exp().ln_1p()
            } else {
                z.exp().ln_1p()
            };
            softplus - s.y * z
        })
        .sum();
    total / samples.len() as f64
}

/// The gradient of [`loss`] with respect to the weights.
pub fn gradient(samples: &[Sample], weights: &[f64; FEATURES], k: f64) -> [f64; FEATURES] {
    let mut g = [0.0; FEATURES];
    if samples.is_empty() {
        return g;
    }
    let scale = k / 100.0;
    for s in samples {
        let r = sigmoid(scale * s.score(weights)) - s.y;
        for &i in s.present() {
            g[usize::from(i)] += r * scale * s.x[usize::from(i)];
        }
    }
    g.map(|v| v / samples.len() as f64)
}

fn hessian(samples: &[Sample], weights: &[f64; FEATURES], k: f64) -> Vec<[f64; FEATURES]> {
    let mut h = vec![[0.0; FEATURES]; FEATURES];
    let scale = k / 100.0;
    // The hole table's features are indicators, mostly 0 in any one sample: only the pairs of
    // features a sample has add to the sum.
    for s in samples {
        let p = sigmoid(scale * s.score(weights));
        let c = p * (1.0 - p) * scale * scale;
        let present = s.present();
        for (a, &i) in present.iter().enumerate() {
            let i = usize::from(i);
            for &j in &present[..=a] {
                let j = usize::from(j);
                h[i][j] += c * s.x[i] * s.x[j];
            }
        }
    }
    let n = samples.len().max(1) as f64;
    for i in 0..FEATURES {
        for j in 0..=i {
            h[i][j] /= n;
            h[j][i] = h[i][j];
        }
    }
    h
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
/// The rows are taken by slice, so that a large system can live on the heap (`tune`'s
/// Hessian) and a small one in an array (`calibrate`'s models); `a` is left eliminated.
pub(crate) fn solve<const N: usize>(a: &mut [[f64; N]], mut b: [f64; N]) -> Option<[f64; N]> {
    if a.len() != N {
        return None;
    }
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..N {
            let factor = a[row][col] / pivot_row[col];
            for (cell, above) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *cell -= factor * above;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let tail: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    Some(x)
}

/// The `k` in `lo..hi` with the least loss (golden-section search: the loss is convex in `k`).
pub fn fit_k(samples: &[Sample], weights: &[f64; FEATURES]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0, 10.0);
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (loss(samples, weights, a), loss(samples, weights, b));
    for _ in 0..80 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = loss(samples, weights, a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = loss(samples, weights, b);
        }
    }
    (lo + hi) / 2.0
}

/// A ridge on the Hessian's diagonal: features that never vary (a variant without tuzdiks)
/// leave it singular, and the ridge keeps their weight where it was.
const RIDGE: f64 = 1e-9;

/// Fits the weights: `k` for the `start` weights, then `epochs` Newton steps on every weight
/// at that `k` (and `epochs` more if the threat weight must be held at 0), then the
/// rescaling that puts the kazan weight back at 100.
pub fn fit(data: &DataSet, start: &[f64; FEATURES], epochs: usize) -> Result<Fit, String> {
    if data.train.is_empty() {
        return Err("no training positions (no finished games in the inputs?)".to_string());
    }
    let k = fit_k(&data.train, start);
    let before = [
        loss(&data.train, start, k),
        loss(&data.validation, start, k),
    ];
    let mut history = Vec::new();
    let mut w = newton(&data.train, *start, k, epochs, None, &mut history)?;
    // The search takes the board part as a lower bound of the evaluation, so the threat
    // weight must not be negative: where the free fit wants it so, it is held at 0 and the
    // others are fitted again (the constrained optimum of a convex loss lies on that face).
    let threat = Feature::Threat as usize;
    let threat_held = w[threat] < 0.0;
    if threat_held {
        let mut held = *start;
        held[threat] = 0.0;
        w = newton(&data.train, held, k, epochs, Some(threat), &mut history)?;
    }
    let kazan = w[Feature::Kazan as usize];
    if kazan <= 0.0 {
        return Err(format!(
            "the fitted kazan weight is {kazan:.3}: the results do not follow the material"
        ));
    }
    let unit = kazan / 100.0;
    let weights = w.map(|v| v / unit);
    let k_after = k * unit;
    let after = [
        loss(&data.train, &weights, k_after),
        loss(&data.validation, &weights, k_after),
    ];
    let rounded_w = weights.map(f64::round);
    let rounded = [
        loss(&data.train, &rounded_w, k_after),
        loss(&data.validation, &rounded_w, k_after),
    ];
    Ok(Fit {
        k_before: k,
        k_after,
        before,
        after,
        rounded,
        weights,
        history,
        threat_held,
    })
}

/// `epochs` damped Newton steps from `w` at `k`, the weight `held` (if any) kept where it is;
/// each step's training loss is appended to `history`.
fn newton(
    train: &[Sample],
    mut w: [f64; FEATURES],
    k: f64,
    epochs: usize,
    held: Option<usize>,
    history: &mut Vec<f64>,
) -> Result<[f64; FEATURES], String> {
    for _ in 0..epochs {
        let mut g = gradient(train, &w, k);
        let mut h = hessian(train, &w, k);
        for (i, row) in h.iter_mut().enumerate() {
            row[i] += RIDGE;
        }
        if let Some(j) = held {
            // Its row and column out, a unit diagonal and no gradient: its step is 0.
            for i in 0..FEATURES {
                h[i][j] = 0.0;
                h[j][i] = 0.0;
            }
            h[j][j] = 1.0;
            g[j] = 0.0;
        }
        let step = solve(&mut h, g).ok_or("the features are degenerate (singular Hessian)")?;
        // A damped step when the full one does not lower the loss (far from the optimum).
        let current = loss(train, &w, k);
        let mut factor = 1.0;
        let mut next = w;
        for _ in 0..12 {
            for j in 0..FEATURES {
                next[j] = w[j] - factor * step[j];
            }
            if loss(train, &next, k) <= current {
                break;
            }
            factor /= 2.0;
        }
        if loss(train, &next, k) <= current {
            w = next;
        }
        history.push(loss(train, &w, k));
    }
    Ok(w)
}

/// Captures only, to `depth` plies: the quiet leaf reached by best play (stand pat allowed),
/// with its score for the side to move at `pos`.
fn quiet_leaf(pos: &Position, alpha: i32, beta: i32, depth: u32) -> (i32, Position) {
    let stand = eval::evaluate(pos);
    let mut best = (stand, *pos);
    if stand >= beta || depth == 0 {
        return best;
    }
    let mut alpha = alpha.max(stand);
    let mover = pos.side_to_move();
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play(mv);
        if child.kazan(mover) == pos.kazan(mover) || child.is_over() {
            continue;
        }
        let (score, leaf) = quiet_leaf(&child, -beta, -alpha, depth - 1);
        let score = -score;
        if score > best.0 {
            best = (score, leaf);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// How deep the capture search that finds quiet leaves goes.
const QUIET_DEPTH: u32 = 6;

/// The result for `side`, 1 / 0.5 / 0.
fn label(outcome: Outcome, side: Side) -> Option<f64> {
    match (outcome, side) {
        (Outcome::Draw, _) => Some(0.5),
        (Outcome::SouthWins, Side::South) | (Outcome::NorthWins, Side::North) => Some(1.0),
        (Outcome::SouthWins, Side::North) | (Outcome::NorthWins, Side::South) => Some(0.0),
        (Outcome::Unknown, _) => None,
    }
}

/// Samples the positions of one replayed game into `out`.
fn sample_game(
    game: &Game,
    outcome: Outcome,
    options: &TuneOptions,
    rng: &mut SplitMix,
    out: &mut Vec<Sample>,
) {
    let positions = game.positions();
    let mut candidates: Vec<usize> = (options.skip_plies..positions.len()).collect();
    let take = options.positions_per_game.min(candidates.len());
    // A partial Fisher-Yates shuffle: the first `take` are a uniform sample.
    for i in 0..take {
        let j = i + rng.below(candidates.len() - i);
        candidates.swap(i, j);
    }
    let mut chosen = candidates[..take].to_vec();
    chosen.sort_unstable();
    for index in chosen {
        let pos = &positions[index];
        if pos.is_over() {
            continue;
        }
        let (_, leaf) = quiet_leaf(pos, -search::MATE, search::MATE, QUIET_DEPTH);
        if leaf.is_over() {
            continue;
        }
        let Some(y) = label(outcome, leaf.side_to_move()) else {
            continue;
        };
        let diffs = eval::features(&leaf).diffs();
        out.push(Sample::new(diffs.map(f64::from), y));
    }
}

/// Reads one PGN text into `data`; `name` names the file in errors.
pub fn read_games(
    text: &str,
    name: &str,
    options: &TuneOptions,
    rng: &mut SplitMix,
    data: &mut DataSet,
) -> Result<(), String> {
    let records = Record::parse_all(text).map_err(|e| format!("{name}: {e}"))?;
    for (index, record) in records.iter().enumerate() {
        let game = record
            .replay()
            .map_err(|e| format!("{name}: game {} (line {}): {e}", index + 1, record.line))?;
        data.games += 1;
        let outcome = record
            .tag("Result")
            .and_then(Outcome::from_token)
            .or(record.result)
            .unwrap_or(Outcome::Unknown);
        if outcome == Outcome::Unknown || game.variant() != Variant::TOGYZ {
            data.skipped += 1;
            continue;
        }
        if !data.seen.insert((*game.start(), game.moves().to_vec())) {
            data.duplicates += 1;
            continue;
        }
        // The split is by game: positions of one game are alike, and must not sit on both
        // sides of it.
        let validation = rng.below(100) < options.validation_percent as usize;
        let set = if validation {
            &mut data.validation
        } else {
            &mut data.train
        };
        sample_game(&game, outcome, options, rng, set);
    }
    Ok(())
}

/// Plays `count` games of the engine against itself at `nodes` per move, from the built-in
/// openings in an order and with one or two random plies chosen by `seed`, as PGN.
pub fn selfplay(count: usize, nodes: u64, seed: u64) -> Result<String, String> {
    let book = openings::default_for(Variant::TOGYZ)?;
    if book.is_empty() {
        return Err("the built-in opening book is empty".to_string());
    }
    let mut rng = SplitMix::new(seed ^ 0x5e1f_91a7);
    let mut engine = Engine::new();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut pgn = String::new();
    for number in 0..count {
        let mut game = book[rng.below(book.len())].game.clone();
        for _ in 0..1 + rng.below(2) {
            let legal = game.legal_moves();
            if legal.is_empty() || game.termination().is_some() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            game.try_play(mv).map_err(|e| e.to_string())?;
        }
        engine.clear();
        // A game that has not ended after this many plies is left without a result.
        while game.termination().is_none() && game.moves().len() < 600 {
            let outcome = engine.search(&game, &limits, |_| {});
            let Some(mv) = outcome.best else { break };
            game.try_play(mv).map_err(|e| e.to_string())?;
        }
        let result = game
            .termination()
            .map(|_| Outcome::from_status(game.status()));
        let tags = [
            ("Event", "tuzdik tune self-play".to_string()),
            ("Round", (number + 1).to_string()),
            ("White", format!("tuzdik nodes={nodes}")),
            ("Black", format!("tuzdik nodes={nodes}")),
        ];
        let record = Record::from_game(&game, &tags, Some(result.unwrap_or(Outcome::Unknown)));
        let _ = writeln!(pgn, "{record}");
    }
    Ok(pgn)
}

/// The default weights as floats.
pub fn default_weights() -> [f64; FEATURES] {
    Weights::DEFAULT.0.map(f64::from)
}

/// Reads every input (after generating the self-play games), fits, and returns the report.
pub fn run(options: &TuneOptions) -> Result<String, String> {
    if options.files.is_empty() && options.selfplay == 0 {
        return Err("no input: give PGN files or --selfplay N".to_string());
    }
    if options.validation_percent >= 100 {
        return Err(format!(
            "--validation {} leaves nothing to train on (use 0..99)",
            options.validation_percent
        ));
    }
    let mut rng = SplitMix::new(options.seed);
    let mut data = DataSet::default();
    let mut report = String::new();
    for file in &options.files {
        let text = read(file)?;
        read_games(
            &text,
            &file.display().to_string(),
            options,
            &mut rng,
            &mut data,
        )?;
    }
    if options.selfplay > 0 {
        let pgn = selfplay(options.selfplay, options.selfplay_nodes, options.seed)?;
        let name = match &options.selfplay_out {
            Some(path) => {
                std::fs::write(path, &pgn).map_err(|e| format!("{}: {e}", path.display()))?;
                path.display().to_string()
            }
            None => "self-play".to_string(),
        };
        read_games(&pgn, &name, options, &mut rng, &mut data)?;
    }
    let _ = writeln!(
        report,
        "{} games read, {} skipped (no result or another variant), {} duplicates left out; {} \
         training and {} validation positions (seed {}, {} per game, first {} plies skipped)",
        data.games,
        data.skipped,
        data.duplicates,
        data.train.len(),
        data.validation.len(),
        options.seed,
        options.positions_per_game,
        options.skip_plies
    );
    let fit = fit(&data, &default_weights(), options.epochs)?;
    let _ = writeln!(
        report,
        "K fitted to the current weights: {:.6}",
        fit.k_before
    );
    let _ = writeln!(
        report,
        "loss before: train {:.6} validation {:.6}",
        fit.before[0], fit.before[1]
    );
    for (i, l) in fit.history.iter().enumerate() {
        let _ = writeln!(report, "epoch {:>3}: train {l:.6}", i + 1);
    }
    let _ = writeln!(
        report,
        "loss after:  train {:.6} validation {:.6} (K {:.6}); rounded weights: train {:.6} \
         validation {:.6}",
        fit.after[0], fit.after[1], fit.k_after, fit.rounded[0], fit.rounded[1]
    );
    if fit.threat_held {
        let _ = writeln!(
            report,
            "the free fit gave the capture threat a negative weight, which the search cannot \
             take: it is held at 0 and the others fitted again (epochs {}-{} above)",
            options.epochs + 1,
            2 * options.epochs
        );
    }
    let _ = writeln!(report, "\n// parameters::eval, fitted by `tuzdik tune`:");
    for feature in Feature::ALL {
        let w = fit.weights[feature as usize];
        let _ = writeln!(
            report,
            "pub const {}: i32 = {}; // {:.2}, was {}",
            feature.constant(),
            w.round() as i64,
            w,
            Weights::DEFAULT.get(feature)
        );
    }
    let _ = writeln!(
        report,
        "pub const HOLE_TABLE: [[i32; {TABLE_COUNTS}]; {TABLE_HOLES}] = ["
    );
    for hole in 0..TABLE_HOLES {
        let row: Vec<String> = (0..TABLE_COUNTS)
            .map(|count| {
                let w = fit.weights[table_feature(hole, count as u8)];
                (w.round() as i64).to_string()
            })
            .collect();
        let _ = writeln!(report, "    [{}],", row.join(", "));
    }
    let _ = writeln!(report, "];");
    Ok(report)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests;
