//! Search benchmarks: the per-node work of the search (the move scan with its predicted
//! gains, the static evaluation, a table probe) and a whole fixed-depth search.
//!
//! The node count per second of the whole search is `tuzdik bench`'s; these isolate its
//! parts.
//!
//! Run with `cargo bench --bench search`. The per-node benchmarks walk a fixed list of
//! positions from seeded random Toguz Kumalak games (openings, middle games and endgames in a
//! fixed mix); throughput is per position, so criterion reports positions/s directly.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tuzdik::position::gains::{Scan, ring_words};
use tuzdik::rng::SplitMix;
use tuzdik::search::tt::{Bound, TranspositionTable};
use tuzdik::search::{Engine, Limits, eval};
use tuzdik::{Game, Position, Variant};

/// How many positions the per-node benchmarks walk through.
const SAMPLES: usize = 4096;

/// Positions with a legal move from random games (random length up to 120 plies).
fn samples(variant: Variant) -> Vec<Position> {
    let mut rng = SplitMix::new(0x7475_7A64_696B);
    let mut list = Vec::with_capacity(SAMPLES);
    while list.len() < SAMPLES {
        let mut pos = Position::start(variant);
        for _ in 0..rng.below(120) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if pos.legal_mask() != 0 {
            list.push(pos);
        }
    }
    list
}

fn per_node(c: &mut Criterion) {
    let list = samples(Variant::TOGYZ);
    let mut group = c.benchmark_group("node");
    group.throughput(Throughput::Elements(list.len() as u64));
    // The predicted gain of every legal move.
    group.bench_function("scan", |b| {
        b.iter(|| {
            for pos in &list {
                black_box(Scan::new(black_box(pos)));
            }
        })
    });
    // The evaluation less its threat term, which needs no scan: what most nodes near the
    // horizon pay before they stop.
    group.bench_function("board score", |b| {
        b.iter(|| {
            for pos in &list {
                black_box(eval::board_score(pos, &ring_words(black_box(pos))));
            }
        })
    });
    // The whole evaluation, scan included.
    group.bench_function("scan+evaluate", |b| {
        b.iter(|| {
            for pos in &list {
                black_box(eval::evaluate(black_box(pos)));
            }
        })
    });
    group.finish();

    // Probes of a 16 MiB table at keys spread over all of it, a third of them hits: nearly
    // every probe misses the cache, as in a search. Throughput is per probe.
    let mut group = c.benchmark_group("table");
    let tt = TranspositionTable::new(16);
    let mut rng = SplitMix::new(0x5EED);
    let keys: Vec<u64> = (0..1 << 20).map(|_| rng.next_u64()).collect();
    for &key in keys.iter().step_by(3) {
        tt.store(key, 1, 1, None, Bound::Exact, 4);
    }
    group.throughput(Throughput::Elements(keys.len() as u64));
    group.bench_function("probe 16 MiB", |b| {
        b.iter(|| {
            for &key in &keys {
                black_box(tt.probe(black_box(key)));
            }
        })
    });
    group.finish();
}

/// A fixed-depth search from the Toguz start on one thread, table cleared each time.
fn fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    let mut engine = Engine::new();
    let game = Game::new(Variant::TOGYZ);
    let limits = Limits {
        depth: Some(14),
        ..Limits::default()
    };
    group.bench_function("startpos depth 14", |b| {
        b.iter(|| {
            engine.clear();
            black_box(engine.search(&game, &limits, |_| {}).nodes)
        })
    });
    group.finish();
}

criterion_group!(benches, per_node, fixed_depth);
criterion_main!(benches);
