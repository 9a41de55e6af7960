//! Perft benchmarks: Toguz Kumalak from the start at depths 6 and 7 on one thread, depth 8 on
//! one and two threads (the parallel divide), and the Kozdatu and Bestemshchi start positions.
//!
//! Run with `cargo bench --bench perft`. Throughput is in leaves, so criterion reports
//! leaves/s. Depth 9 (210,521,787 leaves, about a quarter of a second) is left to the
//! command line: `cargo run --release --example p9 9`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tuzdik::perft::{PerftOptions, perft, perft_with};
use tuzdik::{Family, Position, Variant};

fn togyz(c: &mut Criterion) {
    let start = Position::start(Variant::TOGYZ);
    let mut group = c.benchmark_group("perft/togyz");
    for (depth, leaves, samples) in [(6, 360_035u64, 50), (7, 3_003_052, 20)] {
        assert_eq!(perft(&start, depth), leaves);
        group.throughput(Throughput::Elements(leaves));
        group.sample_size(samples);
        group.bench_with_input(BenchmarkId::new("1 thread", depth), &depth, |b, &depth| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();
}

fn threads(c: &mut Criterion) {
    let start = Position::start(Variant::TOGYZ);
    let stop = AtomicBool::new(false);
    let depth = 8;
    let leaves = perft(&start, depth);
    let mut group = c.benchmark_group("perft/togyz-8");
    group.throughput(Throughput::Elements(leaves));
    group.sample_size(10);
    for threads in [1, 2] {
        let options = PerftOptions {
            threads,
            cache_entries: 0,
        };
        group.bench_with_input(
            BenchmarkId::new("threads", threads),
            &options,
            |b, options| {
                b.iter(|| {
                    let n = perft_with(black_box(&start), depth, options, &stop).unwrap();
                    assert_eq!(n, leaves);
                    n
                })
            },
        );
    }
    group.finish();
}

fn small_families(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft/small");
    group.sample_size(20);
    for (family, depth) in [(Family::Kozdatu, 8), (Family::Bestemshchi, 10)] {
        let start = Position::start(Variant::new(family));
        let leaves = perft(&start, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(
            BenchmarkId::new(family.name(), depth),
            &depth,
            |b, &depth| b.iter(|| perft(black_box(&start), depth)),
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = togyz, threads, small_families
}
criterion_main!(benches);
