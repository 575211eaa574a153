//! Sensor events: which shapes a sensor reports, when, and in what order.
//!
//! Times are predicted from the motion the step integrates. A body falling from rest under
//! gravity `g`, stepped with substep `h = dt/4` (velocity first, then position), has fallen
//! `g·h²·k(k+1)/2` after `k` substeps; a kinematic body at speed `v` has moved `v·t`. A sensor
//! reports a visitor at the end of the first step after which the two shapes overlap or touch,
//! so each event's step is predicted exactly up to rounding, and the tests allow one step.

mod common;

use common::{DT, SUBSTEPS, add_ground};
use prism::{
    BodyDef, BodyId, Circle, Filter, ShapeDef, ShapeId, Vec2, World, WorldDef, make_box,
    make_offset_box,
};

const GRAVITY: f32 = 10.0;

/// How far a body dropped from rest has fallen after `steps` steps (see the module notes).
fn fallen(steps: usize) -> f64 {
    let h = f64::from(DT) / f64::from(SUBSTEPS);
    let k = (steps * SUBSTEPS as usize) as f64;
    f64::from(GRAVITY) * h * h * k * (k + 1.0) / 2.0
}

/// The first step after which a body dropped from rest has fallen at least `distance`.
fn step_falling(distance: f64) -> usize {
    (1..).find(|&n| fallen(n) >= distance).unwrap()
}

/// The first step after which a body moving at `speed` has covered at least `distance`.
fn step_moving(distance: f64, speed: f64) -> usize {
    (1..)
        .find(|&n| speed * n as f64 * f64::from(DT) >= distance)
        .unwrap()
}

fn sensor() -> ShapeDef {
    ShapeDef {
        is_sensor: true,
        ..ShapeDef::default()
    }
}

fn ball(world: &mut World, at: Vec2, radius: f32) -> (BodyId, ShapeId) {
    let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius,
    };
    let shape = world
        .create_circle_shape(body, &ShapeDef::default(), &circle)
        .unwrap();
    (body, shape)
}

/// Every sensor event of a run, with the step (1-based) after which it was reported.
#[derive(Default)]
struct Log {
    steps: usize,
    begin: Vec<(usize, ShapeId, ShapeId)>,
    end: Vec<(usize, ShapeId, ShapeId)>,
}

impl Log {
    fn run(&mut self, world: &mut World, steps: usize) {
        for _ in 0..steps {
            world.step(DT, SUBSTEPS).unwrap();
            self.record(world);
        }
    }

    fn record(&mut self, world: &World) {
        self.steps += 1;
        let step = self.steps;
        let events = world.sensor_events();
        let begins = events.begin.iter();
        self.begin
            .extend(begins.map(|e| (step, e.sensor_shape, e.visitor_shape)));
        let ends = events.end.iter();
        self.end
            .extend(ends.map(|e| (step, e.sensor_shape, e.visitor_shape)));
    }

    /// The step of the only begin event of `pair`.
    fn began(&self, pair: (ShapeId, ShapeId)) -> usize {
        only_step(&self.begin, pair)
    }

    /// The step of the only end event of `pair`.
    fn ended(&self, pair: (ShapeId, ShapeId)) -> usize {
        only_step(&self.end, pair)
    }

    /// The (sensor, visitor) pairs of the begin or end events reported after `step`.
    fn at(events: &[(usize, ShapeId, ShapeId)], step: usize) -> Vec<(ShapeId, ShapeId)> {
        events
            .iter()
            .filter(|e| e.0 == step)
            .map(|&(_, s, v)| (s, v))
            .collect()
    }
}

fn only_step(events: &[(usize, ShapeId, ShapeId)], pair: (ShapeId, ShapeId)) -> usize {
    let steps: Vec<usize> = events
        .iter()
        .filter(|&&(_, s, v)| (s, v) == pair)
        .map(|&(step, _, _)| step)
        .collect();
    assert_eq!(steps.len(), 1, "{pair:?}: events at steps {steps:?}");
    steps[0]
}

#[track_caller]
fn assert_near_step(actual: usize, predicted: usize) {
    assert!(
        actual.abs_diff(predicted) <= 1,
        "event after step {actual}, predicted {predicted}"
    );
}

/// Two static trigger zones over the same band `2 ≤ y ≤ 3`; three balls (radius 0.25) drop
/// through it, two from the same height (same steps) and one from higher. Each pair begins
/// once when the ball's bottom reaches y = 3 and ends once when its top leaves y = 2; events of
/// one step come ordered by sensor shape, then by visitor shape index — even for a visitor
/// created later in a lower (reused) slot.
#[test]
fn static_zones_report_balls_entering_and_leaving_in_shape_order() {
    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 20.0);
    let zone_body = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 2.5)))
        .unwrap();
    let band = make_box(5.0, 0.5).unwrap();
    let zone_1 = world
        .create_polygon_shape(zone_body, &sensor(), &band)
        .unwrap();
    let zone_2 = world
        .create_polygon_shape(zone_body, &sensor(), &band)
        .unwrap();
    // A placeholder frees a slot below the first ball's, so the second ball, created later,
    // gets the lower index.
    let (placeholder, _) = ball(&mut world, Vec2::new(-30.0, 5.0), 0.25);
    let (_, first) = ball(&mut world, Vec2::new(1.5, 5.0), 0.25);
    world.destroy_body(placeholder).unwrap();
    let (_, second) = ball(&mut world, Vec2::new(-1.5, 5.0), 0.25);
    let (_, high) = ball(&mut world, Vec2::new(0.0, 6.0), 0.25);
    assert!(second.index() < first.index() && zone_1.index() < zone_2.index());

    let mut log = Log::default();
    log.run(&mut world, 120);

    for zone in [zone_1, zone_2] {
        for (visitor, top) in [(first, 5.0), (second, 5.0), (high, 6.0)] {
            // Bottom (top − 0.25) reaches y = 3; top (top + 0.25) leaves y = 2.
            let enter = step_falling(top - 0.25 - 3.0);
            let leave = step_falling(top + 0.25 - 2.0);
            assert_near_step(log.began((zone, visitor)), enter);
            assert_near_step(log.ended((zone, visitor)), leave);
        }
    }
    assert_eq!((log.begin.len(), log.end.len()), (6, 6));
    // The two balls dropped together: one step, sensors in order, visitors by index.
    let together = log.began((zone_1, first));
    let expected = [
        (zone_1, second),
        (zone_1, first),
        (zone_2, second),
        (zone_2, first),
    ];
    assert_eq!(Log::at(&log.begin, together), expected);
    let ends_together = log.ended((zone_1, first));
    assert_eq!(Log::at(&log.end, ends_together), expected);
    assert!(world.sensor_overlaps(zone_1).unwrap().is_empty());
}

/// A kinematic body carries a 1 m sensor box at 2 m/s along x over a static block, a
/// resting box that has fallen asleep and a resting ball. Each begins once when the sensor's
/// leading edge reaches it and ends once when its trailing edge passes it, in the order they
/// stand; the sleeping box stays asleep (a sensor makes no contact, so it disturbs nothing).
/// A shape on the kinematic body itself, which the sensor's filter would accept, is never
/// reported.
#[test]
fn kinematic_sensor_sweeps_over_static_sleeping_and_resting_shapes() {
    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 40.0);
    let block = world
        .create_body(&BodyDef::fixed_at(Vec2::new(4.0, 0.5)))
        .unwrap();
    let unit = make_box(0.5, 0.5).unwrap();
    let block_shape = world
        .create_polygon_shape(block, &ShapeDef::default(), &unit)
        .unwrap();
    let sleeper = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(8.0, 0.5)))
        .unwrap();
    let sleeper_shape = world
        .create_polygon_shape(sleeper, &ShapeDef::default(), &unit)
        .unwrap();
    let (_, ball_shape) = ball(&mut world, Vec2::new(12.0, 0.5), 0.5);

    // The sensor rides 5 cm above the ground, so the ground is never a visitor.
    let carrier = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(2.0, 0.0),
            ..BodyDef::kinematic_at(Vec2::new(0.0, 0.55))
        })
        .unwrap();
    // Category 2 so that the rider below, which meets only category 2, passes its filter.
    let layer = Filter {
        category_bits: 2,
        ..Filter::default()
    };
    let detector = world
        .create_polygon_shape(
            carrier,
            &ShapeDef {
                filter: layer,
                ..sensor()
            },
            &unit,
        )
        .unwrap();
    let rider = ShapeDef {
        filter: Filter {
            category_bits: 2,
            mask_bits: 2,
            group_index: 0,
        },
        ..ShapeDef::default()
    };
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.1,
    };
    world.create_circle_shape(carrier, &rider, &circle).unwrap();

    let mut log = Log::default();
    log.run(&mut world, 60);
    assert!(
        !world.is_awake(sleeper).unwrap(),
        "the box sleeps before the sensor comes"
    );
    let mut sleeper_awake_when_seen = None;
    while log.steps < 420 {
        log.run(&mut world, 1);
        if log.begin.iter().any(|e| e.2 == sleeper_shape) && sleeper_awake_when_seen.is_none() {
            sleeper_awake_when_seen = Some(world.is_awake(sleeper).unwrap());
        }
    }
    assert_eq!(sleeper_awake_when_seen, Some(false));

    // The sensor spans x ∈ [2t − 0.5, 2t + 0.5]; each target spans [c − r, c + r].
    for (shape, center, half) in [
        (block_shape, 4.0, 0.5),
        (sleeper_shape, 8.0, 0.5),
        (ball_shape, 12.0, 0.5),
    ] {
        let enter = step_moving(center - half - 0.5, 2.0);
        let leave = step_moving(center + half + 0.5, 2.0);
        assert_near_step(log.began((detector, shape)), enter);
        assert_near_step(log.ended((detector, shape)), leave);
    }
    assert_eq!((log.begin.len(), log.end.len()), (3, 3));
    let order: Vec<ShapeId> = log.begin.iter().map(|e| e.2).collect();
    assert_eq!(order, [block_shape, sleeper_shape, ball_shape]);
}

/// A dynamic body with a foot sensor 10 cm below its box: the sensor sees the ground when its
/// bottom reaches y = 0 while falling, keeps seeing it while the body stands (the sensor
/// sinks into the ground, which no contact prevents), loses it when the body jumps and sees it
/// again on landing. The sensor touches nothing: the body's only contact is its box's.
#[test]
fn dynamic_foot_sensor_sees_the_ground_it_stands_on() {
    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 20.0);
    let ground_shape = world.body_shapes(world.body_ids()[0]).unwrap()[0];
    let walker = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 3.0)))
        .unwrap();
    let torso = world
        .create_polygon_shape(walker, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let foot_box = make_offset_box(0.4, 0.1, Vec2::new(0.0, -0.5), prism::Rot::IDENTITY).unwrap();
    let foot = world
        .create_polygon_shape(walker, &sensor(), &foot_box)
        .unwrap();

    let mut log = Log::default();
    log.run(&mut world, 90);
    // The foot's bottom (origin − 0.6) reaches y = 0 after a fall of 2.4 m.
    assert_near_step(log.began((foot, ground_shape)), step_falling(2.4));
    assert!(log.end.is_empty());
    assert_eq!(world.sensor_overlaps(foot).unwrap(), [ground_shape]);
    let y = world.position(walker).unwrap().y;
    assert!(
        (y - 0.5).abs() < 0.01,
        "the box stands on the ground: y = {y}"
    );
    let contacts = world.body_contact_data(walker).unwrap();
    assert_eq!(contacts.len(), 1);
    assert!([contacts[0].shape_a, contacts[0].shape_b].contains(&torso));

    // Jump at v = 5 m/s: the foot, 10 cm into the ground, is clear of it while the body is
    // more than 0.1 m up, from t = (v − √(v² − 2·g·0.1))/g to t = (v + √(v² − 2·g·0.1))/g.
    let v = 5.0f64;
    world
        .set_linear_velocity(walker, Vec2::new(0.0, v as f32))
        .unwrap();
    let jump = log.steps;
    log.run(&mut world, 90);
    let root = (v * v - 2.0 * f64::from(GRAVITY) * 0.1).sqrt();
    let clear_at = |t: f64| (t / f64::from(DT)).ceil() as usize;
    let left = log.ended((foot, ground_shape)) - jump;
    assert_near_step(left, clear_at((v - root) / f64::from(GRAVITY)));
    assert_eq!(log.begin.len(), 2);
    let landed = log.begin[1].0 - jump;
    assert_near_step(landed, clear_at((v + root) / f64::from(GRAVITY)));
}

/// Sensors never report sensors, and sensor shapes make no contacts: a sensor-only body falls
/// through a sensor zone and into the ground exactly as in free fall, reporting the ground
/// (not the zone) when it reaches it. A shape with `enable_sensor_events` off is never
/// reported, and a sensor with it off reports nothing.
#[test]
fn sensors_ignore_sensors_and_shapes_that_opt_out() {
    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 20.0);
    let zone_body = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 2.5)))
        .unwrap();
    let band = make_box(10.0, 0.5).unwrap();
    let zone = world
        .create_polygon_shape(zone_body, &sensor(), &band)
        .unwrap();
    let deaf = ShapeDef {
        enable_sensor_events: false,
        ..sensor()
    };
    let deaf_zone = world.create_polygon_shape(zone_body, &deaf, &band).unwrap();

    let ghost = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(-4.0, 5.0)))
        .unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.25,
    };
    let ghost_shape = world
        .create_circle_shape(ghost, &sensor(), &circle)
        .unwrap();
    let hidden = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(4.0, 5.0)))
        .unwrap();
    let quiet = ShapeDef {
        enable_sensor_events: false,
        ..ShapeDef::default()
    };
    world.create_circle_shape(hidden, &quiet, &circle).unwrap();
    let (_, seen) = ball(&mut world, Vec2::new(0.0, 5.0), 0.25);

    let mut log = Log::default();
    log.run(&mut world, 60);
    let ground_shape = world.body_shapes(world.body_ids()[0]).unwrap()[0];
    let pairs: Vec<(ShapeId, ShapeId)> = log.begin.iter().map(|e| (e.1, e.2)).collect();
    assert_eq!(pairs, [(zone, seen), (ghost_shape, ground_shape)]);
    assert_near_step(log.began((ghost_shape, ground_shape)), step_falling(4.75));
    let ends: Vec<(ShapeId, ShapeId)> = log.end.iter().map(|e| (e.1, e.2)).collect();
    assert_eq!(ends, [(zone, seen)]);
    assert!(world.sensor_overlaps(deaf_zone).unwrap().is_empty());
    // The ghost fell 60 steps freely: through the zone and the ground, touching nothing.
    let y = f64::from(world.position(ghost).unwrap().y);
    assert!((y - (5.0 - fallen(60))).abs() < 1e-3, "ghost at y = {y}");
    assert!(world.body_contact_data(ghost).unwrap().is_empty());
    assert!(world.is_shape_sensor(zone).unwrap() && !world.is_shape_sensor(seen).unwrap());
}

/// Destroying a visitor's body or a visitor shape ends its overlap in the next step's events;
/// destroying the sensor ends all of its overlaps, once, with the next step's events.
#[test]
fn destroyed_visitors_and_sensors_end_their_overlaps() {
    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 20.0);
    // The zone spans 0.05 ≤ y ≤ 2.05: it holds the resting balls, not the ground.
    let zone_body = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 1.05)))
        .unwrap();
    let zone = world
        .create_polygon_shape(zone_body, &sensor(), &make_box(5.0, 1.0).unwrap())
        .unwrap();
    let balls: Vec<(BodyId, ShapeId)> = [-2.0, 0.0, 2.0]
        .into_iter()
        .map(|x| ball(&mut world, Vec2::new(x, 0.25), 0.25))
        .collect();

    let mut log = Log::default();
    log.run(&mut world, 1);
    let all: Vec<(ShapeId, ShapeId)> = balls.iter().map(|&(_, s)| (zone, s)).collect();
    assert_eq!(Log::at(&log.begin, 1), all);

    world.destroy_body(balls[0].0).unwrap();
    log.run(&mut world, 2);
    assert_eq!(Log::at(&log.end, 2), [(zone, balls[0].1)]);
    assert!(Log::at(&log.end, 3).is_empty());
    assert!(!world.is_shape_valid(balls[0].1));

    world.destroy_shape(balls[1].1).unwrap();
    log.run(&mut world, 2);
    assert_eq!(Log::at(&log.end, 4), [(zone, balls[1].1)]);
    assert_eq!(world.sensor_overlaps(zone).unwrap(), [balls[2].1]);

    world.destroy_shape(zone).unwrap();
    log.run(&mut world, 2);
    assert_eq!(Log::at(&log.end, 6), [(zone, balls[2].1)]);
    assert!(Log::at(&log.end, 7).is_empty());
    assert_eq!(log.begin.len(), 3);
    assert_eq!(log.end.len(), 3);
}
