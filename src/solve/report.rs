//! What a build reports: each level's histogram of values, times, check and memory.

use std::time::Duration;

use rayon::prelude::*;

use super::level::SolveTimes;
use super::verify::Verification;

/// How many entries of each value a level has: `bins[v + 50]` for value `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// Counts by value + 50.
    pub bins: Vec<u64>,
}

impl Histogram {
    /// Counts the values of a level.
    pub fn of(values: &[u8]) -> Histogram {
        let bins = values
            .par_chunks(1 << 16)
            .map(|chunk| {
                let mut bins = vec![0u64; 101];
                for &v in chunk {
                    bins[(i32::from(v as i8) + 50) as usize] += 1;
                }
                bins
            })
            .reduce(
                || vec![0u64; 101],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                    a
                },
            );
        Histogram { bins }
    }

    /// One line: the shares of negative, zero and positive values, the mean and the range.
    pub fn summary(&self) -> String {
        let total: u64 = self.bins.iter().sum();
        if total == 0 {
            return "empty".to_string();
        }
        let share = |range: std::ops::Range<usize>| -> f64 {
            self.bins[range].iter().sum::<u64>() as f64 * 100.0 / total as f64
        };
        let sum: i128 = self
            .bins
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as i128 - 50) * i128::from(n))
            .sum();
        let low = self.bins.iter().position(|&n| n > 0).unwrap_or(50) as i32 - 50;
        let high = self.bins.iter().rposition(|&n| n > 0).unwrap_or(50) as i32 - 50;
        format!(
            "values <0 {:.2}%, =0 {:.2}%, >0 {:.2}%, mean {:+.3}, range {low}..{high}",
            share(0..50),
            share(50..51),
            share(51..101),
            sum as f64 / total as f64
        )
    }
}

/// The process's resident memory and its peak, in bytes (Linux; `None` elsewhere).
pub fn memory_usage() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|line| line.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// What happened to one level.
#[derive(Clone, Debug)]
pub struct LevelReport {
    /// Stones on the board.
    pub stones: u32,
    /// Boards in the level.
    pub entries: u64,
    /// Solve times (`None` when the level was loaded from its file).
    pub solved: Option<SolveTimes>,
    /// Time to read or to write the file.
    pub file_time: Duration,
    /// The check against the children, when asked for.
    pub verification: Option<Verification>,
    /// Time of that check.
    pub verify_time: Duration,
    /// The values.
    pub histogram: Histogram,
    /// Resident memory and peak after the level.
    pub memory: Option<(u64, u64)>,
}
