//! Hit events and body move events against the motion that produced them.

mod common;

use common::{DT, SUBSTEPS, add_ground};
use prism::{
    BodyDef, BodyId, Circle, ContactHitEvent, PrismError, ShapeDef, ShapeId, Vec2, World, WorldDef,
    make_box,
};
use std::collections::BTreeSet;

const GRAVITY: f32 = 10.0;

/// A ball of radius 0.25 whose bottom is `height` above the ground (top face y = 0).
fn drop_ball(world: &mut World, height: f32, def: &ShapeDef) -> (BodyId, ShapeId) {
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, height + 0.25)))
        .unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.25,
    };
    (body, world.create_circle_shape(body, def, &circle).unwrap())
}

/// Steps `steps` times and collects every hit event.
fn hits(world: &mut World, steps: usize) -> Vec<ContactHitEvent> {
    let mut all = Vec::new();
    for _ in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
        all.extend_from_slice(&world.contact_events().hit);
    }
    all
}

fn reporting() -> ShapeDef {
    ShapeDef {
        enable_hit_events: true,
        ..ShapeDef::default()
    }
}

/// A ball dropped from 5 m strikes the ground once, at √(2·g·5) = 10 m/s. The solver reads the
/// approach speed at the start of the step in which the ball meets the ground, at most one
/// step of gravity (g·dt) before the impact, so the reported speed lies in [10 − g·dt, 10]
/// (within 2 % of 10). The point is the bottom of the ball (within the speculative distance
/// of the surface) and the normal points from shape A to shape B, vertically.
#[test]
fn dropped_ball_reports_one_hit_at_its_impact_speed() {
    let mut world = World::new(WorldDef::default()).unwrap();
    let ground = add_ground(&mut world, 20.0);
    let ground_shape = world.body_shapes(ground).unwrap()[0];
    let (_, ball) = drop_ball(&mut world, 5.0, &reporting());
    let all = hits(&mut world, 180);
    assert_eq!(all.len(), 1, "{all:?}");
    let hit = all[0];
    let impact = (2.0 * GRAVITY * 5.0).sqrt();
    let speed = hit.approach_speed;
    assert!((speed - impact).abs() <= 0.02 * impact, "speed {speed}");
    assert!(speed <= impact + 1e-3 && speed >= impact - GRAVITY * DT - 1e-3);
    let up = if (hit.shape_a, hit.shape_b) == (ground_shape, ball) {
        1.0
    } else {
        assert_eq!((hit.shape_a, hit.shape_b), (ball, ground_shape));
        -1.0
    };
    assert!((hit.normal - Vec2::new(0.0, up)).length() < 1e-5);
    assert!(
        hit.point.x.abs() < 1e-4 && hit.point.y.abs() < 0.02,
        "{hit:?}"
    );
}

/// A ball with restitution 0.5 dropped from 5 m hits at about 10, 5 and 2.5 m/s: each bounce
/// leaves at half the speed the solver measured, and gravity returns it at the speed it left
/// with, give or take one step of gravity. With the threshold at 2 m/s the fourth strike
/// (about 1.25 m/s) is not reported.
#[test]
fn bouncing_ball_reports_one_hit_per_bounce_above_the_threshold() {
    let mut world = World::new(WorldDef {
        hit_event_threshold: 2.0,
        ..WorldDef::default()
    })
    .unwrap();
    add_ground(&mut world, 20.0);
    let bouncy = ShapeDef {
        restitution: 0.5,
        ..reporting()
    };
    drop_ball(&mut world, 5.0, &bouncy);
    let all = hits(&mut world, 300);
    let speeds: Vec<f32> = all.iter().map(|h| h.approach_speed).collect();
    assert_eq!(speeds.len(), 3, "{speeds:?}");
    for pair in speeds.windows(2) {
        let expected = 0.5 * pair[0];
        assert!(
            (pair[1] - expected).abs() <= 1.5 * GRAVITY * DT,
            "{speeds:?}"
        );
    }
}

/// No shape asking for hit events, or a threshold above the impact speed: no hits. A bad
/// threshold is refused, naming the field.
#[test]
fn hits_need_a_shape_that_asks_and_a_speed_above_the_threshold() {
    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 20.0);
    drop_ball(&mut world, 5.0, &ShapeDef::default());
    assert!(hits(&mut world, 120).is_empty());

    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 20.0);
    drop_ball(&mut world, 5.0, &reporting());
    world.set_hit_event_threshold(10.5).unwrap();
    assert!(hits(&mut world, 120).is_empty());
    let negative = world.set_hit_event_threshold(-1.0);
    assert!(matches!(
        negative,
        Err(PrismError::OutOfRange { field: "hit_event_threshold", value, .. }) if value == -1.0
    ));
    let nan = World::new(WorldDef {
        hit_event_threshold: f32::NAN,
        ..WorldDef::default()
    });
    assert!(matches!(
        nan,
        Err(PrismError::NonFinite {
            field: "WorldDef::hit_event_threshold",
            ..
        })
    ));
}

/// The move events after each step are exactly the bodies whose pose the step changed: a
/// falling ball and a moving kinematic platform, not the static ground, not a box asleep on
/// it, not a kinematic body standing still; each with its transform and user data. When the
/// ball comes to rest and its island falls asleep, its last event says so, and it is not
/// listed again.
#[test]
fn move_events_list_exactly_the_bodies_that_moved() {
    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 20.0);
    let sleeper = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(-5.0, 0.5)))
        .unwrap();
    world
        .create_polygon_shape(sleeper, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let still = world
        .create_body(&BodyDef::kinematic_at(Vec2::new(5.0, 5.0)))
        .unwrap();
    let lift = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(0.0, 1.0),
            user_data: 77,
            ..BodyDef::kinematic_at(Vec2::new(10.0, 5.0))
        })
        .unwrap();
    for _ in 0..90 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    assert!(!world.is_awake(sleeper).unwrap() && world.is_awake(still).unwrap());

    let ball = world
        .create_body(&BodyDef {
            user_data: 42,
            ..BodyDef::dynamic_at(Vec2::new(0.0, 2.0))
        })
        .unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.25,
    };
    world
        .create_circle_shape(ball, &ShapeDef::default(), &circle)
        .unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    let moved: BTreeSet<BodyId> = world.body_move_events().iter().map(|e| e.body).collect();
    assert_eq!(moved, BTreeSet::from([ball, lift]));
    for event in world.body_move_events() {
        assert_eq!(event.transform, world.transform(event.body).unwrap());
        let expected = world.body_user_data(event.body).unwrap();
        assert_eq!(event.user_data, expected);
        assert!(!event.fell_asleep);
    }
    let lift_event = world.body_move_events().iter().find(|e| e.body == lift);
    let rise = lift_event.unwrap().transform.p.y - 5.0 - 91.0 * DT;
    assert!(
        rise.abs() < 1e-4,
        "the lift rose 1 m/s for 91 steps: off by {rise}"
    );

    let mut fell_asleep = None;
    for step in 0..300 {
        world.step(DT, SUBSTEPS).unwrap();
        let events = world.body_move_events();
        let slept = world.body_events().sleep.iter().any(|e| e.body == ball);
        let event = events.iter().find(|e| e.body == ball);
        if let Some(asleep) = fell_asleep {
            assert!(
                event.is_none(),
                "listed after falling asleep at step {asleep}"
            );
            continue;
        }
        let event = event.expect("the ball moves until it sleeps");
        assert_eq!(event.fell_asleep, slept);
        if slept {
            assert!(!world.is_awake(ball).unwrap());
            fell_asleep = Some(step);
        }
    }
    assert!(fell_asleep.is_some(), "the ball never fell asleep");
}

/// Several chunks of awake bodies with still ones among them (kinematic bodies standing, every
/// third body): with one, two or three workers the move events list exactly the falling
/// bodies, in the same order, each with its transform, however the chunks' lists are joined.
#[test]
fn move_events_skip_still_bodies_in_every_chunk_for_any_worker_count() {
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.25,
    };
    let mut lists = Vec::new();
    for worker_count in [1, 2, 3] {
        let mut world = common::pooled_world(WorldDef {
            worker_count,
            ..WorldDef::default()
        });
        let mut falling = BTreeSet::new();
        for i in 0..700 {
            let position = Vec2::new(i as f32, 0.0);
            let still = i % 3 == 0;
            let def = if still {
                BodyDef::kinematic_at(position)
            } else {
                BodyDef::dynamic_at(position)
            };
            let body = world.create_body(&def).unwrap();
            world
                .create_circle_shape(body, &ShapeDef::default(), &circle)
                .unwrap();
            if !still {
                falling.insert(body);
            }
        }
        world.step(DT, SUBSTEPS).unwrap();
        let events = world.body_move_events();
        let listed: BTreeSet<BodyId> = events.iter().map(|e| e.body).collect();
        assert_eq!(events.len(), listed.len(), "a body listed twice");
        assert_eq!(listed, falling, "{worker_count} workers");
        for event in events {
            assert_eq!(event.transform, world.transform(event.body).unwrap());
            assert!(event.transform.p.y < 0.0, "a falling body fell");
        }
        lists.push(events.to_vec());
    }
    assert!(lists.iter().all(|list| *list == lists[0]));
}
