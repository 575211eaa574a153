//! Distance tests against hand-computed closest points.
//!
//! Each case is written in a canonical frame where the answer is easy to see, then evaluated
//! under several world frames (rotated and translated, the expected points and normal moved
//! with them) and with the two shapes in both orders (points exchanged, normal reversed).

use super::*;
use crate::hull::{make_box, make_polygon, make_rounded_box, make_square};
use crate::shapes::{Capsule, ChainSegment, Circle, Polygon, Segment};
use crate::test_support::{
    Uniform, assert_close, assert_vec_close, circle, horizontal_capsule, placed, segment,
};
use core::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_2, SQRT_2};
use core_soa::Rot;

/// f32 coordinates of magnitude up to ~50 (the farthest test frame) carry about 4e-6 of
/// rounding each; a few operations deep, 3e-5 is comfortably above it.
const TOLERANCE: f32 = 3e-5;

struct Case {
    a: Shape,
    xf_a: Transform,
    b: Shape,
    xf_b: Transform,
    use_radii: bool,
    distance: f32,
    /// Expected unit normal A→B (zero for overlapping cores), if it is unique.
    normal: Option<Vec2>,
    /// Expected closest points, if they are unique.
    points: Option<(Vec2, Vec2)>,
}

fn frames() -> [Transform; 4] {
    [
        Transform::IDENTITY,
        placed(3.0, -2.0, 0.7),
        placed(-40.0, 25.0, 2.5),
        placed(0.5, 0.25, -1.9),
    ]
}

fn run(a: &Shape, xf_a: Transform, b: &Shape, xf_b: Transform, radii: bool) -> DistanceOutput {
    let input = DistanceInput::from_shapes(a, xf_a, b, xf_b, radii);
    shape_distance(&input, &mut SimplexCache::default())
}

#[track_caller]
fn check(case: &Case) {
    for frame in frames() {
        let (xf_a, xf_b) = (frame.mul(case.xf_a), frame.mul(case.xf_b));
        for swapped in [false, true] {
            let out = if swapped {
                run(&case.b, xf_b, &case.a, xf_a, case.use_radii)
            } else {
                run(&case.a, xf_a, &case.b, xf_b, case.use_radii)
            };
            let what = format!("frame {frame:?}, swapped {swapped}");
            assert_close(out.distance, case.distance, TOLERANCE, &what);
            let sign = if swapped { -1.0 } else { 1.0 };
            if let Some(normal) = case.normal {
                let expected = sign * frame.q.rotate(normal);
                assert_vec_close(out.normal, expected, TOLERANCE, &what);
            }
            if let Some((pa, pb)) = case.points {
                let (pa, pb) = (frame.apply(pa), frame.apply(pb));
                let (pa, pb) = if swapped { (pb, pa) } else { (pa, pb) };
                assert_vec_close(out.point_a, pa, TOLERANCE, &what);
                assert_vec_close(out.point_b, pb, TOLERANCE, &what);
            }
            if case.distance > 0.0 {
                let gap = out.point_b - out.point_a;
                assert_vec_close(gap, out.distance * out.normal, TOLERANCE, &what);
            }
        }
    }
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn polygon(p: Polygon) -> Shape {
    Shape::Polygon(p)
}

#[test]
fn circle_and_circle() {
    let offset_circle = Shape::Circle(Circle {
        center: v(0.5, 0.0),
        radius: 1.0,
    });
    // Centres (0, 0) and (3, 4): 5 apart, 3.5 between the surfaces.
    check(&Case {
        a: circle(0.5),
        xf_a: Transform::IDENTITY,
        b: offset_circle,
        xf_b: placed(2.5, 4.0, 0.0),
        use_radii: true,
        distance: 3.5,
        normal: Some(v(0.6, 0.8)),
        points: Some((v(0.3, 0.4), v(2.4, 3.2))),
    });
    // The same without radii: between the centres.
    check(&Case {
        a: circle(0.5),
        xf_a: Transform::IDENTITY,
        b: offset_circle,
        xf_b: placed(2.5, 4.0, 0.0),
        use_radii: false,
        distance: 5.0,
        normal: Some(v(0.6, 0.8)),
        points: Some((Vec2::ZERO, v(3.0, 4.0))),
    });
    // Touching: both surface points at (0.5, 0).
    check(&Case {
        a: circle(0.5),
        xf_a: Transform::IDENTITY,
        b: circle(1.0),
        xf_b: placed(1.5, 0.0, 1.0),
        use_radii: true,
        distance: 0.0,
        normal: Some(Vec2::X),
        points: Some((v(0.5, 0.0), v(0.5, 0.0))),
    });
    // Overlapping by 0.5: distance 0, the points stay on the surfaces.
    check(&Case {
        a: circle(0.5),
        xf_a: Transform::IDENTITY,
        b: circle(1.0),
        xf_b: placed(1.0, 0.0, 0.0),
        use_radii: true,
        distance: 0.0,
        normal: Some(Vec2::X),
        points: Some((v(0.5, 0.0), v(0.0, 0.0))),
    });
    // Concentric: the cores coincide and no normal exists.
    check(&Case {
        a: circle(0.5),
        xf_a: Transform::IDENTITY,
        b: circle(1.0),
        xf_b: placed(0.0, 0.0, 0.3),
        use_radii: true,
        distance: 0.0,
        normal: Some(Vec2::ZERO),
        points: None,
    });
}

#[test]
fn circle_and_polygon() {
    let a = polygon(make_box(1.0, 0.5).unwrap());
    // Face region: centre (1.7, 0.2) is 0.7 from the face x = 1.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: circle(0.25),
        xf_b: placed(1.7, 0.2, 0.0),
        use_radii: true,
        distance: 0.45,
        normal: Some(Vec2::X),
        points: Some((v(1.0, 0.2), v(1.45, 0.2))),
    });
    // Corner region: centre (1.3, 0.9) is (0.3, 0.4) from the corner (1, 0.5).
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: circle(0.25),
        xf_b: placed(1.3, 0.9, 0.0),
        use_radii: true,
        distance: 0.25,
        normal: Some(v(0.6, 0.8)),
        points: Some((v(1.0, 0.5), v(1.15, 0.7))),
    });
    // Centre inside the box.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: circle(0.25),
        xf_b: placed(0.5, 0.0, 0.0),
        use_radii: true,
        distance: 0.0,
        normal: Some(Vec2::ZERO),
        points: None,
    });
}

/// A box's corner against the face x = 1 of a 2 × 2 box, for several tilts of the small box:
/// the corner of `box(0.5, 0.25)` rotated by β that reaches farthest to −x is its local
/// corner (−0.5, 0.25); the box is placed so that corner sits at (1 + gap, y0).
#[test]
fn polygon_corner_against_face_at_many_rotations() {
    let a = polygon(make_square(1.0).unwrap());
    let b = polygon(make_box(0.5, 0.25).unwrap());
    let gap = 0.4;
    for beta in [0.1, 0.5, 1.0, 1.4] {
        for y0 in [-0.7, 0.3] {
            let corner = v(1.0 + gap, y0);
            let center = corner - Rot::from_angle(beta).rotate(v(-0.5, 0.25));
            check(&Case {
                a,
                xf_a: Transform::IDENTITY,
                b,
                xf_b: Transform::new(center, Rot::from_angle(beta)),
                use_radii: true,
                distance: gap,
                normal: Some(Vec2::X),
                points: Some((v(1.0, y0), corner)),
            });
        }
    }
}

#[test]
fn polygon_faces_corners_and_overlap() {
    let a = polygon(make_square(1.0).unwrap());
    let b = polygon(make_square(0.5).unwrap());
    // A diamond's corner at (1.4, 0.3).
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b,
        xf_b: placed(1.4 + 0.5 * SQRT_2, 0.3, 0.25 * core::f32::consts::PI),
        use_radii: true,
        distance: 0.4,
        normal: Some(Vec2::X),
        points: Some((v(1.0, 0.3), v(1.4, 0.3))),
    });
    // Parallel faces 0.25 apart: the closest points are not unique, only their offset is.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b,
        xf_b: placed(1.75, 0.4, 0.0),
        use_radii: true,
        distance: 0.25,
        normal: Some(Vec2::X),
        points: None,
    });
    // Corner to corner: (1, 1) and (1.3, 1.4).
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b,
        xf_b: placed(1.8, 1.9, 0.0),
        use_radii: true,
        distance: 0.5,
        normal: Some(v(0.6, 0.8)),
        points: Some((v(1.0, 1.0), v(1.3, 1.4))),
    });
    // Overlapping by 0.3.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b,
        xf_b: placed(1.2, 0.1, 0.4),
        use_radii: true,
        distance: 0.0,
        normal: Some(Vec2::ZERO),
        points: None,
    });
}

#[test]
fn capsules_parallel_crossing_and_skew() {
    let a = horizontal_capsule(1.0, 0.2);
    // Parallel, cores 1 apart: 1 − 0.2 − 0.3.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: horizontal_capsule(0.5, 0.3),
        xf_b: placed(0.3, 1.0, 0.0),
        use_radii: true,
        distance: 0.5,
        normal: Some(Vec2::Y),
        points: None,
    });
    // Crossing (a T): B's core runs from (0.4, 1) up to (0.4, 3).
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: horizontal_capsule(1.0, 0.3),
        xf_b: placed(0.4, 2.0, FRAC_PI_2),
        use_radii: true,
        distance: 0.5,
        normal: Some(Vec2::Y),
        points: Some((v(0.4, 0.2), v(0.4, 0.7))),
    });
    // Crossing cores (an X): overlap with no normal.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: horizontal_capsule(1.0, 0.3),
        xf_b: placed(0.4, 0.0, 1.0),
        use_radii: true,
        distance: 0.0,
        normal: Some(Vec2::ZERO),
        points: None,
    });
    // Skew: B's core from (2, 1) to (3, 2); the closest core points are (1, 0) and (2, 1).
    let b = Shape::Capsule(Capsule {
        center1: v(2.0, 1.0),
        center2: v(3.0, 2.0),
        radius: 0.1,
    });
    let n = v(FRAC_1_SQRT_2, FRAC_1_SQRT_2);
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b,
        xf_b: Transform::IDENTITY,
        use_radii: true,
        distance: SQRT_2 - 0.3,
        normal: Some(n),
        points: Some((v(1.0, 0.0) + 0.2 * n, v(2.0, 1.0) - 0.1 * n)),
    });
}

#[test]
fn segment_and_box() {
    let a = polygon(make_square(1.0).unwrap());
    // The line x + y = 3 passes 1/√2 from the corner (1, 1), closest at (1.5, 1.5).
    let n = v(FRAC_1_SQRT_2, FRAC_1_SQRT_2);
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: segment(v(3.0, 0.0), v(0.0, 3.0)),
        xf_b: Transform::IDENTITY,
        use_radii: true,
        distance: FRAC_1_SQRT_2,
        normal: Some(n),
        points: Some((v(1.0, 1.0), v(1.5, 1.5))),
    });
    // Parallel to the top face, 0.5 above it.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: segment(v(-3.0, 1.5), v(3.0, 1.5)),
        xf_b: Transform::IDENTITY,
        use_radii: true,
        distance: 0.5,
        normal: Some(Vec2::Y),
        points: None,
    });
    // A chain segment's proxy is its bare segment: same answer, both sides.
    let chain = Shape::ChainSegment(ChainSegment {
        ghost1: v(4.0, -1.0),
        segment: Segment {
            point1: v(3.0, 0.0),
            point2: v(0.0, 3.0),
        },
        ghost2: v(-1.0, 4.0),
        chain_id: 0,
    });
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b: chain,
        xf_b: Transform::IDENTITY,
        use_radii: true,
        distance: FRAC_1_SQRT_2,
        normal: Some(n),
        points: Some((v(1.0, 1.0), v(1.5, 1.5))),
    });
}

#[test]
fn rounded_boxes() {
    let a = polygon(make_rounded_box(1.0, 0.5, 0.1).unwrap());
    let b = polygon(make_rounded_box(0.5, 0.5, 0.2).unwrap());
    // Faces: B's core face at x = 1.65, A's at 1: 0.65 − 0.3.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b,
        xf_b: placed(2.15, 0.2, 0.0),
        use_radii: true,
        distance: 0.35,
        normal: Some(Vec2::X),
        points: None,
    });
    // Core corners (1, 0.5) and (1.3, 0.9), 0.5 apart: 0.5 − 0.3.
    let n = v(0.6, 0.8);
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b,
        xf_b: placed(1.8, 1.4, 0.0),
        use_radii: true,
        distance: 0.2,
        normal: Some(n),
        points: Some((v(1.0, 0.5) + 0.1 * n, v(1.3, 0.9) - 0.2 * n)),
    });
    // Cores 0.2 apart but radii 0.3: overlapping, with the normal still defined.
    check(&Case {
        a,
        xf_a: Transform::IDENTITY,
        b,
        xf_b: placed(1.7, 0.0, 0.0),
        use_radii: true,
        distance: 0.0,
        normal: Some(Vec2::X),
        points: None,
    });
}

/// A box slides past another box's corner in small steps. Each step is computed warm (with
/// the cache carried from the previous step) and cold; the answers agree (the closest points
/// only while the shapes are apart: overlapping shapes have none) and the warm calls need fewer
/// support queries in total.
#[test]
fn warm_start_gives_the_same_answer_in_fewer_iterations() {
    let a = ShapeProxy::from_shape(&polygon(make_square(1.0).unwrap()));
    let b = ShapeProxy::from_shape(&polygon(make_box(0.5, 0.3).unwrap()));
    let mut cache = SimplexCache::EMPTY;
    let (mut warm_iterations, mut cold_iterations, mut separated) = (0, 0, 0);
    for step in 0..200 {
        let t = step as f32 / 200.0;
        let input = DistanceInput {
            proxy_a: a,
            xf_a: placed(0.0, 0.0, 0.1),
            proxy_b: b,
            xf_b: placed(-3.0 + 6.0 * t, 1.8 - 0.3 * t, 0.5 + t),
            use_radii: true,
        };
        let warm = shape_distance(&input, &mut cache);
        let cold = shape_distance(&input, &mut SimplexCache::default());
        assert_close(warm.distance, cold.distance, 1e-6, "distance");
        assert_vec_close(warm.normal, cold.normal, 1e-5, "normal");
        if cold.distance > 0.0 {
            // Overlapping shapes have no unique closest points.
            assert_vec_close(warm.point_a, cold.point_a, 1e-5, "point_a");
            assert_vec_close(warm.point_b, cold.point_b, 1e-5, "point_b");
            separated += 1;
        }
        warm_iterations += warm.iterations;
        cold_iterations += cold.iterations;
    }
    assert!(separated > 150, "{separated} separated steps");
    assert!(
        warm_iterations < cold_iterations,
        "warm {warm_iterations} vs cold {cold_iterations}"
    );
}

/// A cache from another pair (more points than these proxies have) is ignored, and a cache
/// holding an overlap's triangle still gives the right answer once the shapes separate.
#[test]
fn foreign_and_stale_caches_are_harmless() {
    let octagon: Vec<Vec2> = (0..8)
        .map(|i| {
            let angle = i as f32 * core::f32::consts::TAU / 8.0;
            v(angle.cos(), angle.sin())
        })
        .collect();
    let big = ShapeProxy::new(&octagon, 0.0).unwrap();
    let mut cache = SimplexCache::EMPTY;
    let overlap = DistanceInput {
        proxy_a: big,
        xf_a: Transform::IDENTITY,
        proxy_b: big,
        xf_b: placed(0.5, 0.2, 0.3),
        use_radii: false,
    };
    assert_eq!(shape_distance(&overlap, &mut cache).distance, 0.0);
    assert!(!cache.is_empty());
    let point = ShapeProxy::new(&[Vec2::ZERO], 0.0).unwrap();
    let separated = DistanceInput {
        proxy_a: point,
        xf_a: placed(5.0, 0.0, 0.0),
        proxy_b: point,
        xf_b: placed(5.0, 2.0, 0.0),
        use_radii: false,
    };
    let out = shape_distance(&separated, &mut cache.clone());
    assert_close(out.distance, 2.0, 1e-6, "foreign cache");
    let stale = DistanceInput {
        xf_b: placed(4.0, 0.5, 0.3),
        ..overlap
    };
    let out = shape_distance(&stale, &mut cache);
    let world_a: Vec<Vec2> = octagon.clone();
    let world_b: Vec<Vec2> = octagon.iter().map(|&p| stale.xf_b.apply(p)).collect();
    let expected = brute_force_distance(&world_a, &world_b);
    assert_close(out.distance, expected, 1e-5, "stale cache");
    assert!(expected > 1.5, "the octagons are apart: {expected}");
}

/// Random convex polygons in random poses against the brute-force answer:
/// two convex polygons that do not overlap are closest at a vertex of one and an edge of the
/// other, and they overlap exactly when no edge normal separates them.
#[test]
fn random_polygons_agree_with_brute_force() {
    let mut uniform = Uniform::new(7);
    let mut overlaps = 0;
    let random_polygon = |uniform: &mut Uniform| loop {
        let points: Vec<Vec2> = (0..6)
            .map(|_| v(uniform.range(-1.0, 1.0), uniform.range(-1.0, 1.0)))
            .collect();
        if let Ok(p) = make_polygon(&points, 0.0) {
            return p;
        }
    };
    for case in 0..500 {
        let pa = random_polygon(&mut uniform);
        let pb = random_polygon(&mut uniform);
        let xf_a = placed(
            uniform.range(-2.0, 2.0),
            uniform.range(-2.0, 2.0),
            uniform.range(-3.0, 3.0),
        );
        let xf_b = placed(
            uniform.range(-2.0, 2.0),
            uniform.range(-2.0, 2.0),
            uniform.range(-3.0, 3.0),
        );
        let world_a: Vec<Vec2> = pa.verts().iter().map(|&p| xf_a.apply(p)).collect();
        let world_b: Vec<Vec2> = pb.verts().iter().map(|&p| xf_b.apply(p)).collect();
        let out = run(&polygon(pa), xf_a, &polygon(pb), xf_b, false);
        if separated_by_an_edge(&world_a, &world_b) {
            let expected = brute_force_distance(&world_a, &world_b);
            assert_close(out.distance, expected, 2e-5, &format!("case {case}"));
            assert!(out.normal != Vec2::ZERO);
        } else {
            overlaps += 1;
            assert!(out.distance < 1e-5, "case {case}: {}", out.distance);
        }
    }
    assert!(
        overlaps > 50 && overlaps < 450,
        "{overlaps} overlaps of 500"
    );
}

fn edges(points: &[Vec2]) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
    (0..points.len()).map(move |i| (points[i], points[(i + 1) % points.len()]))
}

fn brute_force_distance(a: &[Vec2], b: &[Vec2]) -> f32 {
    let mut best = f32::INFINITY;
    for (p, q) in edges(a) {
        for (r, s) in edges(b) {
            best = best.min(segment_distance(p, q, r, s).distance_squared.sqrt());
        }
    }
    best
}

/// Whether an edge normal of either counter-clockwise polygon separates them.
fn separated_by_an_edge(a: &[Vec2], b: &[Vec2]) -> bool {
    let separates = |from: &[Vec2], other: &[Vec2]| {
        edges(from).any(|(p, q)| {
            let normal = v(q.y - p.y, p.x - q.x);
            other.iter().all(|&w| normal.dot(w - p) > 0.0)
        })
    };
    separates(a, b) || separates(b, a)
}

#[test]
fn segment_distance_cases() {
    // Crossing segments.
    let crossing = segment_distance(v(-1.0, 0.0), v(1.0, 0.0), v(0.0, -1.0), v(0.0, 1.0));
    assert_close(crossing.distance_squared, 0.0, 1e-12, "crossing");
    assert_close(crossing.fraction1, 0.5, 1e-6, "fraction1");
    assert_close(crossing.fraction2, 0.5, 1e-6, "fraction2");
    // Parallel, overlapping in x, 2 apart.
    let parallel = segment_distance(v(0.0, 0.0), v(2.0, 0.0), v(1.0, 2.0), v(3.0, 2.0));
    assert_close(parallel.distance_squared, 4.0, 1e-5, "parallel");
    assert_close(
        parallel.closest2.y - parallel.closest1.y,
        2.0,
        1e-6,
        "offset",
    );
    // End to interior: (2, 0) against the vertical line x = 3 from y = −1 to 1.
    let end = segment_distance(v(0.0, 0.0), v(2.0, 0.0), v(3.0, -1.0), v(3.0, 1.0));
    assert_vec_close(end.closest1, v(2.0, 0.0), 1e-6, "closest1");
    assert_vec_close(end.closest2, v(3.0, 0.0), 1e-6, "closest2");
    assert_close(end.fraction2, 0.5, 1e-6, "fraction2");
    // A point against a segment.
    let point = segment_distance(v(1.0, 1.0), v(1.0, 1.0), v(0.0, 0.0), v(4.0, 0.0));
    assert_close(point.distance_squared, 1.0, 1e-6, "point");
    assert_close(point.fraction2, 0.25, 1e-6, "fraction2");
}

#[test]
fn iterations_are_few() {
    let a = polygon(make_square(1.0).unwrap());
    let b = polygon(make_box(0.5, 0.25).unwrap());
    let out = run(&a, Transform::IDENTITY, &b, placed(3.0, 0.5, 0.3), true);
    assert!(
        out.iterations >= 1 && out.iterations <= 6,
        "{}",
        out.iterations
    );
    // Two points: one query finds nothing new.
    let out = run(
        &circle(1.0),
        Transform::IDENTITY,
        &circle(1.0),
        placed(3.0, 0.0, 0.0),
        true,
    );
    assert_eq!(out.iterations, 1);
}

#[test]
fn circles_against_capsules_and_segments_and_capsules_against_boxes() {
    let capsule = horizontal_capsule(1.0, 0.2);
    // Beside the core: 1 − 0.2 − 0.3.
    check(&Case {
        a: capsule,
        xf_a: Transform::IDENTITY,
        b: circle(0.3),
        xf_b: placed(0.5, 1.0, 0.0),
        use_radii: true,
        distance: 0.5,
        normal: Some(Vec2::Y),
        points: Some((v(0.5, 0.2), v(0.5, 0.7))),
    });
    // Beyond the end (1, 0): the centre (1.6, 0.8) is 1 away.
    let n = v(0.6, 0.8);
    check(&Case {
        a: capsule,
        xf_a: Transform::IDENTITY,
        b: circle(0.3),
        xf_b: placed(1.6, 0.8, 0.0),
        use_radii: true,
        distance: 0.5,
        normal: Some(n),
        points: Some((v(1.0, 0.0) + 0.2 * n, v(1.6, 0.8) - 0.3 * n)),
    });
    // A segment and a circle below it.
    check(&Case {
        a: segment(v(-1.0, 0.0), v(1.0, 0.0)),
        xf_a: Transform::IDENTITY,
        b: circle(0.25),
        xf_b: placed(0.3, -0.75, 0.0),
        use_radii: true,
        distance: 0.5,
        normal: Some(-Vec2::Y),
        points: Some((v(0.3, 0.0), v(0.3, -0.5))),
    });
    // A capsule tilted by 0.3 over a box: its lower end, at height 2 − 0.5·sin 0.3, is closest.
    let (sin, cos) = 0.3f32.sin_cos();
    let low_end = v(0.2 - 0.5 * cos, 2.0 - 0.5 * sin);
    check(&Case {
        a: polygon(make_square(1.0).unwrap()),
        xf_a: Transform::IDENTITY,
        b: horizontal_capsule(0.5, 0.2),
        xf_b: placed(0.2, 2.0, 0.3),
        use_radii: true,
        distance: low_end.y - 1.0 - 0.2,
        normal: Some(Vec2::Y),
        points: Some((v(low_end.x, 1.0), low_end - v(0.0, 0.2))),
    });
}
