//! Geometric queries: one call of the distance routine, a shape cast and a time of impact, for
//! the cases continuous collision and world queries make most often.
//!
//! Every case is checked first (a hit must hit, a miss must miss) so that the timing measures
//! the path it names. Bodies sit away from the origin and are turned, so the frame changes do
//! real work.

use collision::hull::{make_box, make_square};
use collision::{
    Circle, DistanceInput, Shape, ShapeCastInput, ShapeProxy, SimplexCache, Sweep, ToiState,
    shape_cast, shape_distance, shape_time_of_impact,
};
use core_soa::{Rot, Transform, Vec2};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn placed(x: f32, y: f32, angle: f32) -> Transform {
    Transform::new(Vec2::new(x, y), Rot::from_angle(angle))
}

fn ball(radius: f32) -> Shape {
    Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius,
    })
}

fn bench_distance(c: &mut Criterion) {
    let mut group = c.benchmark_group("distance");
    let input = DistanceInput::from_shapes(
        &Shape::Polygon(make_box(0.5, 0.5).unwrap()),
        placed(12.5, -3.0, 0.3),
        &Shape::Polygon(make_box(0.5, 0.25).unwrap()),
        placed(13.9, -1.8, 1.1),
        true,
    );
    let mut warm = SimplexCache::default();
    assert!(shape_distance(&input, &mut warm).distance > 0.0);
    group.bench_function("boxes_cold", |b| {
        b.iter(|| shape_distance(black_box(&input), &mut SimplexCache::default()))
    });
    group.bench_function("boxes_warm", |b| {
        b.iter(|| shape_distance(black_box(&input), &mut black_box(warm)))
    });
    group.finish();
}

fn bench_shape_cast(c: &mut Criterion) {
    let mut group = c.benchmark_group("shape_cast");
    let wall = Shape::Polygon(make_square(1.0).unwrap());
    let xf = placed(12.5, -3.0, 0.3);
    let proxy = ShapeProxy::from_placed_shape(&ball(0.5), xf.mul(placed(-5.0, 0.3, 0.0)));
    let hit = ShapeCastInput::new(proxy, xf.q.rotate(Vec2::new(10.0, 0.0)));
    assert!(shape_cast(&wall, xf, &hit).is_some());
    group.bench_function("circle_hits_box", |b| {
        b.iter(|| shape_cast(black_box(&wall), black_box(xf), black_box(&hit)))
    });
    let capsule = Shape::Capsule(collision::Capsule {
        center1: Vec2::new(-0.5, 0.0),
        center2: Vec2::new(0.5, 0.0),
        radius: 0.2,
    });
    let passing = ShapeProxy::from_placed_shape(&capsule, xf.mul(placed(-5.0, 1.21, 0.0)));
    let miss = ShapeCastInput::new(passing, xf.q.rotate(Vec2::new(10.0, 0.0)));
    assert!(shape_cast(&wall, xf, &miss).is_none());
    group.bench_function("capsule_misses_corner", |b| {
        b.iter(|| shape_cast(black_box(&wall), black_box(xf), black_box(&miss)))
    });
    group.finish();
}

fn bench_time_of_impact(c: &mut Criterion) {
    let mut group = c.benchmark_group("time_of_impact");
    let wall = Shape::Polygon(make_box(0.01, 1.0).unwrap());
    let wall_sweep = Sweep::stationary(placed(12.0, -3.0, 0.0), Vec2::ZERO);
    let bullet = ball(0.05);
    let bullet_sweep = Sweep::between(
        placed(10.0, -2.7, 0.0),
        placed(10.0 + 200.0 / 60.0, -2.7, 0.0),
        Vec2::ZERO,
    );
    let out = shape_time_of_impact(&wall, &wall_sweep, &bullet, &bullet_sweep, 1.0);
    assert_eq!(out.state, ToiState::Hit);
    group.bench_function("bullet_hits_wall", |b| {
        b.iter(|| {
            shape_time_of_impact(
                black_box(&wall),
                black_box(&wall_sweep),
                black_box(&bullet),
                black_box(&bullet_sweep),
                1.0,
            )
        })
    });
    let floor = Shape::Polygon(make_box(5.0, 0.1).unwrap());
    let floor_sweep = Sweep::stationary(placed(12.0, -3.1, 0.0), Vec2::ZERO);
    let bar = Shape::Polygon(make_box(1.0, 0.01).unwrap());
    let bar_sweep = Sweep::between(
        placed(12.0, -2.5, 0.0),
        placed(12.0, -2.5, 50.0 / 60.0),
        Vec2::ZERO,
    );
    let out = shape_time_of_impact(&floor, &floor_sweep, &bar, &bar_sweep, 1.0);
    assert_eq!(out.state, ToiState::Hit);
    group.bench_function("spinning_bar_hits_floor", |b| {
        b.iter(|| {
            shape_time_of_impact(
                black_box(&floor),
                black_box(&floor_sweep),
                black_box(&bar),
                black_box(&bar_sweep),
                1.0,
            )
        })
    });
    let beside = Sweep::between(
        placed(10.0, -1.8, 0.0),
        placed(10.0 + 200.0 / 60.0, -1.8, 0.0),
        Vec2::ZERO,
    );
    let out = shape_time_of_impact(&wall, &wall_sweep, &bullet, &beside, 1.0);
    assert_eq!(out.state, ToiState::Separated);
    group.bench_function("bullet_passes_wall", |b| {
        b.iter(|| {
            shape_time_of_impact(
                black_box(&wall),
                black_box(&wall_sweep),
                black_box(&bullet),
                black_box(&beside),
                1.0,
            )
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_distance,
    bench_shape_cast,
    bench_time_of_impact
);
criterion_main!(benches);
