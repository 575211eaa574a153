//! Exact overlap of two convex shapes.
//!
//! Two rounded convex shapes overlap exactly when the distance between their cores is at most
//! the sum of their radii; GJK ([`crate::distance`]) answers that directly, and stops early when
//! its simplex encloses the origin (the cores themselves overlap). Touching counts as
//! overlapping. Segments and chain segments are treated as plain two-sided segments: an
//! overlap query asks about geometry, not about which side a chain collides on.
//!
//! A world query built on these first walks a broadphase tree with the query's box and then
//! calls [`proxy_overlaps_shape`] on each candidate, so only shapes whose actual geometry meets
//! the query shape are reported.

use core_soa::Transform;

use crate::distance::{SimplexCache, core_distance};
use crate::proxy::ShapeProxy;
use crate::shapes::Shape;

/// Whether `shape_a` placed by `xf_a` and `shape_b` placed by `xf_b` overlap or touch.
pub fn shapes_overlap(shape_a: &Shape, xf_a: Transform, shape_b: &Shape, xf_b: Transform) -> bool {
    proxies_overlap(
        &ShapeProxy::from_shape(shape_a),
        xf_a,
        &ShapeProxy::from_shape(shape_b),
        xf_b,
    )
}

/// Whether `proxy` (given in world coordinates) overlaps or touches `shape` placed by `xf`.
pub fn proxy_overlaps_shape(proxy: &ShapeProxy, shape: &Shape, xf: Transform) -> bool {
    proxies_overlap(
        &ShapeProxy::from_shape(shape),
        xf,
        proxy,
        Transform::IDENTITY,
    )
}

/// Whether two proxies, each in its body frame placed by a transform, overlap or touch. The
/// test runs in A's frame (see the distance notes on precision).
pub fn proxies_overlap(a: &ShapeProxy, xf_a: Transform, b: &ShapeProxy, xf_b: Transform) -> bool {
    let local_b = b.transformed(xf_a.inv_mul(xf_b));
    let core = core_distance(a, &local_b, &mut SimplexCache::default());
    core.distance <= a.radius() + b.radius()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::segment_distance;
    use crate::hull::{make_box, make_polygon, make_rounded_box, make_square};
    use crate::shapes::{Capsule, ChainSegment, Segment};
    use crate::test_support::{Uniform, circle, horizontal_capsule, placed, segment};
    use core::f32::consts::{FRAC_PI_4, SQRT_2};
    use core_soa::Vec2;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// Checks a pair in both orders and in a rotated, translated frame.
    #[track_caller]
    fn check(a: &Shape, xf_a: Transform, b: &Shape, xf_b: Transform, expected: bool) {
        for frame in [Transform::IDENTITY, placed(-7.0, 3.0, 2.1)] {
            let (xa, xb) = (frame.mul(xf_a), frame.mul(xf_b));
            assert_eq!(shapes_overlap(a, xa, b, xb), expected, "frame {frame:?}");
            assert_eq!(shapes_overlap(b, xb, a, xa), expected, "swapped, {frame:?}");
        }
    }

    #[test]
    fn circles_by_a_millimetre() {
        // Radii 0.5 and 1: touching at a centre distance of 1.5.
        check(
            &circle(0.5),
            Transform::IDENTITY,
            &circle(1.0),
            placed(1.499, 0.0, 0.0),
            true,
        );
        check(
            &circle(0.5),
            Transform::IDENTITY,
            &circle(1.0),
            placed(1.501, 0.0, 0.0),
            false,
        );
        check(
            &circle(0.5),
            Transform::IDENTITY,
            &circle(1.0),
            placed(0.0, 0.0, 0.0),
            true,
        );
    }

    #[test]
    fn polygons_capsules_and_segments() {
        let square = Shape::Polygon(make_square(1.0).unwrap());
        // A diamond (half-extent 0.5 turned 45°) reaches 0.5·√2 to its left: its corner is
        // 1 mm inside or outside the face x = 1.
        let diamond = Shape::Polygon(make_square(0.5).unwrap());
        let reach = 0.5 * SQRT_2;
        check(
            &square,
            Transform::IDENTITY,
            &diamond,
            placed(1.0 + reach - 0.001, 0.6, FRAC_PI_4),
            true,
        );
        check(
            &square,
            Transform::IDENTITY,
            &diamond,
            placed(1.0 + reach + 0.001, 0.6, FRAC_PI_4),
            false,
        );
        // A tilted capsule over the top face: its lower end's surface is
        // `y − 0.5·sin 0.3 − 0.2` high, 1 mm into or above the face.
        let capsule = horizontal_capsule(0.5, 0.2);
        let touching = 1.2 + 0.5 * 0.3f32.sin();
        check(
            &square,
            Transform::IDENTITY,
            &capsule,
            placed(0.3, touching - 0.001, 0.3),
            true,
        );
        check(
            &square,
            Transform::IDENTITY,
            &capsule,
            placed(0.3, touching + 0.001, 0.3),
            false,
        );
        // A segment crossing the square, and one passing beside it.
        check(
            &square,
            Transform::IDENTITY,
            &segment(v(-3.0, 0.5), v(3.0, 0.9)),
            Transform::IDENTITY,
            true,
        );
        check(
            &square,
            Transform::IDENTITY,
            &segment(v(-3.0, 1.1), v(3.0, 1.2)),
            Transform::IDENTITY,
            false,
        );
        // A chain segment overlaps from either side (geometry, not collision).
        let chain = Shape::ChainSegment(ChainSegment {
            ghost1: v(-4.0, 0.5),
            segment: Segment {
                point1: v(-3.0, 0.5),
                point2: v(3.0, 0.5),
            },
            ghost2: v(4.0, 0.5),
            chain_id: 0,
        });
        check(
            &square,
            Transform::IDENTITY,
            &chain,
            Transform::IDENTITY,
            true,
        );
    }

    #[test]
    fn rounded_shapes_count_their_radius() {
        let a = Shape::Polygon(make_rounded_box(1.0, 0.5, 0.1).unwrap());
        let b = Shape::Polygon(make_rounded_box(0.5, 0.5, 0.2).unwrap());
        // Cores 0.29 apart along x: the rounding (0.3) closes the gap.
        check(&a, Transform::IDENTITY, &b, placed(1.79, 0.0, 0.0), true);
        check(&a, Transform::IDENTITY, &b, placed(1.81, 0.0, 0.0), false);
        // Corner to corner: cores (1, 0.5) and (1.3, 0.9) are 0.5 apart, (1, 0.5) and
        // (1.1, 0.7) are √0.05 ≈ 0.22 apart.
        check(&a, Transform::IDENTITY, &b, placed(1.8, 1.4, 0.0), false);
        check(&a, Transform::IDENTITY, &b, placed(1.6, 1.2, 0.0), true);
        let capsule = Shape::Capsule(Capsule {
            center1: v(0.0, -1.0),
            center2: v(0.0, 1.0),
            radius: 0.3,
        });
        // The capsule's core ends at y − 1 and the box's core top is 0.5: they touch when
        // y − 1.5 = 0.1 + 0.3.
        check(
            &a,
            Transform::IDENTITY,
            &capsule,
            placed(0.5, 1.91, 0.0),
            false,
        );
        check(
            &a,
            Transform::IDENTITY,
            &capsule,
            placed(0.5, 1.89, 0.0),
            true,
        );
    }

    #[test]
    fn proxy_queries_use_world_points() {
        let proxy = ShapeProxy::new(&[v(10.0, 10.0), v(11.0, 10.0), v(10.5, 11.0)], 0.0).unwrap();
        let square = Shape::Polygon(make_square(1.0).unwrap());
        assert!(proxy_overlaps_shape(
            &proxy,
            &square,
            placed(11.5, 10.5, 0.0)
        ));
        assert!(!proxy_overlaps_shape(
            &proxy,
            &square,
            placed(13.1, 10.5, 0.0)
        ));
    }

    /// Random polygon pairs against the separating-axis answer (two convex polygons are apart
    /// exactly when an edge normal of one separates them) away from touching, where f32
    /// rounding decides either way.
    #[test]
    fn random_polygons_agree_with_separating_axes() {
        let mut uniform = Uniform::new(5);
        let (mut overlapping, mut apart) = (0, 0);
        for _ in 0..500 {
            let polygon = |uniform: &mut Uniform| loop {
                let points: Vec<Vec2> = (0..6)
                    .map(|_| v(uniform.range(-1.0, 1.0), uniform.range(-1.0, 1.0)))
                    .collect();
                if let Ok(p) = make_polygon(&points, 0.0) {
                    return p;
                }
            };
            let (pa, pb) = (polygon(&mut uniform), polygon(&mut uniform));
            let xf_a = placed(
                uniform.range(-1.5, 1.5),
                uniform.range(-1.5, 1.5),
                uniform.range(-3.0, 3.0),
            );
            let xf_b = placed(
                uniform.range(-1.5, 1.5),
                uniform.range(-1.5, 1.5),
                uniform.range(-3.0, 3.0),
            );
            let world_a: Vec<Vec2> = pa.verts().iter().map(|&p| xf_a.apply(p)).collect();
            let world_b: Vec<Vec2> = pb.verts().iter().map(|&p| xf_b.apply(p)).collect();
            let (separation, gap) = separation_and_gap(&world_a, &world_b);
            if separation.abs() < 1e-4 {
                continue;
            }
            let result = shapes_overlap(&Shape::Polygon(pa), xf_a, &Shape::Polygon(pb), xf_b);
            assert_eq!(
                result,
                separation < 0.0,
                "separation {separation}, gap {gap}"
            );
            if result {
                overlapping += 1;
            } else {
                apart += 1;
            }
        }
        assert!(
            overlapping > 50 && apart > 50,
            "{overlapping} overlapping, {apart} apart"
        );
    }

    /// The largest separation along any edge normal of either polygon (negative: overlapping),
    /// and the smallest edge-to-edge distance.
    fn separation_and_gap(a: &[Vec2], b: &[Vec2]) -> (f32, f32) {
        let edges = |p: &[Vec2]| -> Vec<(Vec2, Vec2)> {
            (0..p.len()).map(|i| (p[i], p[(i + 1) % p.len()])).collect()
        };
        let axis_separation = |from: &[Vec2], other: &[Vec2]| {
            edges(from)
                .into_iter()
                .map(|(p, q)| {
                    let normal = v(q.y - p.y, p.x - q.x).normalize();
                    other
                        .iter()
                        .map(|&w| normal.dot(w - p))
                        .fold(f32::MAX, f32::min)
                })
                .fold(f32::MIN, f32::max)
        };
        let separation = axis_separation(a, b).max(axis_separation(b, a));
        let gap = edges(a)
            .into_iter()
            .flat_map(|(p, q)| edges(b).into_iter().map(move |(r, s)| (p, q, r, s)))
            .map(|(p, q, r, s)| segment_distance(p, q, r, s).distance_squared.sqrt())
            .fold(f32::MAX, f32::min);
        (separation, gap)
    }

    #[test]
    fn boxes_touching_face_to_face_overlap() {
        let a = Shape::Polygon(make_box(1.0, 1.0).unwrap());
        // Exactly touching faces at x = 1 (representable): the cores' distance is 0.
        check(&a, Transform::IDENTITY, &a, placed(2.0, 0.5, 0.0), true);
    }
}
