//! Body state through the C interface, checked against mechanics worked out by hand: free
//! fall, impulses and forces on a body of known mass and inertia, teleports, and the same world
//! stepped with one and two worker threads.

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;

const DT: f32 = 1.0 / 60.0;

/// A dynamic 2 m × 1 m box of density 2 at the origin in a world without gravity: mass
/// `m = 2·2·1 = 4` kg, inertia about its centre `m(w² + h²)/12 = 4·5/12 = 5/3` kg·m².
fn slab(world: &TestWorld) -> PrismBodyId {
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 0.0));
    let def = PrismShapeDef {
        density: 2.0,
        ..prism_default_shape_def()
    };
    world.add_box(body, 1.0, 0.5, &def);
    body
}

#[test]
fn a_free_body_falls_as_substepped_symplectic_euler_predicts() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 100.0));
    world.add_box(body, 0.5, 0.5, &prism_default_shape_def());
    let steps = 30;
    world.step(steps);
    // Each substep of h = dt/4 adds g·h to the speed, then moves by the new speed: after k
    // substeps v = −g·k·h and y = y0 − g·h²·k(k+1)/2.
    let h = DT / 4.0;
    let k = (4 * steps) as f32;
    let velocity = world.velocity(body);
    let position = world.position(body);
    assert!((velocity.y + 10.0 * k * h).abs() < 1e-4, "{velocity:?}");
    let expected_y = 100.0 - 10.0 * h * h * k * (k + 1.0) / 2.0;
    assert!(
        (position.y - expected_y).abs() < 1e-4,
        "{} vs {expected_y}",
        position.y
    );
    assert_eq!((position.x, velocity.x), (0.0, 0.0));
}

#[test]
fn mass_data_matches_the_shape() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = slab(&world);
    let mut data = PrismMassData {
        mass: 0.0,
        center: vec2(9.0, 9.0),
        rotational_inertia: 0.0,
    };
    // SAFETY: a live world and output.
    ok(unsafe { prism_body_get_mass_data(world.ptr, body, &mut data) });
    assert!((data.mass - 4.0).abs() < 1e-5, "{data:?}");
    assert!(length(data.center) < 1e-6, "{data:?}");
    assert!(
        (data.rotational_inertia - 5.0 / 3.0).abs() < 1e-5,
        "{data:?}"
    );

    let heavier = PrismMassData {
        mass: 8.0,
        center: vec2(0.0, 0.0),
        rotational_inertia: 2.0,
    };
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_set_mass_data(world.ptr, body, heavier) });
    let mut mass = 0.0;
    // SAFETY: a live world and output.
    ok(unsafe { prism_body_get_mass(world.ptr, body, &mut mass) });
    assert_eq!(mass, 8.0);
}

#[test]
fn impulses_change_the_velocity_by_impulse_over_mass() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = slab(&world);
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_apply_linear_impulse_to_center(world.ptr, body, vec2(8.0, 0.0)) });
    assert!((world.velocity(body).x - 2.0).abs() < 1e-5, "8 N·s / 4 kg");

    // (0, 3) N·s at the world point (1, 0), one metre right of the centre: Δv = 3/4 up and
    // Δω = (r × J)/I = 1·3/(5/3) = 1.8 rad/s.
    // SAFETY: as above.
    ok(unsafe { prism_body_apply_linear_impulse(world.ptr, body, vec2(0.0, 3.0), vec2(1.0, 0.0)) });
    let velocity = world.velocity(body);
    assert!((velocity.y - 0.75).abs() < 1e-5, "{velocity:?}");
    assert!((world.angular_velocity(body) - 1.8).abs() < 1e-5);

    // SAFETY: as above.
    ok(unsafe { prism_body_apply_angular_impulse(world.ptr, body, -5.0 / 3.0) });
    assert!((world.angular_velocity(body) - 0.8).abs() < 1e-5);
}

#[test]
fn a_force_acts_for_one_step() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = slab(&world);
    // 12 N on 4 kg for one step: Δv = 3·dt. A torque of 5/3 N·m on I = 5/3: Δω = dt.
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_apply_force_to_center(world.ptr, body, vec2(12.0, 0.0)) });
    // SAFETY: as above.
    ok(unsafe { prism_body_apply_torque(world.ptr, body, 5.0 / 3.0) });
    world.step(1);
    assert!((world.velocity(body).x - 3.0 * DT).abs() < 1e-6);
    assert!((world.angular_velocity(body) - DT).abs() < 1e-6);
    world.step(1);
    assert!(
        (world.velocity(body).x - 3.0 * DT).abs() < 1e-6,
        "forces last one step"
    );
}

#[test]
fn transforms_and_velocities_round_trip() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = slab(&world);
    let rotation = prism_make_rot(0.75);
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_set_transform(world.ptr, body, vec2(3.0, -2.0), rotation) });
    let mut transform = PrismTransform {
        p: vec2(0.0, 0.0),
        q: prism_rot_identity(),
    };
    // SAFETY: a live world and output.
    ok(unsafe { prism_body_get_transform(world.ptr, body, &mut transform) });
    assert_eq!(transform.p, vec2(3.0, -2.0));
    assert!((prism_rot_get_angle(transform.q) - 0.75).abs() < 1e-6);
    assert!((world.angle(body) - 0.75).abs() < 1e-6);
    let mut q = prism_rot_identity();
    // SAFETY: a live world and output.
    ok(unsafe { prism_body_get_rotation(world.ptr, body, &mut q) });
    assert_eq!(q, transform.q);

    // A body moving at (1, 2) m/s and 0.5 rad/s with no forces moves by v·dt and turns by
    // ω·dt in a step (the centre of mass is the origin).
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_set_linear_velocity(world.ptr, body, vec2(1.0, 2.0)) });
    // SAFETY: as above.
    ok(unsafe { prism_body_set_angular_velocity(world.ptr, body, 0.5) });
    world.step(1);
    let position = world.position(body);
    assert!(
        (position.x - (3.0 + DT)).abs() < 1e-5 && (position.y - (-2.0 + 2.0 * DT)).abs() < 1e-5
    );
    assert!((world.angle(body) - (0.75 + 0.5 * DT)).abs() < 1e-5);

    // SAFETY: a live world; the non-unit rotation is what is tested.
    let status = unsafe {
        prism_body_set_transform(world.ptr, body, vec2(0.0, 0.0), PrismRot { c: 0.5, s: 0.5 })
    };
    fails(
        status,
        PrismStatus::OutOfRange,
        &["`rotation` must be a unit rotation"],
    );
}

#[test]
fn types_user_data_shapes_and_sleep_are_reported() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    let (ground, ground_shape) = world.ground();
    let mover = world.body(PRISM_BODY_TYPE_KINEMATIC, vec2(0.0, 5.0));
    let mut body_type = 99;
    // SAFETY: a live world and output.
    ok(unsafe { prism_body_get_type(world.ptr, mover, &mut body_type) });
    assert_eq!(body_type, PRISM_BODY_TYPE_KINEMATIC);
    // SAFETY: as above.
    ok(unsafe { prism_body_get_type(world.ptr, ground, &mut body_type) });
    assert_eq!(body_type, PRISM_BODY_TYPE_STATIC);

    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_set_user_data(world.ptr, mover, 0xfeed_beef) });
    let mut user_data = 0;
    // SAFETY: a live world and output.
    ok(unsafe { prism_body_get_user_data(world.ptr, mover, &mut user_data) });
    assert_eq!(user_data, 0xfeed_beef);

    let second = world.add_box(ground, 1.0, 1.0, &prism_default_shape_def());
    let mut shapes = [PrismShapeId::default(); 3];
    let mut count = 0;
    // SAFETY: a live world; `shapes` holds 3 ids; `count` is live.
    ok(unsafe { prism_body_get_shapes(world.ptr, ground, shapes.as_mut_ptr(), 3, &mut count) });
    assert_eq!(&shapes[..count], &[ground_shape, second]);

    // A box resting on the ground falls asleep after half a second of rest; waking it puts it
    // back in the awake set.
    let sleeper = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 0.5));
    world.add_box(sleeper, 0.5, 0.5, &prism_default_shape_def());
    let awake = |body| {
        let mut out = false;
        // SAFETY: a live world and output.
        ok(unsafe { prism_body_is_awake(world.ptr, body, &mut out) });
        out
    };
    assert!(awake(sleeper));
    world.step(90);
    assert!(!awake(sleeper), "at rest for over 0.5 s");
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_set_awake(world.ptr, sleeper, true) });
    assert!(awake(sleeper));
}

/// A stack of boxes stepped with `workers` threads: the positions after 120 steps.
fn stack_positions(workers: u32) -> Vec<(u32, u32)> {
    let def = PrismWorldDef {
        worker_count: workers,
        ..prism_default_world_def()
    };
    let world = TestWorld::with_def(&def);
    world.ground();
    let bodies: Vec<PrismBodyId> = (0..12)
        .map(|i| {
            let x = 0.3 * (i % 3) as f32 - 0.3;
            let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(x, 0.5 + 1.05 * i as f32));
            world.add_box(body, 0.5, 0.5, &prism_default_shape_def());
            body
        })
        .collect();
    world.step(120);
    bodies
        .iter()
        .map(|&body| {
            let p = world.position(body);
            (p.x.to_bits(), p.y.to_bits())
        })
        .collect()
}

#[test]
fn one_and_two_workers_give_bitwise_identical_worlds() {
    assert_eq!(stack_positions(1), stack_positions(2));
}
