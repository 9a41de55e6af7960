//! Rules benchmarks: making moves (with and without the incremental Zobrist key), the key
//! recomputed from scratch, a search-like tree walk with the key kept both ways, and legal
//! move generation.
//!
//! Run with `cargo bench --bench rules`. Every benchmark works through the same fixed list of
//! positions (and, for makes, one legal move each) taken from seeded random Toguz Kumalak
//! games, so the figures cover openings, middle games and the long sowings of endgames in a
//! fixed mix. Throughput is per position (or move), so criterion reports makes/s and
//! generations/s directly; per-item times are the reported time divided by the list length.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tuzdik::position::bench_api;
use tuzdik::{Move, Position, Side, Variant};

/// How many (position, move) pairs the benchmarks walk through.
const SAMPLES: usize = 4096;

/// A small deterministic generator (xorshift64*), so that every run benches the same list.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Positions from random games (random length up to 120 plies), each with a random legal move.
fn samples(variant: Variant) -> Vec<(Position, Move)> {
    let mut rng = Rng(0x7475_7A64_696B);
    let mut list = Vec::with_capacity(SAMPLES);
    while list.len() < SAMPLES {
        let mut pos = Position::start(variant);
        let plies = rng.below(120);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        let moves = pos.legal_moves();
        if !moves.is_empty() {
            list.push((pos, moves[rng.below(moves.len())]));
        }
    }
    list
}

fn make(c: &mut Criterion) {
    let list = samples(Variant::TOGYZ);
    let mut group = c.benchmark_group("make");
    group.throughput(Throughput::Elements(list.len() as u64));
    // The full make: sowing, captures, tuzdik, side to move and the incremental key.
    group.bench_function("hashed", |b| {
        b.iter(|| {
            for (pos, mv) in &list {
                let mut child = *pos;
                black_box(child.play_unchecked(*mv));
                black_box(&child);
            }
        })
    });
    // The same without the key (what perft uses).
    group.bench_function("unhashed", |b| {
        b.iter(|| {
            for (pos, mv) in &list {
                let mut child = *pos;
                black_box(bench_api::play_unhashed(
                    &mut child,
                    u32::from(mv.source().unwrap() - 1),
                ));
                black_box(&child);
            }
        })
    });
    // Unhashed make followed by a key computed from scratch: what the make would cost if
    // the key were recomputed instead of updated.
    group.bench_function("unhashed+compute_key", |b| {
        b.iter(|| {
            for (pos, mv) in &list {
                let mut child = *pos;
                black_box(bench_api::play_unhashed(
                    &mut child,
                    u32::from(mv.source().unwrap() - 1),
                ));
                black_box(child.compute_key());
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("key");
    group.throughput(Throughput::Elements(list.len() as u64));
    group.bench_function("compute_key", |b| {
        b.iter(|| {
            for (pos, _) in &list {
                black_box(black_box(pos).compute_key());
            }
        })
    });
    group.finish();
}

/// Every make of a depth-`depth` tree with the incremental key (no bulk counting: each leaf
/// is made too), summing the keys so that none is optimised away.
fn walk_hashed(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return pos.key();
    }
    let mut sum = 0u64;
    let mut mask = pos.legal_mask();
    while mask != 0 {
        let bit = mask.trailing_zeros();
        mask &= mask - 1;
        let mut child = *pos;
        child.play_unchecked(Move::hole(bit as u8 + 1));
        sum = sum.wrapping_add(walk_hashed(&child, depth - 1));
    }
    sum
}

/// The same tree with the key recomputed from scratch after each unhashed make.
fn walk_recomputed(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return pos.compute_key();
    }
    let mut sum = 0u64;
    let mut mask = pos.legal_mask();
    while mask != 0 {
        let bit = mask.trailing_zeros();
        mask &= mask - 1;
        let mut child = *pos;
        bench_api::play_unhashed(&mut child, bit);
        sum = sum.wrapping_add(walk_recomputed(&child, depth - 1));
    }
    sum
}

/// The same tree with no key at all (the baseline the two above add to).
fn walk_unhashed(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return u64::from(pos.kazan(Side::South));
    }
    let mut sum = 0u64;
    let mut mask = pos.legal_mask();
    while mask != 0 {
        let bit = mask.trailing_zeros();
        mask &= mask - 1;
        let mut child = *pos;
        bench_api::play_unhashed(&mut child, bit);
        sum = sum.wrapping_add(walk_unhashed(&child, depth - 1));
    }
    sum
}

/// Makes along a search-like tree walk (perft 5 from the start, every node made): the key
/// kept incrementally, the key recomputed at every node, and no key.
fn walk(c: &mut Criterion) {
    let start = Position::start(Variant::TOGYZ);
    let depth = 5;
    let makes: u64 = (1..=depth).map(|d| tuzdik::perft::perft(&start, d)).sum();
    assert_eq!(walk_hashed(&start, depth), walk_recomputed(&start, depth));
    let mut group = c.benchmark_group("walk5");
    group.throughput(Throughput::Elements(makes));
    group.bench_function("incremental key", |b| {
        b.iter(|| walk_hashed(black_box(&start), depth))
    });
    group.bench_function("recomputed key", |b| {
        b.iter(|| walk_recomputed(black_box(&start), depth))
    });
    group.bench_function("no key", |b| {
        b.iter(|| walk_unhashed(black_box(&start), depth))
    });
    group.finish();
}

fn movegen(c: &mut Criterion) {
    let list = samples(Variant::TOGYZ);
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(list.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            for (pos, _) in &list {
                black_box(black_box(pos).legal_moves());
            }
        })
    });
    group.bench_function("legal_mask", |b| {
        b.iter(|| {
            for (pos, _) in &list {
                black_box(black_box(pos).legal_mask());
            }
        })
    });
    group.bench_function("legal_count", |b| {
        b.iter(|| {
            for (pos, _) in &list {
                black_box(black_box(pos).legal_count());
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = make, walk, movegen
}
criterion_main!(benches);
