//! Time-of-impact tests against analytic impact times and angles.
//!
//! The default target stops sharp shapes with their cores a linear slop apart and rounded ones
//! `r_a + r_b − slop` apart, reporting a hit anywhere within a quarter slop above that. So an
//! analytic check is a window: the impact time must lie between the time the cores reach
//! `target + tolerance` and the time they reach `target`.

use super::*;
use crate::distance::{DistanceInput, shape_distance};
use crate::hull::{make_box, make_polygon, make_square};
use crate::shapes::{Segment, ShapeKind};
use crate::test_support::{
    Uniform, assert_close, assert_vec_close, circle, horizontal_capsule, placed, segment,
};

const TOLERANCE: f32 = 0.25 * LINEAR_SLOP;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn polygon(p: crate::shapes::Polygon) -> Shape {
    Shape::Polygon(p)
}

/// Asserts a hit whose time lies in `[earliest, latest]` (plus rounding).
#[track_caller]
fn assert_hit_between(out: &ToiOutput, earliest: f32, latest: f32) {
    assert_eq!(out.state, ToiState::Hit, "{out:?}");
    assert!(
        out.fraction >= earliest - 1e-6 && out.fraction <= latest + 1e-6,
        "t = {} outside [{earliest}, {latest}]",
        out.fraction
    );
}

#[test]
fn sweeps_interpolate_between_their_ends() {
    let (xf1, xf2) = (placed(1.0, 2.0, 0.3), placed(4.0, -1.0, 0.9));
    let center = v(0.5, -0.25);
    let sweep = Sweep::between(xf1, xf2, center);
    for (t, xf) in [(0.0, xf1), (1.0, xf2)] {
        let at = sweep.transform_at(t);
        assert_vec_close(at.p, xf.p, 1e-6, "position");
        assert_close(at.q.angle(), xf.q.angle(), 1e-6, "angle");
    }
    // Halfway the centre of mass is halfway and the angle is the mean angle.
    let half = sweep.transform_at(0.5);
    assert_vec_close(
        half.apply(center),
        0.5 * (xf1.apply(center) + xf2.apply(center)),
        1e-6,
        "centre",
    );
    assert_close(half.q.angle(), 0.6, 1e-6, "half angle");
    let still = Sweep::stationary(xf1, center);
    assert_vec_close(still.transform_at(0.7).p, xf1.p, 1e-6, "stationary");
    // The turning-rate bound: 2·tan(φ/2) for φ = 0.6.
    assert_close(sweep.max_turn_rate(), 2.0 * 0.3f32.tan(), 1e-6, "turn rate");
}

/// A 5 cm ball at 200 m/s meets a 2 cm wall inside one 60 Hz step. Its centre stops
/// `0.05 − slop` from the wall's face at x = 1.99.
#[test]
fn bullet_against_a_thin_wall() {
    let wall = polygon(make_box(0.01, 1.0).unwrap());
    let wall_sweep = Sweep::stationary(placed(2.0, 0.0, 0.0), Vec2::ZERO);
    let travel = 200.0 / 60.0;
    let bullet = circle(0.05);
    let bullet_sweep = Sweep::between(placed(0.0, 0.3, 0.0), placed(travel, 0.3, 0.0), Vec2::ZERO);
    // Without continuous collision the step ends with the ball beyond the wall, untouched.
    let end = DistanceInput::from_shapes(
        &wall,
        wall_sweep.transform_at(1.0),
        &bullet,
        bullet_sweep.transform_at(1.0),
        true,
    );
    assert!(shape_distance(&end, &mut SimplexCache::default()).distance > 1.0);
    let out = shape_time_of_impact(&wall, &wall_sweep, &bullet, &bullet_sweep, 1.0);
    let stop = 1.99 - (0.05 - LINEAR_SLOP);
    assert_hit_between(&out, (stop - TOLERANCE) / travel, stop / travel);
    assert_vec_close(out.normal, v(-1.0, 0.0), 1e-6, "normal from the wall");
    assert_close(out.point.y, 0.3, 1e-5, "point height");
    assert!((out.point.x - 1.99).abs() < LINEAR_SLOP, "{:?}", out.point);
    assert!(out.iterations <= 3, "{} iterations", out.iterations);
}

/// The lowest corner of a bar `2L × 2w` centred `h` above the floor and turned by θ is
/// `h − L·sin θ − w·cos θ` above it, which reaches the slop at
/// `θ = asin((h − slop)/√(L² + w²)) − atan(w/L)`.
fn bar_impact_angle(h: f32, half_length: f32, half_width: f32, gap: f32) -> f32 {
    let reach = (half_length * half_length + half_width * half_width).sqrt();
    ((h - gap) / reach).asin() - (half_width / half_length).atan()
}

#[test]
fn spinning_bar_over_a_floor() {
    let (h, half_length, half_width) = (0.5, 1.0, 0.01);
    let floor = polygon(make_box(5.0, 0.1).unwrap());
    let floor_sweep = Sweep::stationary(placed(0.0, -0.1, 0.0), Vec2::ZERO);
    let bar = polygon(make_box(half_length, half_width).unwrap());
    let spin = 50.0 / 60.0;
    for drift in [0.0, 0.4] {
        let start = placed(0.0, h, 0.0);
        let end = placed(drift, h, spin);
        let bar_sweep = Sweep::between(start, end, Vec2::ZERO);
        let out = shape_time_of_impact(&floor, &floor_sweep, &bar, &bar_sweep, 1.0);
        assert_eq!(out.state, ToiState::Hit, "drift {drift}: {out:?}");
        let angle = bar_sweep.transform_at(out.fraction).q.angle();
        let latest = bar_impact_angle(h, half_length, half_width, LINEAR_SLOP);
        let earliest = bar_impact_angle(h, half_length, half_width, LINEAR_SLOP + TOLERANCE);
        assert!(
            angle >= earliest - 1e-5 && angle <= latest + 1e-5,
            "drift {drift}: angle {angle} outside [{earliest}, {latest}]"
        );
        assert_vec_close(out.normal, v(0.0, 1.0), 1e-4, "normal");
        assert!(out.iterations <= 6, "{} iterations", out.iterations);
    }
}

#[test]
fn parallel_fast_boxes() {
    let a = polygon(make_square(0.5).unwrap());
    // Side by side at the same velocity: no relative motion.
    let sweep_a = Sweep::between(placed(0.0, 0.0, 0.0), placed(10.0, 0.0, 0.0), Vec2::ZERO);
    let beside = Sweep::between(placed(0.0, 1.5, 0.0), placed(10.0, 1.5, 0.0), Vec2::ZERO);
    let out = shape_time_of_impact(&a, &sweep_a, &a, &beside, 1.0);
    assert_eq!(out.state, ToiState::Separated);
    assert_eq!(out.fraction, 1.0);
    // Face to face, closing at 10 m per step from a 5 m gap: the faces stop a slop apart.
    let left = Sweep::between(placed(-3.0, 0.0, 0.0), placed(2.0, 0.0, 0.0), Vec2::ZERO);
    let right = Sweep::between(placed(3.0, 0.2, 0.0), placed(-2.0, 0.2, 0.0), Vec2::ZERO);
    let out = shape_time_of_impact(&a, &left, &a, &right, 1.0);
    assert_hit_between(
        &out,
        (5.0 - LINEAR_SLOP - TOLERANCE) / 10.0,
        (5.0 - LINEAR_SLOP) / 10.0,
    );
    assert_vec_close(out.normal, v(1.0, 0.0), 1e-6, "normal");
}

#[test]
fn missing_sweeps_are_separated() {
    let wall = polygon(make_box(0.01, 1.0).unwrap());
    let wall_sweep = Sweep::stationary(placed(2.0, 0.0, 0.0), Vec2::ZERO);
    let ball = circle(0.05);
    // Passing over the top of the wall, 5 cm clear.
    let over = Sweep::between(placed(0.0, 1.1, 0.0), placed(4.0, 1.1, 0.0), Vec2::ZERO);
    let out = shape_time_of_impact(&wall, &wall_sweep, &ball, &over, 1.0);
    assert_eq!(out.state, ToiState::Separated, "{out:?}");
    // Stopping short of the wall.
    let short = Sweep::between(placed(0.0, 0.0, 0.0), placed(1.5, 0.0, 0.0), Vec2::ZERO);
    assert_eq!(
        shape_time_of_impact(&wall, &wall_sweep, &ball, &short, 1.0).state,
        ToiState::Separated
    );
    // Moving away.
    let away = Sweep::between(placed(0.0, 0.0, 0.0), placed(-5.0, 0.0, 0.0), Vec2::ZERO);
    let out = shape_time_of_impact(&wall, &wall_sweep, &ball, &away, 1.0);
    assert_eq!((out.state, out.iterations), (ToiState::Separated, 1));
}

/// A bullet crossing the path of a fast falling box: the box's left face x = 3.5 is in the
/// bullet's way when the bullet arrives (the box's corner has passed below the bullet's line).
#[test]
fn bullet_against_a_moving_body() {
    let target = polygon(make_square(0.5).unwrap());
    let target_sweep = Sweep::between(placed(4.0, 2.0, 0.0), placed(4.0, -1.0, 0.0), Vec2::ZERO);
    let bullet = circle(0.05);
    let bullet_sweep = Sweep::between(placed(0.0, 0.0, 0.0), placed(5.0, 0.0, 0.0), Vec2::ZERO);
    let out = shape_time_of_impact(&target, &target_sweep, &bullet, &bullet_sweep, 1.0);
    let stop = 3.5 - (0.05 - LINEAR_SLOP);
    assert_hit_between(&out, (stop - TOLERANCE) / 5.0, stop / 5.0);
    assert_vec_close(out.normal, v(-1.0, 0.0), 1e-5, "normal");
    // The box's bottom edge is at y = 1.5 − 3t: at the hit the bullet is beside its face.
    let bottom = 1.5 - 3.0 * out.fraction;
    assert!(bottom < -0.1 && bottom + 1.0 > 0.1, "bottom {bottom}");
    // The same in the other order: the normal reverses.
    let swapped = shape_time_of_impact(&bullet, &bullet_sweep, &target, &target_sweep, 1.0);
    assert_close(swapped.fraction, out.fraction, 1e-6, "swapped time");
    assert_vec_close(swapped.normal, v(1.0, 0.0), 1e-5, "swapped normal");
}

#[test]
fn one_sided_chain_segments() {
    // Free side up: right perpendicular of (5, 0) → (−5, 0).
    let chain = Shape::ChainSegment(crate::shapes::ChainSegment {
        ghost1: v(6.0, 0.0),
        segment: Segment {
            point1: v(5.0, 0.0),
            point2: v(-5.0, 0.0),
        },
        ghost2: v(-6.0, 0.0),
        chain_id: 0,
    });
    let still = Sweep::stationary(Transform::IDENTITY, Vec2::ZERO);
    let ball = circle(0.05);
    let down = Sweep::between(placed(0.0, 1.0, 0.0), placed(0.0, -1.0, 0.0), Vec2::ZERO);
    let out = shape_time_of_impact(&chain, &still, &ball, &down, 1.0);
    let stop = 1.0 - (0.05 - LINEAR_SLOP);
    assert_hit_between(&out, stop / 2.0, (stop + TOLERANCE) / 2.0);
    assert_vec_close(out.normal, v(0.0, 1.0), 1e-6, "normal");
    // From behind it passes through, in either argument order.
    let up = Sweep::between(placed(0.0, -1.0, 0.0), placed(0.0, 1.0, 0.0), Vec2::ZERO);
    assert_eq!(
        shape_time_of_impact(&chain, &still, &ball, &up, 1.0).state,
        ToiState::Separated
    );
    assert_eq!(
        shape_time_of_impact(&ball, &up, &chain, &still, 1.0).state,
        ToiState::Separated
    );
    // A bar approaching from behind, whatever its rotation, is not stopped either.
    let bar = polygon(make_box(1.0, 0.05).unwrap());
    let spinning_up = Sweep::between(placed(0.0, -1.0, 0.0), placed(0.3, 1.0, 0.7), Vec2::ZERO);
    assert_eq!(
        shape_time_of_impact(&chain, &still, &bar, &spinning_up, 1.0).state,
        ToiState::Separated
    );
    // A two-sided segment stops it from below.
    let two_sided = segment(v(5.0, 0.0), v(-5.0, 0.0));
    let out = shape_time_of_impact(&two_sided, &still, &ball, &up, 1.0);
    assert_hit_between(&out, stop / 2.0, (stop + TOLERANCE) / 2.0);
    assert_vec_close(out.normal, v(0.0, -1.0), 1e-6, "normal");
    assert_eq!(chain.kind(), ShapeKind::ChainSegment);
}

#[test]
fn overlapping_and_bad_input() {
    let a = polygon(make_square(1.0).unwrap());
    let still = Sweep::stationary(Transform::IDENTITY, Vec2::ZERO);
    let inside = Sweep::between(placed(0.5, 0.0, 0.0), placed(5.0, 0.0, 0.0), Vec2::ZERO);
    let out = shape_time_of_impact(&a, &still, &circle(0.2), &inside, 1.0);
    assert_eq!((out.state, out.fraction), (ToiState::Overlapped, 0.0));
    let far = Sweep::between(placed(-5.0, 0.0, 0.0), placed(5.0, 0.0, 0.0), Vec2::ZERO);
    for max_fraction in [f32::NAN, -0.5, 1.5] {
        let out = shape_time_of_impact(&a, &still, &circle(0.2), &far, max_fraction);
        assert_eq!((out.state, out.fraction), (ToiState::Failed, 0.0));
    }
    let bad = Sweep {
        c2: v(f32::INFINITY, 0.0),
        ..far
    };
    assert_eq!(
        shape_time_of_impact(&a, &still, &circle(0.2), &bad, 1.0).state,
        ToiState::Failed
    );
    // A half turn cannot be interpolated.
    let half_turn = Sweep::between(
        placed(-5.0, 0.0, 0.0),
        placed(5.0, 0.0, core::f32::consts::PI),
        Vec2::ZERO,
    );
    let bar = polygon(make_box(0.5, 0.1).unwrap());
    assert_eq!(
        shape_time_of_impact(&a, &still, &bar, &half_turn, 1.0).state,
        ToiState::Failed
    );
    // A shorter interval clips the search.
    let out = shape_time_of_impact(&a, &still, &circle(0.2), &far, 0.3);
    assert_eq!((out.state, out.fraction), (ToiState::Separated, 0.3));
}

/// One analytic case: B translates straight down (from y = 2 to y = −2, one step) onto A,
/// standing at the origin, and their core distance is `y − offset` while B is above A, so the
/// impact window follows from the target for their radii.
struct FallCase {
    name: &'static str,
    a: Shape,
    b: Shape,
    /// B's x position (constant during the fall).
    x: f32,
    /// The core distance is B's height minus this.
    offset: f32,
}

impl FallCase {
    fn check(&self) {
        let still = Sweep::stationary(Transform::IDENTITY, Vec2::ZERO);
        let fall = Sweep::between(
            placed(self.x, 2.0, 0.0),
            placed(self.x, -2.0, 0.0),
            Vec2::ZERO,
        );
        let out = shape_time_of_impact(&self.a, &still, &self.b, &fall, 1.0);
        let radii =
            ShapeProxy::from_shape(&self.a).radius() + ShapeProxy::from_shape(&self.b).radius();
        let target = LINEAR_SLOP.max(radii - LINEAR_SLOP);
        // Height h = 2 − 4t; the cores are `target` apart at h = offset + target.
        let time_at = |core: f32| (2.0 - self.offset - core) / 4.0;
        assert_eq!(out.state, ToiState::Hit, "{}: {out:?}", self.name);
        assert!(
            out.fraction >= time_at(target + TOLERANCE) - 1e-6
                && out.fraction <= time_at(target) + 1e-6,
            "{}: t = {} outside [{}, {}]",
            self.name,
            out.fraction,
            time_at(target + TOLERANCE),
            time_at(target)
        );
        assert_vec_close(out.normal, v(0.0, 1.0), 1e-5, self.name);
    }
}

/// Each kind of shape against the others, with times from the geometry: circles, capsules,
/// segments, rounded and sharp polygons, and chain segments from their free side.
#[test]
fn each_shape_pair_meets_at_its_analytic_time() {
    let capsule = horizontal_capsule(1.0, 0.1);
    let upright = Shape::Capsule(crate::shapes::Capsule {
        center1: v(0.0, -0.2),
        center2: v(0.0, 0.2),
        radius: 0.05,
    });
    let rounded = polygon(crate::hull::make_rounded_box(0.5, 0.5, 0.1).unwrap());
    let small_rounded = polygon(crate::hull::make_rounded_box(0.3, 0.2, 0.05).unwrap());
    let chain = Shape::ChainSegment(crate::shapes::ChainSegment {
        ghost1: v(2.0, 0.0),
        segment: Segment {
            point1: v(1.0, 0.0),
            point2: v(-1.0, 0.0),
        },
        ghost2: v(-2.0, 0.0),
        chain_id: 0,
    });
    let line = segment(v(-1.0, 0.0), v(1.0, 0.0));
    let square = polygon(make_square(0.5).unwrap());
    let cases = [
        // Centres in line: the core distance is the distance of the centres.
        FallCase {
            name: "circle-circle",
            a: circle(0.3),
            b: circle(0.2),
            x: 0.0,
            offset: 0.0,
        },
        // A point above a segment core: its height.
        FallCase {
            name: "capsule-circle",
            a: capsule,
            b: circle(0.2),
            x: 0.3,
            offset: 0.0,
        },
        // The upright capsule's lower centre is 0.2 below its origin.
        FallCase {
            name: "segment-capsule",
            a: line,
            b: upright,
            x: 0.4,
            offset: 0.2,
        },
        FallCase {
            name: "capsule-capsule",
            a: capsule,
            b: upright,
            x: -0.6,
            offset: 0.2,
        },
        // Parallel faces: core tops at 0.5 (A) and bottoms 0.2 below B's origin.
        FallCase {
            name: "rounded-rounded",
            a: rounded,
            b: small_rounded,
            x: 0.2,
            offset: 0.7,
        },
        FallCase {
            name: "square-capsule",
            a: square,
            b: upright,
            x: 0.1,
            offset: 0.7,
        },
        FallCase {
            name: "rounded-circle",
            a: rounded,
            b: circle(0.1),
            x: -0.3,
            offset: 0.5,
        },
        FallCase {
            name: "segment-rounded",
            a: line,
            b: small_rounded,
            x: 0.0,
            offset: 0.2,
        },
        // A chain segment whose free side is up stops shapes falling onto it.
        FallCase {
            name: "chain-circle",
            a: chain,
            b: circle(0.2),
            x: 0.5,
            offset: 0.0,
        },
        FallCase {
            name: "chain-capsule",
            a: chain,
            b: upright,
            x: -0.5,
            offset: 0.2,
        },
        FallCase {
            name: "chain-rounded",
            a: chain,
            b: small_rounded,
            x: 0.1,
            offset: 0.2,
        },
    ];
    for case in &cases {
        case.check();
    }
    // Rising from below, the chain's back, the same shapes pass through it.
    let still = Sweep::stationary(Transform::IDENTITY, Vec2::ZERO);
    let rise = Sweep::between(placed(0.1, -2.0, 0.0), placed(0.1, 2.0, 0.0), Vec2::ZERO);
    for b in [circle(0.2), upright, small_rounded] {
        let out = shape_time_of_impact(&chain, &still, &b, &rise, 1.0);
        assert_eq!(
            (out.state, out.fraction),
            (ToiState::Separated, 1.0),
            "{b:?}"
        );
    }
}

/// Random convex shapes on random sweeps with turning, checked by dense sampling: before the
/// reported time the cores never come within the target (the advancement is conservative), at
/// a hit they are within the tolerance of it, and a separated pair stays clear throughout.
#[test]
fn random_sweeps_are_conservative() {
    let mut uniform = Uniform::new(11);
    let mut counts = [0usize; 4];
    let mut total_iterations = 0;
    let shape_of = |uniform: &mut Uniform| loop {
        let points: Vec<Vec2> = (0..5)
            .map(|_| v(uniform.range(-0.6, 0.6), uniform.range(-0.6, 0.6)))
            .collect();
        let radius = if uniform.range(0.0, 1.0) < 0.5 {
            0.0
        } else {
            uniform.range(0.0, 0.1)
        };
        if let Ok(p) = make_polygon(&points, radius) {
            return ShapeProxy::from_shape(&Shape::Polygon(p));
        }
    };
    for case in 0..200 {
        let (a, b) = (shape_of(&mut uniform), shape_of(&mut uniform));
        let random_sweep = |uniform: &mut Uniform, start: Vec2, end: Vec2| {
            let angle = uniform.range(-3.0, 3.0);
            let xf1 = Transform::new(start, Rot::from_angle(angle));
            let turn = uniform.range(-1.0, 1.0);
            let xf2 = Transform::new(end, Rot::from_angle(angle + turn));
            Sweep::between(
                xf1,
                xf2,
                v(uniform.range(-0.2, 0.2), uniform.range(-0.2, 0.2)),
            )
        };
        let wobble = v(uniform.range(-0.5, 0.5), uniform.range(-0.5, 0.5));
        let sweep_a = random_sweep(&mut uniform, Vec2::ZERO, wobble);
        // B starts 3 m away and heads through the neighbourhood of A's path.
        let heading = uniform.range(0.0, core::f32::consts::TAU);
        let start_b = 3.0 * v(heading.cos(), heading.sin());
        let aim = v(uniform.range(-1.5, 1.5), uniform.range(-1.5, 1.5));
        let sweep_b = random_sweep(&mut uniform, start_b, aim - 0.5 * start_b);
        let input = ToiInput::new(a, sweep_a, b, sweep_b);
        let out = time_of_impact(&input);
        total_iterations += out.iterations;
        let target = (a.radius() + b.radius() + input.target_separation).max(input.tolerance);
        let core_at = |t: f32| {
            let distance = DistanceInput {
                proxy_a: a,
                xf_a: sweep_a.transform_at(t),
                proxy_b: b,
                xf_b: sweep_b.transform_at(t),
                use_radii: false,
            };
            shape_distance(&distance, &mut SimplexCache::default()).distance
        };
        let clear_until =
            |end: f32| (0..=2000).all(|i| core_at(end * i as f32 / 2000.0) >= target - 1e-5);
        match out.state {
            ToiState::Hit => {
                counts[0] += 1;
                let d = core_at(out.fraction);
                assert!(
                    d >= target - 1e-5 && d <= target + input.tolerance + 1e-5,
                    "case {case}: core distance {d} at the hit, target {target}"
                );
                assert!(
                    clear_until(out.fraction),
                    "case {case}: contact before the hit"
                );
            }
            ToiState::Separated => {
                counts[1] += 1;
                assert!(
                    clear_until(1.0),
                    "case {case}: contact in a separated sweep"
                );
            }
            ToiState::Failed => {
                counts[2] += 1;
                assert!(
                    clear_until(out.fraction),
                    "case {case}: contact before the safe time"
                );
            }
            ToiState::Overlapped => counts[3] += 1,
        }
    }
    assert!(
        counts[0] > 40 && counts[1] > 40,
        "hit/separated/failed/overlapped: {counts:?}"
    );
    assert!(counts[2] <= 4, "too many failures: {counts:?}");
    assert!(
        total_iterations <= 200 * 8,
        "{total_iterations} distance calls for 200 sweeps"
    );
}
