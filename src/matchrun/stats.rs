//! Match statistics: the score, logistic Elo with a 95% interval (from the game results, or
//! from colour-swapped game pairs), normalised Elo, and the pentanomial SPRT.
//!
//! Conventions:
//! - Everything is from the first engine's (A's) point of view.
//! - *Logistic Elo* `E` belongs to an expected score `s = 1 / (1 + 10^(-E/400))`.
//! - *Normalised Elo* `nElo = (s - 1/2) / sigma * 800 / ln 10`, with `sigma` the standard
//!   deviation of one game's score; for pairs, `sigma` is `sqrt(2)` times the pair score's
//!   deviation, so that both forms agree for independent games. It is what the SPRT's
//!   `elo0`/`elo1` are expressed in (as fishtest and OpenBench do today).
//! - The SPRT is the generalised SPRT over the five outcomes of a game pair (A's pair score
//!   0, 1/2, 1, 3/2, 2): the log-likelihood ratio of the two most likely pentanomial
//!   distributions whose normalised Elo is `elo1` and `elo0`. An outcome never seen counts
//!   as 0.001 of a pair so that the logarithms stay finite.

use std::fmt;

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: normalised Elo per unit of the t-value.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The fewest games for which an Elo interval is given: below it the normal approximation
/// behind the interval is not worth printing (four games can all be draws and show
/// "0 +/- 0"), so the figures say "too few games" instead.
pub const MIN_GAMES_FOR_INTERVAL: u64 = 10;

/// Why no interval is given: too few games, or every game (or pair) ended alike, which
/// leaves no variance to build one from.
fn interval_refusal(units: u64, least: u64, unit: &str, variance: f64) -> Option<String> {
    if units < least {
        Some(format!(
            "too few {unit}s for an interval ({units} of at least {least})"
        ))
    } else if variance <= 0.0 {
        Some(format!("no interval: all {units} {unit}s ended alike"))
    } else {
        None
    }
}

/// What an outcome never observed counts as, in the SPRT.
const UNSEEN: f64 = 1e-3;

/// Logistic Elo of an expected score (infinite at 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function: its Taylor series up to |x| = 3, the asymptotic series of erfc
/// beyond (absolute error below 1e-7 everywhere, plenty for a LOS percentage).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let value = if z <= 3.0 {
        // erf z = 2/sqrt(pi) * sum (-1)^n z^(2n+1) / (n! (2n+1))
        let mut term = z; // (-1)^n z^(2n+1) / n!
        let mut sum = z;
        for n in 1..100 {
            term *= -z * z / n as f64;
            let next = term / (2 * n + 1) as f64;
            sum += next;
            if next.abs() < 1e-17 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        let inv = 1.0 / (2.0 * z * z);
        let series = 1.0 - inv + 3.0 * inv * inv - 15.0 * inv * inv * inv;
        1.0 - (-z * z).exp() / (z * std::f64::consts::PI.sqrt()) * series
    };
    if x < 0.0 { -value } else { value }
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The point estimate.
    pub elo: f64,
    /// Half the width of the 95% interval.
    pub margin: f64,
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} +/- {}", number(self.elo, 1), number(self.margin, 1))
    }
}

/// A number with `decimals`, or `inf`/`-inf`/`nan`.
pub fn number(value: f64, decimals: usize) -> String {
    // Rounding to zero prints "0.0", never "-0.0".
    let scale = 10f64.powi(decimals as i32);
    let value = if (value * scale).round() == 0.0 {
        0.0
    } else {
        value
    };
    if value.is_nan() {
        "nan".to_string()
    } else if value.is_infinite() {
        if value > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{value:.decimals$}")
    }
}

/// Mean and variance of a discrete distribution given as `(value, probability)`.
fn mean_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let variance = pdf.iter().map(|(a, p)| p * (a - mean) * (a - mean)).sum();
    (mean, variance)
}

/// Logistic Elo and its interval from a mean score, its per-unit variance and the number
/// of units (games or pairs).
fn logistic_estimate(mean: f64, variance: f64, units: f64) -> Estimate {
    let se = (variance / units).sqrt();
    let low = elo_of_score(mean - Z95 * se);
    let high = elo_of_score(mean + Z95 * se);
    Estimate {
        elo: elo_of_score(mean),
        margin: (high - low) / 2.0,
    }
}

/// Wins, losses and draws of engine A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games A won.
    pub wins: u64,
    /// Games A lost.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Trinomial {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// A's score per game (0..1); 0.5 before any game.
    pub fn score(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / games as f64
    }

    /// Logistic Elo with a 95% interval from the per-game variance; `Err` says why there
    /// is none (fewer than [`MIN_GAMES_FOR_INTERVAL`] games, or every game alike).
    ///
    /// ```
    /// use tuzdik::matchrun::stats::Trinomial;
    /// let four_draws = Trinomial { wins: 0, losses: 0, draws: 4 };
    /// assert!(four_draws.elo().unwrap_err().contains("too few games"));
    /// let t = Trinomial { wins: 6, losses: 4, draws: 2 };
    /// assert!(t.elo().is_ok());
    /// ```
    pub fn elo(&self) -> Result<Estimate, String> {
        let games = self.games();
        let n = games.max(1) as f64;
        let pdf = [
            (1.0, self.wins as f64 / n),
            (0.0, self.losses as f64 / n),
            (0.5, self.draws as f64 / n),
        ];
        let (mean, variance) = mean_variance(&pdf);
        match interval_refusal(games, MIN_GAMES_FOR_INTERVAL, "game", variance) {
            Some(why) => Err(why),
            None => Ok(logistic_estimate(mean, variance, n)),
        }
    }

    /// Likelihood of superiority: the chance that A is the stronger, from wins and losses.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// Share of drawn games.
    pub fn draw_ratio(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            0.0
        } else {
            self.draws as f64 / games as f64
        }
    }
}

/// Counts of A's pair scores 0, 1/2, 1, 3/2 and 2 over colour-swapped game pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds a pair from A's two game scores in half points (0 loss, 1 draw, 2 win).
    pub fn add(&mut self, first_half_points: u8, second_half_points: u8) {
        let index = usize::from(first_half_points.min(2) + second_half_points.min(2));
        self.0[index] += 1;
    }

    fn pdf(&self, regularise: bool) -> (f64, [(f64, f64); 5]) {
        let counts = self.0.map(|c| {
            if regularise && c == 0 {
                UNSEEN
            } else {
                c as f64
            }
        });
        let n: f64 = counts.iter().sum::<f64>().max(1.0);
        let mut pdf = [(0.0, 0.0); 5];
        for (i, slot) in pdf.iter_mut().enumerate() {
            *slot = (i as f64 / 4.0, counts[i] / n);
        }
        (n, pdf)
    }

    /// Logistic Elo with a 95% interval from the pair variance; `Err` says why there is
    /// none (fewer than half [`MIN_GAMES_FOR_INTERVAL`] pairs, or every pair alike).
    pub fn elo(&self) -> Result<Estimate, String> {
        let (n, pdf) = self.pdf(false);
        let (mean, variance) = mean_variance(&pdf);
        match interval_refusal(self.pairs(), MIN_GAMES_FOR_INTERVAL / 2, "pair", variance) {
            Some(why) => Err(why),
            None => Ok(logistic_estimate(mean, variance, n)),
        }
    }

    /// Normalised Elo with a 95% interval; `Err` as for [`Pentanomial::elo`] (every pair
    /// alike also leaves no variance to normalise by).
    pub fn normalized_elo(&self) -> Result<Estimate, String> {
        let (n, pdf) = self.pdf(false);
        let (mean, variance) = mean_variance(&pdf);
        if let Some(why) =
            interval_refusal(self.pairs(), MIN_GAMES_FOR_INTERVAL / 2, "pair", variance)
        {
            return Err(why);
        }
        let t = (mean - 0.5) / (2.0 * variance).sqrt();
        Ok(Estimate {
            elo: t * NELO_PER_T,
            margin: Z95 * NELO_PER_T / (2.0 * n).sqrt(),
        })
    }

    /// The generalised log-likelihood ratio of "normalised Elo = `elo1`" against
    /// "normalised Elo = `elo0`" (0 before any pair).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let (n, pdf) = self.pdf(true);
        // The t-value of a pair is sqrt(2) times that of a game.
        let t0 = elo0 / NELO_PER_T * std::f64::consts::SQRT_2;
        let t1 = elo1 / NELO_PER_T * std::f64::consts::SQRT_2;
        let q0 = most_likely_with_t(&pdf, 0.5, t0);
        let q1 = most_likely_with_t(&pdf, 0.5, t1);
        n * pdf
            .iter()
            .zip(q0.iter().zip(&q1))
            .map(|((_, p), (a, b))| p * (b.ln() - a.ln()))
            .sum::<f64>()
    }
}

/// The root `x` of `sum p_i g_i / (1 + x g_i) = 0` with every `1 + x g_i > 0`. The sum
/// falls strictly in `x`, from `+inf` to `-inf` over that interval, so bisection finds it.
/// `None` when every `g_i` has the same sign (no such root).
fn lagrange_root(p: &[f64], g: &[f64]) -> Option<f64> {
    let most = g.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let least = g.iter().copied().fold(f64::INFINITY, f64::min);
    if most <= 0.0 || least >= 0.0 {
        return None;
    }
    let (mut low, mut high) = (-1.0 / most, -1.0 / least);
    let f = |x: f64| -> f64 { p.iter().zip(g).map(|(p, g)| p * g / (1.0 + x * g)).sum() };
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some(0.5 * (low + high))
}

/// The distribution on the same outcomes closest to `pdf` in likelihood whose t-value
/// `(mean - reference) / deviation` equals `t`.
///
/// Maximising `sum p_i ln q_i` under that constraint gives (Lagrange) `q_i = p_i / (1 + x g_i)`
/// with `g_i` the constraint's gradient at `q`, shifted to have mean 0 under `q`:
/// `g_i = a_i - reference - t sigma (1 + ((a_i - mu) / sigma)^2) / 2`. As `g` depends on `q`
/// this is iterated to a fixed point, each step solving for `x` exactly.
fn most_likely_with_t(pdf: &[(f64, f64); 5], reference: f64, t: f64) -> [f64; 5] {
    let p: Vec<f64> = pdf.iter().map(|(_, p)| *p).collect();
    let mut q: [f64; 5] = [0.0; 5];
    for (slot, (_, p)) in q.iter_mut().zip(pdf) {
        *slot = *p;
    }
    for _ in 0..1000 {
        let current: Vec<(f64, f64)> = pdf.iter().zip(&q).map(|((a, _), q)| (*a, *q)).collect();
        let (mu, variance) = mean_variance(&current);
        let sigma = variance.sqrt().max(1e-12);
        let g: Vec<f64> = pdf
            .iter()
            .map(|(a, _)| {
                let z = (a - mu) / sigma;
                a - reference - t * sigma * (1.0 + z * z) / 2.0
            })
            .collect();
        let Some(x) = lagrange_root(&p, &g) else {
            break;
        };
        let mut next = [0.0; 5];
        for i in 0..5 {
            next[i] = p[i] / (1.0 + x * g[i]);
        }
        let change = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if change < 1e-13 {
            break;
        }
    }
    q
}

/// The SPRT's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Normalised Elo of the null hypothesis.
    pub elo0: f64,
    /// Normalised Elo of the alternative.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound is crossed.
    Continue,
    /// The lower bound is crossed: H0 (`elo0`) is accepted.
    H0,
    /// The upper bound is crossed: H1 (`elo1`) is accepted.
    H1,
}

impl Sprt {
    /// Parses `elo0=E0,elo1=E1[,alpha=A,beta=B]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut elo0 = None;
        let mut elo1 = None;
        let mut alpha = 0.05;
        let mut beta = 0.05;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{part}' is not key=value"))?;
            let number: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt: {key}: '{value}' is not a number"))?;
            match key.trim().to_ascii_lowercase().as_str() {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                other => {
                    return Err(format!(
                        "--sprt: unknown key '{other}' (expected elo0, elo1, alpha, beta)"
                    ));
                }
            }
        }
        let elo0 = elo0.ok_or("--sprt: elo0 is missing")?;
        let elo1 = elo1.ok_or("--sprt: elo1 is missing")?;
        if elo1 <= elo0 {
            return Err(format!("--sprt: elo1 ({elo1}) must be above elo0 ({elo0})"));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(format!(
                    "--sprt: {name} ({value}) must lie strictly between 0 and 0.5"
                ));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower and upper LLR bounds (Wald's): `ln(beta / (1 - alpha))`,
    /// `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for an LLR.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_and_score_invert_each_other() {
        for elo in [-400.0, -35.0, 0.0, 10.0, 191.0] {
            assert!(close(elo_of_score(score_of_elo(elo)), elo, 1e-9));
        }
        // By hand: a 0.75 score is 400 log10(3) = 190.85 Elo.
        assert!(close(elo_of_score(0.75), 190.848_501_887_864_9, 1e-9));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }

    #[test]
    fn trinomial_figures() {
        // 60 wins, 40 losses: s = 0.6, per-game variance 0.24, se = sqrt(0.0024);
        // Elo 70.44, interval (Elo(0.6 + 1.96 se) - Elo(0.6 - 1.96 se)) / 2 = 70.57.
        let t = Trinomial {
            wins: 60,
            losses: 40,
            draws: 0,
        };
        let e = t.elo().unwrap();
        assert!(close(e.elo, 70.436_503_622, 1e-6), "{e:?}");
        assert!(close(e.margin, 70.571_179_894, 1e-6), "{e:?}");
        // LOS = Phi(20 / sqrt(100)) = Phi(2) = 0.97725.
        assert!(close(t.los(), 0.977_249_868, 1e-6));
        let t = Trinomial {
            wins: 30,
            losses: 20,
            draws: 50,
        };
        let e = t.elo().unwrap();
        assert!(close(e.elo, 34.860_070_288, 1e-6), "{e:?}");
        assert!(close(e.margin, 48.470_228_060, 1e-6), "{e:?}");
        assert!(close(t.draw_ratio(), 0.5, 1e-12));
        assert!(Trinomial::default().elo().is_err());
        // Four draws used to print "0.0 +/- 0.0"; enough games, all alike, have no interval.
        let four = Trinomial {
            wins: 0,
            losses: 0,
            draws: 4,
        };
        assert!(four.elo().unwrap_err().contains("too few games"));
        let alike = Trinomial {
            wins: 0,
            losses: 0,
            draws: 40,
        };
        assert!(
            alike
                .elo()
                .unwrap_err()
                .contains("all 40 games ended alike")
        );
        assert!(
            Pentanomial([0, 0, 3, 0, 0])
                .elo()
                .unwrap_err()
                .contains("too few pairs")
        );
        assert!(Pentanomial([0, 0, 9, 0, 0]).normalized_elo().is_err());
    }

    #[test]
    fn pentanomial_figures() {
        // Mean pair score 0.4875, variance 0.05859375 (computed by hand), 100 pairs.
        let p = Pentanomial([10, 20, 40, 25, 5]);
        let e = p.elo().unwrap();
        assert!(close(e.elo, -8.687_699_877, 1e-6), "{e:?}");
        assert!(close(e.margin, 34.987_123_905, 1e-6), "{e:?}");
        let n = p.normalized_elo().unwrap();
        assert!(close(n.elo, -12.001_963_149, 1e-6), "{n:?}");
        assert!(close(n.margin, 48.151_230_669, 1e-6), "{n:?}");
        let mut q = Pentanomial::default();
        q.add(2, 0);
        q.add(1, 1);
        q.add(2, 2);
        assert_eq!(q.0, [0, 0, 2, 0, 1]);
    }

    #[test]
    fn llr_matches_an_independent_solver() {
        // Figures from a separate Newton solve of the full constrained-likelihood (KKT)
        // system in Python, unseen outcomes counted as 0.001.
        let cases = [
            ([10, 20, 40, 25, 5], 0.0, 5.0, -0.120_462_104_7),
            ([3, 60, 150, 70, 5], 0.0, 5.0, 0.320_748_636_6),
            ([0, 5, 10, 5, 0], -5.0, 5.0, 0.0),
            ([50, 400, 1000, 450, 60], 0.0, 2.0, 0.637_374_505_0),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = Pentanomial(counts).llr(elo0, elo1);
            assert!(
                close(llr, expected, 1e-6),
                "{counts:?}: {llr} vs {expected}"
            );
        }
        assert_eq!(Pentanomial::default().llr(0.0, 5.0), 0.0);
    }

    #[test]
    fn sprt_parses_and_decides() {
        let sprt = Sprt::parse("elo0=0,elo1=5").unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979, 1e-6));
        assert!(close(upper, 2.944_438_979, 1e-6));
        assert_eq!(sprt.state(3.0), SprtState::H1);
        assert_eq!(sprt.state(-3.0), SprtState::H0);
        assert_eq!(sprt.state(0.0), SprtState::Continue);
        let sprt = Sprt::parse("elo0=-1.5, elo1=2.5, alpha=0.1, beta=0.2").unwrap();
        assert_eq!((sprt.alpha, sprt.beta), (0.1, 0.2));
        for bad in [
            "elo0=0",
            "elo0=5,elo1=0",
            "elo0=0,elo1=x",
            "elo0=0,elo1=5,gamma=1",
            "elo0",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn erf_is_accurate_enough() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert_eq!(number(-0.0001, 1), "0.0");
        assert_eq!(number(-0.06, 1), "-0.1");
        assert_eq!(number(f64::INFINITY, 1), "inf");
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_877_8, 2e-7));
        assert!(close(erf(2.9), 0.999_958_902_1, 1e-7));
        assert!(close(erf(3.2), 0.999_993_974_2, 1e-7));
        assert!(close(erf(-8.0), -1.0, 1e-12));
    }
}
