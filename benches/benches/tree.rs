//! Dynamic AABB tree: box queries, re-inserting moves and ray casts on 10,000 proxies, and a
//! whole broadphase step in which every proxy moves.
//!
//! The layout is random: boxes of 0.5..1.5 m scattered over a 250 m square (about 16% of the
//! area covered, so a small query finds a few proxies, as a broadphase pair query does). Every
//! measured call works on inputs drawn in advance from a fixed-seed generator, cycled so that
//! consecutive iterations touch different parts of the tree.
//!
//! The step benchmark imitates a grid of swinging bodies: 100 × 100 boxes of 0.5 m on a 1 m
//! grid, each circling its home point on a radius of 0.3 m at 0.5 rad per step, so every box
//! travels a chord of `2 · 0.3 · sin(0.25) ≈ 0.148 m` per step, just beyond the 0.1 m margin.
//! One measured step moves all 10,000 proxies (in id order, as a world finalizing its bodies
//! would) and then queries the tree with every moved proxy's fat box, as the pair update does.

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

/// Grid side, swing radius and angular step of the swinging-grid step benchmark.
const GRID_SIDE: usize = 100;
const SWING_RADIUS: f32 = 0.3;
const SWING_STEP: f32 = 0.5;

/// The swinging grid at step `step`: the tight box of each body, by body index.
fn swinging_boxes(phases: &[f32], step: usize, out: &mut Vec<Aabb>) {
    out.clear();
    out.extend(phases.iter().enumerate().map(|(i, &phase)| {
        let home = Vec2::new((i % GRID_SIDE) as f32, (i / GRID_SIDE) as f32);
        let centre = home + Vec2::from_angle(phase + SWING_STEP * step as f32) * SWING_RADIUS;
        Aabb::new(centre - Vec2::splat(0.25), centre + Vec2::splat(0.25))
    }));
}

/// Moves every proxy of the grid to its box, then queries every proxy's fat box; returns the
/// number of moved proxies and of query hits.
fn swinging_step(tree: &mut DynamicTree, proxies: &[u32], boxes: &[Aabb]) -> (u32, u32) {
    let moved = move_all(tree, proxies, boxes);
    (moved, query_all(tree, proxies))
}

/// As `swinging_step`, with `rebuild_enlarged` between the moves and the queries.
fn swinging_step_with_rebuild(
    tree: &mut DynamicTree,
    proxies: &[u32],
    boxes: &[Aabb],
) -> (u32, u32) {
    let moved = move_all(tree, proxies, boxes);
    tree.rebuild_enlarged();
    (moved, query_all(tree, proxies))
}

fn move_all(tree: &mut DynamicTree, proxies: &[u32], boxes: &[Aabb]) -> u32 {
    let mut moved = 0u32;
    for (&proxy, &tight) in proxies.iter().zip(boxes) {
        moved += u32::from(tree.move_proxy(proxy, tight));
    }
    moved
}

fn query_all(tree: &DynamicTree, proxies: &[u32]) -> u32 {
    let mut hits = 0u32;
    for &proxy in proxies {
        let fat = tree.fat_aabb(proxy);
        tree.query(&fat, u64::MAX, |_, _| {
            hits += 1;
            true
        });
    }
    hits
}

fn bench_swinging_grid_step(c: &mut Criterion) {
    let mut rng = Rng(4);
    let phases: Vec<f32> = (0..GRID_SIDE * GRID_SIDE)
        .map(|_| rng.next_f32() * std::f32::consts::TAU)
        .collect();
    let mut boxes = Vec::new();
    swinging_boxes(&phases, 0, &mut boxes);
    let mut tree = DynamicTree::new(AABB_MARGIN);
    let proxies: Vec<u32> = (0..boxes.len() as u64)
        .map(|i| tree.create_proxy(boxes[i as usize], 1, i))
        .collect();
    // The motion never repeats exactly, so each iteration draws its boxes from the step index.
    let mut step = 0usize;
    c.bench_function("tree/swinging_grid_step_move_10k_then_query", |b| {
        b.iter(|| {
            step += 1;
            swinging_boxes(&phases, step, &mut boxes);
            black_box(swinging_step(&mut tree, &proxies, &boxes))
        })
    });
    // The same step with the enlarged part rebuilt once after the moves, before the queries,
    // as a broadphase that tightens the tree once per step would do.
    c.bench_function("tree/swinging_grid_step_move_10k_rebuild_then_query", |b| {
        b.iter(|| {
            step += 1;
            swinging_boxes(&phases, step, &mut boxes);
            black_box(swinging_step_with_rebuild(&mut tree, &proxies, &boxes))
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

criterion_group!(
    tree_benches,
    bench_query,
    bench_move,
    bench_ray_cast,
    bench_swinging_grid_step
);
criterion_main!(tree_benches);
