//! Net inference benchmarks: bringing the accumulators from one position to the next by the
//! slot-wise incremental update against a full refresh, over the same walk through seeded
//! random Toguz Kumalak games (every ply of each game in order), and the output layer on each
//! instruction set. Run with `cargo bench --bench nnue`; the figures are in docs/nnue.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tuzdik::matchrun::openings::SplitMix;
use tuzdik::nnue::{Accumulator, Network, simd};
use tuzdik::{Game, Position, Variant};

/// The positions of seeded random games, one after another.
fn walk() -> Vec<Position> {
    let mut rng = SplitMix::new(2024);
    let mut positions = Vec::new();
    while positions.len() < 4096 {
        let mut game = Game::new(Variant::TOGYZ);
        loop {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            game.try_play(legal[rng.below(legal.len())])
                .expect("a legal move");
        }
        positions.extend_from_slice(game.positions());
    }
    positions
}

fn accumulators(c: &mut Criterion) {
    let net = Network::seeded(1);
    let positions = walk();
    let mut group = c.benchmark_group("nnue");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_secs(1));
    for path in simd::available() {
        group.bench_function(format!("incremental/{path:?}"), |b| {
            b.iter(|| {
                let mut acc = Accumulator::refresh_with(&net, &positions[0], path);
                for pos in &positions[1..] {
                    acc.update_with(&net, pos, path);
                }
                black_box(acc.values[0][0])
            })
        });
        group.bench_function(format!("refresh/{path:?}"), |b| {
            b.iter(|| {
                let mut sum = 0i32;
                for pos in &positions {
                    let acc = Accumulator::refresh_with(&net, pos, path);
                    sum = sum.wrapping_add(i32::from(acc.values[0][0]));
                }
                black_box(sum)
            })
        });
        let accs: Vec<Accumulator> = positions
            .iter()
            .map(|pos| Accumulator::refresh(&net, pos))
            .collect();
        group.bench_function(format!("output/{path:?}"), |b| {
            b.iter(|| {
                let mut sum = 0i32;
                for (acc, pos) in accs.iter().zip(&positions) {
                    sum = sum.wrapping_add(net.evaluate_with(acc, pos, path));
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, accumulators);
criterion_main!(benches);
