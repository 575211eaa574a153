//! Dynamic AABB tree: box queries, re-inserting moves and ray casts on 10,000 proxies.
//!
//! The layout is random: boxes of 0.5..1.5 m scattered over a 250 m square (about 16% of the
//! area covered, so a small query finds a few proxies, as a broadphase pair query does). Every
//! measured call works on inputs drawn in advance from a fixed-seed generator, cycled so that
//! consecutive iterations touch different parts of the tree.

use collision::Aabb;
use collision::tree::{AABB_MARGIN, DynamicTree};
use core_soa::Vec2;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const PROXY_COUNT: usize = 10_000;
const WORLD: f32 = 250.0;
/// Inputs per benchmark, cycled; a power of two so the index wraps with a mask.
const INPUTS: usize = 4096;

/// SplitMix64, for reproducible layouts.
struct Rng(u64);

impl Rng {
    fn next_f32(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }

    fn point(&mut self, extent: f32) -> Vec2 {
        Vec2::new(self.next_f32() * extent, self.next_f32() * extent)
    }

    fn unit_direction(&mut self) -> Vec2 {
        Vec2::from_angle(self.next_f32() * std::f32::consts::TAU)
    }
}

fn box_at(min: Vec2, size: Vec2) -> Aabb {
    Aabb::new(min, min + size)
}

/// The tree and each proxy's tight box.
fn random_tree(rng: &mut Rng) -> (DynamicTree, Vec<(u32, Aabb)>) {
    let mut tree = DynamicTree::new(AABB_MARGIN);
    let proxies = (0..PROXY_COUNT as u64)
        .map(|i| {
            let size = Vec2::new(0.5 + rng.next_f32(), 0.5 + rng.next_f32());
            let tight = box_at(rng.point(WORLD), size);
            (tree.create_proxy(tight, 1, i), tight)
        })
        .collect();
    (tree, proxies)
}

fn bench_query(c: &mut Criterion) {
    let mut rng = Rng(1);
    let (tree, _) = random_tree(&mut rng);
    let queries: Vec<Aabb> = (0..INPUTS)
        .map(|_| box_at(rng.point(WORLD), Vec2::ONE))
        .collect();
    let mut next = 0;
    c.bench_function("tree/query_1m_box", |b| {
        b.iter(|| {
            next = (next + 1) & (INPUTS - 1);
            let mut hits = 0u32;
            tree.query(black_box(&queries[next]), u64::MAX, |_, _| {
                hits += 1;
                true
            });
            black_box(hits)
        })
    });
}

fn bench_move(c: &mut Criterion) {
    let mut rng = Rng(2);
    let (mut tree, proxies) = random_tree(&mut rng);
    // Each proxy alternates between its home and a spot 1..5 m away: every move leaves the
    // fat box (it shifts the box by at least 0.7 m on one axis, far beyond the 0.1 m margin).
    let away: Vec<Aabb> = proxies
        .iter()
        .map(|&(_, tight)| {
            let offset = rng.unit_direction() * (1.0 + 4.0 * rng.next_f32());
            Aabb::new(tight.min + offset, tight.max + offset)
        })
        .collect();
    let mut step = 0usize;
    c.bench_function("tree/move_proxy_reinsert", |b| {
        b.iter(|| {
            step += 1;
            let index = step % PROXY_COUNT;
            let (proxy, home) = proxies[index];
            let target = if (step / PROXY_COUNT).is_multiple_of(2) {
                away[index]
            } else {
                home
            };
            black_box(tree.move_proxy(proxy, black_box(target)))
        })
    });
}

/// The fraction at which the segment enters `aabb`, for the closest-hit callback.
fn entry_fraction(aabb: &Aabb, origin: Vec2, translation: Vec2, max_fraction: f32) -> f32 {
    let (mut enter, mut exit) = (0.0f32, max_fraction);
    for axis in 0..2 {
        let inverse = 1.0 / translation[axis];
        let t_lo = (aabb.min[axis] - origin[axis]) * inverse;
        let t_hi = (aabb.max[axis] - origin[axis]) * inverse;
        enter = enter.max(t_lo.min(t_hi));
        exit = exit.min(t_lo.max(t_hi));
    }
    if enter <= exit { enter } else { -1.0 }
}

fn bench_ray_cast(c: &mut Criterion) {
    let mut rng = Rng(3);
    let (tree, _) = random_tree(&mut rng);
    // 50 m rays from random points in random directions.
    let rays: Vec<(Vec2, Vec2)> = (0..INPUTS)
        .map(|_| (rng.point(WORLD), rng.unit_direction() * 50.0))
        .collect();
    let mut next = 0;
    c.bench_function("tree/ray_cast_closest_50m", |b| {
        b.iter(|| {
            next = (next + 1) & (INPUTS - 1);
            let (origin, translation) = rays[next];
            let mut closest = 1.0f32;
            tree.ray_cast(
                origin,
                translation,
                1.0,
                u64::MAX,
                |o, t, max_fraction, proxy, _| {
                    let fraction = entry_fraction(&tree.fat_aabb(proxy), o, t, max_fraction);
                    if fraction >= 0.0 {
                        closest = closest.min(fraction);
                    }
                    fraction
                },
            );
            black_box(closest)
        })
    });
    c.bench_function("tree/ray_cast_all_hits_50m", |b| {
        b.iter(|| {
            next = (next + 1) & (INPUTS - 1);
            let (origin, translation) = rays[next];
            let mut hits = 0u32;
            tree.ray_cast(
                origin,
                translation,
                1.0,
                u64::MAX,
                |_, _, max_fraction, _, _| {
                    hits += 1;
                    max_fraction
                },
            );
            black_box(hits)
        })
    });
}

criterion_group!(tree_benches, bench_query, bench_move, bench_ray_cast);
criterion_main!(tree_benches);
