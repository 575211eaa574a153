//! The joint API: validation, ids and destruction, collision filtering, settings edits, the
//! other joint kinds against their analytic behaviour, mass-ratio help and determinism.

mod common;

use common::{DT, SUBSTEPS, add_ground};
use prism::{
    BodyDef, BodyId, Circle, DistanceJoint, DistanceJointDef, IdKind, JointDef, JointKind,
    MotorJoint, MotorJointDef, PrismError, PrismaticJoint, PrismaticJointDef, RevoluteJoint,
    RevoluteJointDef, ShapeDef, TargetJoint, TargetJointDef, Vec2, WeldJointDef, WheelJoint,
    WheelJointDef, World, WorldDef, make_box,
};

fn world() -> World {
    World::new(WorldDef::default()).unwrap()
}

fn dynamic_box(world: &mut World, position: Vec2, half: f32) -> BodyId {
    let body = world.create_body(&BodyDef::dynamic_at(position)).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(half, half).unwrap())
        .unwrap();
    body
}

fn run(world: &mut World, steps: usize) {
    for _ in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
    }
}

#[test]
fn bad_definitions_are_rejected_and_change_nothing() {
    let mut world = world();
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
    let wall = world.create_body(&BodyDef::fixed_at(Vec2::X)).unwrap();
    let body = dynamic_box(&mut world, Vec2::new(0.0, 2.0), 0.5);

    let to_itself = RevoluteJointDef::new(JointDef::new(body, body));
    match world.create_revolute_joint(&to_itself) {
        Err(PrismError::InvalidJoint { field, reason }) => {
            assert_eq!(field, "JointDef::body_b");
            assert!(reason.contains("same body"), "{reason}");
        }
        other => panic!("expected InvalidJoint, got {other:?}"),
    }
    let both_static = WeldJointDef::new(JointDef::new(ground, wall));
    assert!(matches!(
        world.create_weld_joint(&both_static),
        Err(PrismError::InvalidJoint { .. })
    ));
    let nan_anchor = DistanceJointDef::new(JointDef {
        local_anchor_a: Vec2::new(f32::NAN, 0.0),
        ..JointDef::new(ground, body)
    });
    assert!(matches!(
        world.create_distance_joint(&nan_anchor),
        Err(PrismError::NonFinite {
            field: "JointDef::local_anchor_a",
            ..
        })
    ));
    let inverted_limits = RevoluteJointDef {
        settings: RevoluteJoint {
            enable_limit: true,
            lower_angle: 1.0,
            upper_angle: -1.0,
            ..RevoluteJoint::default()
        },
        ..RevoluteJointDef::new(JointDef::new(ground, body))
    };
    match world.create_revolute_joint(&inverted_limits) {
        Err(PrismError::InvalidJoint { field, .. }) => assert_eq!(field, "revolute.lower_angle"),
        other => panic!("expected InvalidJoint, got {other:?}"),
    }
    let negative_break = JointDef {
        break_force: -1.0,
        ..JointDef::new(ground, body)
    };
    assert!(matches!(
        world.create_weld_joint(&WeldJointDef::new(negative_break)),
        Err(PrismError::OutOfRange {
            field: "JointDef::break_force",
            ..
        })
    ));
    let zero_axis = PrismaticJointDef {
        local_axis_a: Vec2::ZERO,
        ..PrismaticJointDef::new(JointDef::new(ground, body))
    };
    assert!(world.create_prismatic_joint(&zero_axis).is_err());
    assert!(world.joint_ids().is_empty(), "nothing was created");
    assert!(world.body_joints(body).unwrap().is_empty());
}

#[test]
fn stale_ids_and_body_destruction() {
    let mut world = world();
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
    let a = dynamic_box(&mut world, Vec2::new(0.0, 2.0), 0.5);
    let b = dynamic_box(&mut world, Vec2::new(2.0, 2.0), 0.5);
    let hinge = world
        .create_revolute_joint(&RevoluteJointDef::new(JointDef::new(ground, a)))
        .unwrap();
    let rod = world
        .create_distance_joint(&DistanceJointDef::new(JointDef::new(a, b)))
        .unwrap();
    let other = world
        .create_distance_joint(&DistanceJointDef::new(JointDef::new(ground, b)))
        .unwrap();
    assert_eq!(world.body_joints(a).unwrap(), vec![rod, hinge]);
    assert_eq!(world.joint_bodies(rod).unwrap(), (a, b));

    world.destroy_joint(hinge).unwrap();
    assert_eq!(
        world.destroy_joint(hinge),
        Err(PrismError::InvalidId {
            kind: IdKind::Joint,
            index: hinge.index(),
            generation: hinge.generation(),
        })
    );
    assert!(world.joint_reaction(hinge).is_err());
    assert!(world.set_joint_motor(hinge, true, 1.0, 1.0).is_err());

    // Destroying a body destroys its joints, and only those.
    world.destroy_body(a).unwrap();
    assert!(!world.is_joint_valid(rod));
    assert!(world.is_joint_valid(other));
    assert_eq!(world.body_joints(b).unwrap(), vec![other]);
    run(&mut world, 10);
}

/// Two overlapping boxes: joined without `collide_connected` they get no contact (and lose
/// the one they had); destroying the joint lets them collide again.
#[test]
fn collide_connected_filters_contacts() {
    let mut world = world();
    let ground = add_ground(&mut world, 10.0);
    let a = dynamic_box(&mut world, Vec2::new(0.0, 0.5), 0.5);
    let b = dynamic_box(&mut world, Vec2::new(0.6, 0.5), 0.5);
    let touching = |world: &World| {
        world.body_contact_data(a).unwrap().iter().any(|c| {
            let other = [c.shape_a, c.shape_b].map(|s| world.shape_body(s).ok());
            other.contains(&Some(b)) && c.manifold.point_count > 0
        })
    };
    run(&mut world, 1);
    assert!(touching(&world), "overlapping boxes touch before the joint");
    let base = world.anchored_joint_def(a, b, Vec2::new(0.3, 0.5)).unwrap();
    let joint = world.create_weld_joint(&WeldJointDef::new(base)).unwrap();
    run(&mut world, 30);
    assert!(!touching(&world), "joined bodies must not collide");
    world.destroy_joint(joint).unwrap();
    run(&mut world, 2);
    assert!(touching(&world), "the pair is found again");

    let base = JointDef {
        collide_connected: true,
        ..world.anchored_joint_def(a, b, Vec2::new(0.3, 0.5)).unwrap()
    };
    world.create_weld_joint(&WeldJointDef::new(base)).unwrap();
    run(&mut world, 2);
    assert!(touching(&world), "collide_connected keeps the contact");
    let _ = ground;
}

#[test]
fn settings_edits_validate_and_take_effect() {
    let mut world = world();
    let ground = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 5.0)))
        .unwrap();
    let wheel = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 5.0)))
        .unwrap();
    world
        .create_circle_shape(
            wheel,
            &ShapeDef::default(),
            &Circle {
                center: Vec2::ZERO,
                radius: 0.5,
            },
        )
        .unwrap();
    let joint = world
        .create_revolute_joint(&RevoluteJointDef::new(JointDef::new(ground, wheel)))
        .unwrap();
    world.set_joint_motor(joint, true, 3.0, 100.0).unwrap();
    run(&mut world, 30);
    let omega = world.angular_velocity(wheel).unwrap();
    assert!((omega - 3.0).abs() < 1e-3, "{omega}");
    world.set_joint_motor(joint, true, -1.0, 100.0).unwrap();
    run(&mut world, 30);
    let omega = world.angular_velocity(wheel).unwrap();
    assert!((omega + 1.0).abs() < 1e-3, "{omega}");

    assert!(world.set_joint_limits(joint, true, 0.5, -0.5).is_err());
    assert!(world.set_joint_motor(joint, true, f32::NAN, 1.0).is_err());
    assert!(
        world.set_joint_target(joint, Vec2::ZERO).is_err(),
        "not a target joint"
    );
    let wrong_kind = JointKind::Weld(Default::default());
    assert!(world.set_joint_settings(joint, wrong_kind).is_err());
    match world.joint_settings(joint).unwrap() {
        JointKind::Revolute(settings) => assert_eq!(settings.motor_speed, -1.0),
        other => panic!("{other:?}"),
    }
    world.set_joint_user_data(joint, 77).unwrap();
    assert_eq!(world.joint_user_data(joint).unwrap(), 77);
}

/// A rigid distance joint keeps its length while the body swings; a rope (spring off, limits
/// [0, L]) lets a thrown body come closer but never farther than L.
#[test]
fn distance_joint_rod_and_rope() {
    let mut world = world();
    let pivot = Vec2::new(0.0, 10.0);
    let ground = world.create_body(&BodyDef::fixed_at(pivot)).unwrap();
    let bob = dynamic_box(&mut world, pivot + Vec2::new(2.0, 0.0), 0.1);
    let rod = world
        .create_distance_joint(&DistanceJointDef {
            settings: DistanceJoint {
                length: 2.0,
                ..DistanceJoint::default()
            },
            ..DistanceJointDef::new(JointDef::new(ground, bob))
        })
        .unwrap();
    let mut worst = 0.0f32;
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        let (a, b) = world.joint_anchors(rod).unwrap();
        worst = worst.max((a.distance(b) - 2.0).abs());
    }
    assert!(worst < 0.01, "rod length error {worst}");

    let rope_body = dynamic_box(&mut world, pivot + Vec2::new(5.0, 0.0), 0.1);
    let rope = world
        .create_distance_joint(&DistanceJointDef {
            settings: DistanceJoint {
                length: 1.5,
                enable_spring: true,
                hertz: 0.0,
                enable_limit: true,
                min_length: 0.0,
                max_length: 1.5,
                ..DistanceJoint::default()
            },
            ..DistanceJointDef::new(JointDef {
                local_anchor_a: Vec2::new(5.0, 0.0),
                ..JointDef::new(ground, rope_body)
            })
        })
        .unwrap();
    world
        .set_linear_velocity(rope_body, Vec2::new(-3.0, 4.0))
        .unwrap();
    let (mut shortest, mut longest) = (f32::MAX, 0.0f32);
    for _ in 0..180 {
        world.step(DT, SUBSTEPS).unwrap();
        let (a, b) = world.joint_anchors(rope).unwrap();
        shortest = shortest.min(a.distance(b));
        longest = longest.max(a.distance(b));
    }
    assert!(shortest < 1.0, "the rope went slack: {shortest}");
    assert!(longest < 1.5 + 0.01, "the rope stretched to {longest}");
}

/// A 1 kg body on a vertical wheel-joint suspension of 4 Hz sags m·g/k = g/(2π·4)² = 15.8 mm.
#[test]
fn wheel_suspension_sags_by_weight_over_stiffness() {
    let mut world = world();
    let chassis_at = Vec2::new(0.0, 5.0);
    let chassis = world.create_body(&BodyDef::fixed_at(chassis_at)).unwrap();
    let wheel = world.create_body(&BodyDef::dynamic_at(chassis_at)).unwrap();
    let radius = 0.5;
    let density = 1.0 / (std::f32::consts::PI * radius * radius);
    world
        .create_circle_shape(
            wheel,
            &ShapeDef {
                density,
                ..ShapeDef::default()
            },
            &Circle {
                center: Vec2::ZERO,
                radius,
            },
        )
        .unwrap();
    let hertz = 4.0;
    let joint = world
        .create_wheel_joint(&WheelJointDef {
            settings: WheelJoint {
                enable_spring: true,
                hertz,
                damping_ratio: 1.0,
                ..WheelJoint::default()
            },
            ..WheelJointDef::new(JointDef::new(chassis, wheel))
        })
        .unwrap();
    run(&mut world, 180);
    let omega = 2.0 * std::f32::consts::PI * hertz;
    let expected = -10.0 / (omega * omega);
    let sag = world.joint_translation(joint).unwrap();
    assert!(
        (sag - expected).abs() < 0.05 * expected.abs(),
        "sag {sag} vs {expected}"
    );
}

/// A weld holds a cantilever level; a soft weld lets it droop and settle.
#[test]
fn weld_holds_a_cantilever() {
    let mut world = world();
    let wall = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 5.0)))
        .unwrap();
    let beam = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(1.0, 5.0)))
        .unwrap();
    world
        .create_polygon_shape(beam, &ShapeDef::default(), &make_box(1.0, 0.1).unwrap())
        .unwrap();
    let base = world
        .anchored_joint_def(wall, beam, Vec2::new(0.0, 5.0))
        .unwrap();
    let joint = world.create_weld_joint(&WeldJointDef::new(base)).unwrap();
    run(&mut world, 120);
    let angle = world.joint_angle(joint).unwrap();
    assert!(angle.abs() < 0.5f32.to_radians(), "droop {angle}");
    let (force, _) = world.joint_reaction(joint).unwrap();
    let weight = 10.0 * world.mass_data(beam).unwrap().mass;
    assert!((force.y - weight).abs() < 0.01 * weight, "{force:?}");
}

/// A prismatic motor drives a block along a horizontal axis at its speed.
#[test]
fn prismatic_motor_drives_at_its_speed() {
    let mut world = world();
    let rail = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 5.0)))
        .unwrap();
    let block = dynamic_box(&mut world, Vec2::new(0.0, 5.0), 0.25);
    let joint = world
        .create_prismatic_joint(&PrismaticJointDef {
            settings: PrismaticJoint {
                enable_motor: true,
                motor_speed: 1.5,
                max_motor_force: 100.0,
                ..PrismaticJoint::default()
            },
            ..PrismaticJointDef::new(JointDef::new(rail, block))
        })
        .unwrap();
    run(&mut world, 60);
    let velocity = world.linear_velocity(block).unwrap();
    assert!(
        (velocity - Vec2::new(1.5, 0.0)).length() < 1e-3,
        "{velocity:?}"
    );
    let travelled = world.joint_translation(joint).unwrap();
    assert!((travelled - 1.5).abs() < 0.05, "{travelled}");
}

/// A motor joint pulls a free body (no gravity) to its offset pose; a target joint drags a
/// body's anchor to the target.
#[test]
fn motor_and_target_joints_reach_their_goals() {
    let mut world = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..WorldDef::default()
    })
    .unwrap();
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
    let driven = dynamic_box(&mut world, Vec2::ZERO, 0.25);
    let motor = world
        .create_motor_joint(&MotorJointDef {
            settings: MotorJoint {
                linear_offset: Vec2::new(2.0, 1.0),
                angular_offset: 0.5,
                max_force: 50.0,
                max_torque: 20.0,
                ..MotorJoint::default()
            },
            ..MotorJointDef::new(JointDef::new(ground, driven))
        })
        .unwrap();
    let dragged = dynamic_box(&mut world, Vec2::new(-3.0, 0.0), 0.25);
    let target = world
        .create_target_joint(&TargetJointDef {
            settings: TargetJoint {
                target: Vec2::new(-3.0, 2.0),
                max_force: 100.0,
                ..TargetJoint::default()
            },
            ..TargetJointDef::new(JointDef::new(ground, dragged))
        })
        .unwrap();
    run(&mut world, 240);
    let position = world.position(driven).unwrap();
    assert!(
        (position - Vec2::new(2.0, 1.0)).length() < 0.01,
        "{position:?}"
    );
    assert!((world.joint_angle(motor).unwrap() - 0.5).abs() < 0.01);
    let position = world.position(dragged).unwrap();
    assert!(
        (position - Vec2::new(-3.0, 2.0)).length() < 0.01,
        "{position:?}"
    );
    world
        .set_joint_target(target, Vec2::new(-1.0, 2.0))
        .unwrap();
    run(&mut world, 240);
    let position = world.position(dragged).unwrap();
    assert!(
        (position - Vec2::new(-1.0, 2.0)).length() < 0.01,
        "{position:?}"
    );
}

/// A heavy block on a light thin link is reported, with the remedy; a link of equal bodies is
/// not. The inertia scale multiplies the rotational inertia from the shapes.
#[test]
fn mass_ratio_report_and_inertia_scale() {
    let mut world = world();
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
    let light = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(light, &ShapeDef::default(), &make_box(0.05, 0.5).unwrap())
        .unwrap();
    let heavy = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, -2.5)))
        .unwrap();
    let dense = ShapeDef {
        density: 100.0,
        ..ShapeDef::default()
    };
    world
        .create_polygon_shape(heavy, &dense, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    world
        .create_revolute_joint(&RevoluteJointDef::new(JointDef {
            local_anchor_b: Vec2::new(0.0, 0.5),
            ..JointDef::new(ground, light)
        }))
        .unwrap();
    let link = world
        .create_revolute_joint(&RevoluteJointDef::new(JointDef {
            local_anchor_a: Vec2::new(0.0, -0.5),
            local_anchor_b: Vec2::new(0.0, 0.5),
            ..JointDef::new(light, heavy)
        }))
        .unwrap();
    let report = world.mass_ratio_report(10.0).unwrap();
    assert_eq!(report.len(), 1, "{report:?}");
    let warning = &report[0];
    assert_eq!(warning.joint, link);
    // Effective mass at an anchor d = 0.5 m from the centre: 1/(1/m + d²/I). Light link:
    // m = 0.1, I = m(0.1² + 1²)/12 → 0.0252; heavy block: m = 100, I = m(1 + 1)/12 → 40.
    let light_mass = 0.1;
    let light_inertia = light_mass * (0.01 + 1.0) / 12.0;
    let effective =
        |inertia_scale: f32| 1.0 / (1.0 / light_mass + 0.25 / (inertia_scale * light_inertia));
    let heavy_effective = 1.0 / (1.0 / 100.0 + 0.25 / (100.0 * 2.0 / 12.0));
    let expected = heavy_effective / effective(1.0);
    assert!(
        (warning.ratio - expected).abs() < 1e-3 * expected,
        "{} vs {expected}",
        warning.ratio
    );
    assert!(warning.message.contains("inertia_scale") && warning.message.contains("substeps"));
    assert!(world.mass_ratio_report(2000.0).unwrap().is_empty());
    assert!(world.mass_ratio_report(f32::NAN).is_err());

    let before = world.mass_data(light).unwrap().rotational_inertia;
    world.set_inertia_scale(light, 3.0).unwrap();
    let after = world.mass_data(light).unwrap().rotational_inertia;
    assert!(
        (after - 3.0 * before).abs() < 1e-6 * after,
        "{before} → {after}"
    );
    assert_eq!(world.inertia_scale(light).unwrap(), 3.0);
    assert!(world.set_inertia_scale(light, 0.0).is_err());
    let bad = BodyDef {
        inertia_scale: f32::NAN,
        ..BodyDef::dynamic_at(Vec2::ZERO)
    };
    assert!(world.create_body(&bad).is_err());
    // Tripling the light link's inertia nearly halves the ratio (d²/I was 3× 1/m).
    let scaled = world.mass_ratio_report(10.0).unwrap();
    let expected = heavy_effective / effective(3.0);
    assert!(
        (scaled[0].ratio - expected).abs() < 1e-3 * expected,
        "{}",
        scaled[0].ratio
    );
}

/// A ragdoll-like tangle of joints gives the same bits with one and with two workers.
#[test]
fn joints_are_deterministic_across_worker_counts() {
    let run_with_workers = |workers: u32| {
        let mut world = common::pooled_world(WorldDef {
            worker_count: workers,
            ..WorldDef::default()
        });
        add_ground(&mut world, 20.0);
        let mut bodies = Vec::new();
        for i in 0..30 {
            let x = (i % 6) as f32 * 1.1 - 3.0;
            let y = 1.0 + (i / 6) as f32 * 1.1;
            bodies.push(dynamic_box(&mut world, Vec2::new(x, y), 0.4));
        }
        for pair in bodies.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let pa = world.position(a).unwrap();
            let pb = world.position(b).unwrap();
            let base = world.anchored_joint_def(a, b, 0.5 * (pa + pb)).unwrap();
            world
                .create_revolute_joint(&RevoluteJointDef {
                    settings: RevoluteJoint {
                        enable_limit: true,
                        lower_angle: -0.5,
                        upper_angle: 0.5,
                        ..RevoluteJoint::default()
                    },
                    ..RevoluteJointDef::new(base)
                })
                .unwrap();
        }
        run(&mut world, 120);
        bodies
            .iter()
            .map(|&b| {
                let t = world.transform(b).unwrap();
                [
                    t.p.x.to_bits(),
                    t.p.y.to_bits(),
                    t.q.c.to_bits(),
                    t.q.s.to_bits(),
                ]
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run_with_workers(1), run_with_workers(2));
}

/// Jointed dynamic bodies share an island and fall asleep together; editing the joint wakes
/// both.
#[test]
fn jointed_bodies_sleep_and_wake_together() {
    let mut world = world();
    let pivot = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 5.0)))
        .unwrap();
    let upper = dynamic_box(&mut world, Vec2::new(0.0, 4.75), 0.25);
    let lower = dynamic_box(&mut world, Vec2::new(0.0, 4.25), 0.25);
    let top = world
        .anchored_joint_def(pivot, upper, Vec2::new(0.0, 5.0))
        .unwrap();
    world
        .create_revolute_joint(&RevoluteJointDef::new(top))
        .unwrap();
    let middle = world
        .anchored_joint_def(upper, lower, Vec2::new(0.0, 4.5))
        .unwrap();
    let link = world
        .create_revolute_joint(&RevoluteJointDef::new(middle))
        .unwrap();
    let island = world.body_island(upper).unwrap();
    assert!(island.is_some());
    assert_eq!(world.body_island(lower).unwrap(), island);

    run(&mut world, 120);
    assert!(!world.is_awake(upper).unwrap() && !world.is_awake(lower).unwrap());
    world.set_joint_motor(link, true, 1.0, 0.5).unwrap();
    assert!(world.is_awake(upper).unwrap() && world.is_awake(lower).unwrap());
    run(&mut world, 30);
    let spin = world.angular_velocity(lower).unwrap() - world.angular_velocity(upper).unwrap();
    assert!(spin.abs() > 0.1, "the woken motor turns the joint: {spin}");
}

/// The classic sequential-impulses solver runs the same joints (one velocity solve of
/// `substeps` iterations per step): a 1 m pendulum keeps its length and swings with the
/// small-angle period within 2 %.
#[test]
fn joints_work_with_sequential_impulses() {
    let mut world = World::new(WorldDef {
        solver_kind: prism::SolverKind::SequentialImpulses,
        ..WorldDef::default()
    })
    .unwrap();
    let pivot = Vec2::new(0.0, 5.0);
    let pole = world.create_body(&BodyDef::fixed_at(pivot)).unwrap();
    let bob = dynamic_box(&mut world, pivot + Vec2::new(1.0, 0.0), 0.05);
    let base = world.anchored_joint_def(pole, bob, pivot).unwrap();
    world
        .create_revolute_joint(&RevoluteJointDef::new(base))
        .unwrap();
    // Released horizontal, the bob passes the bottom first after a quarter of the large-angle
    // period: K(sin 45°)·√(L/g) = 1.8541 × 0.3162 = 0.5863 s.
    let mut previous_x = 1.0f32;
    let mut crossing = None;
    let mut worst = 0.0f32;
    for step in 1..=120 {
        world.step(DT, 8).unwrap();
        let p = world.position(bob).unwrap();
        worst = worst.max((p.distance(pivot) - 1.0).abs());
        if crossing.is_none() && previous_x > 0.0 && p.x <= 0.0 {
            crossing = Some((step as f32 - 1.0 + previous_x / (previous_x - p.x)) * DT);
        }
        previous_x = p.x;
    }
    let quarter = crossing.expect("the bob reached the bottom");
    assert!(
        (quarter - 0.5863).abs() < 0.02 * 0.5863,
        "quarter period {quarter}"
    );
    assert!(worst < 0.01, "length error {worst}");
}

/// A 40 × 40 grid of hinged circles (3,120 joints, colours of several hundred joints, so the
/// solver list is built and solved across the workers) hanging from its top row: the same bits
/// with one and with two workers.
#[test]
fn joint_grid_is_deterministic_across_worker_counts() {
    let run_with_workers = |workers: u32| {
        let mut world = common::pooled_world(WorldDef {
            worker_count: workers,
            ..WorldDef::default()
        });
        let n = 40;
        let mut grid = Vec::new();
        for column in 0..n {
            for row in 0..n {
                let at = Vec2::new(column as f32, -(row as f32));
                let def = if row == 0 && column % 8 == 0 {
                    BodyDef::fixed_at(at)
                } else {
                    BodyDef::dynamic_at(at)
                };
                let body = world.create_body(&def).unwrap();
                let circle = Circle {
                    center: Vec2::ZERO,
                    radius: 0.4,
                };
                world
                    .create_circle_shape(body, &ShapeDef::default(), &circle)
                    .unwrap();
                grid.push(body);
            }
        }
        for column in 0..n {
            for row in 0..n {
                let body = grid[column * n + row];
                let at = world.position(body).unwrap();
                if row > 0 {
                    let above = grid[column * n + row - 1];
                    let base = world
                        .anchored_joint_def(above, body, at + Vec2::new(0.0, 0.5))
                        .unwrap();
                    world
                        .create_revolute_joint(&RevoluteJointDef::new(base))
                        .unwrap();
                }
                if column > 0 {
                    let left = grid[(column - 1) * n + row];
                    let base = world
                        .anchored_joint_def(left, body, at - Vec2::new(0.5, 0.0))
                        .unwrap();
                    world
                        .create_revolute_joint(&RevoluteJointDef::new(base))
                        .unwrap();
                }
            }
        }
        assert_eq!(world.joint_ids().len(), 3120);
        run(&mut world, 30);
        grid.iter()
            .map(|&b| {
                let t = world.transform(b).unwrap();
                [
                    t.p.x.to_bits(),
                    t.p.y.to_bits(),
                    t.q.c.to_bits(),
                    t.q.s.to_bits(),
                ]
            })
            .collect::<Vec<_>>()
    };
    let one = run_with_workers(1);
    assert_eq!(one, run_with_workers(2));
}
