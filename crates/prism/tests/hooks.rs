//! The pre-solve hook and the custom filter, checked against free flight.

mod common;

use common::{DT, SUBSTEPS, add_ground};
use prism::{BodyDef, BodyId, Circle, Segment, ShapeDef, ShapeId, Vec2, World, WorldDef, make_box};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const GRAVITY: f32 = 10.0;

fn ball(world: &mut World, at: Vec2, radius: f32, def: &ShapeDef) -> (BodyId, ShapeId) {
    let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius,
    };
    (body, world.create_circle_shape(body, def, &circle).unwrap())
}

/// A one-way platform: a static segment at y = 3 whose pre-solve hook solves a contact only
/// while the normal from the platform to the other shape points up and the two overlap by
/// less than 0.2 m. (Falling onto the platform at √(2·g·2.75) ≈ 7.4 m/s the ball travels
/// 0.12 m per step, so its first manifold point may already be that deep; a ball jumping
/// through is 0.25 m deep, its radius, when its centre crosses the segment and the normal
/// turns up.) A ball (radius 0.25) thrown up at 10 m/s from y = 1 passes through it,
/// rises to its free-flight apex 1 + v²/2g = 6 m (within 3 cm: the substepped integrator,
/// velocity first, peaks lower by about v·h/2 ≈ 2 cm), then lands on it and rests on top at y = 3.25. Without the hook
/// the platform stops the ball from below.
#[test]
fn one_way_platform_lets_a_ball_up_and_holds_it_from_above() {
    for with_hook in [true, false] {
        let mut world = World::new(WorldDef::default()).unwrap();
        add_ground(&mut world, 20.0);
        let shelf = world.create_body(&BodyDef::default()).unwrap();
        let one_way = ShapeDef {
            enable_pre_solve_events: true,
            ..ShapeDef::default()
        };
        let segment = Segment {
            point1: Vec2::new(-3.0, 3.0),
            point2: Vec2::new(3.0, 3.0),
        };
        let platform = world
            .create_segment_shape(shelf, &one_way, &segment)
            .unwrap();
        if with_hook {
            world.set_pre_solve(move |contact| {
                let shapes = contact.shapes;
                let up = if shapes.shape_a == platform {
                    contact.normal
                } else if shapes.shape_b == platform {
                    -contact.normal
                } else {
                    return true;
                };
                up.y > 0.95 && contact.separation > -0.2
            });
        }
        let (ball, _) = ball(&mut world, Vec2::new(0.0, 1.0), 0.25, &ShapeDef::default());
        world
            .set_linear_velocity(ball, Vec2::new(0.0, 10.0))
            .unwrap();
        let mut apex = f32::MIN;
        for _ in 0..240 {
            world.step(DT, SUBSTEPS).unwrap();
            apex = apex.max(world.position(ball).unwrap().y);
        }
        let y = world.position(ball).unwrap().y;
        if with_hook {
            let expected = 1.0 + 10.0 * 10.0 / (2.0 * GRAVITY);
            assert!((apex - expected).abs() < 0.03, "apex {apex}");
            assert!((y - 3.25).abs() < 0.01, "rests on the platform at y = {y}");
        } else {
            // Struck from below at 7.4 m/s the ball sinks a few centimetres into the segment
            // before it is pushed back, but its centre never reaches it.
            assert!(apex < 3.0, "the platform stopped the ball: apex {apex}");
            assert!((y - 0.25).abs() < 0.01, "fell back to the ground: y = {y}");
        }
    }
}

/// A custom filter that refuses the pair (box A, ground): box A falls through the ground in
/// free fall while box B lands and rests on it, and a third box lands on B. The filter is asked
/// only about pairs where a shape enabled custom filtering (the ground), never about the boxes'
/// pair, and a sensor asks it too before reporting a visitor.
#[test]
fn custom_filter_refuses_a_pair() {
    let mut world = World::new(WorldDef::default()).unwrap();
    let ground = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
        .unwrap();
    let filtered = ShapeDef {
        enable_custom_filtering: true,
        ..ShapeDef::default()
    };
    let ground_shape = world
        .create_polygon_shape(ground, &filtered, &make_box(20.0, 1.0).unwrap())
        .unwrap();
    let unit = make_box(0.5, 0.5).unwrap();
    let sinker = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(-3.0, 2.0)))
        .unwrap();
    let sinker_shape = world
        .create_polygon_shape(sinker, &ShapeDef::default(), &unit)
        .unwrap();
    let stander = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 2.0)))
        .unwrap();
    world
        .create_polygon_shape(stander, &ShapeDef::default(), &unit)
        .unwrap();
    // A pair that never asks the filter: a box landing on the stander.
    let topper = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 4.0)))
        .unwrap();
    world
        .create_polygon_shape(topper, &ShapeDef::default(), &unit)
        .unwrap();
    // A zone that asks the filter, over two balls far from the boxes.
    let zone_body = world
        .create_body(&BodyDef::fixed_at(Vec2::new(10.0, 0.55)))
        .unwrap();
    let zone_def = ShapeDef {
        is_sensor: true,
        ..filtered
    };
    let zone = world
        .create_polygon_shape(zone_body, &zone_def, &make_box(3.0, 0.5).unwrap())
        .unwrap();
    let (_, hidden) = ball(&mut world, Vec2::new(9.0, 0.25), 0.25, &ShapeDef::default());
    let (_, shown) = ball(
        &mut world,
        Vec2::new(11.0, 0.25),
        0.25,
        &ShapeDef::default(),
    );

    let asked = Arc::new(AtomicUsize::new(0));
    let unfiltered_asked = Arc::new(AtomicUsize::new(0));
    let (counter, stray) = (Arc::clone(&asked), Arc::clone(&unfiltered_asked));
    world.set_custom_filter(move |pair| {
        let shapes = [pair.shape_a, pair.shape_b];
        counter.fetch_add(1, Ordering::Relaxed);
        if !shapes.contains(&ground_shape) && !shapes.contains(&zone) {
            stray.fetch_add(1, Ordering::Relaxed);
        }
        let refused = [[sinker_shape, ground_shape], [zone, hidden]];
        !refused
            .iter()
            .any(|r| shapes.contains(&r[0]) && shapes.contains(&r[1]))
    });

    let steps = 60;
    let mut reported = Vec::new();
    for _ in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
        let begins = world.sensor_events().begin.iter();
        reported.extend(begins.map(|e| (e.sensor_shape, e.visitor_shape)));
        assert!(world.body_contact_data(sinker).unwrap().is_empty());
    }
    // Free fall for `steps` steps of four substeps: g·h²·k(k+1)/2 with k = 4·steps.
    let h = DT / SUBSTEPS as f32;
    let k = (steps * SUBSTEPS as usize) as f32;
    let fallen = GRAVITY * h * h * k * (k + 1.0) / 2.0;
    let y = world.position(sinker).unwrap().y;
    assert!((y - (2.0 - fallen)).abs() < 1e-3, "sinker at y = {y}");
    let y = world.position(stander).unwrap().y;
    assert!((y - 0.5).abs() < 0.01, "stander at y = {y}");
    assert_eq!(reported, [(zone, shown)]);
    assert!(asked.load(Ordering::Relaxed) >= 4);
    assert_eq!(unfiltered_asked.load(Ordering::Relaxed), 0);

    // Without the filter the refused pair gets its contact again when a fat box moves.
    world.clear_custom_filter();
    world
        .set_transform(sinker, Vec2::new(-3.0, 0.5), prism::Rot::IDENTITY)
        .unwrap();
    world.set_linear_velocity(sinker, Vec2::ZERO).unwrap();
    for _ in 0..30 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let y = world.position(sinker).unwrap().y;
    assert!((y - 0.5).abs() < 0.01, "the sinker now stands: y = {y}");
    let y = world.position(topper).unwrap().y;
    assert!((y - 1.5).abs() < 0.01, "topper on the stander at y = {y}");
}
