//! `tuzdik calibrate`: fits the score and win/draw/loss models of
//! [`crate::search::calibration`] on the engine's own games and reports how well they hold on
//! games kept out of the fit.
//!
//! Each sample is one searched position: the side to move's material, the search's internal
//! score, and what the game then really gave that side (the final margin and the result).
//! The models are judged by cross-validation by game, never by position, since the positions
//! of one game are alike: the games fall into [`FOLDS`] folds, and each fold is judged by
//! models fitted on the other folds, so that every game is held out once. (A single held-out
//! fifth of 2,000 games left the win deciles' observed shares about 3 percentage points of
//! sampling noise; judging all of them halves it.)

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::game::Game;
use crate::matchrun::openings;
use crate::record::Record;
use crate::rng::SplitMix;
use crate::search::calibration::{Material, Model};
use crate::search::{self, Engine, Limits, Score};
use crate::variant::Variant;

/// One searched position and what its game gave the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The side to move's material.
    pub material: Material,
    /// The search's internal score (1/100 stone, the side to move's view).
    pub internal: i32,
    /// The side to move's final margin, stones.
    pub final_margin: f64,
    /// Which game it came from (for the split by game).
    pub game: usize,
}

impl Sample {
    fn won(&self) -> bool {
        self.final_margin > 0.0
    }

    fn lost(&self) -> bool {
        self.final_margin < 0.0
    }
}

/// What `tuzdik calibrate` was asked to do.
#[derive(Clone, Debug)]
pub struct CalibrateOptions {
    /// Self-play games to play (in this process, so the scores are the internal ones).
    pub selfplay: usize,
    /// Nodes per move in self-play.
    pub nodes: u64,
    /// Threads playing self-play games side by side (one search thread each).
    pub threads: usize,
    /// Seed of the openings' order and their random plies.
    pub seed: u64,
    /// Opening book (position strings, one a line); the built-in one when absent.
    pub openings: Option<String>,
    /// PGN files whose move comments carry internal scores (`{+3.58/12 ...}`).
    pub pgn: Vec<String>,
    /// Check the built-in models instead of fitting new ones.
    pub check: bool,
    /// Write the self-play games here.
    pub save: Option<String>,
    /// Write every sample here as CSV, for analysis elsewhere.
    pub samples: Option<String>,
    /// Self-play and judge the hand-crafted evaluation ([`Model::HAND_CRAFTED`]) instead of
    /// the built-in net ([`Model::NET`]).
    pub hce: bool,
    /// The score scale `S` of the fit (stones), instead of the built-in model's.
    pub score_scale: Option<f64>,
}

impl CalibrateOptions {
    /// The built-in model of the evaluation calibrated, with `--score-scale` if given.
    pub fn base_model(&self) -> Model {
        let built_in = if self.hce {
            Model::HAND_CRAFTED
        } else {
            Model::NET
        };
        Model {
            score_scale: self.score_scale.unwrap_or(built_in.score_scale),
            ..built_in
        }
    }
}

/// The largest gap between the mean model margin and the mean real margin a score bucket may
/// show, stones (issue 32's bar).
pub const MAX_BUCKET_GAP: f64 = 5.0;
/// The largest gap between predicted and observed win (or loss) share in a decile.
pub const MAX_DECILE_GAP: f64 = 0.05;
/// Buckets with fewer samples than this are shown but not judged.
const MIN_BUCKET: usize = 200;

/// Folds of the cross-validation.
pub const FOLDS: usize = 5;

/// The fold of a game, by a hash of its number (consecutive games are alike in a self-play
/// run that walks an opening book in order).
fn fold_of(game: usize) -> usize {
    ((game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize % FOLDS
}

/// Reads the samples of one game from its positions and scores: `scores[i]` is the score
/// searched in the position before move `i`, if any.
fn samples_of(game: &Game, scores: &[Option<i32>], number: usize, out: &mut Vec<Sample>) {
    let Some(finals) = game.final_scores() else {
        return;
    };
    for (pos, score) in game.positions().iter().zip(scores) {
        let Some(internal) = *score else { continue };
        let mover = pos.side_to_move();
        out.push(Sample {
            material: Material::of(pos),
            internal,
            final_margin: finals[mover.index()] as f64 - finals[mover.opponent().index()] as f64,
            game: number,
        });
    }
}

/// An internal score from a move comment such as `+3.58/12 0.005s`; `None` for anything else
/// (a mate score, no comment).
fn comment_score(comment: &str) -> Option<i32> {
    let head = comment.split('/').next()?.trim();
    let stones: f64 = head.parse().ok()?;
    stones.is_finite().then(|| (stones * 100.0).round() as i32)
}

/// Reads the samples of every finished game in a PGN text.
pub fn read_pgn(text: &str, name: &str, first_game: usize) -> Result<Vec<Sample>, String> {
    let records = Record::parse_all(text).map_err(|e| format!("{name}: {e}"))?;
    let mut out = Vec::new();
    for (index, record) in records.iter().enumerate() {
        let game = record
            .replay()
            .map_err(|e| format!("{name}: game {} (line {}): {e}", index + 1, record.line))?;
        let scores: Vec<Option<i32>> = record
            .moves
            .iter()
            .map(|mv| mv.comment.as_deref().and_then(comment_score))
            .collect();
        samples_of(&game, &scores, first_game + index, &mut out);
    }
    Ok(out)
}

/// A self-play game and the score searched before each of its moves.
type Played = (Game, Vec<Option<i32>>);

/// Plays one self-play game from `start`.
fn play_one(start: Game, nodes: u64, engine: &mut Engine) -> Played {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut game = start;
    let mut scores = vec![None; game.moves().len()];
    engine.clear();
    // A game that has not ended after this many plies gives no samples.
    while game.termination().is_none() && game.moves().len() < 600 {
        let outcome = engine.search(&game, &limits, |_| {});
        let Some(mv) = outcome.best else { break };
        let score = match outcome.last.map(|report| report.score) {
            Some(Score::Cp(cp)) if cp.abs() < search::TABLE_WIN - 200 => Some(cp),
            _ => None,
        };
        if game.try_play(mv).is_err() {
            break;
        }
        scores.push(score);
    }
    (game, scores)
}

/// Plays the self-play games on `threads` threads; returns the samples and, in order, the
/// games as PGN.
pub fn selfplay(options: &CalibrateOptions) -> Result<(Vec<Sample>, String), String> {
    let book = match &options.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            openings::parse(&text, Variant::TOGYZ, path)?
        }
        None => openings::default_for(Variant::TOGYZ)?,
    };
    let mut rng = SplitMix::new(options.seed ^ 0xca11_b7a7_e5c0_9e11);
    // The starts are drawn up front so that the games do not depend on the threads' timing.
    let starts: Vec<Game> = (0..options.selfplay)
        .map(|_| {
            let mut game = book[rng.below(book.len())].game.clone();
            for _ in 0..rng.below(3) {
                let legal = game.legal_moves();
                if legal.is_empty() || game.termination().is_some() {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                if game.try_play(mv).is_err() {
                    break;
                }
            }
            game
        })
        .collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Played>>> = Mutex::new(vec![None; starts.len()]);
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(|| {
                let mut engine = Engine::new();
                if options.hce {
                    engine.set_network(None);
                }
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(start) = starts.get(index) else {
                        break;
                    };
                    let played = play_one(start.clone(), options.nodes, &mut engine);
                    if let Ok(mut results) = results.lock() {
                        results[index] = Some(played);
                    }
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if finished.is_multiple_of(50) || finished == starts.len() {
                        eprintln!("self-play: {finished}/{} games", starts.len());
                    }
                }
            });
        }
    });
    let results = results
        .into_inner()
        .map_err(|_| "a self-play thread panicked".to_string())?;
    let mut samples = Vec::new();
    let mut pgn = String::new();
    for (number, played) in results.into_iter().enumerate() {
        let Some((game, scores)) = played else {
            continue;
        };
        samples_of(&game, &scores, number, &mut samples);
        let result = game
            .termination()
            .map(|_| crate::record::Outcome::from_status(game.status()))
            .unwrap_or(crate::record::Outcome::Unknown);
        let tags = [
            ("Event", "tuzdik calibrate self-play".to_string()),
            ("Round", (number + 1).to_string()),
            ("White", format!("tuzdik nodes={}", options.nodes)),
            ("Black", format!("tuzdik nodes={}", options.nodes)),
        ];
        let mut record = Record::from_game(&game, &tags, Some(result));
        for (mv, score) in record.moves.iter_mut().zip(&scores) {
            mv.comment = score.map(|cp| format!("{:+.2}", cp as f64 / 100.0));
        }
        let _ = writeln!(pgn, "{record}");
    }
    Ok((samples, pgn))
}

/// Minimises `loss` from `start` by damped Newton steps on finite-difference derivatives:
/// the models have four parameters, so the Hessian is cheap and the fit converges in a
/// few dozen steps without a learning rate to choose.
pub fn minimise<const N: usize>(loss: impl Fn(&[f64; N]) -> f64, start: [f64; N]) -> [f64; N] {
    const H: f64 = 1e-4;
    let at = |x: &[f64; N], i: usize, d: f64| {
        let mut y = *x;
        y[i] += d;
        y
    };
    let gradient = |x: &[f64; N]| -> [f64; N] {
        std::array::from_fn(|i| (loss(&at(x, i, H)) - loss(&at(x, i, -H))) / (2.0 * H))
    };
    let mut x = start;
    let mut current = loss(&x);
    let mut damping = 1e-3;
    for _ in 0..200 {
        let g = gradient(&x);
        let hessian: [[f64; N]; N] = std::array::from_fn(|i| {
            let (plus, minus) = (gradient(&at(&x, i, H)), gradient(&at(&x, i, -H)));
            std::array::from_fn(|j| (plus[j] - minus[j]) / (2.0 * H))
        });
        let mut improved = false;
        while damping < 1e9 {
            let mut system = hessian;
            for (i, row) in system.iter_mut().enumerate() {
                row[i] += damping * (1.0 + hessian[i][i].abs());
            }
            let Some(step) = crate::tune::solve(&mut system, g) else {
                damping *= 10.0;
                continue;
            };
            let candidate: [f64; N] = std::array::from_fn(|i| x[i] - step[i]);
            let value = loss(&candidate);
            if value.is_finite() && value < current {
                let gain = current - value;
                x = candidate;
                current = value;
                damping = (damping / 10.0).max(1e-9);
                improved = gain > 1e-12 * current.abs().max(1e-12);
                break;
            }
            damping *= 10.0;
        }
        if !improved {
            break;
        }
    }
    x
}

/// The mean squared error of the margin model, stones².
pub fn margin_loss(model: &Model, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (model.margin(s.internal, &s.material) - s.final_margin).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The mean negative log-likelihood of the win/draw/loss model.
pub fn wdl_loss(model: &Model, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let margin = model.margin(s.internal, &s.material);
            let [win, draw, loss] = model.chances(margin, &s.material);
            let p = if s.won() {
                win
            } else if s.lost() {
                loss
            } else {
                draw
            };
            -p.max(1e-12).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

impl Model {
    /// Fits both models on `samples`, starting from this one's weights and keeping its score
    /// scale.
    pub fn refit(&self, samples: &[Sample]) -> Model {
        let margin = minimise(
            |w| {
                margin_loss(
                    &Model {
                        margin: *w,
                        ..*self
                    },
                    samples,
                )
            },
            self.margin,
        );
        let wdl = minimise(
            |v| {
                wdl_loss(
                    &Model {
                        margin,
                        wdl: *v,
                        ..*self
                    },
                    samples,
                )
            },
            self.wdl,
        );
        Model {
            margin,
            wdl,
            ..*self
        }
    }

    fn sample_margin(&self, s: &Sample) -> f64 {
        let (low, high) = s.material.margin_range();
        self.margin(s.internal, &s.material).clamp(low, high)
    }

    fn sample_chances(&self, s: &Sample) -> [f64; 3] {
        self.chances(self.margin(s.internal, &s.material), &s.material)
    }
}

/// A sample and what a model says of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// The position and what its game gave.
    pub sample: Sample,
    /// The model's margin, stones.
    pub margin: f64,
    /// The model's win, draw and loss chances.
    pub chances: [f64; 3],
}

impl Model {
    /// What this model says of each sample.
    pub fn judge(&self, samples: &[Sample]) -> Vec<Judged> {
        samples
            .iter()
            .map(|&sample| Judged {
                sample,
                margin: self.sample_margin(&sample),
                chances: self.sample_chances(&sample),
            })
            .collect()
    }
}

/// Every sample judged by the model `base` refitted on the other folds' games.
pub fn cross_validate(samples: &[Sample], base: &Model) -> Vec<Judged> {
    let mut judged = Vec::with_capacity(samples.len());
    for fold in 0..FOLDS {
        let (held, fit): (Vec<Sample>, Vec<Sample>) =
            samples.iter().partition(|s| fold_of(s.game) == fold);
        if held.is_empty() {
            continue;
        }
        judged.extend(base.refit(&fit).judge(&held));
    }
    judged
}

/// One score bucket of the calibration table.
#[derive(Clone, Debug, PartialEq)]
pub struct Bucket {
    /// The model margins it holds, stones: `[low, high)`.
    pub range: (f64, f64),
    /// Samples in it.
    pub count: usize,
    /// Mean model margin.
    pub predicted: f64,
    /// Mean real final margin.
    pub observed: f64,
    /// Mean absolute difference of the two, sample by sample.
    pub mean_absolute_error: f64,
    /// Win, draw and loss shares.
    pub outcomes: [f64; 3],
}

/// The bucket edges of the calibration table, stones of model margin.
const EDGES: [f64; 14] = [
    -40.0, -25.0, -15.0, -10.0, -6.0, -3.0, -1.0, 1.0, 3.0, 6.0, 10.0, 15.0, 25.0, 40.0,
];

/// The calibration table of the margin model over judged samples.
pub fn margin_table(judged: &[Judged]) -> Vec<Bucket> {
    let mut buckets: Vec<Bucket> = std::iter::once(f64::NEG_INFINITY)
        .chain(EDGES)
        .zip(EDGES.into_iter().chain(std::iter::once(f64::INFINITY)))
        .map(|range| Bucket {
            range,
            count: 0,
            predicted: 0.0,
            observed: 0.0,
            mean_absolute_error: 0.0,
            outcomes: [0.0; 3],
        })
        .collect();
    for &Judged {
        sample: ref s,
        margin: predicted,
        ..
    } in judged
    {
        let index = EDGES.iter().take_while(|&&edge| predicted >= edge).count();
        let bucket = &mut buckets[index];
        bucket.count += 1;
        bucket.predicted += predicted;
        bucket.observed += s.final_margin;
        bucket.mean_absolute_error += (predicted - s.final_margin).abs();
        let outcome = if s.won() {
            0
        } else if s.lost() {
            2
        } else {
            1
        };
        bucket.outcomes[outcome] += 1.0;
    }
    for bucket in &mut buckets {
        let n = bucket.count.max(1) as f64;
        bucket.predicted /= n;
        bucket.observed /= n;
        bucket.mean_absolute_error /= n;
        bucket.outcomes = bucket.outcomes.map(|x| x / n);
    }
    buckets
}

/// One decile of predicted chances against what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Decile {
    /// Samples in it.
    pub count: usize,
    /// Mean predicted chance.
    pub predicted: f64,
    /// Observed share.
    pub observed: f64,
}

/// The decile table of one outcome (0 win, 2 loss): samples sorted by its predicted chance,
/// cut into ten equal parts.
pub fn decile_table(judged: &[Judged], outcome: usize) -> Vec<Decile> {
    let mut pairs: Vec<(f64, bool)> = judged
        .iter()
        .map(|j| {
            let s = &j.sample;
            let happened = if outcome == 0 { s.won() } else { s.lost() };
            (j.chances[outcome], happened)
        })
        .collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    (0..10)
        .map(|k| {
            let part = &pairs[k * pairs.len() / 10..(k + 1) * pairs.len() / 10];
            let n = part.len().max(1) as f64;
            Decile {
                count: part.len(),
                predicted: part.iter().map(|p| p.0).sum::<f64>() / n,
                observed: part.iter().filter(|p| p.1).count() as f64 / n,
            }
        })
        .collect()
}

/// Whether the judged samples meet the bars: every bucket of enough samples within
/// [`MAX_BUCKET_GAP`], every decile within [`MAX_DECILE_GAP`]; the failures, named.
pub fn failures(judged: &[Judged]) -> Vec<String> {
    let mut failed = Vec::new();
    for b in margin_table(judged) {
        if b.count >= MIN_BUCKET && (b.predicted - b.observed).abs() > MAX_BUCKET_GAP {
            failed.push(format!(
                "bucket [{}, {}): model {:.2} stones, games {:.2} ({} samples)",
                b.range.0, b.range.1, b.predicted, b.observed, b.count
            ));
        }
    }
    for (outcome, name) in [(0, "win"), (2, "loss")] {
        for (k, d) in decile_table(judged, outcome).iter().enumerate() {
            if (d.predicted - d.observed).abs() > MAX_DECILE_GAP {
                failed.push(format!(
                    "{name} decile {}: predicted {:.1}%, observed {:.1}%",
                    k + 1,
                    d.predicted * 100.0,
                    d.observed * 100.0
                ));
            }
        }
    }
    failed
}

/// The report: the weights as Rust constants, then the tables of the judged samples.
/// `fitted` are the samples the models were fitted on (none when the built-in ones are
/// checked), `how` says how the samples were judged.
pub fn report(models: &Model, fitted: &[Sample], judged: &[Judged], how: &str) -> String {
    let mut out = String::new();
    let mut games: Vec<usize> = judged.iter().map(|j| j.sample.game).collect();
    games.sort_unstable();
    games.dedup();
    let _ = writeln!(
        out,
        "{} positions of {} games, {how}.\n",
        judged.len(),
        games.len()
    );
    let _ = writeln!(out, "```rust");
    let _ = writeln!(
        out,
        "Model {{\n    margin: {:?},\n    wdl: {:?},\n    score_scale: {:?},\n}}",
        models.margin, models.wdl, models.score_scale
    );
    let _ = writeln!(out, "```\n");
    let judged_error = judged
        .iter()
        .map(|j| (j.margin - j.sample.final_margin).powi(2))
        .sum::<f64>()
        / judged.len().max(1) as f64;
    if fitted.is_empty() {
        let _ = writeln!(
            out,
            "Margin: mean squared error {judged_error:.1} stones².\n"
        );
    } else {
        let _ = writeln!(
            out,
            "Margin: mean squared error {:.1} stones² on the games fitted, {judged_error:.1} \
             on games held out of the fit.\n",
            margin_loss(models, fitted)
        );
    }
    let _ = writeln!(
        out,
        "| model margin (stones) | positions | mean model margin | mean final margin | gap | mean abs. error | win | draw | loss |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for b in margin_table(judged) {
        let _ = writeln!(
            out,
            "| [{}, {}) | {} | {:+.2} | {:+.2} | {:.2} | {:.1} | {:.1}% | {:.1}% | {:.1}% |",
            b.range.0,
            b.range.1,
            b.count,
            b.predicted,
            b.observed,
            (b.predicted - b.observed).abs(),
            b.mean_absolute_error,
            b.outcomes[0] * 100.0,
            b.outcomes[1] * 100.0,
            b.outcomes[2] * 100.0
        );
    }
    for (outcome, name) in [(0, "win"), (2, "loss")] {
        let _ = writeln!(
            out,
            "\n| {name} decile | positions | predicted | observed | gap |"
        );
        let _ = writeln!(out, "|---:|---:|---:|---:|---:|");
        for (k, d) in decile_table(judged, outcome).iter().enumerate() {
            let _ = writeln!(
                out,
                "| {} | {} | {:.1}% | {:.1}% | {:.1} pp |",
                k + 1,
                d.count,
                d.predicted * 100.0,
                d.observed * 100.0,
                (d.predicted - d.observed).abs() * 100.0
            );
        }
    }
    out
}

/// Runs the command: gathers the samples, fits (or checks), and returns the report and
/// whether the bars are met on the held-out games.
pub fn run(options: &CalibrateOptions) -> Result<(String, bool), String> {
    if options.selfplay == 0 && options.pgn.is_empty() {
        return Err("no games: give --selfplay N or --pgn FILE".to_string());
    }
    if let Some(path) = &options.save {
        std::fs::write(path, "").map_err(|e| format!("--save {path}: {e}"))?;
    }
    let mut samples = Vec::new();
    let mut next_game = 0;
    for path in &options.pgn {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let read = read_pgn(&text, path, next_game)?;
        next_game += Record::parse_all(&text).map(|r| r.len()).unwrap_or(0);
        samples.extend(read);
    }
    if options.selfplay > 0 {
        let (mut played, pgn) = selfplay(options)?;
        for s in &mut played {
            s.game += next_game;
        }
        samples.extend(played);
        if let Some(path) = &options.save {
            std::fs::write(path, pgn).map_err(|e| format!("--save {path}: {e}"))?;
        }
    }
    if let Some(path) = &options.samples {
        let mut csv =
            String::from("game,internal,kazan_margin,on_board,board_share,final_margin\n");
        for s in &samples {
            let m = &s.material;
            let _ = writeln!(
                csv,
                "{},{},{},{},{:.4},{}",
                s.game,
                s.internal,
                m.kazan_margin,
                m.on_board,
                m.board_share(),
                s.final_margin
            );
        }
        std::fs::write(path, csv).map_err(|e| format!("--samples {path}: {e}"))?;
    }
    let games = {
        let mut ids: Vec<usize> = samples.iter().map(|s| s.game).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
    if samples.is_empty() || (!options.check && games < FOLDS) {
        return Err(format!(
            "too few scored games ({games}, with {} positions): play more games",
            samples.len()
        ));
    }
    let base = options.base_model();
    let (models, judged, fitted, how) = if options.check {
        let how = "judged by the built-in models";
        (base, base.judge(&samples), Vec::new(), how)
    } else {
        let how = "each judged by models fitted without its game (5-fold cross-validation)";
        (
            base.refit(&samples),
            cross_validate(&samples, &base),
            samples,
            how,
        )
    };
    let failed = failures(&judged);
    let mut out = report(&models, &fitted, &judged, how);
    if failed.is_empty() {
        let _ = writeln!(out, "\nEvery judged bucket and decile is within the bars.");
    } else {
        let _ = writeln!(out, "\nOutside the bars:");
        for line in &failed {
            let _ = writeln!(out, "- {line}");
        }
    }
    Ok((out, failed.is_empty()))
}

#[cfg(test)]
mod tests;
