//! Stacking: a box at rest on the ground, and a 20-row pyramid that must stand still — with both
//! solver kinds.

mod common;

use common::{DT, SUBSTEPS, add_ground, add_pyramid, run_with, world_with};
use prism::{BodyDef, ShapeDef, SolverKind, Vec2, World, WorldDef, make_box};

/// Iterations the sequential-impulses solver needs to hold the 20-row pyramid within 2 cm for
/// 10 s. Measured largest drifts: 4 iterations 0.43 m, 6 → 4.1 cm, 7 → 2.0 cm, 8 → 0.95 cm,
/// 10 → 0.25 cm (the soft-step solver with its default 4 substeps: 0.03 cm).
const SI_PYRAMID_ITERATIONS: u32 = 8;

/// Drops a unit box from 1.5 m above the ground and lets it settle for 3 s; returns the world
/// and the box.
fn drop_box(kind: SolverKind, substeps: u32) -> (World, prism::BodyId) {
    let mut world = world_with(kind);
    add_ground(&mut world, 20.0);
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 2.0)))
        .unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    run_with(&mut world, 180, substeps);
    (world, body)
}

fn assert_box_rests(kind: SolverKind, substeps: u32) {
    let (world, body) = drop_box(kind, substeps);
    let position = world.position(body).unwrap();
    // The ground's top is y = 0 and the box's half height 0.5: the bottom face is at y − 0.5.
    let penetration = 0.5 - position.y;
    let speed = world.linear_velocity(body).unwrap().length();
    let slop = world.def().linear_slop;
    // Baumgarte's fixed point is exactly the slop; 10 µm covers f32 rounding at this scale.
    assert!(
        penetration <= slop + 1e-5,
        "{kind:?}: penetration {penetration} exceeds the slop {slop}"
    );
    assert!(
        penetration > -slop,
        "{kind:?}: hovering {} above the ground",
        -penetration
    );
    assert!(speed < 0.01, "{kind:?}: still moving at {speed} m/s");
    assert!(
        position.x.abs() < 1e-3,
        "{kind:?}: drifted sideways to x = {}",
        position.x
    );
    let angle = world.rotation(body).unwrap().angle();
    assert!(angle.abs() < 1e-3, "{kind:?}: tipped to {angle} rad");
}

#[test]
fn box_comes_to_rest_soft_step() {
    assert_box_rests(SolverKind::SoftStep, SUBSTEPS);
}

#[test]
fn box_comes_to_rest_sequential_impulses() {
    assert_box_rests(SolverKind::SequentialImpulses, SUBSTEPS);
}

/// Settles a 20-row pyramid for 1 s, then checks for 10 s that no box moves more than 2 cm
/// from where it settled. Returns the largest displacement seen.
fn pyramid_drift(kind: SolverKind, substeps: u32) -> f32 {
    pyramid_drift_in(world_with(kind), substeps)
}

fn pyramid_drift_in(mut world: World, substeps: u32) -> f32 {
    add_ground(&mut world, 40.0);
    let boxes = add_pyramid(&mut world, 20);
    assert_eq!(boxes.len(), 210);
    run_with(&mut world, 60, substeps);
    let settled: Vec<Vec2> = boxes.iter().map(|&b| world.position(b).unwrap()).collect();
    let mut worst = 0.0f32;
    for _ in 0..600 {
        world.step(DT, substeps).unwrap();
        for (&body, start) in boxes.iter().zip(&settled) {
            worst = worst.max(world.position(body).unwrap().distance(*start));
        }
    }
    worst
}

#[test]
fn pyramid_stands_soft_step() {
    let drift = pyramid_drift(SolverKind::SoftStep, SUBSTEPS);
    assert!(drift < 0.02, "a box moved {drift} m");
}

#[test]
fn pyramid_stands_sequential_impulses() {
    let drift = pyramid_drift(SolverKind::SequentialImpulses, SI_PYRAMID_ITERATIONS);
    assert!(
        drift < 0.02,
        "a box moved {drift} m with {SI_PYRAMID_ITERATIONS} iterations"
    );
}

#[test]
fn pyramid_stands_without_contact_recycling() {
    let def = WorldDef {
        enable_contact_recycling: false,
        ..WorldDef::default()
    };
    let drift = pyramid_drift_in(World::new(def).unwrap(), SUBSTEPS);
    assert!(drift < 0.02, "a box moved {drift} m");
}
