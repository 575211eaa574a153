//! Joints through the C interface, checked against what each constraint must hold and against
//! energy conservation: a hinged pendulum, a rod, a weld, a motorised slider, limits, a target,
//! the reaction of a hanging weight, and destruction.

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;

const G: f32 = 10.0;
const DT: f32 = 1.0 / 60.0;

/// A static pivot at (0, 5) and a dynamic 0.2 m square bob of density 1 centred at
/// `pivot + offset`.
fn pivot_and_bob(world: &TestWorld, offset: PrismVec2) -> (PrismBodyId, PrismBodyId) {
    let pivot = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 5.0));
    let bob = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(offset.x, 5.0 + offset.y));
    world.add_box(bob, 0.1, 0.1, &prism_default_shape_def());
    (pivot, bob)
}

/// A hinge between the pivot and the bob at the pivot's origin.
fn hinge(world: &TestWorld, pivot: PrismBodyId, bob: PrismBodyId) -> PrismJointId {
    let mut def = prism_default_revolute_joint_def();
    // SAFETY: a live world and output.
    ok(unsafe { prism_joint_anchored_def(world.ptr, pivot, bob, vec2(0.0, 5.0), &mut def.base) });
    let mut joint = PrismJointId::default();
    // SAFETY: a live world; live definition and output.
    ok(unsafe { prism_joint_create_revolute(world.ptr, &def, &mut joint) });
    joint
}

fn distance_to_pivot(world: &TestWorld, bob: PrismBodyId) -> f32 {
    let p = world.position(bob);
    length(vec2(p.x, p.y - 5.0))
}

#[test]
fn a_hinged_pendulum_keeps_its_length_and_its_energy() {
    let world = TestWorld::new(vec2(0.0, -G));
    let (pivot, bob) = pivot_and_bob(&world, vec2(1.0, 0.0));
    let joint = hinge(&world, pivot, bob);
    // Released level with the pivot, the bob swings down. At the bottom its drop L = 1 m
    // has become kinetic energy of rotation about the pivot:
    //   m·g·L = ½·(m·L² + I)·ω²,  I = m·(0.2² + 0.2²)/12,
    // so its speed there is ω·L = sqrt(2·g·L / (1 + I/(m·L²))).
    let inertia_ratio = (0.04 + 0.04) / 12.0;
    let bottom_speed = (2.0 * G / (1.0 + inertia_ratio)).sqrt();
    let mut fastest: f32 = 0.0;
    for _ in 0..60 {
        world.step(1);
        let stretch = (distance_to_pivot(&world, bob) - 1.0).abs();
        assert!(stretch < 0.01, "the hinge holds: stretched by {stretch} m");
        fastest = fastest.max(length(world.velocity(bob)));
        let mut joint_angle = 0.0;
        // SAFETY: a live world and output.
        ok(unsafe { prism_joint_get_angle(world.ptr, joint, &mut joint_angle) });
        assert!(
            (joint_angle - world.angle(bob)).abs() < 1e-4,
            "pivot fixed, reference 0"
        );
    }
    assert!(
        (fastest - bottom_speed).abs() < 0.01 * bottom_speed,
        "fastest {fastest} m/s, energy conservation predicts {bottom_speed} m/s"
    );
}

#[test]
fn a_hanging_weight_pulls_on_its_hinge_with_its_weight() {
    let world = TestWorld::new(vec2(0.0, -G));
    let (pivot, bob) = pivot_and_bob(&world, vec2(0.0, -1.0));
    let joint = hinge(&world, pivot, bob);
    world.step(30);
    let mut reaction = PrismJointReaction {
        force: vec2(0.0, 0.0),
        torque: 9.0,
    };
    // SAFETY: a live world and output.
    ok(unsafe { prism_joint_get_reaction(world.ptr, joint, &mut reaction) });
    // The hinge holds the 0.04 kg bob up: it pushes body B up with m·g = 0.4 N, no torque.
    assert!((reaction.force.y - 0.4).abs() < 0.004, "{reaction:?}");
    assert!(
        reaction.force.x.abs() < 1e-4 && reaction.torque.abs() < 1e-4,
        "{reaction:?}"
    );

    // Destroyed, the hinge lets go: the bob falls freely, gaining g·dt of speed per step.
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_joint_destroy(world.ptr, joint) });
    let before = world.velocity(bob).y;
    world.step(1);
    assert!((world.velocity(bob).y - (before - G * DT)).abs() < 1e-4);
}

#[test]
fn a_limited_hinge_stops_at_its_limit() {
    let world = TestWorld::new(vec2(0.0, -G));
    let (pivot, bob) = pivot_and_bob(&world, vec2(1.0, 0.0));
    let joint = hinge(&world, pivot, bob);
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_joint_set_limits(world.ptr, joint, true, -0.25, 0.25) });
    let mut lowest: f32 = 0.0;
    for _ in 0..120 {
        world.step(1);
        lowest = lowest.min(world.angle(bob));
    }
    // Swinging down turns the bob clockwise (negative angles); the limit stops it at −0.25.
    assert!(lowest > -0.25 - 0.02, "overshot the limit: {lowest}");
    assert!(
        (world.angle(bob) + 0.25).abs() < 0.02,
        "rests on the limit: {}",
        world.angle(bob)
    );
}

#[test]
fn a_distance_joint_keeps_its_length() {
    let world = TestWorld::new(vec2(0.0, -G));
    let pivot = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 5.0));
    let ball = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(2.0, 5.0));
    let circle = PrismCircle {
        center: vec2(0.0, 0.0),
        radius: 0.2,
    };
    let mut shape = PrismShapeId::default();
    let def = prism_default_shape_def();
    // SAFETY: a live world; live definition, circle and output.
    ok(unsafe { prism_shape_create_circle(world.ptr, ball, &def, &circle, &mut shape) });
    let mut rod = prism_default_distance_joint_def();
    rod.base.body_a = pivot;
    rod.base.body_b = ball;
    rod.length = 2.0;
    let mut joint = PrismJointId::default();
    // SAFETY: a live world; live definition and output.
    ok(unsafe { prism_joint_create_distance(world.ptr, &rod, &mut joint) });
    let mut lowest = f32::MAX;
    for _ in 0..90 {
        world.step(1);
        let p = world.position(ball);
        let stretch = (length(vec2(p.x, p.y - 5.0)) - 2.0).abs();
        assert!(stretch < 0.01, "the rod holds: stretched by {stretch} m");
        lowest = lowest.min(p.y);
    }
    // The ball swung through the bottom of its arc, one rod length below the pivot.
    assert!((lowest - 3.0).abs() < 0.02, "lowest point {lowest}");
}

#[test]
fn a_weld_holds_a_cantilever() {
    let world = TestWorld::new(vec2(0.0, -G));
    let wall = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 0.0));
    let beam = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(1.0, 0.0));
    world.add_box(beam, 0.5, 0.1, &prism_default_shape_def());
    let mut weld = prism_default_weld_joint_def();
    // SAFETY: a live world and output.
    ok(unsafe { prism_joint_anchored_def(world.ptr, wall, beam, vec2(0.5, 0.0), &mut weld.base) });
    let mut joint = PrismJointId::default();
    // SAFETY: a live world; live definition and output.
    ok(unsafe { prism_joint_create_weld(world.ptr, &weld, &mut joint) });
    world.step(60);
    let p = world.position(beam);
    assert!(
        length(vec2(p.x - 1.0, p.y)) < 0.01,
        "the beam stays put: {p:?}"
    );
    assert!(
        world.angle(beam).abs() < 0.01,
        "without drooping: {}",
        world.angle(beam)
    );
}

#[test]
fn a_motorised_slider_moves_along_its_axis_only() {
    let world = TestWorld::new(vec2(0.0, -G));
    let rail = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 1.0));
    let carriage = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 1.0));
    world.add_box(carriage, 0.25, 0.25, &prism_default_shape_def());
    let mut slider = prism_default_prismatic_joint_def();
    slider.base.body_a = rail;
    slider.base.body_b = carriage;
    slider.local_axis_a = vec2(1.0, 0.0);
    let mut joint = PrismJointId::default();
    // SAFETY: a live world; live definition and output.
    ok(unsafe { prism_joint_create_prismatic(world.ptr, &slider, &mut joint) });
    // A motor at 1 m/s with ample force (100 N on 0.25 kg).
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_joint_set_motor(world.ptr, joint, true, 1.0, 100.0) });
    world.step(60);
    let velocity = world.velocity(carriage);
    assert!((velocity.x - 1.0).abs() < 0.01, "{velocity:?}");
    let p = world.position(carriage);
    assert!(
        (p.y - 1.0).abs() < 0.01,
        "gravity cannot pull it off the rail: {p:?}"
    );
    assert!(world.angle(carriage).abs() < 0.01);
    let mut translation = 0.0;
    // SAFETY: a live world and output.
    ok(unsafe { prism_joint_get_translation(world.ptr, joint, &mut translation) });
    assert!((translation - p.x).abs() < 1e-4, "{translation} vs {}", p.x);
}

#[test]
fn a_target_joint_pulls_its_body_to_the_target() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let ground = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 0.0));
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 0.0));
    world.add_box(body, 0.25, 0.25, &prism_default_shape_def());
    let mut target = prism_default_target_joint_def();
    target.base.body_a = ground;
    target.base.body_b = body;
    target.target = vec2(2.0, 1.0);
    let mut joint = PrismJointId::default();
    // SAFETY: a live world; live definition and output.
    ok(unsafe { prism_joint_create_target(world.ptr, &target, &mut joint) });
    // A 5 Hz spring with damping ratio 0.7 settles within a few periods (0.2 s each).
    world.step(120);
    let p = world.position(body);
    assert!(length(vec2(p.x - 2.0, p.y - 1.0)) < 0.01, "{p:?}");
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_joint_set_target(world.ptr, joint, vec2(-1.0, 0.0)) });
    world.step(120);
    let p = world.position(body);
    assert!(length(vec2(p.x + 1.0, p.y)) < 0.01, "{p:?}");
    // SAFETY: a live world; a revolute setting on a target joint is what is tested.
    let status = unsafe { prism_joint_set_limits(world.ptr, joint, true, 0.0, 1.0) };
    fails(status, PrismStatus::InvalidJoint, &["target joint"]);
}

#[test]
fn wheel_and_motor_joints_are_created_with_their_defaults() {
    let world = TestWorld::new(vec2(0.0, -G));
    let chassis = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 2.0));
    world.add_box(chassis, 1.0, 0.25, &prism_default_shape_def());
    let wheel_body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 1.5));
    world.add_box(wheel_body, 0.2, 0.2, &prism_default_shape_def());
    let mut wheel = prism_default_wheel_joint_def();
    assert_eq!(wheel.local_axis_a, vec2(0.0, 1.0));
    wheel.base.body_a = chassis;
    wheel.base.body_b = wheel_body;
    wheel.base.local_anchor_a = vec2(0.0, -0.5);
    let mut joint = PrismJointId::default();
    // SAFETY: a live world; live definition and output.
    ok(unsafe { prism_joint_create_wheel(world.ptr, &wheel, &mut joint) });

    let other = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(3.0, 2.0));
    world.add_box(other, 0.2, 0.2, &prism_default_shape_def());
    let mut motor = prism_default_motor_joint_def();
    assert_eq!(motor.correction_factor, 0.3);
    motor.base.body_a = chassis;
    motor.base.body_b = other;
    // SAFETY: as above.
    ok(unsafe { prism_joint_create_motor(world.ptr, &motor, &mut joint) });
    world.step(10);
    // The wheel's anchor stays on the chassis's vertical axis through (0, −0.5).
    let offset = world.position(wheel_body).x - world.position(chassis).x;
    assert!(offset.abs() < 0.01, "{offset}");
}
