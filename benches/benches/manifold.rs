//! Contact manifolds: the cost of one `collide` call for the pairs a scene is made of.
//!
//! Each case is a touching pair (so the full path runs: reference face, clipping, two points
//! where the geometry has two), evaluated through the `collide` dispatcher exactly as the
//! World's collide stage calls it, with the bodies placed away from the origin and turned so
//! that the transforms do real work.

use collision::collide::collide;
use collision::hull::{make_box, make_polygon};
use collision::{Capsule, Circle, Shape};
use core_soa::{Rot, Transform, Vec2};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Where the lower body of each pair sits, and its turn (radians).
const BASE_POSITION: Vec2 = Vec2::new(12.5, -3.0);
const BASE_ANGLE: f32 = 0.3;

/// A pair of shapes and their body transforms.
struct Pair {
    name: &'static str,
    shape_a: Shape,
    xf_a: Transform,
    shape_b: Shape,
    xf_b: Transform,
}

/// Builds a pair with B placed at `offset` (turned by `angle`) in A's frame.
fn pair(name: &'static str, shape_a: Shape, shape_b: Shape, offset: Vec2, angle: f32) -> Pair {
    let xf_a = Transform::new(BASE_POSITION, Rot::from_angle(BASE_ANGLE));
    let xf_b = xf_a.mul(Transform::new(offset, Rot::from_angle(angle)));
    Pair {
        name,
        shape_a,
        xf_a,
        shape_b,
        xf_b,
    }
}

/// A regular octagon with flat top and bottom faces, circumradius `r`.
fn octagon(r: f32) -> Shape {
    let points: Vec<Vec2> = (0..8)
        .map(|k| {
            let angle = (22.5f32 + 45.0 * k as f32).to_radians();
            r * Vec2::new(angle.cos(), angle.sin())
        })
        .collect();
    Shape::Polygon(make_polygon(&points, 0.0).expect("a regular octagon is a valid polygon"))
}

fn pairs() -> Vec<Pair> {
    let unit_box = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    let apothem = 0.5 * 22.5f32.to_radians().cos();
    let capsule = Shape::Capsule(Capsule {
        center1: Vec2::new(-0.4, 0.0),
        center2: Vec2::new(0.4, 0.0),
        radius: 0.2,
    });
    vec![
        pair(
            "box_on_box_resting",
            unit_box,
            unit_box,
            Vec2::new(0.1, 0.998),
            0.0,
        ),
        pair(
            "rotated_boxes",
            unit_box,
            unit_box,
            Vec2::new(0.2, 1.05),
            0.35,
        ),
        pair(
            "octagon_on_octagon",
            octagon(0.5),
            octagon(0.5),
            Vec2::new(0.05, 2.0 * apothem - 0.002),
            0.0,
        ),
        pair(
            "circle_circle",
            Shape::Circle(Circle {
                center: Vec2::ZERO,
                radius: 0.5,
            }),
            Shape::Circle(Circle {
                center: Vec2::ZERO,
                radius: 0.5,
            }),
            Vec2::new(0.3, 0.93),
            0.0,
        ),
        pair(
            "capsule_on_box",
            unit_box,
            capsule,
            Vec2::new(0.1, 0.699),
            0.01,
        ),
    ]
}

fn bench_manifolds(c: &mut Criterion) {
    let mut group = c.benchmark_group("manifold");
    for p in pairs() {
        let manifold = collide(&p.shape_a, p.xf_a, &p.shape_b, p.xf_b);
        assert!(
            manifold.point_count > 0,
            "{}: the benchmark pair must touch",
            p.name
        );
        group.bench_function(p.name, |b| {
            b.iter(|| {
                collide(
                    black_box(&p.shape_a),
                    black_box(p.xf_a),
                    black_box(&p.shape_b),
                    black_box(p.xf_b),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_manifolds);
criterion_main!(benches);
