//! Tall stacks at the default settings: single columns of boxes and boards, with contact
//! recycling on (the default) and off (every manifold re-collided every step), and a heavy box
//! resting on a light one.
//!
//! A resting soft contact settles where its spring carries its load. Per point of a two-point
//! face contact, with `K₁₁ = J M⁻¹ Jᵀ` the point's inverse effective mass and `ω` the contact's
//! angular frequency, the overlap is `K₁₁·(F/2)/ω²` for a load `F` shared by the two points (the
//! soft step's steady state, see solver-simd's `softness` and `normal_block`). For unit boxes
//! (mass 1, inverse inertia 6, corners half a metre from the centre line) `K₁₁ = 1 + 1 + 6·¼ + 6·¼
//! = 5` between two boxes and `2.5` against the ground, whose contacts run at twice the
//! frequency. The tests compare the top box's sink with that sum.

mod common;

use common::{DT, SUBSTEPS, add_ground};
use prism::{BodyDef, BodyId, Rot, ShapeDef, Vec2, World, WorldDef, make_box};
use std::f32::consts::PI;

/// 20 s at 60 Hz.
const TWENTY_SECONDS: usize = 1200;

fn world(recycling: bool) -> World {
    World::new(WorldDef {
        enable_sleep: false,
        enable_contact_recycling: recycling,
        ..WorldDef::default()
    })
    .unwrap()
}

/// A column of `count` boxes of half extents `(hx, hy)` on the ground, centred on `x`; each box
/// is shifted sideways by `offsets(i)` and turned by a tenth of that in radians per metre.
fn column(
    world: &mut World,
    count: usize,
    (hx, hy): (f32, f32),
    x: f32,
    offsets: impl Fn(usize) -> f32,
) -> Vec<BodyId> {
    add_ground(world, 50.0);
    (0..count)
        .map(|i| {
            let offset = offsets(i);
            let body = world
                .create_body(&BodyDef {
                    rotation: Rot::from_angle(0.1 * offset),
                    ..BodyDef::dynamic_at(Vec2::new(x + offset, hy + 2.0 * hy * i as f32))
                })
                .unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_box(hx, hy).unwrap())
                .unwrap();
            body
        })
        .collect()
}

/// How a column fared over a run.
struct ColumnRun {
    /// Largest sideways distance of the top box from where it started (m).
    max_drift: f32,
    /// How far the top box ended below where it started (m).
    sink: f32,
}

fn run_column(world: &mut World, boxes: &[BodyId], steps: usize) -> ColumnRun {
    let top = *boxes.last().unwrap();
    let start = world.position(top).unwrap();
    let mut max_drift = 0.0f32;
    for _ in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
        max_drift = max_drift.max((world.position(top).unwrap().x - start.x).abs());
    }
    let sink = start.y - world.position(top).unwrap().y;
    ColumnRun { max_drift, sink }
}

/// The resting sink of the top of a column of `count` boxes of mass `mass` whose face contacts
/// have the given inverse effective masses (see the module notes), at the default contact
/// frequency (30 Hz between boxes, 60 Hz on the ground).
fn predicted_sink(count: usize, mass: f32, k_between: f32, k_ground: f32) -> f32 {
    let omega = 2.0 * PI * 30.0;
    let weight = mass * 10.0;
    let between: f32 = (1..count)
        .map(|above| k_between * (above as f32 * weight / 2.0) / (omega * omega))
        .sum();
    let ground = k_ground * (count as f32 * weight / 2.0) / (4.0 * omega * omega);
    between + ground
}

/// Columns of 20 and 30 unit boxes built straight stand 20 s, on recycled and on exact
/// manifolds, and sink by the soft contacts' static deflection. (Box2D's 20- and 30-box columns
/// lean up to 16 and 25 mm with recycling and fall without it, side by side in prism-bench.)
#[test]
fn straight_columns_stand_on_exact_and_recycled_manifolds() {
    for recycling in [true, false] {
        for count in [20, 30] {
            let mut world = world(recycling);
            let boxes = column(&mut world, count, (0.5, 0.5), 0.37, |_| 0.0);
            let run = run_column(&mut world, &boxes, TWENTY_SECONDS);
            let predicted = predicted_sink(count, 1.0, 5.0, 2.5);
            let label = format!("{count} boxes, recycling {recycling}");
            assert!(
                run.max_drift < 0.005,
                "{label}: top drifted {} m",
                run.max_drift
            );
            assert!(
                (run.sink - predicted).abs() < 0.01 * predicted,
                "{label}: sank {} m, soft contacts predict {predicted} m",
                run.sink
            );
        }
    }
}

/// A column of 30 boards (1 m × 0.1 m) stands 20 s. A board has mass 0.1 and inverse inertia
/// 12/(0.1·1.01), so `K₁₁ = 2·10 + 2·¼·118.8 = 79.4` between boards and 39.7 on the ground.
#[test]
fn a_column_of_thin_boards_stands() {
    for recycling in [true, false] {
        let mut world = world(recycling);
        let boards = column(&mut world, 30, (0.5, 0.05), 0.0, |_| 0.0);
        let run = run_column(&mut world, &boards, TWENTY_SECONDS);
        let inv_inertia = 12.0 / (0.1 * 1.01);
        let k_between = 20.0 + 0.5 * inv_inertia;
        let predicted = predicted_sink(30, 0.1, k_between, k_between / 2.0);
        assert!(
            run.max_drift < 0.005,
            "recycling {recycling}: {} m",
            run.max_drift
        );
        assert!(
            (run.sink - predicted).abs() < 0.01 * predicted,
            "recycling {recycling}: sank {} m, predicted {predicted} m",
            run.sink
        );
    }
}

/// A column built by hand is never straight: each box off by up to ±1 mm and ±0.1 mrad. At the
/// defaults (recycling on) 20 and 30 boxes still stand. (Re-collided every step, such a column
/// buckles like any compliant column under its own weight; see the recycling notes in the
/// prism crate.)
#[test]
fn slightly_uneven_columns_stand_at_the_defaults() {
    for count in [20, 30] {
        let mut world = world(true);
        let boxes = column(&mut world, count, (0.5, 0.5), 0.0, |i| {
            // A fixed, uneven pattern of offsets in [−1, 1] mm.
            0.001 * ((i * 7919 % 13) as f32 / 6.0 - 1.0)
        });
        let run = run_column(&mut world, &boxes, TWENTY_SECONDS);
        assert!(
            run.max_drift < 0.02,
            "{count} boxes: top drifted {} m",
            run.max_drift
        );
    }
}

/// A box of mass `heavy` resting on a 1 kg box on the ground, both 1 m: the two overlaps (light
/// box into the ground, heavy box into the light one) after `steps`.
fn heavy_on_light(heavy: f32, steps: usize) -> (f32, f32) {
    let mut world = world(true);
    add_ground(&mut world, 50.0);
    let mut add = |y: f32, density: f32| {
        let body = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, y)))
            .unwrap();
        let shape = ShapeDef {
            density,
            ..ShapeDef::default()
        };
        world
            .create_polygon_shape(body, &shape, &make_box(0.5, 0.5).unwrap())
            .unwrap();
        body
    };
    let (light, top) = (add(0.5, 1.0), add(1.5, heavy));
    for _ in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let light_y = world.position(light).unwrap().y;
    let top_y = world.position(top).unwrap().y;
    (0.5 - light_y, 1.0 - (top_y - light_y))
}

/// 100 kg on 1 kg rests with less than a centimetre of overlap anywhere after 5 s. The ground
/// contact holds 1010 N on the light box: `2.5·505/(2π·60)² = 8.9 mm`. The contact between the
/// boxes would sink 35 mm if its spring were sized by the light box alone
/// (`K₁₁ = 1 + 0.01 + 6·¼ + 0.06·¼ = 2.525`, `2.525·500/(2π·30)²`); it is stiffened by the mass
/// ratio, 100, to 0.36 mm.
#[test]
fn a_heavy_box_rests_on_a_light_one() {
    let (ground_overlap, between) = heavy_on_light(100.0, 300);
    let omega = 2.0 * PI * 30.0;
    let expected_ground = 2.5 * 505.0 / (4.0 * omega * omega);
    let expected_between = 2.525 * 500.0 / (100.0 * omega * omega);
    assert!(
        ground_overlap < 0.01 && between < 0.01,
        "{ground_overlap} m, {between} m"
    );
    assert!(
        (ground_overlap - expected_ground).abs() < 0.02 * expected_ground,
        "light box {ground_overlap} m into the ground, expected {expected_ground} m"
    );
    assert!(
        (between - expected_between).abs() < 0.05 * expected_between,
        "heavy box {between} m into the light one, expected {expected_between} m"
    );
}

/// At 1000:1 the boxes still rest one on the other, nothing squeezed out; the ground contact,
/// sized by the light box, carries 10 kN with the soft spring's static deflection,
/// `2.5·5005/(2π·60)² = 88 mm` (reported, not a target).
#[test]
fn a_thousand_times_heavier_box_rests_with_the_soft_deflection() {
    let (ground_overlap, between) = heavy_on_light(1000.0, 300);
    let omega = 2.0 * PI * 30.0;
    let expected_ground = 2.5 * 5005.0 / (4.0 * omega * omega);
    assert!(
        (ground_overlap - expected_ground).abs() < 0.05 * expected_ground,
        "light box {ground_overlap} m into the ground, expected {expected_ground} m"
    );
    assert!(between < 0.01, "heavy box {between} m into the light one");
}
