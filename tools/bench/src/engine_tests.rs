//! Contract tests every backend must pass, run against each compiled-in engine.
//!
//! They check the answers the runner relies on against analytic values: free fall under
//! substepped symplectic Euler, the penetration of two boxes placed overlapping, a motor
//! reaching its speed, a hinge holding its anchors together, a rigid distance joint keeping
//! its length, a distance spring oscillating at its frequency, a body created turned (and a
//! hinge limit counted from that pose), counters of a built scene, removal of a group, and
//! the validation scenes' figures against the exact pendulum period.

use crate::engine::{Counters, Engine, EngineFactory, WorldSettings};
use crate::runner::{PreparedScene, RunConfig};
use crate::validation::run_validation;
use scenes::description::{
    self, BodyDesc, BodyGroup, BodyKind, DistanceDesc, Geometry, LinearSpring, MAIN_SLOT, Motor,
    RevoluteDesc, SUBSTEPS, ShapeDesc, TIME_STEP, Vec2, square_box,
};
use scenes::figures::Figures;
use scenes::figures::pendulum::zero_crossings;

fn engines() -> Vec<(&'static str, EngineFactory)> {
    vec![
        ("box2d", crate::box2d::create as EngineFactory),
        ("rapier", crate::rapier::create as EngineFactory),
    ]
}

fn world(factory: EngineFactory, gravity: Vec2) -> Box<dyn Engine> {
    let settings = WorldSettings {
        gravity,
        sleep_enabled: false,
        threads: 1,
        continuous: false,
        contact_recycling: true,
    };
    factory(&settings).expect("engine builds")
}

fn single_box(kind: BodyKind, position: Vec2) -> BodyDesc {
    BodyDesc::new(kind, position).with_shape(ShapeDesc::new(square_box(0.5, 0.5)))
}

/// Symplectic Euler with `n` substeps of `h` from rest: `v_k = −g·k·h`, and
/// `y_n = y_0 − g·h²·n(n+1)/2` exactly.
#[test]
fn free_fall_follows_substepped_symplectic_euler() {
    for (name, factory) in engines() {
        let mut engine = world(factory, Vec2::new(0.0, -10.0));
        let group = BodyGroup {
            bodies: vec![single_box(BodyKind::Dynamic, Vec2::new(0.0, 100.0))],
            joints: Vec::new(),
        };
        engine.insert_group(MAIN_SLOT, &group).unwrap();
        let steps = 30;
        for _ in 0..steps {
            engine.step();
        }
        let h = TIME_STEP / SUBSTEPS as f32;
        let n = (steps * SUBSTEPS) as f32;
        let expected = 100.0 - 10.0 * h * h * n * (n + 1.0) / 2.0;
        let y = engine.body_position(MAIN_SLOT, 0).unwrap().y;
        // Integrators may differ by one substep's travel (g·t·h ≈ 0.0021 m at t = 0.5 s).
        let one_substep = 10.0 * (steps as f32 * TIME_STEP) * h;
        assert!(
            (y - expected).abs() <= one_substep,
            "{name}: y {y} vs {expected}"
        );
    }
}

/// A dynamic box placed 0.1 m into a static one (no gravity): the manifold computed at the
/// start of the first step reports that overlap, less the little the step itself resolves.
#[test]
fn penetration_of_overlapping_boxes_is_reported() {
    for (name, factory) in engines() {
        let mut engine = world(factory, Vec2::ZERO);
        let group = BodyGroup {
            bodies: vec![
                single_box(BodyKind::Static, Vec2::ZERO),
                single_box(BodyKind::Dynamic, Vec2::new(0.0, 0.9)),
            ],
            joints: Vec::new(),
        };
        engine.insert_group(MAIN_SLOT, &group).unwrap();
        engine.step();
        let deepest = engine.deepest_penetration();
        assert!((deepest - 0.1).abs() < 0.01, "{name}: {deepest}");
        assert_eq!(engine.counters().contacts, 1, "{name}");
    }
}

/// A box on a motorised hinge to a static body, no gravity: the motor's torque limit is far
/// above what the box's inertia needs, so after half a second it turns at the motor speed.
#[test]
fn motor_reaches_its_speed_and_hinge_holds() {
    for (name, factory) in engines() {
        let mut engine = world(factory, Vec2::ZERO);
        let anchor = Vec2::new(2.0, 0.0);
        let joint = RevoluteDesc {
            motor: Some(Motor {
                speed: 1.5,
                max_torque: 1.0e4,
            }),
            ..RevoluteDesc::hinge(0, 1, anchor, Vec2::ZERO)
        };
        let group = BodyGroup {
            bodies: vec![
                BodyDesc::new(BodyKind::Static, Vec2::ZERO),
                single_box(BodyKind::Dynamic, anchor),
            ],
            joints: vec![joint.into()],
        };
        engine.insert_group(MAIN_SLOT, &group).unwrap();
        for _ in 0..30 {
            engine.step();
        }
        let speed = engine.body_angular_velocity(MAIN_SLOT, 1).unwrap();
        assert!((speed - 1.5).abs() < 0.015, "{name}: {speed}");
        assert!(engine.max_joint_error() < 1e-3, "{name}");
    }
}

/// A pendulum: a box whose centre is 1 m to the side of its pivot swings down under
/// gravity. Released horizontally it passes the bottom (centre 1 m below the pivot) within
/// half a period (≈ 1.1 s for this physical pendulum, `I = 7/6` about the pivot), so over
/// 1.5 s the lowest sampled centre is 1 m below the pivot: at the bottom the box turns at
/// ω ≈ 4.1 rad/s, so a 60 Hz sample is within half a step (0.035 rad) of it, which moves
/// the centre by under a millimetre. The hinge keeps its anchors within a millimetre.
#[test]
fn pendulum_keeps_its_length_and_swings_through_the_bottom() {
    for (name, factory) in engines() {
        let mut engine = world(factory, Vec2::new(0.0, -10.0));
        let pivot = Vec2::new(0.0, 5.0);
        let joint = RevoluteDesc::hinge(0, 1, pivot, Vec2::new(-1.0, 0.0));
        let group = BodyGroup {
            bodies: vec![
                BodyDesc::new(BodyKind::Static, Vec2::ZERO),
                single_box(BodyKind::Dynamic, Vec2::new(1.0, 5.0)),
            ],
            joints: vec![joint.into()],
        };
        engine.insert_group(MAIN_SLOT, &group).unwrap();
        let mut lowest = f32::INFINITY;
        for _ in 0..90 {
            engine.step();
            let error = engine.max_joint_error();
            assert!(error < 1e-3, "{name}: joint error {error}");
            lowest = lowest.min(engine.body_position(MAIN_SLOT, 1).unwrap().y);
        }
        assert!(
            (lowest - (pivot.y - 1.0)).abs() < 2e-3,
            "{name}: lowest {lowest}"
        );
    }
}

#[test]
fn tumbler_counters_match_its_description() {
    let spec = description::find_scene("tumbler").unwrap();
    let (group, _) = spec.build();
    for (name, factory) in engines() {
        let mut engine = world(factory, spec.gravity);
        engine.insert_group(MAIN_SLOT, &group).unwrap();
        engine.step();
        let counters = engine.counters();
        assert_eq!(counters.bodies, 2027, "{name}");
        assert_eq!(counters.shapes, 2029, "{name}");
        assert_eq!(counters.joints, 1, "{name}");
        // Boxes 0.4 m apart with half extent 0.125 do not overlap even with fattened bounds
        // of a few centimetres, and none touches the drum yet: few pairs.
        assert!(counters.contacts < 200, "{name}: {}", counters.contacts);
    }
}

#[test]
fn groups_are_removed_with_their_joints() {
    for (name, factory) in engines() {
        let mut engine = world(factory, Vec2::new(0.0, -10.0));
        let ground = BodyGroup {
            bodies: vec![BodyDesc::new(BodyKind::Static, Vec2::ZERO)],
            joints: Vec::new(),
        };
        engine.insert_group(MAIN_SLOT, &ground).unwrap();
        engine
            .insert_group(7, &description::rain_group(0, 0))
            .unwrap();
        engine.step();
        let full = engine.counters();
        assert_eq!((full.bodies, full.joints), (1 + 55, 50), "{name}");
        assert!(
            engine.insert_group(7, &ground).is_err(),
            "{name}: slot reuse"
        );
        engine.remove_group(7);
        engine.step();
        let counters = engine.counters();
        let expected = Counters {
            bodies: 1,
            shapes: 0,
            contacts: 0,
            joints: 0,
        };
        assert_eq!(counters, expected, "{name}");
        assert_eq!(engine.body_position(7, 0), None, "{name}");
    }
}

/// Box2D aborts the process on a step with more awake bodies than its solver's blocks hold
/// (4 per worker, 65,535 bodies each): the backend refuses such a scene up front, with the
/// worker count it would need, and takes one that fits.
#[test]
fn box2d_refuses_scenes_beyond_its_block_limit() {
    let settings = |threads| WorldSettings {
        gravity: Vec2::ZERO,
        sleep_enabled: true,
        threads,
        continuous: false,
        contact_recycling: true,
    };
    let limit = 4 * 65_535;
    let bodies = |n: usize| BodyGroup {
        bodies: (0..n)
            .map(|i| BodyDesc::new(BodyKind::Dynamic, Vec2::new(i as f32, 0.0)))
            .collect(),
        joints: Vec::new(),
    };
    let mut one_worker = crate::box2d::create(&settings(1)).unwrap();
    let error = one_worker
        .insert_group(MAIN_SLOT, &bodies(limit + 1))
        .unwrap_err();
    assert!(error.0.contains("needs 2 workers"), "{error}");
    let mut two_workers = crate::box2d::create(&settings(2)).unwrap();
    two_workers
        .insert_group(MAIN_SLOT, &bodies(limit + 1))
        .unwrap();
    assert_eq!(two_workers.counters().bodies, limit + 1);
}

/// Box2D's `--stages` line: its `b2Profile` fields, summed over the steps. A stack of boxes
/// takes measurable solver time, the parts of the solve fit inside it, and the whole step
/// is at least the solve.
#[test]
fn box2d_phase_totals_add_up() {
    let mut engine = world(crate::box2d::create, Vec2::new(0.0, -10.0));
    let mut bodies = vec![single_box(BodyKind::Static, Vec2::new(0.0, -0.5))];
    bodies.extend((0..20).map(|i| single_box(BodyKind::Dynamic, Vec2::new(0.0, 0.5 + i as f32))));
    let group = BodyGroup {
        bodies,
        joints: Vec::new(),
    };
    engine.insert_group(MAIN_SLOT, &group).unwrap();
    for _ in 0..60 {
        engine.step();
    }
    let totals = engine.phase_totals();
    let get = |name: &str| {
        totals
            .iter()
            .find(|(n, _)| n.trim() == name)
            .map(|&(_, ms)| ms)
            .unwrap_or_else(|| panic!("no phase {name} in {totals:?}"))
    };
    let (solve, total) = (get("solve"), get("total"));
    let stages: f64 = [
        "prepareConstraints",
        "warmStart",
        "solveImpulses",
        "relaxImpulses",
    ]
    .iter()
    .map(|name| get(name))
    .sum();
    assert!(solve > 0.0, "solve {solve}");
    assert!(
        stages > 0.0 && stages <= solve,
        "stages {stages} vs solve {solve}"
    );
    assert!(total >= solve, "total {total} vs solve {solve}");
}

/// A 1 kg ball of radius 0.05 m at `position`.
fn ball(position: Vec2) -> BodyDesc {
    let circle = Geometry::Circle {
        center: Vec2::ZERO,
        radius: 0.05,
    };
    let density = 1.0 / (std::f32::consts::PI * 0.05 * 0.05);
    BodyDesc::new(BodyKind::Dynamic, position).with_shape(ShapeDesc::new(circle).density(density))
}

/// A ball on a rigid 1 m rod, released at rest 150° from the downward vertical: for the first
/// 35° of its swing the rod must push (the tension `mg(3 cos θ − 2 cos θ₀)` is negative above
/// 125°), which a rope could not. Every sample keeps the length within 5 mm, and by 0.5 s the
/// ball has swung down to about 108° (y = 2.308 m, from integrating θ̈ = −10 sin θ).
#[test]
fn rigid_distance_joint_keeps_its_length() {
    let pivot = Vec2::new(0.0, 2.0);
    let theta0 = 150f32.to_radians();
    for (name, factory) in engines() {
        let mut engine = world(factory, Vec2::new(0.0, -10.0));
        let start = pivot + Vec2::new(theta0.sin(), -theta0.cos());
        let rod = DistanceDesc::rod(0, 1, Vec2::ZERO, Vec2::ZERO, 1.0);
        let group = BodyGroup {
            bodies: vec![BodyDesc::new(BodyKind::Static, pivot), ball(start)],
            joints: vec![rod.into()],
        };
        engine.insert_group(MAIN_SLOT, &group).unwrap();
        for _ in 0..30 {
            engine.step();
            let at = engine.body_position(MAIN_SLOT, 1).unwrap();
            let stretch = (at - pivot).length() - 1.0;
            assert!(stretch.abs() < 5e-3, "{name}: stretched by {stretch}");
            assert!(engine.max_joint_error() < 5e-3, "{name}");
        }
        let at = engine.body_position(MAIN_SLOT, 1).unwrap();
        assert!((at.y - 2.308).abs() < 0.02, "{name}: {at:?}");
    }
}

/// A 1 kg ball on an undamped 1 Hz distance spring to a static body, no gravity, released
/// stretched by 0.2 m: the stretch oscillates with a period of 1 s (from its zero crossings,
/// interpolated, over two periods) and keeps most of its amplitude — implicit springs lose
/// some (Box2D's about 15 % a period at 240 substeps per second), so a second later it is
/// stretched again by between 0.1 and 0.2 m.
#[test]
fn distance_spring_oscillates_at_its_frequency() {
    for (name, factory) in engines() {
        let mut engine = world(factory, Vec2::ZERO);
        let spring = DistanceDesc {
            spring: Some(LinearSpring {
                hertz: 1.0,
                damping_ratio: 0.0,
            }),
            ..DistanceDesc::rod(0, 1, Vec2::ZERO, Vec2::ZERO, 1.0)
        };
        let group = BodyGroup {
            bodies: vec![
                BodyDesc::new(BodyKind::Static, Vec2::ZERO),
                ball(Vec2::new(1.2, 0.0)),
            ],
            joints: vec![spring.into()],
        };
        engine.insert_group(MAIN_SLOT, &group).unwrap();
        let mut stretch = vec![0.2f64];
        for _ in 0..150 {
            engine.step();
            let length = engine.body_position(MAIN_SLOT, 1).unwrap().length();
            stretch.push(f64::from(length) - 1.0);
        }
        let crossings = zero_crossings(&stretch, f64::from(TIME_STEP));
        assert!(crossings.len() >= 5, "{name}: {crossings:?}");
        let period = 0.5 * (crossings[4] - crossings[0]);
        assert!((period - 1.0).abs() < 0.03, "{name}: period {period}");
        let after_one_period = stretch[60];
        assert!(
            (0.1..0.2).contains(&after_one_period),
            "{name}: {after_one_period}"
        );
        // A spring's length is free: it is not counted as joint error.
        assert_eq!(engine.max_joint_error(), 0.0, "{name}");
    }
}

/// A bar created turned by 0.5 rad reports that angle before any step. Hinged at its left
/// end to a static body with limits ±0.1 rad, it swings down under gravity until the lower
/// limit holds it at 0.4 rad: the limits count from the pose at creation.
#[test]
fn turned_bodies_and_hinge_limits_count_from_creation() {
    let angle = 0.5f32;
    for (name, factory) in engines() {
        let mut engine = world(factory, Vec2::new(0.0, -10.0));
        let bar = BodyDesc::new(BodyKind::Dynamic, Vec2::new(0.0, 3.0))
            .rotated(angle)
            .with_shape(ShapeDesc::new(square_box(0.5, 0.05)));
        let end = Vec2::new(-0.5, 0.0);
        let pin = Vec2::new(0.0, 3.0) - 0.5 * Vec2::new(angle.cos(), angle.sin());
        let hinge = RevoluteDesc {
            limits: Some([-0.1, 0.1]),
            ..RevoluteDesc::hinge(0, 1, pin, end)
        };
        let group = BodyGroup {
            bodies: vec![BodyDesc::new(BodyKind::Static, Vec2::ZERO), bar],
            joints: vec![hinge.into()],
        };
        engine.insert_group(MAIN_SLOT, &group).unwrap();
        let start = engine.body_sample(MAIN_SLOT, 1).unwrap().angle;
        assert!((start - angle).abs() < 1e-6, "{name}: created at {start}");
        for _ in 0..60 {
            engine.step();
        }
        let end_angle = engine.body_sample(MAIN_SLOT, 1).unwrap().angle;
        assert!(
            (end_angle - (angle - 0.1)).abs() < 0.02,
            "{name}: {end_angle}"
        );
        assert!(engine.max_joint_error() < 2e-3, "{name}");
    }
}

/// The validation scenes on the comparison engines, over their full runs: both keep the
/// 10-box column standing, and both swing the distance pendulum within 1 % of the exact
/// large-angle period, losing under 1 % of the amplitude in ten periods.
#[test]
fn validation_figures_on_the_comparison_engines() {
    let config = |steps| RunConfig {
        threads: 1,
        steps,
        engine: crate::engine::EngineOptions::default(),
    };
    for (name, factory) in engines() {
        let spec = description::find_scene("column_10").unwrap();
        let scene = PreparedScene::new(spec);
        match run_validation(factory, &scene, config(spec.steps)) {
            Ok(Figures::Stack(f)) => assert!(f.stood && f.fallen == 0, "{name}: {f:?}"),
            other => panic!("{name}: {other:?}"),
        }
        let spec = description::find_scene("pendulum_distance").unwrap();
        let scene = PreparedScene::new(spec);
        match run_validation(factory, &scene, config(spec.steps)) {
            Ok(Figures::Pendulum(f)) => {
                assert_eq!(f.periods, 10, "{name}");
                let error = f.period_error.unwrap();
                let loss = f.amplitude_loss.unwrap();
                assert!(error.abs() < 0.01 && loss.abs() < 0.01, "{name}: {f:?}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}
