//! Joint behaviour through the public API: periods, motors, limits, chains and breaking, each
//! against its analytic value.

mod common;

use common::{DT, SUBSTEPS};
use prism::{
    BodyDef, BodyId, Circle, JointDef, JointId, PrismaticJointDef, RevoluteJoint, RevoluteJointDef,
    ShapeDef, Vec2, WeldJointDef, World, WorldDef, make_box, make_offset_box,
};
use std::f32::consts::PI;

const G: f32 = 10.0;

fn world() -> World {
    World::new(WorldDef::default()).unwrap()
}

/// A static body without shapes at `position` (a pivot).
fn anchor(world: &mut World, position: Vec2) -> BodyId {
    world.create_body(&BodyDef::fixed_at(position)).unwrap()
}

fn dynamic_box(world: &mut World, position: Vec2, half: Vec2, density: f32) -> BodyId {
    let body = world.create_body(&BodyDef::dynamic_at(position)).unwrap();
    let shape = ShapeDef {
        density,
        ..ShapeDef::default()
    };
    world
        .create_polygon_shape(body, &shape, &make_box(half.x, half.y).unwrap())
        .unwrap();
    body
}

fn hinge(world: &mut World, a: BodyId, b: BodyId, at: Vec2, settings: RevoluteJoint) -> JointId {
    let base = world.anchored_joint_def(a, b, at).unwrap();
    world
        .create_revolute_joint(&RevoluteJointDef {
            settings,
            ..RevoluteJointDef::new(base)
        })
        .unwrap()
}

/// Upward zero crossings of `x(t)` sampled every `DT`, linearly interpolated (s).
fn upward_crossings(samples: &[f32]) -> Vec<f32> {
    samples
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < 0.0 && w[1] >= 0.0)
        .map(|(i, w)| (i as f32 + w[0] / (w[0] - w[1])) * DT)
        .collect()
}

/// A 1 m pendulum (a 5 cm disc on a hinge) released at 5°: period 2π√(L/g) within 1%.
/// The disc's own inertia lengthens it by √(1 + r²/2L²) − 1 = 0.06 % and the 5° amplitude by
/// θ₀²/16 = 0.05 %, both well inside the tolerance.
#[test]
fn pendulum_period_matches_small_angle_theory() {
    let mut world = world();
    let length = 1.0;
    let pivot = Vec2::new(0.0, 5.0);
    let pole = anchor(&mut world, pivot);
    let angle0 = 5f32.to_radians();
    let start = pivot + length * Vec2::new(angle0.sin(), -angle0.cos());
    let bob = world.create_body(&BodyDef::dynamic_at(start)).unwrap();
    let disc = Circle {
        center: Vec2::ZERO,
        radius: 0.05,
    };
    world
        .create_circle_shape(bob, &ShapeDef::default(), &disc)
        .unwrap();
    hinge(&mut world, pole, bob, pivot, RevoluteJoint::default());

    let mut xs = Vec::new();
    for _ in 0..(8.0 / DT) as usize {
        world.step(DT, SUBSTEPS).unwrap();
        xs.push(world.position(bob).unwrap().x - pivot.x);
    }
    let crossings = upward_crossings(&xs);
    assert!(crossings.len() >= 3, "crossings {crossings:?}");
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    let expected = 2.0 * PI * (length / G).sqrt();
    let error = (measured - expected).abs() / expected;
    println!("pendulum period {measured:.5} s, theory {expected:.5} s, error {error:.5}");
    assert!(error < 0.01, "period {measured} vs {expected}");
    // The joint holds the length: the bob stays 1 m from the pivot.
    let distance = world.position(bob).unwrap().distance(pivot);
    assert!((distance - length).abs() < 1e-3, "length {distance}");
}

/// A disc on a motorised hinge at its centre (gravity exerts no torque about it).
struct MotorRig {
    world: World,
    disc: BodyId,
    joint: JointId,
    inertia: f32,
}

fn motor_rig(speed: f32, max_torque: f32) -> MotorRig {
    let mut world = world();
    let center = Vec2::new(0.0, 5.0);
    let pole = anchor(&mut world, center);
    let disc = world.create_body(&BodyDef::dynamic_at(center)).unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    world
        .create_circle_shape(disc, &ShapeDef::default(), &circle)
        .unwrap();
    let settings = RevoluteJoint {
        enable_motor: true,
        motor_speed: speed,
        max_motor_torque: max_torque,
        ..RevoluteJoint::default()
    };
    let joint = hinge(&mut world, pole, disc, center, settings);
    let inertia = world.mass_data(disc).unwrap().rotational_inertia;
    MotorRig {
        world,
        disc,
        joint,
        inertia,
    }
}

/// Steps with a load torque on the disc; returns its angular velocity after each step.
fn run_loaded(rig: &mut MotorRig, load: f32, steps: usize) -> Vec<f32> {
    (0..steps)
        .map(|_| {
            rig.world.apply_torque(rig.disc, load).unwrap();
            rig.world.step(DT, SUBSTEPS).unwrap();
            rig.world.angular_velocity(rig.disc).unwrap()
        })
        .collect()
}

/// Under a load of half its limit the motor reaches and holds its speed, and the torque it
/// reports is the load's.
#[test]
fn revolute_motor_reaches_its_speed_under_the_torque_limit() {
    let (speed, max_torque, load) = (2.0, 10.0, -5.0);
    let mut rig = motor_rig(speed, max_torque);
    // Spinning up takes I·ω/(T_max + load) = 0.1·2/5 = 0.04 s.
    let omegas = run_loaded(&mut rig, load, 60);
    let last = omegas[omegas.len() - 1];
    println!("motor speed {last:.6} rad/s (target {speed})");
    assert!((last - speed).abs() < 1e-3, "speed {last}");
    let (_, torque) = rig.world.joint_reaction(rig.joint).unwrap();
    assert!((torque + load).abs() < 0.05 * load.abs(), "torque {torque}");
}

/// A load above the limit stalls the motor: the disc turns backward with the angular
/// acceleration of the net torque, (load + T_max)/I, and the motor reports T_max.
#[test]
fn revolute_motor_stalls_when_the_load_exceeds_its_limit() {
    let (speed, max_torque, load) = (2.0, 10.0, -12.0);
    let mut rig = motor_rig(speed, max_torque);
    let omegas = run_loaded(&mut rig, load, 61);
    let measured = (omegas[60] - omegas[0]) / (60.0 * DT);
    let expected = (load + max_torque) / rig.inertia;
    println!("stall: α = {measured:.4} rad/s², expected {expected:.4}");
    assert!(omegas[60] < 0.0, "the load wins: ω = {}", omegas[60]);
    assert!(
        (measured - expected).abs() < 0.01 * expected.abs(),
        "α {measured} vs {expected}"
    );
    let (_, torque) = rig.world.joint_reaction(rig.joint).unwrap();
    assert!((torque - max_torque).abs() < 1e-3, "torque {torque}");
}

/// A heavy-tipped arm dropped from horizontal swings into its lower limit (−45°) and rests
/// there: the angle never passes the limit by more than 0.5°.
#[test]
fn revolute_limit_holds_a_falling_arm() {
    let mut world = world();
    let pivot = Vec2::new(0.0, 5.0);
    let pole = anchor(&mut world, pivot);
    let arm = world
        .create_body(&BodyDef::dynamic_at(pivot + Vec2::new(1.0, 0.0)))
        .unwrap();
    world
        .create_polygon_shape(arm, &ShapeDef::default(), &make_box(1.0, 0.05).unwrap())
        .unwrap();
    let tip = make_offset_box(0.1, 0.1, Vec2::new(0.9, 0.0), prism::Rot::IDENTITY).unwrap();
    let heavy = ShapeDef {
        density: 50.0,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(arm, &heavy, &tip).unwrap();
    let lower = -PI / 4.0;
    let settings = RevoluteJoint {
        enable_limit: true,
        lower_angle: lower,
        upper_angle: PI / 4.0,
        ..RevoluteJoint::default()
    };
    let joint = hinge(&mut world, pole, arm, pivot, settings);
    let mut lowest = 0.0f32;
    for _ in 0..180 {
        world.step(DT, SUBSTEPS).unwrap();
        lowest = lowest.min(world.joint_angle(joint).unwrap());
    }
    let overshoot = (lower - lowest).to_degrees();
    let rest = world.joint_angle(joint).unwrap();
    println!(
        "revolute limit overshoot {overshoot:.4}°, rest {:.4}°",
        rest.to_degrees()
    );
    assert!(overshoot < 0.5, "overshoot {overshoot}°");
    assert!((rest - lower).abs().to_degrees() < 0.5, "rests at {rest}");
}

/// A block on a vertical slider falls 0.5 m onto its lower translation limit (arriving at
/// √(2·g·0.5) ≈ 3.2 m/s): it never passes the limit by more than 5 mm and rests on it.
#[test]
fn prismatic_limit_stops_a_falling_block() {
    let mut world = world();
    let origin = Vec2::new(0.0, 5.0);
    let rail = anchor(&mut world, origin);
    let block = dynamic_box(&mut world, origin, Vec2::new(0.25, 0.25), 4.0);
    let base = world.anchored_joint_def(rail, block, origin).unwrap();
    let lower = -0.5;
    let joint = world
        .create_prismatic_joint(&PrismaticJointDef {
            local_axis_a: Vec2::Y,
            settings: prism::PrismaticJoint {
                enable_limit: true,
                lower_translation: lower,
                upper_translation: 0.5,
                ..Default::default()
            },
            ..PrismaticJointDef::new(base)
        })
        .unwrap();
    let mut lowest = 0.0f32;
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        lowest = lowest.min(world.joint_translation(joint).unwrap());
    }
    let overshoot = lower - lowest;
    let rest = world.joint_translation(joint).unwrap();
    println!(
        "prismatic limit overshoot {:.3} mm, rest {rest:.5} m",
        overshoot * 1e3
    );
    assert!(overshoot < 0.005, "overshoot {overshoot} m");
    assert!((rest - lower).abs() < 0.005, "rests at {rest}");
    // The slider keeps the block on its axis and unrotated.
    let position = world.position(block).unwrap();
    assert!(position.x.abs() < 1e-3, "off the axis: {position:?}");
    assert!(world.rotation(block).unwrap().angle().abs() < 1e-3);
}

/// A chain of `links` vertical links (each 0.5 m, 0.5 kg) hung from a static pivot, holding a
/// block 100× heavier than a link. Returns the world, the weight and the joint anchor on it.
fn hanging_chain(def: WorldDef, links: usize, inertia_scale: f32) -> (World, BodyId, f32) {
    let mut world = World::new(def).unwrap();
    let top = Vec2::new(0.0, 20.0);
    let pivot = anchor(&mut world, top);
    let link_length = 0.5;
    let link_shape = ShapeDef {
        density: 10.0,
        ..ShapeDef::default()
    };
    let mut previous = pivot;
    for i in 0..links {
        let center = top - Vec2::new(0.0, (i as f32 + 0.5) * link_length);
        let link = world
            .create_body(&BodyDef {
                inertia_scale,
                ..BodyDef::dynamic_at(center)
            })
            .unwrap();
        world
            .create_polygon_shape(
                link,
                &link_shape,
                &make_box(0.05, 0.5 * link_length).unwrap(),
            )
            .unwrap();
        let joint_at = top - Vec2::new(0.0, i as f32 * link_length);
        hinge(
            &mut world,
            previous,
            link,
            joint_at,
            RevoluteJoint::default(),
        );
        previous = link;
    }
    let chain_end = top - Vec2::new(0.0, links as f32 * link_length);
    let link_mass = world.mass_data(previous).unwrap().mass;
    let half = 0.25;
    let weight_density = 100.0 * link_mass / (4.0 * half * half);
    let weight = dynamic_box(
        &mut world,
        chain_end - Vec2::new(0.0, half),
        Vec2::new(half, half),
        weight_density,
    );
    let ratio = world.mass_data(weight).unwrap().mass / link_mass;
    assert!((ratio - 100.0).abs() < 1e-3, "mass ratio {ratio}");
    hinge(
        &mut world,
        previous,
        weight,
        chain_end,
        RevoluteJoint::default(),
    );
    (world, weight, top.y - links as f32 * link_length)
}

/// The stretch of the chain (fraction of its 10 m) after 5 s with `def` and `substeps`.
fn chain_stretch(def: WorldDef, substeps: u32, inertia_scale: f32) -> f32 {
    let links = 20;
    let (mut world, weight, end_y) = hanging_chain(def, links, inertia_scale);
    for _ in 0..(5.0 / DT) as usize {
        world.step(DT, substeps).unwrap();
    }
    // The weight hangs from the middle of its top face, 0.25 m above its centre.
    let hook = world.position(weight).unwrap().y + 0.25;
    (end_y - hook) / (links as f32 * 0.5)
}

/// The 20-link chain holding a weight 100× a link stretches less than 1 % in 5 s.
///
/// A soft joint under a steady load `F` settles where its spring balances it, `F/(m·ω²)` per
/// joint (`ω = 2π·joint_hertz`, `m` the joint's effective mass). At the defaults (60 Hz,
/// 4 substeps) the chain, released straight, sinks slowly and is stretched ≈ 3.9 % at 5 s (it
/// then swings back slowly, ≈ 3.0 % at 10 s); neither substeps alone nor inertia scaling (the
/// load is along the links, where inertia plays no part) change that. Doubling the joint
/// frequency divides the sag by four, and needs 8 substeps, since the solver caps the joint
/// frequency at a quarter of the substep rate: 120 Hz with 8 substeps gives ≈ 0.74 % at 5 s
/// and settles at ≈ 0.78 %.
#[test]
fn chain_holding_a_heavy_weight_stretches_less_than_one_percent() {
    let defaults = chain_stretch(WorldDef::default(), SUBSTEPS, 1.0);
    let stiff = WorldDef {
        joint_hertz: 120.0,
        ..WorldDef::default()
    };
    let stretch = chain_stretch(stiff, 8, 1.0);
    let capped = chain_stretch(stiff, SUBSTEPS, 1.0);
    println!(
        "chain stretch after 5 s: {:.3} % at the defaults, {:.3} % with joint_hertz 120 and \
         8 substeps ({:.3} % with 120 Hz asked at 4 substeps, capped to 60 Hz)",
        defaults * 100.0,
        stretch * 100.0,
        capped * 100.0
    );
    assert!(stretch > 0.0 && stretch < 0.01, "stretch {stretch}");
    // The defaults sag as the spring model says (within the factor the chain's own weight and
    // the effective masses leave open), and asking more than the substeps allow is capped, not
    // unstable.
    assert!(defaults > 0.01 && defaults < 0.06, "defaults {defaults}");
    assert!(
        (capped - defaults).abs() < 1e-3,
        "capped {capped} vs {defaults}"
    );
}

/// Two 1 kg blocks hang from joints with break forces 1.5× and 0.5× their weight (10 N): the
/// weak one breaks in the first step, reported with its id, bodies and a force near 10 N; the
/// strong one holds.
#[test]
fn joint_breaks_above_its_break_force_and_not_below() {
    let mut world = world();
    let mut hang = |x: f32, break_force: f32| {
        let top = Vec2::new(x, 5.0);
        let pole = anchor(&mut world, top);
        let block = dynamic_box(&mut world, top - Vec2::new(0.0, 0.5), Vec2::splat(0.5), 1.0);
        let base = JointDef {
            break_force,
            user_data: x as u64,
            ..world.anchored_joint_def(pole, block, top).unwrap()
        };
        let joint = world
            .create_revolute_joint(&RevoluteJointDef::new(base))
            .unwrap();
        (pole, block, joint)
    };
    let (_, _, strong) = hang(0.0, 15.0);
    let (weak_pole, weak_block, weak) = hang(3.0, 5.0);
    world.step(DT, SUBSTEPS).unwrap();
    let breaks = world.joint_events().breaks.to_vec();
    assert_eq!(breaks.len(), 1, "{breaks:?}");
    let event = breaks[0];
    assert_eq!(event.joint, weak);
    assert_eq!((event.body_a, event.body_b), (weak_pole, weak_block));
    assert_eq!(event.user_data, 3);
    println!("broke at force {:?}", event.force);
    assert!(
        (event.force.length() - G).abs() < 0.1 * G,
        "force {:?}",
        event.force
    );
    assert!(!world.is_joint_valid(weak));
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        assert!(world.joint_events().breaks.is_empty());
    }
    assert!(world.is_joint_valid(strong));
    let (force, _) = world.joint_reaction(strong).unwrap();
    assert!((force - Vec2::new(0.0, G)).length() < 0.01 * G, "{force:?}");
    // The weak block fell freely after the break.
    assert!(world.position(weak_block).unwrap().y < 0.0);
}

/// A welded 2 m, 2 kg cantilever needs a torque m·g·1 m = 20 N·m at the wall. Once it has
/// settled (thresholds armed after 1 s, since the first steps' soft catch overshoots the static
/// load), a break torque of 16 N·m breaks it at ≈ 20 N·m and 24 N·m holds.
#[test]
fn weld_breaks_above_its_break_torque_and_not_below() {
    for (break_torque, breaks) in [(16.0, true), (24.0, false)] {
        let mut world = world();
        let wall = anchor(&mut world, Vec2::new(0.0, 5.0));
        let beam = dynamic_box(&mut world, Vec2::new(1.0, 5.0), Vec2::new(1.0, 0.05), 10.0);
        let mass = world.mass_data(beam).unwrap().mass;
        assert!((mass - 2.0).abs() < 1e-4);
        let base = world
            .anchored_joint_def(wall, beam, Vec2::new(0.0, 5.0))
            .unwrap();
        let joint = world.create_weld_joint(&WeldJointDef::new(base)).unwrap();
        for _ in 0..60 {
            world.step(DT, SUBSTEPS).unwrap();
        }
        world
            .set_joint_break_thresholds(joint, f32::INFINITY, break_torque)
            .unwrap();
        let mut broken = Vec::new();
        for _ in 0..60 {
            world.step(DT, SUBSTEPS).unwrap();
            broken.extend(world.joint_events().breaks.iter().copied());
        }
        assert_eq!(!broken.is_empty(), breaks, "break torque {break_torque}");
        if let Some(event) = broken.first() {
            assert_eq!(event.joint, joint);
            assert!((event.torque.abs() - 20.0).abs() < 0.5, "{event:?}");
        } else {
            let (_, torque) = world.joint_reaction(joint).unwrap();
            assert!((torque.abs() - 20.0).abs() < 0.2, "torque {torque}");
        }
    }
}
