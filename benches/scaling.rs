//! Perft from the Toguz Kumalak start on 1 and 2 threads, interleaved, with medians: the
//! figures behind the threading target (about 1.8x on two cores at depths 9 and 10), and the
//! single-thread perft 9 time.
//!
//! Not a criterion benchmark: the runs are too long for criterion's sampling, and 1- and
//! 2-thread runs must alternate so that other load on the machine hits both alike.
//!
//! ```text
//! cargo bench --bench scaling            # depth 9, 7 runs of each
//! cargo bench --bench scaling -- 9 10 5  # depths 9 and 10, 5 runs of each
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tuzdik::perft::{PerftOptions, perft, perft_with};
use tuzdik::{Position, Variant};

/// Depths, then runs: `9 10 5` is depths 9 and 10, 5 runs each. Flags (`--bench`) are
/// ignored. With no numbers: depth 9, 7 runs.
fn parse() -> (Vec<u32>, usize) {
    let numbers: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    match numbers.as_slice() {
        [] => (vec![9], 7),
        [depth] => (vec![*depth], 7),
        [depths @ .., runs] => (depths.to_vec(), *runs as usize),
    }
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let (depths, runs) = parse();
    let start = Position::start(Variant::TOGYZ);
    let stop = AtomicBool::new(false);
    for depth in depths {
        let mut plain = Vec::new();
        let mut threads = [Vec::new(), Vec::new()];
        let mut leaves = 0;
        for _ in 0..runs {
            let clock = Instant::now();
            leaves = perft(&start, depth);
            plain.push(clock.elapsed().as_secs_f64());
            for (count, times) in threads.iter_mut().enumerate() {
                let options = PerftOptions {
                    threads: count + 1,
                    cache_entries: 0,
                };
                let clock = Instant::now();
                let n = perft_with(&start, depth, &options, &stop).expect("perft");
                times.push(clock.elapsed().as_secs_f64());
                assert_eq!(n, leaves);
            }
        }
        let plain = median(plain);
        let [one, two] = threads.map(median);
        println!("perft {depth} = {leaves} (medians of {runs} runs)");
        println!(
            "  perft():        {:9.1} ms  {:7.1} M leaves/s",
            plain * 1e3,
            leaves as f64 / plain / 1e6
        );
        println!(
            "  1 thread:       {:9.1} ms  {:7.1} M leaves/s",
            one * 1e3,
            leaves as f64 / one / 1e6
        );
        println!(
            "  2 threads:      {:9.1} ms  {:7.1} M leaves/s  speedup {:.2}x",
            two * 1e3,
            leaves as f64 / two / 1e6,
            one / two
        );
    }
}
