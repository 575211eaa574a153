//! Shape-cast tests against hand-computed fractions, points and normals (to 1e-4 m, the
//! cast's accuracy target; the cases are evaluated in several world frames).

use super::*;
use crate::distance::{DistanceInput, shape_distance};
use crate::hull::{make_box, make_polygon, make_rounded_box, make_square};
use crate::shapes::{ChainSegment, Segment};
use crate::test_support::{
    Uniform, assert_close, assert_vec_close, circle, horizontal_capsule, placed, segment,
};
use core::f32::consts::{FRAC_PI_4, SQRT_2};
use core_soa::Rot;

const TOLERANCE: f32 = 1e-4;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn frames() -> [Transform; 3] {
    [
        Transform::IDENTITY,
        placed(2.0, -3.0, 0.6),
        placed(-30.0, 12.0, -2.2),
    ]
}

/// Casts `caster` (placed by `xf_caster`, a world proxy) along `translation` against `shape`
/// at `xf_shape`, in every test frame, and checks the hit (fraction, point, normal in the
/// canonical frame) or the miss.
#[track_caller]
fn check_cast(
    shape: &Shape,
    xf_shape: Transform,
    caster: &Shape,
    xf_caster: Transform,
    translation: Vec2,
    expected: Option<(f32, Vec2, Vec2)>,
) {
    for frame in frames() {
        let proxy = ShapeProxy::from_placed_shape(caster, frame.mul(xf_caster));
        let input = ShapeCastInput::new(proxy, frame.q.rotate(translation));
        let hit = shape_cast(shape, frame.mul(xf_shape), &input);
        let what = format!("frame {frame:?}");
        match (hit, expected) {
            (Some(hit), Some((fraction, point, normal))) => {
                assert!(!hit.initial_overlap, "{what}");
                assert_close(hit.fraction, fraction, TOLERANCE, &what);
                assert_vec_close(hit.point, frame.apply(point), TOLERANCE, &what);
                assert_vec_close(hit.normal, frame.q.rotate(normal), TOLERANCE, &what);
            }
            (None, None) => {}
            (hit, expected) => panic!("{what}: got {hit:?}, expected {expected:?}"),
        }
    }
}

#[test]
fn circle_at_a_box_face() {
    // The centre must stop at x = −1.5: 3.5 of the 10 m.
    check_cast(
        &Shape::Polygon(make_square(1.0).unwrap()),
        Transform::IDENTITY,
        &circle(0.5),
        placed(-5.0, 0.3, 0.0),
        v(10.0, 0.0),
        Some((0.35, v(-1.0, 0.3), v(-1.0, 0.0))),
    );
    // Too short a translation: a miss.
    check_cast(
        &Shape::Polygon(make_square(1.0).unwrap()),
        Transform::IDENTITY,
        &circle(0.5),
        placed(-5.0, 0.3, 0.0),
        v(3.0, 0.0),
        None,
    );
}

#[test]
fn box_at_a_rotated_box() {
    // A diamond (square rotated 45°) whose left corner (−√2, 0) meets the right face of a box
    // moving along +x; the face reaches x = −√2 after 4.5 − √2 of the 10 m.
    check_cast(
        &Shape::Polygon(make_square(1.0).unwrap()),
        placed(0.0, 0.0, FRAC_PI_4),
        &Shape::Polygon(make_square(0.5).unwrap()),
        placed(-5.0, 0.2, 0.0),
        v(10.0, 0.0),
        Some(((4.5 - SQRT_2) / 10.0, v(-SQRT_2, 0.0), v(-1.0, 0.0))),
    );
    // A tilted box moving down and left lands its lowest corner on the top face y = 1.
    let beta = 0.3;
    let lowest = Rot::from_angle(beta).rotate(v(-0.5, -0.25));
    let start = v(0.2, 3.0);
    let translation = v(-0.5, -4.0);
    let fraction = (start.y + lowest.y - 1.0) / 4.0;
    let corner = start + lowest + fraction * translation;
    assert!(corner.x.abs() < 1.0, "the corner lands on the face");
    check_cast(
        &Shape::Polygon(make_square(1.0).unwrap()),
        Transform::IDENTITY,
        &Shape::Polygon(make_box(0.5, 0.25).unwrap()),
        Transform::new(start, Rot::from_angle(beta)),
        translation,
        Some((fraction, corner, v(0.0, 1.0))),
    );
}

#[test]
fn capsule_past_a_corner() {
    let floor_box = Shape::Polygon(make_square(1.0).unwrap());
    let capsule = horizontal_capsule(0.5, 0.2);
    // Core 1.21 high with radius 0.2: it clears the corner (−1, 1) by 1 cm.
    check_cast(
        &floor_box,
        Transform::IDENTITY,
        &capsule,
        placed(-5.0, 1.21, 0.0),
        v(10.0, 0.0),
        None,
    );
    // Core 1.19 high: the right end disk (centre 0.19 above the corner) touches the corner
    // 0.2 away, √(0.2² − 0.19²) short of it in x.
    let dx = (0.04f32 - 0.0361).sqrt();
    let end_x = -1.0 - dx;
    let fraction = (end_x - 0.5 + 5.0) / 10.0;
    check_cast(
        &floor_box,
        Transform::IDENTITY,
        &capsule,
        placed(-5.0, 1.19, 0.0),
        v(10.0, 0.0),
        Some((fraction, v(-1.0, 1.0), v(-dx, 0.19) / 0.2)),
    );
}

#[test]
fn rounded_shapes_and_targets() {
    // Rounded box (reaches x = 1.1) against a circle of radius 0.4 coming from +x.
    let rounded = Shape::Polygon(make_rounded_box(1.0, 1.0, 0.1).unwrap());
    check_cast(
        &rounded,
        Transform::IDENTITY,
        &circle(0.4),
        placed(5.0, 0.0, 0.0),
        v(-8.0, 0.0),
        Some(((5.0 - 1.5) / 8.0, v(1.1, 0.0), v(1.0, 0.0))),
    );
    // A target separation of 5 mm stops the cast 5 mm short.
    let proxy = ShapeProxy::from_placed_shape(&circle(0.4), placed(5.0, 0.0, 0.0));
    let input = ShapeCastInput {
        target_separation: 0.005,
        ..ShapeCastInput::new(proxy, v(-8.0, 0.0))
    };
    let hit = shape_cast(&rounded, Transform::IDENTITY, &input).unwrap();
    assert_close(
        hit.fraction,
        (5.0 - 1.505) / 8.0,
        1e-5,
        "fraction with target",
    );
}

#[test]
fn initial_overlap_touching_and_encroaching() {
    let ground = Shape::Polygon(make_square(1.0).unwrap());
    // Overlapping: fraction 0 and the flag.
    let proxy = ShapeProxy::from_placed_shape(&circle(0.5), placed(0.0, 1.2, 0.0));
    let hit = shape_cast(
        &ground,
        Transform::IDENTITY,
        &ShapeCastInput::new(proxy, v(1.0, 0.0)),
    )
    .unwrap();
    assert!(hit.initial_overlap);
    assert_eq!(hit.fraction, 0.0);
    assert_vec_close(hit.normal, v(0.0, 1.0), 1e-6, "overlap normal");
    // Point midway between the surfaces (0, 1) and (0, 0.7).
    assert_vec_close(hit.point, v(0.0, 0.85), 1e-5, "overlap point");
    // Resting exactly on top: sliding along or lifting off is free, pressing down hits at 0.
    let resting = ShapeProxy::from_placed_shape(&circle(0.5), placed(0.0, 1.5, 0.0));
    let slide = ShapeCastInput::new(resting, v(3.0, 0.0));
    assert!(shape_cast(&ground, Transform::IDENTITY, &slide).is_none());
    let lift = ShapeCastInput::new(resting, v(0.0, 1.0));
    assert!(shape_cast(&ground, Transform::IDENTITY, &lift).is_none());
    let press = ShapeCastInput::new(resting, v(0.0, -1.0));
    let hit = shape_cast(&ground, Transform::IDENTITY, &press).unwrap();
    assert!(!hit.initial_overlap);
    assert!(hit.fraction < 1e-4, "{}", hit.fraction);
    // Encroaching: it may sink in by one linear slop.
    let encroach = ShapeCastInput {
        can_encroach: true,
        ..press
    };
    let hit = shape_cast(&ground, Transform::IDENTITY, &encroach).unwrap();
    assert_close(hit.fraction, LINEAR_SLOP, 1e-5, "encroach fraction");
    // Cores overlapping: no normal.
    let inside = ShapeProxy::from_placed_shape(&circle(0.1), placed(0.3, 0.2, 0.0));
    let hit = shape_cast(
        &ground,
        Transform::IDENTITY,
        &ShapeCastInput::new(inside, v(1.0, 0.0)),
    )
    .unwrap();
    assert!(hit.initial_overlap);
    assert_eq!(hit.normal, Vec2::ZERO);
}

#[test]
fn both_shapes_moving() {
    // Head-on circles of radius 1, centres 10 apart, closing at 12 per unit fraction: the
    // surfaces meet after 8/12, when A's centre is at x = 4.
    let input = ShapeCastPairInput {
        proxy_a: ShapeProxy::from_shape(&circle(1.0)),
        xf_a: Transform::IDENTITY,
        translation_a: v(6.0, 0.0),
        proxy_b: ShapeProxy::from_shape(&circle(1.0)),
        xf_b: placed(10.0, 0.0, 0.0),
        translation_b: v(-6.0, 0.0),
        max_fraction: 1.0,
        target_separation: 0.0,
        can_encroach: false,
    };
    let hit = shape_cast_pair(&input).unwrap();
    assert_close(hit.fraction, 8.0 / 12.0, 1e-5, "fraction");
    assert_vec_close(hit.point, v(5.0, 0.0), 1e-4, "point");
    assert_vec_close(hit.normal, v(1.0, 0.0), 1e-6, "normal");
    // Moving in parallel: never closer.
    let parallel = ShapeCastPairInput {
        translation_b: v(6.0, 0.0),
        ..input
    };
    assert!(shape_cast_pair(&parallel).is_none());
    // Clipped by max_fraction.
    let short = ShapeCastPairInput {
        max_fraction: 0.6,
        ..input
    };
    assert!(shape_cast_pair(&short).is_none());
}

#[test]
fn one_sided_chain_segments() {
    // Free side up: the right perpendicular of (1, 0) → (−1, 0) is +y.
    let chain = Shape::ChainSegment(ChainSegment {
        ghost1: v(2.0, 0.0),
        segment: Segment {
            point1: v(1.0, 0.0),
            point2: v(-1.0, 0.0),
        },
        ghost2: v(-2.0, 0.0),
        chain_id: 0,
    });
    let ball = circle(0.25);
    let from_above = ShapeProxy::from_placed_shape(&ball, placed(0.2, 2.0, 0.0));
    let hit = shape_cast(
        &chain,
        Transform::IDENTITY,
        &ShapeCastInput::new(from_above, v(0.0, -4.0)),
    )
    .unwrap();
    assert_close(hit.fraction, 1.75 / 4.0, 1e-5, "from the free side");
    assert_vec_close(hit.normal, v(0.0, 1.0), 1e-6, "normal");
    let from_below = ShapeProxy::from_placed_shape(&ball, placed(0.2, -2.0, 0.0));
    let up = ShapeCastInput::new(from_below, v(0.0, 4.0));
    assert!(shape_cast(&chain, Transform::IDENTITY, &up).is_none());
    // A two-sided segment stops it from below too.
    let two_sided = segment(v(1.0, 0.0), v(-1.0, 0.0));
    let hit = shape_cast(&two_sided, Transform::IDENTITY, &up).unwrap();
    assert_close(hit.fraction, 1.75 / 4.0, 1e-5, "two-sided");
    assert_vec_close(hit.normal, v(0.0, -1.0), 1e-6, "normal");
}

#[test]
fn bad_input_gives_no_hit() {
    let proxy = ShapeProxy::from_placed_shape(&circle(0.5), placed(-5.0, 0.0, 0.0));
    let square = Shape::Polygon(make_square(1.0).unwrap());
    for input in [
        ShapeCastInput::new(proxy, v(f32::NAN, 0.0)),
        ShapeCastInput {
            max_fraction: -1.0,
            ..ShapeCastInput::new(proxy, v(10.0, 0.0))
        },
        ShapeCastInput {
            target_separation: f32::NAN,
            ..ShapeCastInput::new(proxy, v(10.0, 0.0))
        },
    ] {
        assert!(shape_cast(&square, Transform::IDENTITY, &input).is_none());
    }
    assert!(
        shape_cast(
            &square,
            placed(f32::INFINITY, 0.0, 0.0),
            &ShapeCastInput::new(proxy, v(10.0, 0.0))
        )
        .is_none()
    );
}

/// Random convex shapes cast at each other: at a reported hit the surfaces are within the
/// accuracy target (1e-4 m) and they are apart at every sampled earlier fraction; a miss never
/// overlaps along the way (checked by sampling).
#[test]
fn random_casts_touch_at_the_reported_fraction() {
    let mut uniform = Uniform::new(3);
    let (mut hits, mut max_iterations) = (0, 0);
    for case in 0..300 {
        let shape_of = |uniform: &mut Uniform| loop {
            let points: Vec<Vec2> = (0..5)
                .map(|_| v(uniform.range(-1.0, 1.0), uniform.range(-1.0, 1.0)))
                .collect();
            let radius = if uniform.range(0.0, 1.0) < 0.5 {
                0.0
            } else {
                uniform.range(0.0, 0.3)
            };
            if let Ok(p) = make_polygon(&points, radius) {
                return ShapeProxy::from_shape(&Shape::Polygon(p));
            }
        };
        let (a, b) = (shape_of(&mut uniform), shape_of(&mut uniform));
        let xf_a = placed(0.0, 0.0, uniform.range(-3.0, 3.0));
        let angle = uniform.range(0.0, core::f32::consts::TAU);
        let start = 5.0 * v(angle.cos(), angle.sin());
        let xf_b = Transform::new(start, Rot::from_angle(uniform.range(-3.0, 3.0)));
        let aim = v(uniform.range(-1.5, 1.5), uniform.range(-1.5, 1.5));
        let input = ShapeCastPairInput {
            proxy_a: a,
            xf_a,
            translation_a: Vec2::ZERO,
            proxy_b: b,
            xf_b,
            translation_b: 1.5 * (aim - start),
            max_fraction: 1.0,
            target_separation: 0.0,
            can_encroach: false,
        };
        // The signed gap between the rounded surfaces (negative: overlapping).
        let gap_at = |fraction: f32| {
            let moved = Transform::new(xf_b.p + fraction * input.translation_b, xf_b.q);
            let distance = DistanceInput {
                proxy_a: a,
                xf_a,
                proxy_b: b,
                xf_b: moved,
                use_radii: false,
            };
            let out = shape_distance(&distance, &mut SimplexCache::default());
            if out.normal == Vec2::ZERO {
                return -1.0; // cores touching or overlapping
            }
            out.distance - a.radius() - b.radius()
        };
        match shape_cast_pair(&input) {
            Some(hit) => {
                hits += 1;
                max_iterations = max_iterations.max(hit.iterations);
                // Sharp shapes cast to a zero target may land with their cores touching.
                let gap = gap_at(hit.fraction);
                assert!(
                    gap.abs() < 1e-4 || gap == -1.0,
                    "case {case}: gap {gap} at the hit"
                );
                let step_back = 1e-4 / input.translation_b.length();
                let before = gap_at(hit.fraction - step_back);
                assert!(
                    before > 0.0 && before <= 2e-4,
                    "case {case}: gap {before} before"
                );
                for i in 0..100 {
                    let earlier = hit.fraction * i as f32 / 100.0;
                    assert!(gap_at(earlier) > 0.0, "case {case}: touching at {earlier}");
                }
                assert!((hit.normal.length() - 1.0).abs() < 1e-5);
            }
            None => {
                for i in 0..=200 {
                    let fraction = i as f32 / 200.0;
                    assert!(gap_at(fraction) > 0.0, "case {case}: overlap at {fraction}");
                }
            }
        }
    }
    assert!(max_iterations <= 8, "{max_iterations} iterations");
    assert!(hits > 100 && hits < 300, "{hits} hits");
}
