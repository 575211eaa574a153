//! Every shape kind collides through the world, chains are one-sided, and filters decide which
//! pairs touch.

mod common;

use common::{add_ground, run, world_with};
use prism::{
    BodyDef, Capsule, Circle, Filter, Segment, ShapeDef, SolverKind, Vec2, World, make_box,
};

fn ball(world: &mut World, position: Vec2, def: &ShapeDef) -> prism::BodyId {
    let body = world.create_body(&BodyDef::dynamic_at(position)).unwrap();
    world
        .create_circle_shape(
            body,
            def,
            &Circle {
                center: Vec2::ZERO,
                radius: 0.25,
            },
        )
        .unwrap();
    body
}

#[test]
fn capsule_and_circle_rest_on_a_segment_ground() {
    let mut world = world_with(SolverKind::SoftStep);
    let ground = world.create_body(&BodyDef::default()).unwrap();
    let segment = Segment {
        point1: Vec2::new(-10.0, 0.0),
        point2: Vec2::new(10.0, 0.0),
    };
    world
        .create_segment_shape(ground, &ShapeDef::default(), &segment)
        .unwrap();
    let lying = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(-2.0, 1.0)))
        .unwrap();
    let capsule = Capsule {
        center1: Vec2::new(-0.5, 0.0),
        center2: Vec2::new(0.5, 0.0),
        radius: 0.2,
    };
    world
        .create_capsule_shape(lying, &ShapeDef::default(), &capsule)
        .unwrap();
    let disk = ball(&mut world, Vec2::new(2.0, 1.0), &ShapeDef::default());
    run(&mut world, 120);
    // Resting heights: the capsule's axis one radius above y = 0, the disk's centre likewise.
    let slop = world.def().linear_slop;
    assert!((world.position(lying).unwrap().y - 0.2).abs() <= slop);
    assert!((world.position(disk).unwrap().y - 0.25).abs() <= slop);
    assert!(
        world.rotation(lying).unwrap().angle().abs() < 1e-3,
        "the capsule stays level"
    );
}

#[test]
fn chain_links_hold_from_their_right_side_only() {
    let mut world = world_with(SolverKind::SoftStep);
    let ground = world.create_body(&BodyDef::default()).unwrap();
    // Right to left: the right side of each link faces up.
    let points = [
        Vec2::new(6.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(-2.0, 0.0),
        Vec2::new(-6.0, 0.0),
    ];
    let links = world
        .create_chain(ground, &ShapeDef::default(), &points, false)
        .unwrap();
    assert_eq!(links.len(), 3);
    let above = ball(&mut world, Vec2::new(2.0, 1.0), &ShapeDef::default());
    let below = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(0.0, 8.0),
            ..BodyDef::dynamic_at(Vec2::new(-3.0, -1.0))
        })
        .unwrap();
    world
        .create_circle_shape(
            below,
            &ShapeDef::default(),
            &Circle {
                center: Vec2::ZERO,
                radius: 0.25,
            },
        )
        .unwrap();
    let mut peak = f32::NEG_INFINITY;
    for _ in 0..60 {
        world.step(common::DT, common::SUBSTEPS).unwrap();
        peak = peak.max(world.position(below).unwrap().y);
    }
    let y_above = world.position(above).unwrap().y;
    let slop = world.def().linear_slop;
    assert!(
        (y_above - 0.25).abs() <= slop,
        "rests on the join at y = {y_above}"
    );
    // Launched upward from y = −1 at 8 m/s it passes through the back of the chain and peaks
    // near −1 + 8²/(2·10) = 2.2 m.
    assert!(
        (peak - 2.2).abs() < 0.1,
        "the ball from below peaked at {peak} m"
    );
    // The chain has no mass and the ground stays static.
    assert_eq!(world.mass_data(ground).unwrap().mass, 0.0);
}

#[test]
fn negative_group_never_collides_positive_group_always_does() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 10.0);
    let ghost = ShapeDef {
        filter: Filter {
            group_index: -1,
            ..Filter::default()
        },
        ..ShapeDef::default()
    };
    let lower = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.5)))
        .unwrap();
    world
        .create_polygon_shape(lower, &ghost, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let upper = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 1.5)))
        .unwrap();
    world
        .create_polygon_shape(upper, &ghost, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    run(&mut world, 90);
    // They fall through each other: both end on the ground, overlapping.
    assert!((world.position(upper).unwrap().y - 0.5).abs() < 0.01);
    assert_eq!(
        world.counters().touching_contacts,
        2,
        "only the two ground contacts"
    );

    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 10.0);
    // Masks exclude each other's category, but a shared positive group overrides them.
    let picky = Filter {
        category_bits: 2,
        mask_bits: 1,
        group_index: 4,
    };
    let def = ShapeDef {
        filter: picky,
        ..ShapeDef::default()
    };
    let lower = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.5)))
        .unwrap();
    world
        .create_polygon_shape(lower, &def, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let upper = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 1.6)))
        .unwrap();
    world
        .create_polygon_shape(upper, &def, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    run(&mut world, 90);
    assert!(
        (world.position(upper).unwrap().y - 1.5).abs() < 0.01,
        "stacked"
    );
}

#[test]
fn category_and_mask_filter_pairs() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 10.0);
    // Category 2 ignores category 2 but still lands on the ground (category 1).
    let def = ShapeDef {
        filter: Filter {
            category_bits: 2,
            mask_bits: !2,
            group_index: 0,
        },
        ..ShapeDef::default()
    };
    let a = ball(&mut world, Vec2::new(0.0, 0.25), &def);
    let b = ball(&mut world, Vec2::new(0.0, 1.0), &def);
    run(&mut world, 90);
    for body in [a, b] {
        assert!((world.position(body).unwrap().y - 0.25).abs() < 0.01);
    }
}

#[test]
fn kinematic_body_pushes_dynamic_bodies_and_is_not_pushed() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 20.0);
    let crate_body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.5)))
        .unwrap();
    world
        .create_polygon_shape(
            crate_body,
            &ShapeDef::default(),
            &make_box(0.5, 0.5).unwrap(),
        )
        .unwrap();
    let pusher_def = BodyDef {
        linear_velocity: Vec2::new(1.0, 0.0),
        ..BodyDef::kinematic_at(Vec2::new(-2.0, 0.6))
    };
    let pusher = world.create_body(&pusher_def).unwrap();
    world
        .create_polygon_shape(pusher, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    run(&mut world, 180);
    // After 3 s the pusher is at x = 1 and the crate just ahead of it, moving at 1 m/s.
    assert!((world.position(pusher).unwrap().x - 1.0).abs() < 1e-3);
    assert_eq!(world.linear_velocity(pusher).unwrap(), Vec2::new(1.0, 0.0));
    let ahead = world.position(crate_body).unwrap().x - world.position(pusher).unwrap().x;
    assert!(
        (ahead - 1.0).abs() < 0.02,
        "crate {ahead} m ahead of the pusher"
    );
    assert!((world.linear_velocity(crate_body).unwrap().x - 1.0).abs() < 0.05);
}
