//! Gather and scatter of 8-lane (or `LANES`-lane) bundles of body states at random indices.
//!
//! 10,000 dynamic body states; 1,250 bundles of random indices (an index may repeat across
//! bundles, as bodies do across colours). One iteration gathers every bundle, adds to a
//! velocity (so the data is live) and scatters it back. Divide the time by 1,250 for the cost
//! per bundle (criterion's throughput line reports bundles per second).

use core_soa::{BodyState, Rot, Vec2, body_flags};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use solver_simd::LANES;
use solver_simd::test_support::{BodyStateW, FloatW, gather_lanewise, scatter_lanewise};
use std::hint::black_box;

const STATE_COUNT: usize = 10_000;

/// xorshift64*: a fixed-seed generator, so every run uses the same indices.
fn random_indices(bundles: usize) -> Vec<[u32; LANES]> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    (0..bundles)
        .map(|_| core::array::from_fn(|_| (next() % STATE_COUNT as u64) as u32))
        .collect()
}

fn states() -> Vec<BodyState> {
    (0..STATE_COUNT)
        .map(|k| BodyState {
            linear_velocity: Vec2::new(k as f32, 1.0),
            angular_velocity: 0.5,
            flags: body_flags::DYNAMIC,
            delta_position: Vec2::ZERO,
            delta_rotation: Rot::IDENTITY,
        })
        .collect()
}

fn run(
    states: &mut [BodyState],
    bundles: &[[u32; LANES]],
    gather: impl Fn(&[BodyState], &[u32; LANES]) -> BodyStateW,
    scatter: impl Fn(&mut [BodyState], &[u32; LANES], &BodyStateW),
) {
    let kick = FloatW::splat(1e-3);
    for indices in bundles {
        let mut bundle = gather(states, indices);
        bundle.linear_velocity.x += kick;
        scatter(states, indices, &bundle);
    }
}

fn gather_scatter(c: &mut Criterion) {
    let bundles = random_indices(STATE_COUNT / LANES);
    let mut group = c.benchmark_group("gather_scatter");
    group.throughput(Throughput::Elements(bundles.len() as u64));
    let mut s = states();
    group.bench_function("default", |b| {
        b.iter(|| {
            run(
                black_box(&mut s),
                &bundles,
                solver_simd::test_support::gather,
                solver_simd::test_support::scatter,
            )
        })
    });
    group.bench_function("lanewise", |b| {
        b.iter(|| {
            run(
                black_box(&mut s),
                &bundles,
                gather_lanewise,
                scatter_lanewise,
            )
        })
    });
    group.finish();
    println!("{} bundles of {LANES} lanes per iteration", bundles.len());
}

criterion_group!(benches, gather_scatter);
criterion_main!(benches);
