//! Coulomb friction on a 30° incline: a box with μ = 0.7 > tan 30° ≈ 0.577 must stay put; with
//! μ = 0.3 it must slide with acceleration g(sin θ − μ cos θ).

mod common;

use common::{DT, SUBSTEPS, world_with};
use prism::{BodyDef, BodyId, BodyType, Rot, ShapeDef, SolverKind, Vec2, World, make_box};

const SLOPE: f32 = std::f32::consts::PI / 6.0;

/// A static slab tilted by 30° through the origin and a unit box resting on it, both with
/// friction `mu` (so the mixed friction √(μ·μ) is μ). Returns the world, the box, and the
/// downhill unit vector.
fn incline(mu: f32) -> (World, BodyId, Vec2) {
    let mut world = world_with(SolverKind::SoftStep);
    let rotation = Rot::from_angle(SLOPE);
    let shape = ShapeDef {
        friction: mu,
        ..ShapeDef::default()
    };
    let ramp = world
        .create_body(&BodyDef {
            rotation,
            ..BodyDef::default()
        })
        .unwrap();
    world
        .create_polygon_shape(ramp, &shape, &make_box(30.0, 0.5).unwrap())
        .unwrap();
    // The slab's top face is 0.5 along its normal; the box's centre another 0.5 beyond.
    let normal = rotation.y_axis();
    let def = BodyDef {
        body_type: BodyType::Dynamic,
        position: normal * 1.0,
        rotation,
        ..BodyDef::default()
    };
    let body = world.create_body(&def).unwrap();
    world
        .create_polygon_shape(body, &shape, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    (world, body, -rotation.x_axis())
}

fn step(world: &mut World, count: usize) {
    for _ in 0..count {
        world.step(DT, SUBSTEPS).unwrap();
    }
}

#[test]
fn box_stays_put_when_friction_exceeds_the_slope() {
    let (mut world, body, downhill) = incline(0.7);
    step(&mut world, 30);
    let settled = world.position(body).unwrap();
    step(&mut world, 120);
    let slid = (world.position(body).unwrap() - settled).dot(downhill);
    let speed = world.linear_velocity(body).unwrap().length();
    assert!(slid.abs() < 1e-3, "slid {slid} m in 2 s");
    assert!(speed < 0.01, "moving at {speed} m/s");
}

#[test]
fn box_slides_with_coulomb_acceleration() {
    let mu = 0.3;
    let (mut world, body, downhill) = incline(mu);
    step(&mut world, 30);
    let v1 = world.linear_velocity(body).unwrap().dot(downhill);
    step(&mut world, 60);
    let v2 = world.linear_velocity(body).unwrap().dot(downhill);
    let measured = (v2 - v1) / (60.0 * DT);
    let expected = 10.0 * (SLOPE.sin() - mu * SLOPE.cos());
    let error = (measured - expected).abs() / expected;
    assert!(
        error < 0.05,
        "acceleration {measured} vs {expected} (error {:.2}%)",
        100.0 * error
    );
    let angle = world.rotation(body).unwrap().angle();
    assert!(
        (angle - SLOPE).abs() < 0.01,
        "the box tipped to {angle} rad"
    );
}
