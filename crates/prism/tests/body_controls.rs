//! Body controls mid-simulation: changing type, disabling and enabling, driving a body to a
//! target transform, locking rotation. Run with `--features validate` these also check the
//! whole world after every step (colours, islands, solver sets, the disabled set, the copies
//! constraints hold of their bodies): a broken structure fails the step.

mod common;

use common::{DT, SUBSTEPS, add_ground, run, world_with};
use prism::{
    BodyDef, BodyId, BodyType, Circle, JointDef, QueryFilter, RevoluteJointDef, Rot, ShapeDef,
    SolverKind, Vec2, World, WorldDef, make_box, math,
};

const G: f32 = 10.0;

fn add_box(world: &mut World, def: &BodyDef, half: f32) -> BodyId {
    let body = world.create_body(def).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(half, half).unwrap())
        .unwrap();
    body
}

fn add_ball(world: &mut World, at: Vec2, radius: f32) -> BodyId {
    let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius,
    };
    world
        .create_circle_shape(body, &ShapeDef::default(), &circle)
        .unwrap();
    body
}

/// Symplectic Euler's fall from rest over `steps` steps (`solver-simd`'s integrate.rs):
/// `½·g·t² + ½·g·t·h` with `h` the substep.
fn fallen(steps: usize) -> f32 {
    let t = steps as f32 * DT;
    let h = DT / SUBSTEPS as f32;
    0.5 * G * t * t + 0.5 * G * t * h
}

/// A stack of two boxes on the ground; the lower one is made static, kinematic and dynamic
/// again, the upper one resting on it throughout.
#[test]
fn the_lower_box_of_a_stack_changes_type() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 20.0);
    let lower = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(0.0, 0.5)), 0.5);
    let upper = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(0.0, 1.5)), 0.5);
    run(&mut world, 60);

    world.set_body_type(lower, BodyType::Static).unwrap();
    assert_eq!(world.body_type(lower).unwrap(), BodyType::Static);
    assert_eq!(world.mass_data(lower).unwrap().mass, 0.0);
    assert!(world.body_island(lower).unwrap().is_none());
    let pose = world.transform(lower).unwrap();
    run(&mut world, 60);
    assert_eq!(
        world.transform(lower).unwrap(),
        pose,
        "a static body never moves"
    );
    assert!((world.position(upper).unwrap().y - 1.5).abs() < 0.02);

    // Kinematic, sliding at 1 m/s: exactly 1 m in 60 steps, carrying the upper box along.
    world.set_body_type(lower, BodyType::Kinematic).unwrap();
    world
        .set_linear_velocity(lower, Vec2::new(1.0, 0.0))
        .unwrap();
    run(&mut world, 60);
    let moved = world.position(lower).unwrap() - pose.p;
    assert!(
        (moved - Vec2::X).length() < 1e-4,
        "{moved:?}: 1 m/s for 1 s, no gravity"
    );
    assert!(
        world.position(upper).unwrap().x > 0.5,
        "carried by friction"
    );

    // Dynamic again: it has mass again, and settles back on the ground under the upper box.
    world.set_linear_velocity(lower, Vec2::ZERO).unwrap();
    world.set_body_type(lower, BodyType::Dynamic).unwrap();
    assert!((world.mass_data(lower).unwrap().mass - 1.0).abs() < 1e-5);
    assert!(world.body_island(lower).unwrap().is_some());
    run(&mut world, 60);
    assert!((world.position(lower).unwrap().y - 0.5).abs() < 0.02);
    assert!((world.position(upper).unwrap().y - 1.5).abs() < 0.03);
}

/// A static box in the air made dynamic falls as the integrator says; a sleeping box made
/// static stays put and keeps what rests on it.
#[test]
fn static_to_dynamic_falls_and_sleeping_to_static_holds() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 20.0);
    let hanging = add_box(&mut world, &BodyDef::fixed_at(Vec2::new(5.0, 10.0)), 0.5);
    run(&mut world, 10);
    world.set_body_type(hanging, BodyType::Dynamic).unwrap();
    assert!(world.is_awake(hanging).unwrap());
    run(&mut world, 30);
    let drop = 10.0 - world.position(hanging).unwrap().y;
    assert!((drop - fallen(30)).abs() < 1e-3, "{drop} vs {}", fallen(30));

    let base = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(-5.0, 0.5)), 0.5);
    let top = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(-5.0, 1.5)), 0.5);
    run(&mut world, 120);
    assert!(!world.is_awake(base).unwrap(), "the stack fell asleep");
    world.set_body_type(base, BodyType::Static).unwrap();
    let base_pose = world.transform(base).unwrap();
    run(&mut world, 60);
    assert_eq!(world.transform(base).unwrap(), base_pose);
    assert!((world.position(top).unwrap().y - 1.5).abs() < 0.02);
}

/// A pendulum hung from a dynamic anchor block: made static, the anchor holds the pendulum
/// still in place; made kinematic and moved, it drags the pendulum along; the hinge keeps the
/// two anchor points together throughout.
#[test]
fn jointed_bodies_change_type_with_their_joint() {
    let mut world = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..WorldDef::default()
    })
    .unwrap();
    let anchor = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(0.0, 5.0)), 0.25);
    let bob = add_ball(&mut world, Vec2::new(0.0, 3.0), 0.2);
    let def = world
        .anchored_joint_def(anchor, bob, Vec2::new(0.0, 5.0))
        .unwrap();
    let hinge = world
        .create_revolute_joint(&RevoluteJointDef::new(def))
        .unwrap();
    world.set_gravity(Vec2::new(0.0, -G)).unwrap();
    world.set_body_type(anchor, BodyType::Static).unwrap();
    world.set_linear_velocity(bob, Vec2::new(2.0, 0.0)).unwrap();
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        let (a, b) = world.joint_anchors(hinge).unwrap();
        assert!(a.distance(b) < 0.01, "hinge opened: {a:?} {b:?}");
    }
    assert_eq!(world.position(anchor).unwrap(), Vec2::new(0.0, 5.0));
    let radius = world.position(bob).unwrap().distance(Vec2::new(0.0, 5.0));
    assert!((radius - 2.0).abs() < 0.01, "{radius}");

    world.set_body_type(anchor, BodyType::Kinematic).unwrap();
    world
        .set_linear_velocity(anchor, Vec2::new(1.0, 0.0))
        .unwrap();
    for _ in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        let (a, b) = world.joint_anchors(hinge).unwrap();
        assert!(a.distance(b) < 0.02, "hinge opened: {a:?} {b:?}");
    }
    assert!((world.position(anchor).unwrap().x - 1.0).abs() < 1e-4);

    world.set_body_type(anchor, BodyType::Dynamic).unwrap();
    world.set_body_type(bob, BodyType::Static).unwrap();
    run(&mut world, 60);
    let (a, b) = world.joint_anchors(hinge).unwrap();
    assert!(a.distance(b) < 0.01, "the anchor hangs from the static bob");
    assert_eq!(world.joint_bodies(hinge).unwrap(), (anchor, bob));

    // Both static: the joint joins nothing that moves, and comes back when one moves again.
    world.set_body_type(anchor, BodyType::Static).unwrap();
    let pose = world.transform(anchor).unwrap();
    run(&mut world, 10);
    assert_eq!(world.transform(anchor).unwrap(), pose);
    world.set_body_type(anchor, BodyType::Dynamic).unwrap();
    run(&mut world, 30);
    let (a, b) = world.joint_anchors(hinge).unwrap();
    assert!(a.distance(b) < 0.01);
}

/// A box in flight is disabled: it stays exactly where it was, out of queries and contacts,
/// while the world steps; enabled, it carries on with the velocity it had.
#[test]
fn a_disabled_body_leaves_and_returns_intact() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 20.0);
    let flyer = add_box(
        &mut world,
        &BodyDef {
            linear_velocity: Vec2::new(2.0, 3.0),
            angular_velocity: 1.5,
            ..BodyDef::dynamic_at(Vec2::new(0.0, 4.0))
        },
        0.5,
    );
    run(&mut world, 10);
    let (pose, velocity, spin) = (
        world.transform(flyer).unwrap(),
        world.linear_velocity(flyer).unwrap(),
        world.angular_velocity(flyer).unwrap(),
    );
    world.disable_body(flyer).unwrap();
    assert!(!world.is_body_enabled(flyer).unwrap());
    assert!(!world.is_awake(flyer).unwrap());
    run(&mut world, 60);
    assert_eq!(world.transform(flyer).unwrap(), pose);
    let at = pose.p;
    assert!(
        world
            .overlap_point(at, QueryFilter::default())
            .unwrap()
            .is_empty()
    );
    assert!(world.body_contact_data(flyer).unwrap().is_empty());

    world.enable_body(flyer).unwrap();
    assert!(world.is_body_enabled(flyer).unwrap() && world.is_awake(flyer).unwrap());
    assert_eq!(world.linear_velocity(flyer).unwrap(), velocity);
    assert_eq!(world.angular_velocity(flyer).unwrap(), spin);
    assert_eq!(
        world
            .overlap_point(at, QueryFilter::default())
            .unwrap()
            .len(),
        1
    );
    // One step on: v − g·dt, and the centre moves by the substeps' sum of velocities.
    world.step(DT, SUBSTEPS).unwrap();
    let v = world.linear_velocity(flyer).unwrap();
    assert!(
        (v - (velocity - Vec2::new(0.0, G * DT))).length() < 1e-4,
        "{v:?}"
    );
    // The box lands and rests on the ground in the end.
    run(&mut world, 240);
    assert!((world.position(flyer).unwrap().y - 0.5).abs() < 0.02);
}

/// Disabling the ground drops what rests on it (and wakes it); enabling it again, the ground
/// is back in the static tree and stops later boxes.
#[test]
fn disabling_the_ground_drops_the_sleeping_boxes() {
    let mut world = world_with(SolverKind::SoftStep);
    let ground = add_ground(&mut world, 20.0);
    let resting = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(0.0, 0.5)), 0.5);
    run(&mut world, 120);
    assert!(!world.is_awake(resting).unwrap());
    let y0 = world.position(resting).unwrap().y;
    world.disable_body(ground).unwrap();
    assert!(
        world.is_awake(resting).unwrap(),
        "woken by losing its contact"
    );
    run(&mut world, 30);
    let drop = y0 - world.position(resting).unwrap().y;
    assert!(
        (drop - fallen(30)).abs() < 2e-3,
        "free fall: {drop} vs {}",
        fallen(30)
    );
    world.enable_body(ground).unwrap();
    let later = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(6.0, 2.0)), 0.5);
    run(&mut world, 120);
    assert!((world.position(later).unwrap().y - 0.5).abs() < 0.02);
}

/// A pendulum whose pivot body is disabled: the joint is parked, so the bob falls freely;
/// enabled again, the joint pulls it back to the pendulum's length.
#[test]
fn a_joint_is_parked_while_a_body_is_disabled() {
    let mut world = world_with(SolverKind::SoftStep);
    world.set_sleep_enabled(false);
    let pivot = add_box(
        &mut world,
        &BodyDef::kinematic_at(Vec2::new(0.0, 10.0)),
        0.1,
    );
    let bob = add_ball(&mut world, Vec2::new(1.0, 10.0), 0.1);
    let def = world
        .anchored_joint_def(pivot, bob, Vec2::new(0.0, 10.0))
        .unwrap();
    let hinge = world
        .create_revolute_joint(&RevoluteJointDef::new(def))
        .unwrap();
    run(&mut world, 20);
    world.disable_body(pivot).unwrap();
    let (start, velocity) = (
        world.position(bob).unwrap(),
        world.linear_velocity(bob).unwrap(),
    );
    run(&mut world, 20);
    // Ballistic: x moves by vx·t exactly; y by vy·t minus the fall.
    let t = 20.0 * DT;
    let moved = world.position(bob).unwrap() - start;
    assert!((moved.x - velocity.x * t).abs() < 1e-3, "{moved:?}");
    assert!(
        (moved.y - (velocity.y * t - fallen(20))).abs() < 2e-3,
        "{moved:?}"
    );

    // A joint made to the disabled pivot is parked too; both come back with it.
    let def = JointDef::new(pivot, bob);
    let rope = world
        .create_distance_joint(&prism::DistanceJointDef::new(def))
        .unwrap();
    world.destroy_joint(rope).unwrap();
    world.enable_body(pivot).unwrap();
    run(&mut world, 120);
    let length = world.position(bob).unwrap().distance(Vec2::new(0.0, 10.0));
    assert!((length - 1.0).abs() < 0.02, "{length}");
    let (a, b) = world.joint_anchors(hinge).unwrap();
    assert!(a.distance(b) < 0.02);
}

/// Shapes added to a disabled body take part once it is enabled; a disabled body can change
/// type and be destroyed.
#[test]
fn a_disabled_body_can_be_edited() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 20.0);
    let body = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(0.0, 3.0)), 0.5);
    world.disable_body(body).unwrap();
    let circle = Circle {
        center: Vec2::new(1.0, 0.0),
        radius: 0.5,
    };
    world
        .create_circle_shape(body, &ShapeDef::default(), &circle)
        .unwrap();
    world.set_body_type(body, BodyType::Kinematic).unwrap();
    assert_eq!(world.mass_data(body).unwrap().mass, 0.0);
    world.set_body_type(body, BodyType::Dynamic).unwrap();
    let mass = world.mass_data(body).unwrap().mass;
    assert!(
        (mass - (1.0 + std::f32::consts::PI * 0.25)).abs() < 1e-4,
        "{mass}"
    );
    run(&mut world, 5);
    assert_eq!(world.position(body).unwrap(), Vec2::new(0.0, 3.0));
    // Moved while disabled: it comes back where it was put.
    world
        .set_transform(body, Vec2::new(-4.0, 3.0), Rot::IDENTITY)
        .unwrap();
    world.enable_body(body).unwrap();
    let point = Vec2::new(-3.0, 3.0);
    assert_eq!(
        world
            .overlap_point(point, QueryFilter::default())
            .unwrap()
            .len(),
        1
    );
    run(&mut world, 180);
    assert!(
        (world.position(body).unwrap().y - 0.5).abs() < 0.02,
        "rests on the ground"
    );
    world.disable_body(body).unwrap();
    world.destroy_body(body).unwrap();
    assert!(!world.is_body_valid(body));
    run(&mut world, 5);
}

/// A kinematic body driven to a target transform reaches it in one step: the position
/// exactly, the angle as the integrator turns (`n·atan(Δθ/n)` over n substeps).
#[test]
fn a_kinematic_body_reaches_its_target_in_one_step() {
    let mut world = world_with(SolverKind::SoftStep);
    let body = add_box(&mut world, &BodyDef::kinematic_at(Vec2::new(1.0, 2.0)), 0.5);
    let (target, angle) = (Vec2::new(1.5, 1.75), 0.1f32);
    world
        .set_target_transform(body, target, Rot::from_angle(angle), DT)
        .unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    let reached = world.transform(body).unwrap();
    assert!((reached.p - target).length() < 1e-5, "{:?}", reached.p);
    let n = SUBSTEPS as f32;
    let turned = n * math::atan2(angle / n, 1.0);
    assert!(
        (reached.q.angle() - turned).abs() < 1e-5,
        "{}",
        reached.q.angle()
    );
    assert!(
        (turned - angle).abs() < 3e-5,
        "the integrator's error is small"
    );
    let err = world
        .set_target_transform(body, target, Rot::IDENTITY, 0.0)
        .unwrap_err();
    assert!(matches!(
        err,
        prism::PrismError::OutOfRange { field: "dt", .. }
    ));
}

/// Driving a resting body to where it already is keeps its sleep timer (setting a velocity
/// would restart it); a sleeping body is not woken to move by less than its threshold, and is
/// woken to move by more.
#[test]
fn a_target_transform_wakes_only_if_asleep_and_moving() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 20.0);
    let body = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(0.0, 0.5)), 0.5);
    run(&mut world, 20);
    let timer = world.sleep_time(body).unwrap();
    assert!(timer > 0.0);
    let here = world.transform(body).unwrap();
    world
        .set_target_transform(body, here.p, here.q, DT)
        .unwrap();
    assert_eq!(world.sleep_time(body).unwrap(), timer);
    run(&mut world, 60);
    assert!(!world.is_awake(body).unwrap());
    let here = world.transform(body).unwrap();
    // 0.1 mm in a step is 6 mm/s, under the 5 cm/s threshold: stays asleep.
    let nudge = here.p + Vec2::new(1e-4, 0.0);
    world.set_target_transform(body, nudge, here.q, DT).unwrap();
    assert!(!world.is_awake(body).unwrap());
    // 5 cm in a step is 3 m/s: wakes, with that velocity.
    let shove = here.p + Vec2::new(0.05, 0.0);
    world.set_target_transform(body, shove, here.q, DT).unwrap();
    assert!(world.is_awake(body).unwrap());
    let v = world.linear_velocity(body).unwrap();
    assert!((v.x - 0.05 / DT).abs() < 1e-2, "{v:?}");
}

/// Locking a spinning body's rotation stops it and removes its inertia; unlocking restores
/// the inertia its shape gives, m·(w² + h²)/12.
#[test]
fn fixed_rotation_recomputes_the_mass() {
    let mut world = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..WorldDef::default()
    })
    .unwrap();
    let body = world
        .create_body(&BodyDef {
            angular_velocity: 3.0,
            ..BodyDef::dynamic_at(Vec2::ZERO)
        })
        .unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(1.0, 0.5).unwrap())
        .unwrap();
    run(&mut world, 5);
    world.set_fixed_rotation(body, true).unwrap();
    assert!(world.is_fixed_rotation(body).unwrap());
    assert_eq!(world.angular_velocity(body).unwrap(), 0.0);
    assert_eq!(world.mass_data(body).unwrap().rotational_inertia, 0.0);
    let angle = world.rotation(body).unwrap().angle();
    world
        .apply_force(body, Vec2::new(0.0, 10.0), Vec2::new(1.0, 0.0))
        .unwrap();
    run(&mut world, 10);
    let turned = world.rotation(body).unwrap().angle() - angle;
    assert!(
        turned.abs() < 1e-6,
        "an off-centre push turned it by {turned}"
    );
    assert!(world.linear_velocity(body).unwrap().y > 0.0, "but moved it");
    world.set_fixed_rotation(body, false).unwrap();
    // A 2 × 1 box of density 1: m = 2, I = 2·(4 + 1)/12.
    let inertia = world.mass_data(body).unwrap().rotational_inertia;
    assert!((inertia - 10.0 / 12.0).abs() < 1e-5, "{inertia}");
}

/// Every control refuses a destroyed body's or shape's id and changes nothing.
#[test]
fn stale_ids_are_refused() {
    let mut world = world_with(SolverKind::SoftStep);
    let body = add_box(&mut world, &BodyDef::dynamic_at(Vec2::ZERO), 0.5);
    let shape = world.body_shapes(body).unwrap()[0];
    world.destroy_body(body).unwrap();
    let stale = |result: Result<(), prism::PrismError>| {
        assert!(
            matches!(result, Err(prism::PrismError::InvalidId { .. })),
            "{result:?}"
        );
    };
    stale(world.set_body_type(body, BodyType::Static));
    stale(world.disable_body(body));
    stale(world.enable_body(body));
    stale(world.set_target_transform(body, Vec2::ZERO, Rot::IDENTITY, DT));
    stale(world.set_fixed_rotation(body, true));
    stale(world.set_shape_friction(shape, 0.5));
    stale(world.set_shape_restitution(shape, 0.5));
    stale(world.set_shape_density(shape, 2.0));
    stale(world.set_shape_filter(shape, prism::Filter::default()));
    stale(world.set_shape_contact_events_enabled(shape, false));
    assert_eq!(world.body_ids().len(), 0);
    run(&mut world, 2);
}

/// A body whose joint partner is disabled falls asleep and wakes with its joint left parked:
/// the joint follows neither into the sleeping set nor back, until the partner returns.
#[test]
fn a_parked_joint_stays_parked_through_sleep() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 20.0);
    let pivot = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(0.0, 0.5)), 0.5);
    let neighbour = add_box(&mut world, &BodyDef::dynamic_at(Vec2::new(2.0, 0.5)), 0.5);
    let def = world
        .anchored_joint_def(pivot, neighbour, Vec2::new(1.0, 0.5))
        .unwrap();
    let hinge = world
        .create_revolute_joint(&RevoluteJointDef::new(def))
        .unwrap();
    run(&mut world, 10);
    world.disable_body(pivot).unwrap();
    run(&mut world, 120);
    assert!(
        !world.is_awake(neighbour).unwrap(),
        "asleep with a parked joint"
    );
    world.set_awake(neighbour, true).unwrap();
    run(&mut world, 60);
    assert!(!world.is_awake(neighbour).unwrap(), "asleep again");
    // Enabling the pivot wakes the sleeping neighbour, whose joint then returns.
    world.enable_body(pivot).unwrap();
    assert!(world.is_awake(neighbour).unwrap());
    run(&mut world, 60);
    let (a, b) = world.joint_anchors(hinge).unwrap();
    assert!(a.distance(b) < 0.01);
}
